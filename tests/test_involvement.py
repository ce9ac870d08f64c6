"""What each legal option involves (interpreter.view.involvement), and the click targets
the position's picture carries for it (position_svg(..., targets=True))."""

from __future__ import annotations

import re

import pytest

from interpreter.api import load_game
from interpreter.assemble.game import compile_game
from interpreter.docs.diagrams import position_svg
from interpreter.load.loader import load_ruleset_text
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import view
from interpreter.view.involvement import involvement, places_of


def _until(game: Game, state: State, kind: str, limit: int = 200) -> int:
    """Play the first option (other kinds first) until a seat has an option of `kind`;
    that seat."""
    for _ in range(limit):
        seats = game.deciding_seats(state)
        assert seats, f"the game ended before an option '{kind}'"
        seat = seats[0]
        options = game.legal_options(state, seat)
        if any(o.kind == kind for o in options):
            return seat
        game.apply_in_place(state, seat, options[0])
    raise AssertionError(f"no option '{kind}' in {limit} decisions")


def test_a_caldera_cap_move_involves_its_origin_then_its_destination() -> None:
    game = load_game("caldera")
    state = game.new_state(2, seed=3)
    seat = game.deciding_seats(state)[0]
    options = game.legal_options(state, seat)
    moves = [o for o in options if o.kind == "cap_move"]
    assert moves
    for option, items in zip(options, involvement(game, state, seat, options), strict=True):
        if option.kind != "cap_move":
            continue
        origin = option.notation.split("-")[0]
        destination = option.label.rsplit(" to ", 1)[1]
        assert items == [{"place": origin}, {"place": destination}], option


def test_a_caldera_power_play_involves_the_captured_piece_then_the_square() -> None:
    game = load_game("caldera")
    state = game.new_state(2, seed=3)
    seat = _until(game, state, "power_play", limit=400)
    options = game.legal_options(state, seat)
    for option, items in zip(options, involvement(game, state, seat, options), strict=True):
        if option.kind == "power_play":
            _, code, square = option.notation.split("-")
            assert items == [{"piece": code, "place": f"captured[{seat}]"},
                             {"place": square}]


def test_a_high_rise_placement_involves_the_piece_in_the_supply_then_the_square() -> None:
    game = load_game("high-rise")
    state = game.new_state(2, seed=1)
    for _ in range(3):
        seat = game.deciding_seats(state)[0]
        options = game.legal_options(state, seat)
        found = involvement(game, state, seat, options)
        for option, items in zip(options, found, strict=True):
            code, square = option.notation.split("-")
            assert items == [{"piece": code, "place": f"supply[{seat}]"}, {"place": square}]
            assert places_of(items) == [f"supply[{seat}]", square]
        game.apply_in_place(state, seat, options[len(options) // 2])


def test_bottoms_up_options_involve_the_stash_piece_and_the_stack_or_nothing() -> None:
    game = load_game("bottoms-up")
    state = game.new_state(4, seed=2)
    seat = game.deciding_seats(state)[0]
    options = game.legal_options(state, seat)
    assert {o.kind for o in options} == {"start"}  # a colour: nothing on the table
    assert involvement(game, state, seat, options) == [[] for _ in options]
    seat = _until(game, state, "place")
    options = game.legal_options(state, seat)
    found = involvement(game, state, seat, options)
    kinds = set()
    for option, items in zip(options, found, strict=True):
        kinds.add(option.kind)
        code, where = option.notation.split("-", 1)
        if option.kind == "place":
            assert items == [{"piece": code, "place": "stash"}, {"place": where}]
        else:
            assert option.kind == "open_field"
            assert items == [{"piece": code, "place": "stash"}]
    assert "place" in kinds


def test_aquarius_rising_plays_a_card_from_the_hand_onto_a_square() -> None:
    game = load_game("aquarius-rising")
    state = game.new_state(2, seed=1)
    seat = game.deciding_seats(state)[0]
    options = game.legal_options(state, seat)
    found = involvement(game, state, seat, options)
    grounds = [(o, items) for o, items in zip(options, found, strict=True)
               if o.kind == "ground"]
    assert grounds
    for option, items in grounds:
        code, square = option.notation.split()[:2]
        assert items == [{"piece": code, "place": f"hand[{seat}]"}, {"place": square}]


HIDDEN_DECK = """
tabletop: 1
game: {name: hidden-deck, title: Hidden deck, designer: Test, seats: {min: 2, max: 2},
       summary: s}
pieces:
  attributes: {colour: {values: [red, blue]}, size: {values: [1, 2]}}
  sets: [{id: c, each: {colour: [red, blue], size: [1, 2]}, start: deck}]
zones:
  - {id: deck, kind: pile, contents: nobody}
  - {id: mine, kind: pile, per_seat: true}
  - {id: board, kind: grid, rows: 2, cols: 2}
define:
  spot(sq): "place_name(sq)"
turn:
  - choose: "take or place"
    options:
      - id: draw
        for: {card: "[top(deck)]"}
        notation: "draw"
        do:
          - move: card
            to: mine[current]
      - id: put
        for: {p: "pieces(mine[current])", sq: "cells(board)"}
        where: "p.size > 0"
        notation: "put {p.colour}{p.size} {spot(sq)}"
        do:
          - move: p
            to: sq
end:
  - {id: full, when: "count(pieces(deck)) == 0"}
"""


def test_a_piece_the_seat_may_not_see_stands_as_its_place_alone() -> None:
    game = compile_game(load_ruleset_text(HIDDEN_DECK), {})
    state = game.new_state(2, seed=0)
    options = game.legal_options(state, 1)
    assert [o.kind for o in options] == ["draw"]
    assert involvement(game, state, 1, options) == [[{"place": "deck"}]]
    game.apply_in_place(state, 1, "draw")
    game.apply_in_place(state, 2, "draw")
    options = game.legal_options(state, 1)
    found = involvement(game, state, 1, options)
    code = game.piece_codes[state.sites[game.site_by_name["mine[1]"]][0]]
    puts = [items for o, items in zip(options, found, strict=True) if o.kind == "put"]
    # the piece's role comes from `p.size` and `move: p`, the square's from a definition
    assert puts and all(items[0] == {"piece": code, "place": "mine[1]"} for items in puts)
    assert sorted(items[1]["place"] for items in puts) == ["a1", "a2", "b1", "b2"]


def test_a_notation_that_names_places_is_the_fallback() -> None:
    text = HIDDEN_DECK.replace('notation: "draw"', 'notation: "draw a1"')
    game = compile_game(load_ruleset_text(text), {})
    state = game.new_state(2, seed=0)
    options = game.legal_options(state, 1)
    # `card` is a piece the seat may not see: its place, then the place in the notation
    assert involvement(game, state, 1, options) == [[{"place": "deck"}]]
    plain = compile_game(load_ruleset_text(text.replace("[top(deck)]", "[1, 2]").replace(
        "move: card", "move: top(deck)")), {})
    state = plain.new_state(2, seed=0)
    options = plain.legal_options(state, 1)
    assert involvement(plain, state, 1, options)[0] == [{"place": "a1"}]


# -- click targets in the picture ------------------------------------------------------

def _targets(svg: str) -> tuple[list[str], list[str]]:
    return (re.findall(r'data-place="([^"]*)"', svg), re.findall(r'data-piece="([^"]*)"', svg))


@pytest.mark.parametrize("name, players", [("caldera", 2), ("high-rise", 2),
                                           ("bottoms-up", 4), ("aquarius-rising", 2)])
def test_the_picture_marks_every_place_an_option_involves(name: str, players: int) -> None:
    game = load_game(name)
    state = game.new_state(players, seed=4)
    for _ in range(6):
        seat = game.deciding_seats(state)[0]
        game.apply_in_place(state, seat, 0)
    seat = game.deciding_seats(state)[0]
    svg = position_svg(game, view(game, state, seat), "t", targets=True)
    places, pieces = _targets(svg)
    options = game.legal_options(state, seat)
    for items in involvement(game, state, seat, options):
        for item in items:
            assert item["place"] in places
            if "piece" in item:
                assert item["piece"] in pieces
    assert svg.count('<g class="tt-place"') == svg.count('class="tt-frame"')


def test_without_targets_the_picture_is_unchanged_and_with_them_only_grows() -> None:
    game = load_game("caldera")
    state = game.new_state(2, seed=1)
    seen = view(game, state, 0)
    plain = position_svg(game, seen, "t")
    assert "data-place" not in plain and "tt-" not in plain
    marked = position_svg(game, seen, "t", targets=True)
    stripped = re.sub(r'<g class="tt-(place|piece)" data-(place|piece)="[^"]*"'
                      r'(?: role="img" aria-label="[^"]*")?>\n', "", marked)
    stripped = re.sub(r'<rect class="tt-frame"[^>]*/>\n', "", stripped).replace("</g>\n", "")
    assert stripped == plain.replace("</g>\n", "")  # a zone's own group closes alike


def test_hidden_pieces_are_no_targets_and_another_seat_sees_no_codes() -> None:
    game = load_game("aquarium")
    state = game.new_state(2, seed=5)
    mine = view(game, state, 1)
    svg_1 = position_svg(game, mine, "t", targets=True)
    svg_2 = position_svg(game, view(game, state, 2), "t", targets=True)
    hand = state.sites[game.site_by_name["hand[1]"]]
    assert hand
    codes = {game.piece_codes[p] for p in hand}
    block = re.search(r'data-place="hand\[1\]">(.*?)<rect class="tt-frame"', svg_1, re.S)
    assert block and set(re.findall(r'data-piece="([^"]*)"', block.group(1))) == codes
    other = re.search(r'data-place="hand\[1\]">(.*?)<rect class="tt-frame"', svg_2, re.S)
    assert other is None or "data-piece" not in other.group(1)
