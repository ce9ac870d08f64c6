"""How pieces and places are shown: a card's `face` (the attributes printed on it, in the
rulebook's pictures, its legend and the terminal), places and variables off the table
(`on_table: false`), and log lines on the record (`say: ... on_record: true`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from interpreter.assemble.game import compile_game
from interpreter.docs.diagrams import legend_svg, position_svg
from interpreter.errors import RulesetError
from interpreter.load.loader import load_ruleset_text
from interpreter.play.game import Game
from interpreter.run.view import view
from interpreter.view.render import render_view

BASE = (Path(__file__).resolve().parent / "rulesets" / "card_table.yaml").read_text(
    encoding="utf-8")


def game_of(text: str) -> Game:
    return compile_game(load_ruleset_text(text, "shown.yaml"))


FACED = BASE.replace("  sets:\n", "  shape: card\n  face: [value, stars]\n  sets:\n", 1).replace(
    "    value:\n      values: [1, 2, 3, 5]\n",
    "    value:\n      values: [1, 2, 3, 5]\n      short: {1: $1, 2: $2, 3: $3, 5: $5}\n", 1
).replace("    stars:\n      values: [0, 1, 2]\n",
          "    stars:\n      values: [0, 1, 2]\n      names: {0: 0★, 1: 1★, 2: 2★}\n", 1)


def screen(game: Game, seat: int, state: object) -> str:
    console = Console(width=120, color_system=None, record=True)
    console.print(render_view(game, view(game, state, seat), []))
    return console.export_text()


def test_a_card_shows_its_face_attributes_short_form_first_else_name() -> None:
    game = game_of(FACED)
    assert FACED != BASE
    state = game.new_state(2, 1)
    p = state.sites[game.zones["deck"].first][0]
    values = {a: game.attributes[a][p] for a in game.attribute_order}
    expected = f"${values['value']} {values['stars']}★"
    assert game.piece_face(values) == expected
    pieces = [dict(values)]
    assert expected in legend_svg(game, pieces, "legend")
    assert expected in position_svg(game, view(game, state, 1), "position")
    assert f"({expected})" in screen(game, 1, state)


def test_without_face_nothing_more_is_printed() -> None:
    game = game_of(BASE)
    state = game.new_state(2, 1)
    assert "★" not in screen(game, 1, state)
    p = state.sites[game.zones["deck"].first][0]
    assert game.piece_face({a: game.attributes[a][p] for a in game.attribute_order}) == ""


def test_a_face_naming_no_attribute_is_a_located_error() -> None:
    bad = FACED.replace("face: [value, stars]", "face: [value, star]")
    with pytest.raises(RulesetError) as info:
        game_of(bad)
    d = next(d for d in info.value.diagnostics if "face names 'star'" in d.message)
    assert d.location is not None and bad.splitlines()[d.location.line - 1].startswith(
        "  face:")
    assert d.hint is not None and "stars" in d.hint


OFF_TABLE = BASE.replace("  - id: mine\n", "  - id: box\n    kind: pile\n    on_table: false\n"
                         "  - id: mine\n", 1).replace(
    "      start: deck\n", "      start: deck\n    - id: spare\n      label: Spare card\n"
    "      each: {colour: [red], size: [1], value: [1], stars: [0]}\n      start: box\n", 1
) + ("variables:\n  - id: tally\n    initial: 7\n    on_table: false\n"
     "  - id: shown\n    initial: 8\n")


def test_places_and_variables_off_the_table_are_left_out_of_the_screen_and_pictures() -> None:
    game = game_of(OFF_TABLE)
    state = game.new_state(2, 1)
    seen = view(game, state, 1)
    assert "box" in seen["zones"] and seen["variables"]["tally"] == 7  # still in the view
    text = screen(game, 1, state)
    assert "box" not in text.lower() and "tally" not in text
    assert "Shown: 8" in text and "Deck: " in text  # under its label (its id in words)
    picture = position_svg(game, seen, "position")
    assert ">Box · " not in picture and ">Deck · " in picture


def test_each_seat_piles_come_under_its_name_and_empty_ones_are_left_out() -> None:
    game = game_of(BASE)
    state = game.new_state(2, 1)
    game.apply_in_place(state, 1, game.legal_options(state, 1)[0])
    text = screen(game, 2, state)
    assert "Player 1\n  Mine: " in text
    assert "Player 2 (you): nothing" in text


RECORDED = BASE.replace(
    "          - move: p\n            to: mine[current]\n",
    "          - move: p\n            to: shown_pile\n"
    "          - say: \"{seat_name(current)} shows {piece_name(p)}\"\n"
    "            on_record: true\n"
    "          - say: \"{seat_name(current)} keeps {piece_name(p)}\"\n"
    "          - move: p\n            to: mine[current]\n", 1).replace(
    "  - id: mine\n    kind: pile\n    per_seat: true\n",
    "  - id: mine\n    kind: pile\n    per_seat: true\n    contents: owner\n"
    "  - id: shown_pile\n    kind: pile\n", 1).replace(
    "  - id: deck\n    kind: pile\n", "  - id: deck\n    kind: pile\n    contents: nobody\n", 1)


def test_a_line_on_the_record_stays_readable_for_those_who_saw_the_card() -> None:
    """The card is shown face up, then kept face down: the line on the record still names
    it for the other seat; the same line off the record does not."""
    game = game_of(RECORDED)
    assert RECORDED.count("on_record") == 1
    state = game.new_state(2, 1)
    game.apply_in_place(state, 1, game.legal_options(state, 1)[0])
    said = [e.get("say") for e in view(game, state, 2)["log"] if "say" in e]
    mine = [e.get("say") for e in view(game, state, 1)["log"] if "say" in e]
    assert said[0] is not None and said[0].startswith("Player 1 shows ")
    assert said[1] is None  # off the record: the card is face down in Player 1's pile now
    assert mine[1] is not None and mine[1].startswith("Player 1 keeps ")



def rulebook_page(text: str) -> str:
    from interpreter.docs.build import environment, render_game
    from interpreter.docs.rulebook import build_rulebook

    return render_game(environment(), build_rulebook(load_ruleset_text(text, "shown.yaml")),
                       print_link=None)


def test_a_line_on_the_record_says_so_in_the_rulebook() -> None:
    page = rulebook_page(RECORDED)
    assert ("- Announce: “‹the current player› shows ‹*p*›” (kept in the log for everyone "
            "who saw it).") in page
    assert page.count("kept in the log") == 1


SIMULTANEOUS = BASE.replace(
    "  - choose: take\n", "  - choose: take\n    seats: seats\n    on_record: true\n", 1)


def test_a_choose_on_the_record_says_so_and_needs_seats() -> None:
    page = rulebook_page(SIMULTANEOUS)
    assert "each in secret, then show everyone their choices, which stay in the log," in page
    alone = SIMULTANEOUS.replace("    seats: seats\n", "", 1)
    with pytest.raises(RulesetError) as info:
        game_of(alone)
    d = next(d for d in info.value.diagnostics if "'on_record'" in d.message)
    assert "needs 'seats'" in d.message
    assert d.location is not None
    assert alone.splitlines()[d.location.line - 1].strip() == "on_record: true"


BANKED = BASE.replace(
    "          - move: p\n            to: mine[current]\n",
    "          - move: p\n            to: mine[current]\n"
    "          - add: coins\n            seat: current\n            amount: p.value\n"
    "            from: bank\n", 1) + (
    "variables:\n  - id: coins\n    per_seat: true\n    initial: 0\n"
    "  - id: bank\n    initial: 20\n")


def test_add_from_a_bank_moves_the_amount_and_creates_nothing() -> None:
    game = game_of(BANKED)
    for seed in range(5):
        state = game.new_state(2, seed)
        while not state.over:
            seat = game.deciding_seats(state)[0]
            before = sum(state.seat_vars["coins"]) + state.vars["bank"]
            game.apply_in_place(state, seat, game.legal_options(state, seat)[-1])
            assert sum(state.seat_vars["coins"]) + state.vars["bank"] == before == 20
        assert state.vars["bank"] == 20 - sum(state.seat_vars["coins"]) < 20
    assert "Add the value of *p* to the coins of the current player, taking it from the " \
        "bank." in rulebook_page(BANKED)


@pytest.mark.parametrize(("source", "message"), [
    ("bank", None),
    ("coins", "'from' takes a game variable (a bank, a pot), and 'coins' is per seat"),
    ("bnak", "unknown variable 'bnak'"),
])
def test_add_from_names_a_game_variable(source: str, message: str | None) -> None:
    text = BANKED.replace("            from: bank\n", f"            from: {source}\n")
    if message is None:
        game_of(text)
        return
    with pytest.raises(RulesetError) as info:
        game_of(text)
    d = next(d for d in info.value.diagnostics if message in d.message)
    assert d.location is not None
    assert text.splitlines()[d.location.line - 1].strip() == f"from: {source}"


def test_a_face_up_shared_pile_shows_its_pieces_when_pieces_have_a_glyph() -> None:
    """With `pieces.glyph` set, a shared pile everyone sees once showed only its count
    ("Pile: 6 pieces") in the terminal; it shows its pieces as a seat's own piles do,
    and the picture (the browser's and the rulebook's) draws each of them."""
    text = (Path(__file__).resolve().parent / "rulesets" / "minimal.yaml").read_text(
        encoding="utf-8").replace("pieces:\n  attributes:",
                                  "pieces:\n  glyph: size\n  style: colour\n  attributes:", 1)
    game = game_of(text)
    state = game.new_state(2, 1)
    shown = screen(game, 1, state)
    assert "Pile: red 1 2 3 · blue 1 2 3" in shown, shown
    assert "6 pieces" not in shown
    picture = position_svg(game, view(game, state, 1), "pile", targets=True)
    assert picture.count('class="tt-piece"') == 6
