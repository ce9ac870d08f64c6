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
from interpreter.run.game import Game
from interpreter.run.state import State, locate_pieces
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
    for site, pieces, _ in named:
        stack: list[int] = []
        for item in pieces:
            text, values = _piece_and_values(game, item, report)
            if text is None:
                continue
            candidates = lookup.lookup(str(text))
            if candidates is None:
                report(f"no piece is called '{text}'", text.loc,
                       did_you_mean(str(text), lookup.names)
                       or f"pieces are named like '{lookup.names[0]}'")
                continue
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


def _piece_and_values(game: Game, item: Any, report: Report) -> tuple[Any, dict[str, Any]]:
    """A position's piece: its name, and the per-piece variables given with it."""
    if not isinstance(item, dict):
        return item, {}
    loc = getattr(item, "loc", None)
    text, values = None, {}
    for key, value in item.items():
        if str(key) == "piece":
            text = value
            continue
        var = game.variables.get(str(key))
        if var is None or not var.per_piece:
            per_piece = [v.id for v in game.variables.values() if v.per_piece]
            report(f"'{key}' is not a per-piece variable" + (
                f" (they are: {', '.join(per_piece)})" if per_piece else
                " (this game declares none)"), getattr(key, "loc", None) or loc,
                did_you_mean(str(key), per_piece))
            continue
        values[str(key)] = str(value) if isinstance(value, str) else value
    if text is None:
        report("a piece given as a mapping needs 'piece: NAME' (and its per-piece variables, "
               "e.g. {piece: FW, facing: 180})", loc, None)
    return text, values


def build_state(game: Game, players: int, placements: Placements, seed: int = 0) -> State:
    """A blank state (pieces where their sets start) with the named places filled."""
    state = game.blank_state(players, seed)
    moved = {p for stack in placements.stacks.values() for p in stack}
    sites = [[p for p in stack if p not in moved] for stack in state.sites]
    for site, stack in placements.stacks.items():
        sites[site] = list(stack)
    state.sites = sites
    state.loc = locate_pieces(sites, game.n_pieces)
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
            stack = state.sites[site]
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


def _example(game: Game, zone_id: str) -> str:
    zone = game.zones[zone_id]
    sub = ("1" if zone.per_seat and zone.per_owner == 1
           else game.site_name[zone.first].split(":")[-1].split("[")[0])
    return f"{zone_id}: {{{sub}: [...]}}"


def _sample(names: list[str]) -> str:
    return ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")


__all__ = ["PieceNames", "Placements", "build_state", "describe_state", "resolve_position"]
