"""The tables a compiled Game is made of, as the running game reads them: places,
pieces' variables, triggers, end rules, and each decision with its kinds of options
(listing, sampling, binding and writing out an option).

compile/ fills them in (with compiled functions); run/ reads them. Nothing here knows
how a ruleset is compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.errors import Location, RuleError
from interpreter.run.budget import describe as kind_of
from interpreter.run.budget import loop_items, overspent

Compiled = Callable[[Any], Any]
"""A compiled expression: call it with an evaluation environment (run.machine.Env)."""

DIRECTIONS: dict[str, tuple[int, int]] = {
    # (row change, column change); rows count upward like a chessboard's ranks.
    "n": (1, 0), "ne": (1, 1), "e": (0, 1), "se": (-1, 1),
    "s": (-1, 0), "sw": (-1, -1), "w": (0, -1), "nw": (1, -1),
}
DIRECTION_NAMES = {"n": "north", "ne": "north-east", "e": "east", "se": "south-east",
                   "s": "south", "sw": "south-west", "w": "west", "nw": "north-west"}
ORTHOGONAL = ["n", "e", "s", "w"]
DIAGONAL = ["ne", "se", "sw", "nw"]
ALL_DIRECTIONS = ["n", "ne", "e", "se", "s", "sw", "w", "nw"]
HEX_DIRECTIONS: dict[str, tuple[int, int]] = {
    # A hex board's rows are horizontal and count upward, each row half a hex to the
    # right of the one below (pointy-topped hexes): (row change, column change).
    "ne": (1, 0), "e": (0, 1), "se": (-1, 1), "sw": (-1, 0), "w": (0, -1), "nw": (1, -1),
}
HEX_ORDER = ["ne", "e", "se", "sw", "w", "nw"]
SIDES = {"grid": ["n", "e", "s", "w"], "rhombus": ["n", "e", "s", "w"],
         "hexagon": ["n", "ne", "se", "s", "sw", "nw"]}
"""The sides of each shape of board, for border(zone, side)."""


class Label:
    """A program position known later (forward jumps)."""

    __slots__ = ("pc",)

    def __init__(self) -> None:
        self.pc = -1


@dataclass
class ZoneInfo:
    """A zone laid out as places (sites): a grid's squares, a pile, or one pile per seat."""

    id: str
    label: str
    kind: str
    per_seat: bool
    first: int
    per_owner: int
    owners: int
    rows: int = 0
    cols: int = 0
    reach: int | None = None
    """An open grid's reach: its squares are named x,y with x, y from -reach to reach."""
    side: int | None = None
    """A hexagon-shaped hex board's side (its rows and cols are 2 × side − 1)."""
    cells: dict[tuple[int, int], int] = field(default_factory=dict)
    """A hex board's places by (row, column) from 0 (a hexagon's corners have none)."""
    contents: str = "everyone"
    count: str = "everyone"
    reveal_at_end: bool = True
    description: str | None = None
    on_table: bool = True
    triggers: list[int] = field(default_factory=list)
    conceal: Compiled | None = None
    conceal_loc: Location | None = None

    @property
    def shape(self) -> str:
        """grid, rhombus or hexagon: the board's outline (what its sides are)."""
        if self.kind == "hex":
            return "hexagon" if self.side is not None else "rhombus"
        return self.kind

    def holds(self, r: int, c: int) -> bool:
        """Whether (row, column) from 0 is a place of the board (of a hexagon: within
        side − 1 steps of the centre)."""
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            return False
        if self.side is None:
            return True
        k = self.side - 1
        return k <= r + c <= 3 * k

    def site_for(self, seat: int, index: int = 0) -> int:
        return self.first + (seat - 1) * self.per_owner + index

    def sites_in_play(self, players: int) -> list[int]:
        owners = min(players, self.owners) if self.per_seat else 1
        return list(range(self.first, self.first + owners * self.per_owner))

    def lookup(self, env: Any, seat: Any) -> int:
        """``zone[seat]``: a seat's own place of a per-seat pile (or its place list)."""
        if not self.per_seat:
            raise RuleError(f"zone '{self.id}' is not per seat; it cannot be indexed by seat")
        if type(seat) is not int or not 1 <= seat <= env.state.players:
            raise RuleError(f"{kind_of(seat)} is not a seat (zone '{self.id}')")
        if self.per_owner == 1:
            return self.site_for(seat)
        return list(range(self.site_for(seat), self.site_for(seat) + self.per_owner))  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"zone {self.id}"


@dataclass
class SeatVariable:
    """A per-seat variable used in an expression: ``beads[seat]``."""

    id: str

    def lookup(self, env: Any, seat: Any) -> Any:
        if type(seat) is not int or not 1 <= seat <= env.state.players:
            raise RuleError(f"{kind_of(seat)} is not a seat (variable '{self.id}')")
        return env.state.seat_vars[self.id][seat - 1]

    def __repr__(self) -> str:
        return f"variable {self.id}"


@dataclass
class PieceVariable:
    """A per-piece variable used in an expression: ``facing[card]``."""

    id: str

    def lookup(self, env: Any, piece: Any) -> Any:
        values = env.state.piece_vars[self.id]
        if type(piece) is not int or not 0 <= piece < len(values):
            raise RuleError(f"{kind_of(piece)} is not a piece (variable '{self.id}')")
        return values[piece]

    def __repr__(self) -> str:
        return f"variable {self.id}"


@dataclass
class TriggerInfo:
    id: str
    zone: str
    where: Compiled | None
    entry: Label
    text: str | None
    loc: Location | None = None


@dataclass
class EndRuleInfo:
    id: str
    when: Compiled
    winners: Compiled | None
    text: str
    loc: Location | None = None
    weight: int = 1


@dataclass
class Option:
    """A legal option as shown to people and agents: stable notation and readable label."""

    index: int
    notation: str
    label: str
    kind: str
    raw: tuple[int, tuple] = field(repr=False)


@dataclass
class Decision:
    """Who must decide now, and the question put to them."""

    seats: list[int]
    prompt: str
    simultaneous: bool


@dataclass
class VariableInfo:
    id: str
    per_seat: bool
    initial: Compiled
    visible_to: str
    reveal_at_end: bool
    loc: Location | None = None
    on_table: bool = True
    per_piece: bool = False
    holds: str | None = None
    """"pieces" or "places" when the value is made of them (a view names them as a seat
    sees them, never by the engine's numbers), "seats" for seat numbers (read as the
    seats' names); None for numbers, text and the like."""
    holds_loc: Location | None = None
    label: str = ""
    """What players call it (the ruleset's `label`, else its id in words)."""


@dataclass
class OptionKind:
    """A compiled option kind of a decision."""

    id: str
    names: list[str]
    sources: list[Compiled]
    lets: list[tuple[str, Compiled]]
    where: Compiled | None
    notation: Compiled
    label: Compiled
    entry: Label
    said: Compiled | None = None
    """What the log says once it is picked (the ruleset's `said`), None to tell its label."""
    loc: Location | None = None
    weight: int = 1
    """Steps each candidate costs to consider (its `let`s and `where`)."""
    source_weights: list[int] = field(default_factory=list)
    """Steps to compute each `for` source once (the later ones, once per candidate of
    the names before them)."""
    values: Callable[[Any], list[tuple]] | None = None
    """Its options (the tuples of `for` values, no duplicates); `env.temps['chooser']`
    set. Generated code (codegen.generate_listing), or `careful_values`."""
    exists: Callable[[Any], bool] | None = None
    """Whether it has any option, stopping at the first."""
    direct: bool = False
    """Its options are every combination of sources that never repeat a value and do
    not depend on each other, with no `where`: the n-th is found without listing."""
    group: Compiled | None = None
    """What an option reads as by its first `for` value alone (the parts of its notation
    that name only that value), for a search that chooses the value first and the rest
    after; None when the kind has nothing to group by."""

    def options(self, env: Any) -> list[tuple]:
        return self.values(env) if self.values is not None else careful_values(self, env)

    def has_option(self, env: Any) -> bool:
        return self.exists(env) if self.exists is not None else bool(careful_values(self, env))

    def sized(self, env: Any) -> tuple[int, Callable[[int], tuple]] | None:
        """For a direct kind: how many options, and the n-th (in listing order), charged
        as listing them would be; None when the sources are not plain lists."""
        if not self.direct:
            return None
        sources = [source(env) for source in self.sources]
        if not all(type(x) is list or type(x) is tuple or type(x) is range for x in sources):
            return None
        count, charge = 1, self.source_weights[0] if self.source_weights else self.weight
        n = len(sources)
        for i, values in enumerate(sources):
            count *= len(values)
            charge += count * (self.source_weights[i + 1] if i + 1 < n else self.weight)
        env.steps += charge
        if env.steps > env.step_limit:
            overspent(env)

        def nth(index: int) -> tuple:
            out = []
            for values in reversed(sources):
                index, i = divmod(index, len(values))
                out.append(values[i])
            return tuple(reversed(out))
        return count, nth


def careful_values(kind: OptionKind, env: Any) -> list[tuple]:
    """The options of one kind by its checked closures: the careful path of generated
    listings, and the listing itself when code generation is off."""
    temps = env.temps
    n = len(kind.names)
    per = kind.weight
    env.steps += kind.source_weights[0] if kind.source_weights else per
    out: list[tuple] = []
    if n == 0:
        for name, value in kind.lets:
            temps[name] = value(env)
        if kind.where is None or kind.where(env):
            out.append(())
        return out
    _combine(env, kind, 0, [], out)
    return unique_options(out)


def unique_options(out: list[tuple]) -> list[tuple]:
    """Options without repeats, first kept (values may be lists: squares with demands)."""
    if len(out) > 1:
        try:
            if len(set(out)) != len(out):
                out = list(dict.fromkeys(out))
        except TypeError:
            seen: set = set()
            unique = []
            for o in out:
                key = _hashable(o)
                if key not in seen:
                    seen.add(key)
                    unique.append(o)
            out = unique
    return out


def _combine(env: Any, kind: OptionKind, i: int, vals: list, out: list) -> None:
    temps = env.temps
    if i == len(kind.names):
        for name, value in kind.lets:
            temps[name] = value(env)
        if kind.where is None or kind.where(env):
            out.append(tuple(vals))
        return
    last = i == len(kind.names) - 1
    per = kind.weight if last else kind.source_weights[i + 1]
    for v in _values(env, kind.sources[i](env), kind.names[i], per):
        temps[kind.names[i]] = v
        vals.append(v)
        _combine(env, kind, i + 1, vals, out)
        vals.pop()


@dataclass
class ChoiceSpec:
    """A compiled `choose`: who decides, and how its options are generated."""

    pc: int
    prompt: Compiled
    seat: Compiled | None
    seats: Compiled | None
    kinds: list[OptionKind]
    after: Label
    none: Label | None
    secret: bool
    slot: str = ""
    resolve_pc: int = -1
    loc: Location | None = None
    on_record: bool = False
    """Reveal lines stay readable for the seats that saw what they name."""
    simultaneous: bool = field(init=False, default=False)
    """Every seat in `seats` decides at once (read on every decision: an attribute)."""

    def __post_init__(self) -> None:
        self.simultaneous = self.seats is not None

    def list_options(self, env: Any, seat: int) -> list[tuple[int, tuple]]:
        """Every legal option of `seat`; an error names the option kind and the decision."""
        env.temps["chooser"] = seat
        out: list[tuple[int, tuple]] = []
        for k in range(len(self.kinds)):
            out.extend((k, v) for v in self.kind_options(env, k))
        return out

    def kind_options(self, env: Any, k: int) -> list[tuple]:
        """The options of kind `k` (`chooser` already set)."""
        kind = self.kinds[k]
        try:
            values = kind.values
            return values(env) if values is not None else careful_values(kind, env)
        except RuleError as exc:
            raise self._locate(env, k, exc) from None
        except RecursionError:
            raise self._too_deep(env) from None

    def has_option(self, env: Any, seat: int) -> bool:
        """Whether `seat` has any option: all a pause at the decision needs to know."""
        return self.first_with_option(env, seat) >= 0

    def first_with_option(self, env: Any, seat: int) -> int:
        """The first kind in which `seat` has an option (-1: none), the kinds before it
        having none: what a sampler at the same state need not check again."""
        env.temps["chooser"] = seat
        k = 0
        try:
            for k in range(len(self.kinds)):  # k names the kind in an error
                kind = self.kinds[k]
                exists = kind.exists
                if exists(env) if exists is not None else careful_values(kind, env):
                    return k
            return -1
        except RuleError as exc:
            raise self._locate(env, k, exc) from None
        except RecursionError:
            raise self._too_deep(env) from None

    def kinds_with_options(self, env: Any, seat: int, start: int = 0) -> list[int]:
        """The kinds from `start` on in which `seat` has options (a sampler that knows
        the kinds before `start` starts there)."""
        env.temps["chooser"] = seat
        kinds = self.kinds
        return [k for k in range(start, len(kinds))
                if self._located(env, k, kinds[k].has_option)]

    def _located(self, env: Any, k: int, work: Callable[[Any], Any]) -> Any:
        """`work` on kind `k`; an error names the option kind and the decision."""
        try:
            return work(env)
        except RuleError as exc:
            raise self._locate(env, k, exc) from None
        except RecursionError:
            raise self._too_deep(env) from None

    def _locate(self, env: Any, k: int, exc: RuleError) -> RuleError:
        kind = self.kinds[k]
        exc.at(kind.loc, f"option '{kind.id}'", env.game.source_line(kind.loc))
        return exc.at(self.loc, "this decision (choose)", env.game.source_line(self.loc))

    def _too_deep(self, env: Any) -> RuleError:
        return RuleError("the options nest too deeply").at(
            self.loc, "this decision (choose)", env.game.source_line(self.loc))

    def bind(self, env: Any, seat: int, option: tuple[int, tuple]) -> dict[str, Any]:
        """The names an option gives (chooser, its `for` values, its `let` values), set
        as temporaries of `env` and returned."""
        kind = self.kinds[option[0]]
        names, values = kind.names, option[1]
        if len(values) != len(names):
            raise ValueError(f"option '{kind.id}' takes {len(names)} values, not {values!r}")
        bound = {"chooser": seat}
        bound.update(zip(names, values, strict=False))  # (checked above: quicker than strict)
        temps = env.temps
        temps.update(bound)
        for name, value in kind.lets:
            temps[name] = bound[name] = value(env)
        return bound

    def render_group(self, env: Any, seat: int, option: tuple[int, tuple]) -> str | None:
        """The option's group notation (see `OptionKind.group`), None when ungrouped."""
        group = self.kinds[option[0]].group
        return None if group is None else self._render(env, seat, option, group)

    def render(self, env: Any, seat: int, option: tuple[int, tuple], label: bool) -> str:
        """The option's notation (or label)."""
        kind = self.kinds[option[0]]
        return self._render(env, seat, option, kind.label if label else kind.notation)

    def render_said(self, env: Any, seat: int, option: tuple[int, tuple]) -> str | None:
        """What the log says of the option once picked (its `said`), None without one."""
        said = self.kinds[option[0]].said
        return None if said is None else self._render(env, seat, option, said)

    def _render(self, env: Any, seat: int, option: tuple[int, tuple], text: Compiled) -> str:
        try:
            self.bind(env, seat, option)
            return text(env)
        except RuleError as exc:
            raise self._locate(env, option[0], exc).during(env.state.decisions,
                                                           env.game.variant) from None


def _values(env: Any, values: Any, name: str, per: int) -> Any:
    """What an option's `for` name goes through, charged by its length times what each
    value costs to consider."""
    return loop_items(env, values, per, f"'for: {name}'")


def _hashable(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value
