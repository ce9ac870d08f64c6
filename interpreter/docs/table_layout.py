"""Where each zone sits on the table, as a player at a game table expects it.

The table has areas: each opponent's (in seat order, starting after the viewer), the
centre (what all share: a board, a market, a deck), and the viewer's own at the bottom.
A zone lies in its owner's area when it is per seat and in the centre when shared,
unless the ruleset says otherwise (``area:``), and is arranged as a board (grid), a row
of pieces, a fan (a hand) or a stack (a deck) by what its players may see of it, unless
the ruleset says otherwise (``arrange:``). A new ruleset that says nothing still gets a
table laid out so.

This module only plans (which zone goes where, its title and its count in words, all
from a view, so nothing a seat may not know); ``interpreter.docs.diagrams`` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.run.view import is_empty

if TYPE_CHECKING:
    from interpreter.load.schema import ZoneDecl
    from interpreter.play.game import Game

ROLES = ("opponent", "centre", "mine")
"""The kinds of area, in the order the table lists them (top to bottom)."""


@dataclass
class Spot:
    """One zone (or one seat's part of a zone per seat) as it lies on the table."""

    place: str
    """Its name as the game names it: `pet_shop`, `hand[2]`."""
    zone: str
    title: str
    count: str
    arrange: str
    part: dict[str, Any]
    """What the view shows of it (a pile's pieces or count, a board's places)."""
    kind: str
    owner: int | None = None


@dataclass
class Area:
    """A part of the table: an opponent's, the centre, or the viewer's own."""

    role: str
    seat: int | None
    title: str
    spots: list[Spot] = field(default_factory=list)


def _decl(game: Game, zone_id: str) -> ZoneDecl | None:
    return next((z for z in game.ruleset.zones if z.id == zone_id), None)


def zone_area(game: Game, zone_id: str) -> str:
    """`seat` or `centre`: where the zone lies (``area:``, else by whether it is per seat)."""
    decl = _decl(game, zone_id)
    if decl is not None and decl.area is not None:
        return decl.area
    return "seat" if game.zones[zone_id].per_seat else "centre"


def zone_arrangement(game: Game, zone_id: str) -> str:
    """How the zone's pieces lie (``arrange:``, else by its kind and who sees it): a board
    as a grid; a pile only its owner sees is a hand (fan); a pile nobody sees is a deck
    (stack); anything else a row."""
    decl = _decl(game, zone_id)
    if decl is not None and decl.arrange is not None:
        return decl.arrange
    info = game.zones[zone_id]
    if info.kind in ("grid", "hex"):
        return "grid"
    if info.kind == "slots":
        return "row"
    if info.contents == "owner" and info.per_seat:
        return "fan"
    if info.contents == "nobody" or (info.contents == "owner" and not info.per_seat):
        return "stack"
    return "row"


def _noun(game: Game, pieces: list[dict[str, Any]] | None, arrange: str) -> str:
    """What the zone's pieces are called: cards when every piece the game has is drawn as
    a card, or every piece shown is, or (unseen) when the zone is a hand or a deck in a
    game with cards; else pieces."""
    shapes = game.piece_shapes
    if shapes and all(s == "card" for s in shapes):
        return "card"
    if pieces is None:
        return "card" if arrange in ("fan", "stack") and "card" in shapes else "piece"
    kinds = [game.piece_like(p) for p in pieces if not p.get("hidden")]
    if kinds and all(k is not None and shapes[k] == "card" for k in kinds):
        return "card"
    return "piece"


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def count_words(game: Game, part: dict[str, Any], arrange: str) -> str:
    """A short count in words: `9 cards`, `empty`, `4 cards, hidden`, `hidden` (when even
    how many is hidden); a board, by the pieces on it."""
    if "places" in part:
        places = part["places"].values()
        total = sum(len(p["pieces"]) if "pieces" in p else p.get("count", 0) for p in places)
        shown = [q for p in places for q in p.get("pieces", [])]
        return _counted(total, _noun(game, shown, arrange)) if total else "empty"
    pieces = part.get("pieces")
    count = part.get("count")
    if pieces is not None:
        return _counted(len(pieces), _noun(game, pieces, arrange)) if pieces else "empty"
    if count is None:
        return "hidden"
    return f"{_counted(count, _noun(game, None, arrange))}, hidden" if count else "empty"


def _seat_order(seats: list[int], viewer: int | None) -> list[int]:
    """Seats from the one after the viewer round the table (all, from the first, for a
    spectator)."""
    if viewer is None or viewer not in seats:
        return seats
    at = seats.index(viewer)
    return seats[at + 1:] + seats[:at]


def plan_table(game: Game, view_data: dict[str, Any], viewer: int | None,
               zones: list[str] | None = None, picture: bool = False) -> list[Area]:
    """The table's areas as `viewer` (None: a spectator) sees them: opponents, the centre,
    then the viewer's own; each with its zones in the ruleset's order. Zones off the
    table are left out; `zones` keeps only those named. With `picture` (the rulebook's
    one picture of the table, seen by no one) seat 1 sits at the bottom, as if it were the
    reader's, and a seat's empty piles are left out (a page has no room for empty mats)."""
    seats = sorted({int(owner) for zone_id, zv in view_data["zones"].items()
                    if zone_id in game.zones and game.zones[zone_id].per_seat
                    for owner in zv})
    bottom = viewer if viewer is not None else (1 if picture and 1 in seats else None)
    others = [s for s in _seat_order(seats, bottom) if s != bottom]
    areas: dict[int | None, Area] = {
        s: Area("opponent", s, game.seat_name(s)) for s in others}
    areas[None] = Area("centre", None, "The table")
    if bottom is not None:
        title = (f"You ({game.seat_name(bottom)})" if viewer is not None
                 else game.seat_name(bottom))
        areas[bottom] = Area("mine", bottom, title)
    wanted = zones if zones is not None else list(game.zones)
    for zone_id in wanted:
        info = game.zones[zone_id]
        zv = view_data["zones"].get(zone_id)
        if zv is None or not info.on_table:
            continue
        arrange = zone_arrangement(game, zone_id)
        if not info.per_seat:
            areas[None].spots.append(Spot(zone_id, zone_id, info.label,
                                          count_words(game, zv, arrange), arrange, zv, info.kind))
            continue
        in_centre = zone_area(game, zone_id) == "centre"
        around = {s: i for i, s in enumerate([*others, bottom])}
        for owner, part in sorted(zv.items(), key=lambda item: around.get(int(item[0]), 0)):
            if picture and is_empty(part):
                continue  # a printed picture leaves out a seat's empty pile (no drop there)
            seat = int(owner)
            title = (f"{info.label} ({game.seat_name(seat)})" if in_centre
                     else info.label)
            spot = Spot(f"{zone_id}[{owner}]", zone_id, title, count_words(game, part, arrange),
                        arrange, part, info.kind, seat)
            areas[None if in_centre else seat].spots.append(spot)
    ordered = [areas[s] for s in others] + [areas[None]]
    if bottom is not None:
        ordered.append(areas[bottom])
    return [a for a in ordered if a.spots]
