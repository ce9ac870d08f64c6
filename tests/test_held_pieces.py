"""Variables that hold pieces or places (`holds: pieces` / `places`): a view shows each
held piece as the seat sees it and each place by its name; a value that is not one is a
located error; the terminal names them; and `ismcts`, which draws positions from what a
seat may know, never reads a hidden piece through such a variable."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from test_renumbering import compare, renumbered

from interpreter.agents.information import InformationSet
from interpreter.assemble.game import Game, compile_game
from interpreter.errors import RuleError
from interpreter.load.loader import load_ruleset, load_ruleset_text
from interpreter.play.game import show_value
from interpreter.run.state import State
from interpreter.run.view import view

HELD = Path(__file__).resolve().parent / "rulesets" / "held.yaml"


@cache
def held() -> Game:
    return compile_game(load_ruleset(HELD))


def undeclared() -> Game:
    """The same game, its variables not saying what they hold."""
    text = HELD.read_text(encoding="utf-8")
    bare = text.replace("    holds: pieces\n", "").replace("    holds: places\n", "")
    assert bare.count("holds:") == text.count("holds:") - 5
    return compile_game(load_ruleset_text(bare, str(HELD)))


def played(game: Game, moves: list[tuple[int, str]]) -> State:
    state = game.new_state(2, 3)
    for seat, notation in moves:
        game.apply_in_place(state, seat, notation)
    return state


def test_held_pieces_show_as_the_seat_sees_them_and_places_by_name() -> None:
    game = held()
    state = played(game, [(1, "draw"), (2, "draw")])
    first, second = state.vars["taken"]
    colour = game.attributes["colour"]
    mine = view(game, state, 1)["variables"]
    drawn = {"colour": colour[first], "drawn_from": "deck"}  # a piece's own value: a place
    assert mine["taken"] == [drawn, {"hidden": True, "back": "Card"}]
    assert mine["newest"] == {"hidden": True, "back": "Card"}
    assert mine["last_place"] == "hand[2]"
    assert mine["first_card"] == {"1": drawn, "2": {"hidden": True, "back": "Card"}}
    assert view(game, state, 2)["variables"]["newest"] == {"colour": colour[second],
                                                           "drawn_from": "deck"}
    assert view(game, state, 1)["zones"]["hand"]["1"]["pieces"] == [drawn]


def test_a_held_piece_played_face_up_is_described_to_everyone() -> None:
    game = held()
    state = played(game, [(1, "draw")])
    card = state.vars["newest"]
    game.apply_in_place(state, 2, "draw")
    game.apply_in_place(state, 1, f"play-{game.attributes['colour'][card]}")
    assert view(game, state, 2)["variables"]["first_card"]["1"] == {
        "colour": game.attributes["colour"][card], "drawn_from": "deck"}


def test_without_holds_the_view_shows_numbers_which_the_renumbering_check_catches() -> None:
    game = undeclared()
    state = played(game, [(1, "draw")])
    assert view(game, state, 2)["variables"]["newest"] == state.vars["newest"]  # a number
    with pytest.raises(AssertionError, match=r"\.(taken|newest|last_place|first_card|drawn_from)"):
        compare(game, compile_game(renumbered(game.loaded)), 2, seed=1)


def test_with_holds_the_renumbering_check_passes() -> None:
    game = held()
    assert compare(game, compile_game(renumbered(game.loaded)), 2, seed=1) > 10


def test_a_value_that_is_not_a_piece_or_place_is_a_located_error() -> None:
    game = held()
    state = played(game, [(1, "draw")])
    state.vars["taken"] = ["red"]
    with pytest.raises(RuleError) as caught:
        view(game, state, 1)
    message = str(caught.value)
    assert "held.yaml:" in message and "the variable 'taken' holds pieces" in message
    assert "the text 'red', which is not a piece" in message
    state.vars["taken"], state.vars["last_place"] = [], 10 ** 6
    with pytest.raises(RuleError, match="holds places, but its value has the number "
                                        "1000000, which is not a place"):
        view(game, state, 1)


def test_the_terminal_names_held_pieces() -> None:
    game = held()
    state = played(game, [(1, "draw"), (2, "draw")])
    shown = view(game, state, 1)["variables"]
    first = game.attributes["colour"][state.vars["taken"][0]]
    assert show_value(game, shown["taken"]) == f"{first}, a hidden Card"
    assert show_value(game, {"hidden": True}) == "a hidden piece"
    assert show_value(game, shown["last_place"]) == "hand[2]"


def test_ismcts_positions_do_not_read_a_hidden_card_through_a_held_variable() -> None:
    """Seat 2 drew the last card into its hand: for seat 1 the cards there are dealt
    anew, and `newest` follows the deal (it names the card now where the drawn one lay),
    so what it names varies from draw to draw instead of always being the true card."""
    game = held()
    state = played(game, [(1, "draw"), (2, "draw"), (1, "draw"), (2, "draw")])
    true = state.vars["newest"]
    hand = game.zones["hand"].site_for(2)
    where = state.sites[hand].index(true)
    positions = InformationSet(game, state, 1)
    colours: Counter[str] = Counter()
    for draw in range(60):
        other = positions.sample(random.Random(draw).randrange(1 << 62))
        assert other.vars["newest"] == other.sites[hand][where]  # the same place
        assert other.vars["taken"][:1] == state.vars["taken"][:1]  # seat 1's own card stays
        colours[game.attributes["colour"][other.vars["newest"]]] += 1
    assert len(colours) == 3, colours
