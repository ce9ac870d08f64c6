"""Positions built by hand: named places, named pieces, checked against the game.

A position is resolved once, when the tests file loads, so a misspelt piece or
place is a located error before any case runs. Resolving yields plain data (which
pieces go to which place, bottom first) that ``build_state`` turns into a state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.errors import Location, did_you_mean
from interpreter.play.game import Game
from interpreter.run.state import EMPTY, State, locate_pieces, sites_of
from interpreter.scenarios.model import PieceList, Position


@dataclass
class Placements:
    """A resolved position: which pieces each named place holds, and the values of
    per-piece variables given with them (`{piece: FW, facing: 180}`)."""

    stacks: dict[int, list[int]] = field(default_factory=dict)
    """Place index → the pieces it holds, bottom first."""
    piece_values: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Piece → per-piece variable → value."""

Report = Callable[[str, Location | None, str | None], None]
"""Records one problem: message, where, did-you-mean hint."""


def _norm(text: str) -> str:
    return " ".join(str(text).lower().split())


class PieceNames:
    """Looks pieces up by name ("red large") or short code ("rL")."""

    def __init__(self, game: Game) -> None:
        self.by_name: dict[str, list[int]] = {}
        for piece, name in enumerate(game.piece_names):
            self.by_name.setdefault(_norm(name), []).append(piece)
        self.by_code: dict[str, list[int]] = {}
        for piece, code in enumerate(game.piece_codes):
            if _norm(code) not in self.by_name:
                self.by_code.setdefault(code, []).append(piece)
        self.names = list(dict.fromkeys(game.piece_names))

    def lookup(self, text: str) -> list[int] | None:
        found = self.by_name.get(_norm(text))
        if found is None:
            found = self.by_code.get(str(text).strip())
        return found


def resolve_position(game: Game, players: int, position: Position,
                     key_loc: Callable[[Any], Location | None],
                     sub_key_loc: Callable[[Any, Any], Location | None],
                     report: Report) -> Placements:
    """Which pieces each named place holds; problems go to `report`.

    `key_loc(key)` and `sub_key_loc(zone_key, key)` find where a key was written
    (keys such as seat numbers carry no position of their own).
    """
    in_play = set()
    for zone in game.zones.values():
        in_play.update(zone.sites_in_play(players))
    named: list[tuple[int, PieceList, Location | None]] = []
    seen: dict[int, Location | None] = {}

    def add(site: int, pieces: PieceList, loc: Location | None) -> None:
        name = game.site_name[site]
        if site not in in_play:
            report(f"'{name}' is not in play with {players} players", loc, None)
            return
        if site in seen:
            report(f"'{name}' is given twice in this position", loc, None)
            return
        seen[site] = loc
        named.append((site, pieces, loc))

    for key, value in position.items():
        loc = key.loc or key_loc(key)
        site = game.site_by_name.get(str(key))
        zone = game.zones.get(str(key))
        if isinstance(value, list):
            if site is None:
                what = (f"'{key}' is a zone: list its places under it (e.g. "
                        f"{_example(game, zone.id)})" if zone is not None
                        else f"no place is called '{key}'")
                report(what, loc, None if zone is not None else
                       did_you_mean(str(key), list(game.site_by_name) + list(game.zones)))
                continue
            add(site, value, loc)
            continue
        if zone is None:
            report(f"no zone is called '{key}' (a mapping groups the places of a zone)", loc,
                   did_you_mean(str(key), game.zones))
            continue
        own = {game.site_name[s]: s for s in range(zone.first, zone.first
                                                    + zone.owners * zone.per_owner)}
        for sub, pieces in value.items():
            sub_loc = sub.loc or sub_key_loc(key, sub)
            candidates = (str(sub), f"{zone.id}:{sub}", f"{zone.id}[{sub}]")
            found = next((own[c] for c in candidates if c in own), None)
            if found is None:
                report(f"zone '{zone.id}' has no place '{sub}'", sub_loc,
                       did_you_mean(str(sub), own) or f"its places: {_sample(list(own))}")
                continue
            add(found, pieces, sub_loc)

    lookup = PieceNames(game)
    used: set[int] = set()
    placements = Placements()
    named_sites = {site for site, _, _ in named}
    for site, pieces, _ in named:
        stack: list[int] = []
        for item in pieces:
            text, values, attrs = _piece_and_values(game, item, report)
            if text is None:
                continue
            candidates = lookup.lookup(str(text))
            if candidates is None:
                report(f"no piece is called '{text}'", text.loc,
                       did_you_mean(str(text), lookup.names)
                       or f"pieces are named like '{lookup.names[0]}'")
                continue
            if attrs:
                candidates = [p for p in candidates if all(
                    str(game.attributes[a][p]) == str(v) for a, v in attrs.items())]
                if not candidates:
                    report(f"no '{text}' has {_said(attrs)}", text.loc, None)
                    continue
            # a piece from a place this position names before one from a place it leaves
            # as it starts (which would lose it)
            piece = next((p for p in candidates if p not in used
                          and game.piece_start[p] in named_sites), None)
            if piece is None:
                piece = next((p for p in candidates if p not in used), None)
            if piece is None:
                report(f"no '{text}' is left: the game has {len(candidates)}, and this "
                       f"position places more", text.loc, None)
                continue
            used.add(piece)
            stack.append(piece)
            if values:
                placements.piece_values[piece] = values
        placements.stacks[site] = stack
    for site, _, loc in named:
        stay = [p for p, start in enumerate(game.piece_start) if start == site and p not in used]
        if stay:
            report(f"pieces start in '{game.site_name[site]}', so naming it here leaves "
                   f"{len(stay)} of them with nowhere to go ({game.piece_names[stay[0]]}, ...): "
                   "list them too, or do not name this place", loc, None)
    return placements


def _piece_and_values(game: Game, item: Any, report: Report
                      ) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A position's piece: its name, the per-piece variables given with it, and the
    attributes that tell it from other pieces of the same name (`{piece: red fish size 1,
    value: 2}`: cards named alike whose numbers differ)."""
    if not isinstance(item, dict):
        return item, {}, {}
    loc = getattr(item, "loc", None)
    text, values, attrs = None, {}, {}
    for key, value in item.items():
        if str(key) == "piece":
            text = value
            continue
        if str(key) in game.attributes:
            attrs[str(key)] = value
            continue
        var = game.variables.get(str(key))
        if var is None or not var.per_piece:
            per_piece = [v.id for v in game.variables.values() if v.per_piece]
            report(f"'{key}' is neither an attribute nor a per-piece variable" + (
                f" (the per-piece variables: {', '.join(per_piece)})" if per_piece else
                " (this game declares no per-piece variable)"),
                getattr(key, "loc", None) or loc,
                did_you_mean(str(key), per_piece + list(game.attributes)))
            continue
        values[str(key)] = str(value) if isinstance(value, str) else value
    if text is None:
        report("a piece given as a mapping needs 'piece: NAME' (and its per-piece variables, "
               "e.g. {piece: FW, facing: 180})", loc, None)
    return text, values, attrs


def _said(attrs: dict[str, Any]) -> str:
    return " and ".join(f"{a} {v}" for a, v in attrs.items())


def build_state(game: Game, players: int, placements: Placements, seed: int = 0) -> State:
    """A blank state (pieces where their sets start) with the named places filled."""
    state = game.blank_state(players, seed)
    moved = {p for stack in placements.stacks.values() for p in stack}
    sites = [[p for p in stack if p not in moved] for stack in state.lists()]
    for site, stack in placements.stacks.items():
        sites[site] = list(stack)
    state.sites = sites_of(sites, state.places)
    state.loc = locate_pieces(state.sites, game.n_pieces)
    for piece, values in placements.piece_values.items():
        for var, value in values.items():
            state.piece_vars[var][piece] = value
    return state


def describe_state(game: Game, state: State, big_pile: int = 12) -> str:
    """A compact picture of where the pieces are, for failure messages."""
    lines = []
    for zone in game.zones.values():
        parts = []
        for site in zone.sites_in_play(state.players):
            stack = state.sites.get(site, EMPTY)
            if not stack:
                continue
            name = game.site_name[site]
            if len(stack) > big_pile and zone.kind != "grid":
                parts.append(f"{len(stack)} pieces" if name == zone.id
                             else f"{name}: {len(stack)} pieces")
            else:
                parts.append(f"{name} [{' '.join(game.piece_codes[p] for p in stack)}]")
        if parts:
            lines.append(f"{zone.id}: " + ", ".join(parts))
    return "\n".join(lines) if lines else "(no pieces anywhere)"


# -- a position written out, as a scenario case starts from it ---------------------------

def position_of(game: Game, state: State) -> dict[str, Any]:
    """A position in the scenario tests' format: the keys of a case (`players`, `options`,
    `position`, `turn`, `variables`, `out`, `ended`) that start it from this position,
    JSON- and YAML-ready. Pasted into a case, it gives the same pieces in the same places,
    the same variables and the same seat to play, whose turn then starts from its first
    step; a finished game's position stays finished (`ended`: its winners and reason).

    Every place that holds pieces (or held some at the start) is named, so every piece
    is listed once. A piece reads by its name; pieces named alike that differ (cards of
    one name with different numbers) add the attributes that tell them apart, and a
    piece's own variables that changed are given with it. Variables are written as
    expressions of the game's language, only those that changed from their initial
    values: a piece a variable holds as `stack('b2')[0]` (where it lies), a place as
    `place('b2')`. What a position cannot say: the engine's place inside a turn (a
    position taken after some of a turn's decisions starts that turn afresh), the random
    generator (draws after it differ), and pieces shown to one seat (`show`)."""
    blank = game.blank_state(state.players, 0)
    out: dict[str, Any] = {"players": state.players}
    if game.options:
        out["options"] = dict(game.options)
    out["position"] = _written_places(game, state, blank)
    out["turn"] = state.current
    variables = _written_variables(game, state, blank)
    if variables:
        out["variables"] = variables
    if state.out:
        out["out"] = list(state.out)
    if state.over:
        out["ended"] = {"winners": list(state.winners or []), "reason": state.reason}
    return out


def position_yaml(game: Game, state: State) -> str:
    """`position_of` as YAML, each place's pieces on one line, to paste under a case's
    `name:` in a tests file."""
    import io

    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.default_flow_style = None  # the innermost lists and mappings on one line
    yaml.width = 4096
    out = io.StringIO()
    yaml.dump(position_of(game, state), out)
    return out.getvalue()


def _written_places(game: Game, state: State, blank: State) -> dict[str, Any]:
    """Each zone's places that hold pieces now or at the start, under the zone."""
    alike = _names_shared_by_kinds(game)
    out: dict[str, Any] = {}
    for zone in game.zones.values():
        places: dict[str | int, Any] = {}
        for site in zone.sites_in_play(state.players):
            if not state.sites.get(site) and not blank.sites.get(site):
                continue
            pieces = [_written_piece(game, state, blank, p, alike)
                      for p in state.sites.get(site, EMPTY)]
            name = game.site_name[site]
            if name == zone.id:  # a zone that is one pile
                out[zone.id] = pieces
                break
            places[_short_name(zone.id, name)] = pieces
        if places:
            out[zone.id] = places
    return out


def _short_name(zone_id: str, name: str) -> str | int:
    """A place as written under its zone: 1 for `hand[1]` and `field:1`, else itself."""
    for prefix, suffix in ((f"{zone_id}[", "]"), (f"{zone_id}:", "")):
        if name.startswith(prefix) and name.endswith(suffix):
            short = name[len(prefix):len(name) - len(suffix)]
            return int(short) if short.isascii() and short.isdigit() else short
    return name


def _names_shared_by_kinds(game: Game) -> dict[str, list[int]]:
    """Piece names that several kinds of piece share → the pieces of that name."""
    by_name: dict[str, list[int]] = {}
    for piece, name in enumerate(game.piece_names):
        by_name.setdefault(name, []).append(piece)
    return {name: pieces for name, pieces in by_name.items()
            if len({game.piece_kind[p] for p in pieces}) > 1}


def _telling_apart(game: Game, piece: int, alike: list[int]) -> dict[str, Any]:
    """The fewest attributes (in the game's order) that leave only pieces of `piece`'s
    kind among those named like it."""
    said: dict[str, Any] = {}
    left = alike
    for attr in game.attribute_order:
        if all(game.piece_kind[p] == game.piece_kind[piece] for p in left):
            break
        value = game.attributes[attr][piece]
        narrower = [p for p in left if game.attributes[attr][p] == value]
        if len(narrower) < len(left):
            said[attr], left = value, narrower
    return said


def _written_piece(game: Game, state: State, blank: State, piece: int,
                   alike: dict[str, list[int]]) -> Any:
    name = game.piece_names[piece]
    extra = _telling_apart(game, piece, alike[name]) if name in alike else {}
    for var, values in state.piece_vars.items():
        if values[piece] != blank.piece_vars[var][piece]:
            extra[var] = values[piece]
    return {"piece": name, **extra} if extra else name


def _written_variables(game: Game, state: State, blank: State) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for var in game.variables.values():
        if var.per_piece:
            continue  # given with each piece
        if var.per_seat:
            now, start = state.seat_vars[var.id], blank.seat_vars[var.id]
            changed = {seat: _expression(game, state, var.holds, v)
                       for seat, (v, v0) in enumerate(zip(now, start, strict=True), start=1)
                       if v != v0}
            if changed:
                out[var.id] = changed
        elif state.vars[var.id] != blank.vars[var.id]:
            out[var.id] = _expression(game, state, var.holds, state.vars[var.id])
    return out


def _expression(game: Game, state: State, holds: str | None, value: Any) -> Any:
    """A value as the game's language writes it (a number stays a number)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(str(_expression(game, state, holds, v)) for v in value) + "]"
    if type(value) is int and holds == "pieces" and 0 <= value < game.n_pieces:
        site = state.loc[value]
        return f"stack({game.site_name[site]!r})[{state.sites.get(site, EMPTY).index(value)}]"
    if type(value) is int and holds == "places" and 0 <= value < len(game.site_name):
        return f"place({game.site_name[value]!r})"
    if isinstance(value, int | float):
        return value
    return repr(value)


def _example(game: Game, zone_id: str) -> str:
    zone = game.zones[zone_id]
    sub = ("1" if zone.per_seat and zone.per_owner == 1
           else game.site_name[zone.first].split(":")[-1].split("[")[0])
    return f"{zone_id}: {{{sub}: [...]}}"


def _sample(names: list[str]) -> str:
    return ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")


__all__ = ["PieceNames", "Placements", "build_state", "describe_state", "position_of",
           "position_yaml", "resolve_position"]
