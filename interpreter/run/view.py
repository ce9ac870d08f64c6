"""What one seat may know: the only picture of a game that UIs and agents receive.

Visibility is declared in the ruleset (zones' `contents` and `count`, variables'
`visible_to`, `reveal_at_end`, secret decisions) and applied here. A view names no
piece ids, so nothing hidden can be recovered from it: visible pieces are described by
their attributes, hidden ones not at all. Two states that differ only in what a seat
may not see give that seat identical views.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.run.state import State

if TYPE_CHECKING:
    from interpreter.compile.game import Game, ZoneInfo

HIDDEN_PIECE: dict[str, Any] = {"hidden": True}
"""How a concealed piece appears: there is a piece, and nothing more is known."""

SPECTATOR = 0
"""A seat number for someone who sits at no seat (sees only what everyone sees)."""


def _may_see(rule: str, owner: int | None, seat: int, over: bool, reveal: bool) -> bool:
    if over and reveal:
        return True
    if rule == "everyone":
        return True
    if rule == "owner":
        return owner is not None and owner == seat
    return False


def describe_piece(game: Game, piece: int) -> dict[str, Any]:
    return {attr: game.attributes[attr][piece] for attr in game.attribute_order
            if game.attributes[attr][piece] is not None}


def _place(game: Game, state: State, zone: ZoneInfo, site: int, seat: int) -> dict[str, Any]:
    owner = game.site_owner[site]
    stack = state.sites[site]
    out: dict[str, Any] = {}
    if _may_see(zone.count, owner, seat, state.over, zone.reveal_at_end):
        out["count"] = len(stack)
    if _may_see(zone.contents, owner, seat, state.over, zone.reveal_at_end):
        out["count"] = len(stack)
        conceal = None if state.over and zone.reveal_at_end else zone.conceal
        if conceal is None:
            out["pieces"] = [describe_piece(game, p) for p in stack]
        else:
            env = game.env(state)
            env.temps["place"], env.temps["viewer"] = site, seat
            shown = []
            for p in stack:
                env.temps["piece"] = p
                shown.append(HIDDEN_PIECE if conceal(env) else describe_piece(game, p))
            out["pieces"] = shown
    return out


def view(game: Game, state: State, seat: int) -> dict[str, Any]:
    """Everything `seat` may know about `state`, as JSON-ready data."""
    over = state.over
    zones: dict[str, Any] = {}
    for zone in game.zones.values():
        if zone.per_seat:
            zones[zone.id] = {
                str(owner): _place_or_places(game, state, zone, owner, seat)
                for owner in range(1, min(state.players, zone.owners) + 1)}
        elif zone.kind == "pile":
            zones[zone.id] = _place(game, state, zone, zone.first, seat)
        else:
            zones[zone.id] = _places(game, state, zone, zone.sites_in_play(state.players), seat)
    variables = {}
    for var in game.variables.values():
        if var.per_seat:
            variables[var.id] = {
                str(s): state.seat_vars[var.id][s - 1]
                for s in range(1, state.players + 1)
                if _may_see(var.visible_to, s, seat, over, var.reveal_at_end)}
        elif _may_see(var.visible_to, None, seat, over, var.reveal_at_end):
            variables[var.id] = state.vars[var.id]
    deciding = game.deciding_seats(state)
    decision = game.decision(state)
    return {
        "game": game.name,
        "seat": seat,
        "players": state.players,
        "current": state.current,
        "turn": state.turn,
        "zones": zones,
        "variables": variables,
        "deciding": deciding,
        "prompt": decision.prompt if decision is not None and seat in deciding else None,
        "log": redacted_log(state, seat),
        "over": over,
        "winners": state.winners,
        "reason": state.reason,
        "scores": _scores(game, state),
    }


def _scores(game: Game, state: State) -> dict[str, Any] | None:
    scores = game.scores(state) if state.over else None
    return None if scores is None else {str(k): v for k, v in scores.items()}


def _places(game: Game, state: State, zone: ZoneInfo, sites: list[int],
            seat: int) -> dict[str, Any]:
    return {
        "kind": zone.kind,
        "rows": zone.rows,
        "cols": zone.cols,
        "places": {game.site_name[s]: _place(game, state, zone, s, seat) for s in sites},
    }


def _place_or_places(game: Game, state: State, zone: ZoneInfo, owner: int,
                     seat: int) -> dict[str, Any]:
    first = zone.site_for(owner)
    if zone.per_owner == 1:
        return _place(game, state, zone, first, seat)
    return _places(game, state, zone, list(range(first, first + zone.per_owner)), seat)


def redacted_log(state: State, seat: int) -> list[dict[str, Any]]:
    """The log as `seat` may read it: others' secret choices hidden until the end."""
    out: list[dict[str, Any]] = []
    for entry in state.log_entries():
        if entry[0] == "decision":
            _, who, notation, secret = entry
            if secret and who != seat and not state.over:
                out.append({"seat": who, "decision": None})
            else:
                out.append({"seat": who, "decision": notation})
        else:
            _, text, seats = entry
            if seats is None or seat in seats or state.over:
                out.append({"say": text})
    return out
