"""What each legal option involves: the places and pieces a seat points at to pick it,
in order (what moves or where it starts first, then where it goes), so that a picture
of the position can offer its options as click targets.

Worked out from the ruleset, for any game. Which of an option's names (its `for` and
`let`) stand for places and which for pieces is read from how the option uses them:
the built-in functions it passes them to (`place_name(origin)`, `top(square)`,
`piece_code(card)`), the rules' own definitions it passes them to (read the same way),
the effects it hands them to (`move: …`, `to: …`, by what each field takes) and the
attributes it reads from them (`card.colour`: a piece). The option's bound values then
name the places and pieces. An option whose names say nothing falls back on the place
names its notation mentions.

Hidden information stays hidden: a piece is named only when the seat may see it, and
then by its code (as pictures and notations show it), never by the engine's piece id;
a piece the seat may not see stands as its place alone.
"""

from __future__ import annotations

import ast
import re
import weakref
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from interpreter.compile.expressions import ExpressionError, parse, split_template
from interpreter.compile.functions import FUNCTIONS
from interpreter.errors import RuleError
from interpreter.located import Expr, Template
from interpreter.primitives.decisions import Choose, OptionDef
from interpreter.run.view import witnesses

if TYPE_CHECKING:
    from interpreter.load.schema import Ruleset
    from interpreter.play.game import Game
    from interpreter.run.state import State
    from interpreter.run.tables import Option, OptionKind

PLACE = "place"
PIECE = "piece"

Item = dict[str, str]
"""One thing an option involves: ``{"place": name}``, or ``{"piece": code, "place":
name}`` for a piece the seat may see (the place being where it lies)."""


# -- what a name stands for, from how the rules use it ----------------------------------

def _word_role(words: str) -> str | None:
    """A parameter's or field's kind from its words: `place`, `square`, `pile` or
    `slot` → a place; `piece`, `card` → a piece."""
    first = re.findall(r"[a-z]+", words.lower())
    for word in first[:2]:
        if word in ("place", "places", "square", "squares", "pile", "slot", "slots"):
            return PLACE
        if word in ("piece", "pieces", "card", "cards"):
            return PIECE
    return None


def _function_roles() -> dict[str, dict[int, str]]:
    """For each built-in function: the kind of each argument that names a place or a
    piece, from its signature (`offset(square, direction, …)`) and what it declares."""
    out: dict[str, dict[int, str]] = {}
    for name, fn in FUNCTIONS.items():
        roles: dict[int, str] = {}
        match = re.match(rf"\s*{re.escape(name)}\(([^)]*)\)", fn.doc)
        if match:
            for i, param in enumerate(match.group(1).split(",")):
                role = _word_role(param.split("=")[0])
                if role is not None:
                    roles[i] = role
        for i in fn.site_args:
            roles.setdefault(i, PLACE)
        if fn.describes_piece:
            roles.setdefault(0, PIECE)
        if roles:
            out[name] = roles
    return out


_FUNCTION_ROLES = _function_roles()


class _Reader:
    """Reads the roles of names from a ruleset's expressions, templates and effects."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.definitions: dict[str, tuple[list[str], str]] = {}
        for key, value in ruleset.define.items():
            head = re.match(r"\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*$", key)
            if head is None:
                continue
            params = [p.strip() for p in (head.group(2) or "").split(",") if p.strip()]
            text = value.text if isinstance(value, Expr) else value.value.text
            self.definitions[head.group(1)] = (params, text)
        self.param_roles: dict[str, dict[int, str]] = {}
        self._busy: set[str] = set()

    def definition_roles(self, name: str) -> dict[int, str]:
        """The kind of each parameter of a definition, as its body uses it."""
        found = self.param_roles.get(name)
        if found is not None:
            return found
        if name in self._busy or name not in self.definitions:
            return {}
        self._busy.add(name)
        params, text = self.definitions[name]
        votes: dict[str, Counter[str]] = {p: Counter() for p in params}
        self.expression(text, votes)
        self._busy.discard(name)
        roles = {i: _winner(votes[p]) for i, p in enumerate(params) if votes[p]}
        self.param_roles[name] = roles
        return roles

    def expression(self, text: str, votes: dict[str, Counter[str]]) -> None:
        try:
            tree = parse(text)
        except ExpressionError:
            return
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                name = node.func.id
                roles = _FUNCTION_ROLES.get(name) or self.definition_roles(name)
                for i, arg in enumerate(node.args):
                    if isinstance(arg, ast.Name) and arg.id in votes and i in roles:
                        votes[arg.id][roles[i]] += 1
            elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id in votes):
                votes[node.value.id][PIECE] += 1  # an attribute: only pieces have them

    def template(self, text: str, votes: dict[str, Counter[str]]) -> None:
        try:
            parts = split_template(text)
        except ExpressionError:
            return
        for is_expr, part, _ in parts:
            if is_expr:
                self.expression(part, votes)

    def effects(self, block: list[Any], votes: dict[str, Counter[str]]) -> None:
        """The expressions of effects, and the names they hand to a field that takes a
        place or a piece (`to: square`); a nested decision's names are its own."""
        for effect in block:
            if isinstance(effect, Choose):
                continue
            for value, description in _fields(effect):
                if isinstance(value, Template):
                    self.template(value.text, votes)
                elif isinstance(value, Expr):
                    self.expression(value.text, votes)
                    name = value.text.strip()
                    role = _word_role(description.removeprefix("the ")) if description else None
                    if name in votes and role is not None:
                        votes[name][role] += 1
            for child in effect.children():
                self.effects(child, votes)

    def option_roles(self, option: OptionDef) -> dict[str, str]:
        """What each of an option's names stands for (names that stand for neither are
        left out)."""
        votes: dict[str, Counter[str]] = {n: Counter() for n in [*option.for_, *option.let]}
        for source in option.for_.values():
            self.expression(source.text, votes)
        for value in option.let.values():
            self.expression(value.text, votes)
        if option.where is not None:
            self.expression(option.where.text, votes)
        self.template(option.notation.text, votes)
        for words in (option.label, option.said):
            if words is not None:
                self.template(words.text, votes)
        self.effects(option.do, votes)
        return {n: _winner(v) for n, v in votes.items() if v}


def _winner(votes: Counter[str]) -> str:
    """The kind most uses say (a tie: a place, which every picture draws)."""
    return PIECE if votes[PIECE] > votes[PLACE] else PLACE


def _fields(effect: BaseModel) -> Iterator[tuple[Any, str | None]]:
    """An effect's expressions and templates (in mappings and lists too), each with the
    description of the field it stands in."""
    for name, info in type(effect).model_fields.items():
        value = getattr(effect, name)
        values = value.values() if isinstance(value, dict) else (
            value if isinstance(value, list) else [value])
        for v in values:
            if isinstance(v, Expr | Template):
                yield v, info.description


def _option_defs(node: Any) -> Iterator[OptionDef]:
    """Every option definition in a ruleset, wherever its decision stands."""
    if isinstance(node, OptionDef):
        yield node
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            yield from _option_defs(getattr(node, name))
    elif isinstance(node, list | tuple):
        for item in node:
            yield from _option_defs(item)
    elif isinstance(node, dict):
        for item in node.values():
            yield from _option_defs(item)


class _Roles:
    """The roles of every option kind's names in one game (worked out once)."""

    def __init__(self, game: Game) -> None:
        reader = _Reader(game.ruleset)
        self.by_loc: dict[Any, dict[str, str]] = {}
        self.by_id: dict[str, list[dict[str, str]]] = {}
        for option in _option_defs(game.ruleset):
            roles = reader.option_roles(option)
            if option.loc is not None:
                self.by_loc[option.loc] = roles
            self.by_id.setdefault(option.id, []).append(roles)

    def of(self, kind: OptionKind) -> dict[str, str]:
        if kind.loc is not None and kind.loc in self.by_loc:
            return self.by_loc[kind.loc]
        merged: dict[str, str] = {}
        for roles in self.by_id.get(kind.id, []):
            for name, role in roles.items():
                merged.setdefault(name, role)
        return merged


_ROLES: weakref.WeakKeyDictionary[Game, _Roles] = weakref.WeakKeyDictionary()


def name_roles(game: Game, kind: OptionKind) -> dict[str, str]:
    """What each of an option kind's names stands for: "place" or "piece"."""
    roles = _ROLES.get(game)
    if roles is None:
        roles = _ROLES[game] = _Roles(game)
    return roles.of(kind)


# -- what each option involves, from its values -----------------------------------------

def involvement(game: Game, state: State, seat: int, options: list[Option]) -> list[list[Item]]:
    """For each of `seat`'s legal options (as `Game.legal_options` lists them): the
    places and pieces it involves, in order: the pieces it names first (where they lie:
    their origin), then the places, each in the order the option names them."""
    if not options or not state.frames:
        return [[] for _ in options]
    spec = game.choices.get(state.frames[-1][0])
    if spec is None:
        return [[] for _ in options]
    seen: dict[int, bool] = {}

    def visible(piece: int) -> bool:
        if piece not in seen:
            seen[piece] = seat in witnesses(game, state, (piece,))
        return seen[piece]

    out = []
    for option in options:
        kind = spec.kinds[option.raw[0]]
        roles = name_roles(game, kind)
        items: list[Item] = []
        if roles:
            try:
                bound = spec.bind(game.env(state), seat, option.raw)
            except (RuleError, ValueError):
                bound = {}
            names = [n for n in [*kind.names, *(n for n, _ in kind.lets)] if n in roles]
            for name in [n for n in names if roles[n] == PIECE]:
                for p in _flat(bound.get(name)):
                    if _is_index(p, game.n_pieces):
                        items.append(_piece_item(game, state, p, visible(p)))
            for name in [n for n in names if roles[n] == PLACE]:
                for s in _flat(bound.get(name)):
                    if _is_index(s, len(game.site_name)):
                        items.append({"place": game.site_name[s]})
        if not items:
            items = _named_places(game, option.notation)
        out.append(_unrepeated(items))
    return out


def places_of(items: list[Item]) -> list[str]:
    """The places of an option's involvement, in order, each once."""
    return list(dict.fromkeys(item["place"] for item in items))


def _piece_item(game: Game, state: State, piece: int, visible: bool) -> Item:
    place = game.site_name[state.loc[piece]]
    return {"piece": game.piece_codes[piece], "place": place} if visible else {"place": place}


def _flat(value: Any) -> list[Any]:
    if isinstance(value, list | tuple):
        return [v for item in value for v in _flat(item)]
    return [value]


def _is_index(value: Any, size: int) -> bool:
    return type(value) is int and 0 <= value < size


def _unrepeated(items: list[Item]) -> list[Item]:
    """Items without repeats (a place named twice, or a place right after a piece that
    lies there, is one click)."""
    out: list[Item] = []
    for item in items:
        if item in out:
            continue
        if "piece" not in item and any(o["place"] == item["place"] for o in out[-1:]):
            continue
        out.append(item)
    return out


def _named_places(game: Game, notation: str) -> list[Item]:
    """The places a notation names, in the order it names them (`c3-ne`, `pp-rL-b2`)."""
    items: list[Item] = []
    by_name = game.site_by_name
    for token in notation.split():
        if token in by_name:
            items.append({"place": token})
            continue
        for part in token.split("-"):
            if part in by_name:
                items.append({"place": part})
    return items
