"""Where zones sit on the table (`interpreter.docs.table_layout`, zone `area:` and
`arrange:`): the browser's `areas` (opponents after the viewer, the centre, mine), each
zone once per owner in its arrangement, nothing a seat may not know, the same click
targets as the one picture, and a laid-out table for a ruleset that says nothing of
how it looks."""

from __future__ import annotations

import itertools
import random
import re
from functools import cache

import pytest
from test_hidden_information import differ_in_hidden, random_position

from interpreter.api import load_game
from interpreter.assemble.game import Game, compile_game
from interpreter.docs.diagrams import TAP, position_svg, table_pictures
from interpreter.docs.table_layout import plan_table, zone_arrangement
from interpreter.errors import TabletopError
from interpreter.load.loader import load_ruleset_text
from interpreter.run.view import SPECTATOR, view
from interpreter.serve.app import Server
from interpreter.serve.tables import Store, Table
from interpreter.simulate.record import SavedGame

FIVE = [("aquarium", 3), ("aquarius-rising", 4), ("bottoms-up", 4), ("high-rise", 2),
        ("caldera", 2)]

PLAIN = """\
tabletop: 1
game:
  name: plain
  title: Plain
  seats: {min: 2, max: 4}
  summary: Play your two cards onto the board.
pieces:
  attributes:
    colour:
      values: [red, blue]
    rank:
      values: [1, 2, 3]
  shape: card
  sets:
    - id: cards
      each: {colour: [red, blue], rank: [1, 2, 3]}
      count: 2
      start: deck
zones:
  - id: deck
    kind: pile
    contents: nobody
  - id: board
    kind: grid
    rows: 2
    cols: 3
  - id: hand
    kind: pile
    per_seat: true
    contents: owner
setup:
  - for_each: s
    in: seats
    do:
      - move: top(deck)
        to: hand[s]
      - move: top(deck)
        to: hand[s]
turn:
  - choose: Play a card
    options:
      - id: play
        for:
          c: pieces(hand[current])
          square: cells(board)
        where: empty(square)
        notation: "{piece_code(c)}-{place_name(square)}"
        label: "play {piece_code(c)} on {place_name(square)}"
        do:
          - move: c
            to: square
end:
  - id: done
    when: count(pieces(hand[1])) == 0
    winners: "[1]"
"""
"""A ruleset that says nothing of how its table looks: a deck, a board, hands."""


@cache
def game_of(name: str) -> Game:
    return load_game(name)


def plain() -> Game:
    return compile_game(load_ruleset_text(PLAIN, "plain.yaml"))


def roles(areas: list[dict]) -> list[tuple[str, int | None]]:
    return [(a["role"], a["seat"]) for a in areas]


def areas_for(game: Game, seat: int | None, players: int, seed: int = 1) -> list[dict]:
    state = game.new_state(players, seed)
    seen = view(game, state, SPECTATOR if seat is None else seat)
    return table_pictures(game, seen, seat, game.title)[1]


# -- areas: who sits where --------------------------------------------------------------

def test_a_seat_sees_the_opponents_after_it_then_the_centre_then_its_own() -> None:
    areas = areas_for(game_of("aquarium"), 2, 4)
    assert roles(areas) == [("opponent", 3), ("opponent", 4), ("opponent", 1),
                            ("centre", None), ("mine", 2)]
    assert [a["title"] for a in areas] == ["Player 3", "Player 4", "Player 1", "The table",
                                           "You (Player 2)"]


def test_a_spectator_sees_every_seat_as_an_opponent() -> None:
    areas = areas_for(game_of("aquarium"), None, 3)
    assert roles(areas) == [("opponent", 1), ("opponent", 2), ("opponent", 3),
                            ("centre", None)]


def test_the_hot_seat_device_shows_the_deciding_seat_as_its_own() -> None:
    game = game_of("high-rise")
    state = game.new_state(2, 1)
    record = SavedGame.start(game, 2, 1, {})
    table = Table("0" * 16, game, game.name, state, record, {}, "s" * 16, True)
    seat = game.deciding_seats(state)[0]
    message = Server(Store(None)).state_message(table, seat, True)
    assert roles(message["areas"])[-1] == ("mine", seat)
    assert roles(message["areas"])[-2] == ("centre", None)


@pytest.mark.parametrize(("name", "players"), FIVE)
def test_every_zone_on_the_table_is_laid_out_once_per_owner(name: str, players: int) -> None:
    game = game_of(name)
    expected = []
    for zone_id, info in game.zones.items():
        if not info.on_table:
            continue
        if info.per_seat:
            expected += [f"{zone_id}[{s}]" for s in range(1, players + 1)]
        else:
            expected.append(zone_id)
    for seat in (1, None):
        areas = areas_for(game, seat, players)
        places = [z["place"] for a in areas for z in a["zones"]]
        assert sorted(places) == sorted(expected)
        for area in areas:  # a seat's zones lie in its own area (none says otherwise)
            for zone in area["zones"]:
                owner = re.search(r"\[(\d+)\]$", zone["place"])
                assert area["seat"] == (int(owner.group(1)) if owner else None)


def test_each_zone_has_the_contracts_words_and_its_own_picture() -> None:
    game = game_of("aquarium")
    mine = areas_for(game, 1, 3)[-1]
    hand = next(z for z in mine["zones"] if z["zone"] == "hand")
    assert (hand["place"], hand["title"], hand["count"], hand["arrange"]) == (
        "hand[1]", "Action cards in hand", "9 cards", "fan")
    assert re.match(r'<svg [^>]*width="[\d.]+" height="[\d.]+" viewBox="0 0 [\d.]+ [\d.]+"',
                    hand["svg"])
    theirs = areas_for(game, 1, 3)[0]
    hidden = next(z for z in theirs["zones"] if z["zone"] == "hand")
    assert hidden["count"] == "9 cards, hidden"
    centre = areas_for(game, 1, 3)[-2]
    words = {z["zone"]: (z["count"], z["arrange"]) for z in centre["zones"]}
    assert words["deck"][1] == "stack" and words["deck"][0].endswith("cards, hidden")
    assert words["shop"] == ("1 card", "row")
    assert words["discard"] == ("empty", "stack")  # the ruleset's `arrange: stack`


def _width(svg: str) -> float:
    return float(re.match(r'<svg [^>]*width="([\d.]+)"', svg).group(1))


def test_an_opponents_zones_are_drawn_smaller_than_ones_own() -> None:
    game = game_of("aquarium")
    areas = areas_for(game, 1, 3)
    theirs = next(z for z in areas[0]["zones"] if z["zone"] == "aquarium")
    mine = next(z for z in areas[-1]["zones"] if z["zone"] == "aquarium")
    assert _width(theirs["svg"]) < _width(mine["svg"])


def test_ones_own_hand_fans_each_card_at_least_a_finger_wide() -> None:
    game = game_of("aquarium")
    hand = next(z for z in areas_for(game, 1, 3)[-1]["zones"] if z["zone"] == "hand")
    centres = [float(x) for x in re.findall(r'rotate\(-?[\d.]+ ([\d.]+) ', hand["svg"])]
    assert len(centres) == 9
    assert min(b - a for a, b in itertools.pairwise(centres)) >= TAP
    assert hand["svg"].count('class="tt-piece"') == 9


# -- a ruleset that says nothing ----------------------------------------------------------

def test_a_ruleset_with_no_presentation_words_still_gets_a_laid_out_table() -> None:
    game = plain()
    areas = areas_for(game, 2, 3)
    assert roles(areas) == [("opponent", 3), ("opponent", 1), ("centre", None),
                            ("mine", 2)]
    arranged = {(a["role"], z["zone"]): (z["arrange"], z["count"])
                for a in areas for z in a["zones"]}
    assert arranged[("mine", "hand")] == ("fan", "2 cards")
    assert arranged[("opponent", "hand")] == ("fan", "2 cards, hidden")
    assert arranged[("centre", "deck")] == ("stack", "6 cards, hidden")
    assert arranged[("centre", "board")] == ("grid", "empty")


def test_area_and_arrange_move_a_zone_and_change_how_it_lies() -> None:
    text = PLAIN.replace("  - id: hand\n    kind: pile\n",
                         "  - id: hand\n    kind: pile\n    area: centre\n    arrange: row\n")
    game = compile_game(load_ruleset_text(text, "plain.yaml"))
    assert zone_arrangement(game, "hand") == "row"
    areas = areas_for(game, 1, 2)
    assert roles(areas) == [("centre", None)]
    assert [z["title"] for z in areas[0]["zones"]] == [
        "Deck", "Board", "Hand (Player 2)", "Hand (Player 1)"]  # the viewer's nearest


@pytest.mark.parametrize(("where", "says", "why"), [
    ("  - id: deck\n    kind: pile\n", "area: seat", "a shared zone has no owner"),
    ("  - id: board\n    kind: grid\n", "arrange: fan", "a grid board is drawn as its squares"),
    ("  - id: hand\n    kind: pile\n", "arrange: grid", "is for a grid or hex board"),
])
def test_an_area_or_arrangement_that_cannot_be_is_refused_with_its_place(
        where: str, says: str, why: str) -> None:
    text = PLAIN.replace(where, f"{where}    {says}\n")
    with pytest.raises(TabletopError) as info:
        compile_game(load_ruleset_text(text, "plain.yaml"))
    message = str(info.value)
    assert "plain.yaml:" in message
    assert why in message


# -- secrecy and targets ---------------------------------------------------------------------

@pytest.mark.parametrize(("name", "players", "seat", "steps"), [
    ("goofspiel", 2, 2, 12), ("kuhn-poker", 2, 1, 1), ("move-cards", 2, 1, 6)])
def test_the_areas_show_nothing_a_seat_may_not_know(name: str, players: int, seat: int,
                                                    steps: int) -> None:
    """Two positions that differ only in what the seat may not see (another deal of the
    hidden places whose view is the same) give the same areas."""
    game = game_of(name)
    compared = 0
    for seed in range(12):
        state = random_position(game, players, seed, steps)
        other = differ_in_hidden(game, state, seat, random.Random(seed))
        a, b = view(game, state, seat), view(game, other, seat)
        if other.lists() == state.lists() or a != b:
            continue  # nothing hidden was dealt otherwise, or its backs tell
        assert table_pictures(game, a, seat, "t") == table_pictures(game, b, seat, "t")
        compared += 1
    assert compared >= 3


@pytest.mark.parametrize(("name", "players"), FIVE)
def test_every_target_of_the_one_picture_is_in_the_areas(name: str, players: int) -> None:
    game = game_of(name)
    state = random_position(game, players, 2, 20)
    seen = view(game, state, 1)
    svg, areas = table_pictures(game, seen, 1, game.title)
    zones = "".join(z["svg"] for a in areas for z in a["zones"])
    for attribute in ("data-place", "data-piece"):
        marked = re.findall(rf'{attribute}="([^"]*)"', svg)
        assert marked, attribute
        assert sorted(marked) == sorted(re.findall(rf'{attribute}="([^"]*)"', zones))


def test_the_rulebooks_picture_is_the_same_table_seat_one_at_the_bottom() -> None:
    game = game_of("aquarium")
    seen = view(game, game.new_state(3, 1), SPECTATOR)
    areas = plan_table(game, seen, None, picture=True)
    assert [(a.role, a.seat) for a in areas] == [("opponent", 2), ("opponent", 3),
                                                 ("centre", None), ("mine", 1)]
    svg = position_svg(game, seen, "set-up")
    titles = re.findall(r'font-weight="bold" fill="#4a4338">([^<]*)<', svg)
    assert titles == ["Player 2", "Player 3", "The table", "Player 1"]
    assert "Action cards in hand · 9 cards, hidden" in svg
