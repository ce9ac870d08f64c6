"""What the OpenSpiel and PettingZoo adapters share: fixed action ids for notations,
fixed-size tensors from a seat's view, and returns from the game's result.

Nothing here imports an optional package: tensors are `array('f')`, float32 buffers
that numpy (`np.frombuffer`) and OpenSpiel read without copying.

Action ids
----------
Learning frameworks want a fixed number of actions per game and the same id for the
same move in every position and every process. A ruleset's moves are its options'
notations, written by `notation` templates (`"{piece_code(piece)}-{place_name(square)}"`),
so the action space is derived from those templates, not from play:

- each template is split into its literal text and its `{...}` parts, and each part is
  given the finite list of texts it can write, read from the template's expression and
  the compiled game: `piece_code(x)` writes one of the game's piece codes,
  `place_name(x)` one of its place names, `seat_name`, `piece_name` and `dir_name`
  likewise, a constant writes itself, `a if c else b` either side, and a bare name
  bound by the option's `for` writes the values of its list when that list can be read
  from the ruleset alone (a list written out, `range` of constants, `seats`,
  `directions`, a definition without parameters whose value is such a list, or a
  comprehension over one);
- a part whose texts cannot be listed so (a number computed from the position) is
  *computed*: it is matched as any text and takes no part in the id, so it must be
  determined by the rest of the notation (two legal options whose notations differ
  only there are refused with an error, never silently merged);
- a template is a *block* of ids: the product of its parts' lists, in mixed radix,
  after the blocks before it. Templates that write the same texts share a block.
  Blocks with no computed part come first, then in the order the ruleset declares
  its decisions.

An id is computed from the notation text alone (it is parsed against the blocks in
order, the first that reads it wins), so the same notation has the same id in every
position, in every decision and in every process, and an id written by one process is
read by another. The id of a notation is `ActionEncoder.encode`, the text of an id
`ActionEncoder.decode` (a computed part reads `…`). Options of one position with the
same notation are one action (the first of them, as typing the notation would pick).
The number of actions is the sum of the blocks' sizes and may be large for a big
board (every place name times every piece code); it is bounded by `MAX_ACTIONS`.

Observations
------------
Built only from `interpreter.run.view.view(game, state, seat)` (and the game's fixed
tables: its zones, places, attributes, which everyone knows). The tensor has a fixed
size per game (seats are counted up to the game's most, whatever the seat count), in
four parts:

- header: which seat observes, who is current, who decides now, the winners (known
  at the end), the seats knocked out (`eliminate`), whether the game is over, the turn;
- variables: for every variable (per seat: every seat's value) whether the seat sees
  it, and its value as numbers (see `ObservationEncoder.value_features`);
- pieces: one slot per piece of the game, filled in the order of the places and, in a
  place, from the bottom up, with each piece the view shows: where (zone, owner, row
  and column or position), how high, whether on top, and what it is (each attribute
  one-hot, its own variables as numbers), or only that it is hidden and its back. A
  view never says which piece is which, so neither do the slots;
- history (information state only): the last `HISTORY` decisions of the redacted log,
  each by seat, whether it is hidden from this seat, and its action id.

The strings are the view as compact JSON: the observation without the log, the
information state with the log as the seat may read it (`redacted_log`).

Returns
-------
From the game's result: winners rank above everyone else, the others by the game's
ranking (`rank`, else `scores`); a seat's return is (seats it beats − seats that beat
it) / (seats − 1), so it lies in [-1, 1], a two-seat game gives +1 / −1 (0 for a
draw) and every game sums to 0. A game that ends with no winner gives 0 to all. With
one seat, +1 for a win and −1 otherwise.
"""

from __future__ import annotations

import ast
import json
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from interpreter.compile.expressions import ExpressionError, parse, split_template
from interpreter.compile.program import collect_effects
from interpreter.errors import RuleError, TabletopError
from interpreter.play.game import Game, show_value
from interpreter.primitives.decisions import Choose
from interpreter.run.state import State
from interpreter.run.tables import (
    ALL_DIRECTIONS,
    DIAGONAL,
    DIRECTION_NAMES,
    HEX_ORDER,
    ORTHOGONAL,
)
from interpreter.run.view import view

MAX_ACTIONS = 2**31 - 1
"""The most action ids a game may have (OpenSpiel counts actions in a C++ int)."""

HISTORY = 32
"""Decisions of the log an information-state tensor keeps (the latest ones)."""

COMPUTED = "…"
"""How `decode` writes a computed part of a notation (one that takes no part in ids)."""

_CACHE_LIMIT = 200_000
"""Notations whose ids are remembered per game (then the memory starts again)."""

_PRODUCT_LIMIT = 10_000
"""The most texts a `+` of two listed parts may be listed with (else computed)."""


class EncodingError(TabletopError):
    """A notation or an action id that the game's action space cannot represent."""


# -- action ids ---------------------------------------------------------------------------
@dataclass
class _Part:
    """One `{...}` part of a template: the texts it may write (None: computed)."""

    words: tuple[str, ...] | None
    index: dict[str, int] = field(default_factory=dict)
    lengths: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.words is not None:
            self.index = {w: i for i, w in enumerate(self.words)}
            self.lengths = tuple(sorted({len(w) for w in self.words}, reverse=True))

    @property
    def radix(self) -> int:
        return 1 if self.words is None else len(self.words)


@dataclass
class _Block:
    """The ids of one notation shape: literals around parts, in mixed radix."""

    literals: tuple[str, ...]
    parts: tuple[_Part, ...]
    options: list[str]
    """The option kinds that write it (to explain the layout)."""
    offset: int = 0
    weights: tuple[int, ...] = ()
    size: int = 1

    def settle(self, offset: int) -> None:
        self.offset = offset
        weights, w = [], 1
        for part in reversed(self.parts):
            weights.append(w)
            w *= part.radix
        self.weights = tuple(reversed(weights))
        self.size = w

    @property
    def computed(self) -> int:
        return sum(p.words is None for p in self.parts)

    def read(self, text: str) -> int | None:
        """The id of `text` if this block writes it (None if not)."""
        head = self.literals[0]
        if not text.startswith(head):
            return None
        found = self._rest(text, len(head), 0)
        return None if found is None else self.offset + found

    def _rest(self, text: str, pos: int, i: int) -> int | None:
        if i == len(self.parts):
            return 0 if pos == len(text) else None
        part, after = self.parts[i], self.literals[i + 1]
        if part.words is None:
            end = pos
            while end <= len(text):
                end = text.find(after, end)
                if end < 0:
                    return None
                rest = self._rest(text, end + len(after), i + 1)
                if rest is not None:
                    return rest
                end += 1
            return None
        for length in part.lengths:
            k = part.index.get(text[pos:pos + length])
            if k is not None and text.startswith(after, pos + length):
                rest = self._rest(text, pos + length + len(after), i + 1)
                if rest is not None:
                    return k * self.weights[i] + rest
        return None

    def write(self, local: int) -> str:
        out = [self.literals[0]]
        for part, weight, literal in zip(self.parts, self.weights, self.literals[1:],
                                         strict=True):
            if part.words is None:
                out.append(COMPUTED)
            else:
                out.append(part.words[(local // weight) % part.radix])
            out.append(literal)
        return "".join(out)


class ActionEncoder:
    """The game's action ids: a fixed, documented numbering of its notations (see the
    module's docstring). Made once per game; cheap to query."""

    def __init__(self, game: Game) -> None:
        self.game = game
        blocks: dict[tuple, _Block] = {}
        for option in _notation_templates(game):
            literals, parts = _shape(game, option)
            key = (literals, tuple(p.words for p in parts))
            block = blocks.get(key)
            if block is None:
                blocks[key] = _Block(literals, parts, [option.id])
            elif option.id not in block.options:
                block.options.append(option.id)
        ordered = sorted(blocks.values(), key=lambda b: b.computed > 0)
        offset = 0
        for block in ordered:
            block.settle(offset)
            offset += block.size
        if offset > MAX_ACTIONS:
            raise EncodingError(f"{game.title} has {offset:,} action ids, more than "
                                f"{MAX_ACTIONS:,}: its notations combine too many names")
        self.blocks = ordered
        self.num_actions = max(offset, 1)
        self._ids: dict[str, int] = {}

    def encode(self, notation: str) -> int:
        """The id of a notation (the same in every position and process)."""
        found = self._ids.get(notation)
        if found is not None:
            return found
        for block in self.blocks:
            found = block.read(notation)
            if found is not None:
                if len(self._ids) >= _CACHE_LIMIT:
                    self._ids.clear()
                self._ids[notation] = found
                return found
        raise EncodingError(f"'{notation}' is not a notation {self.game.title}'s action "
                            "space can write (its templates do not produce it)")

    def decode(self, action: int) -> str:
        """The notation an id stands for; a computed part reads `…`."""
        for block in self.blocks:
            if block.offset <= action < block.offset + block.size:
                return block.write(action - block.offset)
        raise EncodingError(f"{action} is not an action of {self.game.title} "
                            f"(0 to {self.num_actions - 1})")

    def legal(self, state: State, seat: int) -> dict[int, Legal]:
        """`seat`'s legal options by id, in id order; options sharing a notation are
        one action (the first). Two notations sharing an id are refused."""
        return legal_by_id(self.game, state, seat, self.encode)


def legal_by_id(game: Game, state: State, seat: int,
                encode: Callable[[str], int]) -> dict[int, Legal]:
    """`seat`'s legal options by the id `encode` gives each notation, in id order;
    options sharing a notation are one action (the first), and two notations sharing an
    id are refused (an action space that cannot tell them apart)."""
    by_id: dict[int, Legal] = {}
    for option in legal_notations(game, state, seat):
        action = encode(option.notation)
        known = by_id.get(action)
        if known is None:
            by_id[action] = option
        elif known.notation != option.notation:
            raise EncodingError(
                f"'{known.notation}' and '{option.notation}' are both legal and differ "
                "only in a part of the notation computed from the position: "
                f"{game.title}'s action space cannot tell them apart")
    return dict(sorted(by_id.items()))


@dataclass(frozen=True, slots=True)
class Legal:
    """A legal option as an action: its notation, and the engine's form to carry out."""

    notation: str
    raw: tuple[int, tuple]


def legal_notations(game: Game, state: State, seat: int) -> list[Legal]:
    """`seat`'s legal options with their notations only (`Game.legal_options` writes
    labels too, which actions never need: half the work)."""
    raws = game.raw_options(state, seat)
    if not raws:
        return []
    spec = game.choices[state.frames[-1][0]]
    env = game.env(state)
    try:
        return [Legal(spec.render(env, seat, raw, False), raw) for raw in raws]
    except RuleError as exc:
        raise exc.during(state.decisions, game.variant) from None


def _notation_templates(game: Game) -> Iterable[Any]:
    """Every option kind of the ruleset's decisions (its declaration), in program order
    (the compiled decisions, matched to the ruleset's text by location)."""
    model = game.ruleset
    blocks = [model.setup, model.turn, *(p.do for p in model.procedures),
              *(t.do for t in model.triggers)]
    chooses = {e.loc: e for e in collect_effects(blocks) if isinstance(e, Choose)}
    for pc in sorted(game.choices):
        spec = game.choices[pc]
        choose = chooses.get(spec.loc)
        if choose is None:
            raise EncodingError(f"cannot find the ruleset's text of the decision at {spec.loc}")
        declared = {o.id: o for o in choose.options}
        for kind in spec.kinds:
            yield declared[kind.id]


def _shape(game: Game, option: Any) -> tuple[tuple[str, ...], tuple[_Part, ...]]:
    """A template's literals and parts (adjacent literals joined, constant parts folded
    into them)."""
    scope = _Scope(game, option)
    literals: list[str] = [""]
    parts: list[_Part] = []
    for is_expr, text, _ in split_template(option.notation.text):
        if not is_expr:
            literals[-1] += text
            continue
        try:
            tree = parse(text)
        except ExpressionError:
            words = None
        else:
            words = scope.texts(tree)
        if words is not None and len(words) == 1:
            literals[-1] += words[0]
            continue
        parts.append(_Part(words))
        literals.append("")
    return tuple(literals), tuple(parts)


_UNKNOWN = object()
_BUILTIN_LISTS = {"directions": ALL_DIRECTIONS, "orthogonal": ORTHOGONAL, "diagonal": DIAGONAL,
                  "hex_directions": HEX_ORDER}
_SAME_ELEMENTS = {"sorted", "reversed", "distinct", "shuffled", "without", "one_of_each_kind"}


class _Scope:
    """Reads from the ruleset alone what a template part may write (see the module's
    docstring); anything it cannot read is computed."""

    def __init__(self, game: Game, option: Any) -> None:
        self.game = game
        self.fors: dict[str, ast.expr | None] = {n: _parsed(e.text)
                                                 for n, e in option.for_.items()}
        self.lets: dict[str, ast.expr | None] = {n: _parsed(e.text)
                                                 for n, e in option.let.items()}
        self.defines: dict[str, ast.expr | None] = {}
        for key, value in game.ruleset.define.items():
            if "(" not in key:
                # a definition written with its words (`value:`, `says:`, `text:`) keeps
                # its expression under `value`; its `text` is players' words
                written = getattr(value, "value", value)
                text = written.text
                self.defines[key] = _parsed(text)
        self.attribute_values = {v for decl in game.ruleset.pieces.attributes.values()
                                 for v in decl.values if isinstance(v, str)}
        self.depth = 0

    def texts(self, node: ast.expr) -> tuple[str, ...] | None:
        """Every text `node` may write inside a template (None: not listable)."""
        self.depth += 1
        try:
            if self.depth > 20:
                return None
            return self._texts(node)
        finally:
            self.depth -= 1

    def _texts(self, node: ast.expr) -> tuple[str, ...] | None:
        game = self.game
        constant = self.constant(node)
        if constant is not _UNKNOWN:
            return (show_value(game, constant),)
        if isinstance(node, ast.IfExp):
            a, b = self.texts(node.body), self.texts(node.orelse)
            return None if a is None or b is None else _unique([*a, *b])
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.texts(node.left), self.texts(node.right)
            if a is None or b is None or len(a) * len(b) > _PRODUCT_LIMIT:
                return None
            return _unique([x + y for x in a for y in b])
        if isinstance(node, ast.Name):
            values = self.values_of_name(node.id)
            if values is None:
                return None
            return _unique([show_value(game, v) for v in values])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            name = node.func.id
            if name == "piece_code":
                return _unique([*game.piece_codes, "-"])
            if name == "piece_name":
                return _unique([*game.piece_names, "nothing"])
            if name == "place_name":
                return _unique([*game.site_name, "nowhere"])
            if name == "seat_name":
                return _unique([*(game.seat_name(s) for s in range(1, game.max_seats + 1)),
                                "nobody"])
            if name == "dir_name":
                return _unique([DIRECTION_NAMES.get(d, d) for d in ALL_DIRECTIONS])
            if name == "str" and len(node.args) == 1:
                return self.texts(node.args[0])
        return None

    def constant(self, node: ast.expr) -> Any:
        """The value of a constant expression, or _UNKNOWN."""
        if isinstance(node, ast.Constant):
            return node.value
        if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
                and isinstance(node.operand, ast.Constant)
                and isinstance(node.operand.value, int | float)):
            return -node.operand.value
        if isinstance(node, ast.Name):
            name = node.id
            if name in self.fors or name in self.lets:
                return _UNKNOWN
            if name in ("true", "false", "null"):
                return {"true": True, "false": False, "null": None}[name]
            if name in self.defines:
                body = self.defines[name]
                return _UNKNOWN if body is None else self.constant(body)
            if name in self.game.options:
                return self.game.options[name]
            if name in self.attribute_values:
                return name
        return _UNKNOWN

    def values_of_name(self, name: str) -> list[Any] | None:
        """The values a bare name may hold: a `for` name's list, else a constant."""
        if name in self.fors:
            source = self.fors[name]
            return None if source is None else self.elements(source)
        if name in self.lets:
            return None
        if name in self.defines:
            body = self.defines[name]
            return None if body is None else self.values(body)
        constant = self.constant(ast.Name(id=name))
        return None if constant is _UNKNOWN else [constant]

    def values(self, node: ast.expr) -> list[Any] | None:
        """The values an expression may have, when listable."""
        constant = self.constant(node)
        if constant is not _UNKNOWN:
            return [constant]
        if isinstance(node, ast.IfExp):
            a, b = self.values(node.body), self.values(node.orelse)
            return None if a is None or b is None else _unique_values([*a, *b])
        return None

    def elements(self, node: ast.expr) -> list[Any] | None:
        """The values a list expression's elements may have, when listable."""
        self.depth += 1
        try:
            if self.depth > 20:
                return None
            return self._elements(node)
        finally:
            self.depth -= 1

    def _elements(self, node: ast.expr) -> list[Any] | None:
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            out = []
            for elt in node.elts:
                values = self.values(elt)
                if values is None:
                    return None
                out += values
            return _unique_values(out)
        if isinstance(node, ast.Name):
            name = node.id
            if name in self.fors or name in self.lets:
                return None
            if name == "seats":
                return list(range(1, self.game.max_seats + 1))
            if name in _BUILTIN_LISTS:
                return list(_BUILTIN_LISTS[name])
            if name in self.defines:
                body = self.defines[name]
                return None if body is None else self.elements(body)
            return None
        if isinstance(node, ast.ListComp) and len(node.generators) == 1:
            gen = node.generators[0]
            if (isinstance(gen.target, ast.Name) and isinstance(node.elt, ast.Name)
                    and node.elt.id == gen.target.id):
                return self.elements(gen.iter)  # filters only drop elements
            return None
        if isinstance(node, ast.IfExp):
            a, b = self.elements(node.body), self.elements(node.orelse)
            return None if a is None or b is None else _unique_values([*a, *b])
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.elements(node.left), self.elements(node.right)
            return None if a is None or b is None else _unique_values([*a, *b])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            name = node.func.id
            if name in _SAME_ELEMENTS:
                return self.elements(node.args[0])
            if name == "range" and len(node.args) <= 3:
                bounds = [self.constant(a) for a in node.args]
                if all(type(b) is int for b in bounds) and len(range(*bounds)) <= 10_000:
                    return list(range(*bounds))
        return None


def _parsed(text: str) -> ast.expr | None:
    try:
        return parse(str(text))
    except ExpressionError:
        return None


def _unique(words: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(words))


def _unique_values(values: list[Any]) -> list[Any]:
    out, seen = [], set()
    for v in values:
        key = (type(v).__name__, repr(v))
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


# -- observations -------------------------------------------------------------------------
VALUE_WIDTH = 4
"""Numbers per value (see `ObservationEncoder.value_features`)."""


class ObservationEncoder:
    """Fixed-size tensors and strings from one seat's view (see the module's docstring).

    The layout depends only on the game (its most seats, pieces, zones, attributes and
    variables), so every seat and seat count of a game share it; `low` and `high` bound
    each number, `names` gives each stretch of the tensor a name and a length. Tensors
    are `array('f')` (float32, the buffer numpy and OpenSpiel read without copying)."""

    def __init__(self, game: Game, actions: ActionEncoder) -> None:
        self.game = game
        self.actions = actions
        self.seats = n = game.max_seats
        decl = game.ruleset.pieces.attributes
        # an attribute of `data: true` (a card's list of steps, say) has no fixed values
        # to encode one-hot; its pieces are told apart by their other attributes
        self.attributes: list[tuple[str, dict[Any, int]]] = [
            (a, {v: i for i, v in enumerate(decl[a].values)}) for a in game.attribute_order
            if not decl[a].data]
        self.piece_vars = [v.id for v in game.variables.values() if v.per_piece]
        self.backs = sorted({b for b in game.piece_backs if b is not None})
        self.zones = list(game.zones.values())
        self.zone_index = {z.id: i for i, z in enumerate(self.zones)}
        texts: list[str] = []
        for _, values in self.attributes:
            texts += [str(v) for v in values]
        texts += ALL_DIRECTIONS
        for option in game.ruleset.options:
            texts += [str(c) for c in option.choices or ()]
        self.texts = {t: i + 1 for i, t in enumerate(dict.fromkeys(texts))}
        """Text values as numbers (1 up; an unknown text is one more than the last)."""
        budgets = game.budgets
        self.number_bound = float(budgets.largest_number)
        value_low = [0.0, -self.number_bound, 0.0, 0.0]
        value_high = [1.0, self.number_bound, float(len(self.texts) + 1),
                      float(budgets.list_length)]
        self.low: list[float] = []
        self.high: list[float] = []
        self.names: list[tuple[str, int]] = []
        self._add("seat", [0.0] * n, [1.0] * n)
        self._add("current", [0.0] * n, [1.0] * n)
        self._add("deciding", [0.0] * n, [1.0] * n)
        self._add("winners", [0.0] * n, [1.0] * n)
        self._add("eliminated", [0.0] * n, [1.0] * n)
        self._add("over", [0.0], [1.0])
        self._add("turn", [0.0], [float(budgets.turns_per_game + 1)])
        var_low: list[float] = []
        var_high: list[float] = []
        for var in game.variables.values():
            if not var.per_piece:
                for _ in range(n if var.per_seat else 1):
                    var_low += [0.0, *value_low]
                    var_high += [1.0, *value_high]
        self._add("variables", var_low, var_high)
        self.piece_width = 2 + len(self.backs) + 1 + sum(len(v) for _, v in self.attributes)
        self.site_width = len(self.zones) + n + 1 + 4
        token_low = [0.0] * (self.site_width + self.piece_width)
        token_high = [1.0] * len(token_low)
        for _ in self.piece_vars:
            token_low += value_low
            token_high += value_high
        self.token_width = len(token_low)
        self._add("pieces", token_low * game.n_pieces, token_high * game.n_pieces)
        self.observation_size = len(self.low)
        entry = [1.0] * (n + 2) + [float(max(actions.num_actions - 1, 0))]
        self._add("history", [0.0] * (1 + HISTORY * (n + 3)),
                  [float(budgets.decisions_per_game)] + entry * HISTORY)
        self.information_size = len(self.low)
        self._sites: dict[tuple[int, int, int], array] = {}
        self._pieces: dict[tuple, array] = {}

    def _add(self, name: str, low: list[float], high: list[float]) -> None:
        self.names.append((name, len(low)))
        self.low += low
        self.high += high

    # -- tensors ---------------------------------------------------------------------------
    def observation(self, seen: dict[str, Any] | None) -> array:
        """The observation tensor of a view (None, before the deal: zeros)."""
        if seen is None:
            return array("f", bytes(4 * self.observation_size))
        n = self.seats
        head = [0.0] * (5 * n + 2)
        for at, values in ((0, [seen["seat"]]), (n, [seen["current"]]),
                           (2 * n, seen["deciding"]), (3 * n, seen["winners"] or ()),
                           (4 * n, seen.get("eliminated", ()))):
            for s in values:
                if type(s) is int and 1 <= s <= n:
                    head[at + s - 1] = 1.0
        head[5 * n] = 1.0 if seen["over"] else 0.0
        head[5 * n + 1] = float(seen["turn"])
        shown = seen["variables"]
        for var in self.game.variables.values():
            if var.per_piece:
                continue
            if var.per_seat:
                values = shown.get(var.id, {})
                for s in range(1, n + 1):
                    head += self._variable(values, str(s))
            else:
                head += self._variable(shown, var.id)
        out = array("f", head)
        slots = self.game.n_pieces
        for site, place in self._places(seen):
            for token in self._tokens(site, place):
                if not slots:
                    break
                out.extend(token)
                slots -= 1
        out.frombytes(bytes(4 * self.token_width * slots))
        return out

    def information(self, seen: dict[str, Any] | None,
                    observation: array | None = None) -> array:
        """The information-state tensor: the observation (`observation`, if already
        made from this view), then the latest decisions of the log as the seat may
        read it."""
        out = array("f", self.observation(seen) if observation is None else observation)
        history = [0.0] * (self.information_size - self.observation_size)
        if seen is not None:
            decisions = [e for e in seen["log"] if "decision" in e]
            history[0] = float(len(decisions))
            width = self.seats + 3
            for i, e in enumerate(decisions[-HISTORY:]):
                at = 1 + i * width
                history[at] = 1.0
                who = e["seat"]
                if type(who) is int and 1 <= who <= self.seats:
                    history[at + who] = 1.0
                if e["decision"] is None:
                    history[at + self.seats + 1] = 1.0
                else:
                    history[at + self.seats + 2] = float(self.actions.encode(e["decision"]))
        out.extend(history)
        return out

    def _variable(self, shown: dict[str, Any], key: str) -> list[float]:
        if key not in shown:
            return [0.0] * (1 + VALUE_WIDTH)
        return [1.0, *self.value_features(shown[key])]

    def value_features(self, value: Any) -> list[float]:
        """A value as VALUE_WIDTH numbers: set (not null), as a number (true is 1), as a
        text (its number in the game's table of texts), as a list (its length)."""
        if value is None:
            return [0.0, 0.0, 0.0, 0.0]
        if isinstance(value, bool | int | float):
            bound = self.number_bound
            return [1.0, max(-bound, min(bound, float(value))), 0.0, 0.0]
        if isinstance(value, str):
            return [1.0, 0.0, float(self.texts.get(value, len(self.texts) + 1)), 0.0]
        if isinstance(value, list | tuple | dict):
            return [1.0, 0.0, 0.0, float(len(value))]
        return [1.0, 0.0, 0.0, 0.0]

    def _places(self, seen: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
        """Every place the view shows, with its site, in site order."""
        by_name = self.game.site_by_name
        found: list[tuple[int, dict[str, Any]]] = []
        for zone in self.zones:
            shown = seen["zones"].get(zone.id)
            if shown is None:
                continue
            if zone.per_seat:
                for owner, entry in shown.items():
                    if zone.per_owner == 1:
                        found.append((zone.site_for(int(owner)), entry))
                    else:
                        found += [(by_name[k], v) for k, v in entry["places"].items()]
            elif "places" in shown:
                found += [(by_name[k], v) for k, v in shown["places"].items()]
            else:
                found.append((zone.first, shown))
        found.sort(key=lambda x: x[0])
        return found

    def _tokens(self, site: int, place: dict[str, Any]) -> Iterable[array]:
        """One token per piece the view shows in a place, bottom up: where it lies, then
        what it is."""
        pieces = place.get("pieces")
        if pieces is None:  # only a count (and the backs) is shown
            backs = place.get("backs") or {}
            pieces = [{"hidden": True, "back": b} for b, k in backs.items() for _ in range(k)]
            pieces += [{"hidden": True}] * (place.get("count", 0) - len(pieces))
            shown = place.get("shown")
            if shown:  # pieces shown to this seat (`show`): first, where they lie unknown
                pieces = [*shown, *pieces[len(shown):]]
        height = len(pieces)
        for i, piece in enumerate(pieces):
            key = (site, i, height)
            where = self._sites.get(key)
            if where is None:
                where = self._sites[key] = self._site_features(site, i, height)
            try:
                what_key: tuple = tuple(piece.items())
                what = self._pieces.get(what_key)
            except TypeError:  # a variable holding a list: not cached
                what_key, what = (), None
            if what is None:
                what = self._piece_features(piece)
                if what_key and len(self._pieces) < _CACHE_LIMIT:
                    self._pieces[what_key] = what
            yield where + what

    def _site_features(self, site: int, index: int, height: int) -> array:
        game = self.game
        zone = game.site_zone[site]
        n = self.seats
        out = [0.0] * self.site_width
        out[self.zone_index[zone.id]] = 1.0
        at = len(self.zones)
        owner = game.site_owner[site]
        out[at + (owner if owner is not None and 0 < owner <= n else 0)] = 1.0
        at += n + 1
        rc = game.site_rc[site]
        if rc is not None:
            out[at] = rc[0] / max(zone.rows - 1, 1)
            out[at + 1] = rc[1] / max(zone.cols - 1, 1)
        else:
            out[at] = ((site - zone.first) % zone.per_owner) / max(zone.per_owner - 1, 1)
        out[at + 2] = index / max(game.n_pieces - 1, 1)
        out[at + 3] = 1.0 if index == height - 1 else 0.0
        return array("f", out)

    def _piece_features(self, piece: dict[str, Any]) -> array:
        out = [0.0] * (self.token_width - self.site_width)
        out[0] = 1.0  # a piece lies here
        if piece.get("hidden"):
            out[1] = 1.0
            back = piece.get("back")
            out[2 + (self.backs.index(back) + 1 if back in self.backs else 0)] = 1.0
            return array("f", out)
        at = 2 + len(self.backs) + 1
        for attr, values in self.attributes:
            k = values.get(piece[attr], -1) if attr in piece else -1
            if k >= 0:
                out[at + k] = 1.0
            at += len(values)
        for var in self.piece_vars:
            if var in piece:
                out[at:at + VALUE_WIDTH] = self.value_features(piece[var])
            at += VALUE_WIDTH
        return array("f", out)


def observation_string(seen: dict[str, Any] | None) -> str:
    """The view as compact JSON, without the log. (A view lists everything in an order
    fixed by the game, so equal views give equal strings without sorting keys.)"""
    if seen is None:
        return "(not dealt yet)"
    return json.dumps({k: v for k, v in seen.items() if k != "log"}, ensure_ascii=False,
                      separators=(",", ":"))


def information_string(seen: dict[str, Any] | None) -> str:
    """The view as compact JSON, with the log as the seat may read it."""
    if seen is None:
        return "(not dealt yet)"
    return json.dumps(seen, ensure_ascii=False, separators=(",", ":"))


def seat_view(game: Game, state: State, seat: int) -> dict[str, Any]:
    """What `seat` may know of `state`: the only source of observations."""
    return view(game, state, seat)


# -- returns ------------------------------------------------------------------------------
def returns(game: Game, state: State) -> list[float]:
    """Each seat's return at the end (0 before): see the module's docstring."""
    n = state.players
    if not state.over:
        return [0.0] * n
    winners = set(state.winners or ())
    if n == 1:
        return [1.0 if 1 in winners else -1.0]
    if not winners:
        return [0.0] * n
    try:
        keys: dict[int, tuple] = game.rank_keys_of(game.env(state))
    except TabletopError:
        keys = {s: () for s in range(1, n + 1)}
    out = []
    for s in range(1, n + 1):
        total = 0
        for t in range(1, n + 1):
            if t != s:
                total += _compare(s in winners, keys[s], t in winners, keys[t])
        out.append(total / (n - 1))
    return out


def knocked_out_return(state: State, seat: int) -> float:
    """The return of a seat knocked out (`eliminate`) when it goes out, for adapters that
    let it leave then (PettingZoo): above each seat out before it, below every other."""
    n = state.players
    if n == 1:
        return -1.0
    before = state.out.index(seat)
    return (before - (n - 1 - before)) / (n - 1)


def _compare(won: bool, key: tuple, other_won: bool, other_key: tuple) -> int:
    """+1 if a seat ranks above another, -1 below, 0 level: winners first, then keys."""
    if won != other_won:
        return 1 if won else -1
    if won:
        return 0
    try:
        return (key > other_key) - (key < other_key)
    except TypeError:
        return 0
