"""How a card's face is drawn from its data (pieces.card, or a set's `card`), and how
every piece carries a mark besides its colour and its name for screen readers: in the
pictures (rulebook, browser) and the terminal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.api import load_game
from interpreter.assemble.game import compile_game
from interpreter.docs.diagrams import PieceStyle, _Canvas, legend_svg, position_svg
from interpreter.errors import RulesetError
from interpreter.load.loader import load_ruleset_text
from interpreter.play.game import Game
from interpreter.run.view import view
from interpreter.view.render import render_view

BASE = (Path(__file__).resolve().parent / "rulesets" / "card_table.yaml").read_text(
    encoding="utf-8")
FACE = """  shape: card
  card:
    title: "{size}"
    corner: "${value}"
    icon: ★
    icons: piece.stars
  sets:
"""


def game_of(text: str) -> Game:
    return compile_game(load_ruleset_text(text, "faces.yaml"))


def faced(face: str = FACE) -> Game:
    return game_of(BASE.replace("  sets:\n", face, 1))


def values(game: Game, piece: int) -> dict:
    return {a: game.attributes[a][piece] for a in game.attribute_order
            if game.attributes[a][piece] is not None}


def drawn_card(game: Game, piece: dict, height: float = 100.0) -> str:
    c = _Canvas(targets=True)
    c.piece(PieceStyle(game), piece, 100.0, 200.0, 16.0, height)
    return "".join(c.parts)


def texts(svg: str) -> list[str]:
    return re.findall(r">([^<>]+)</text>", svg)


# -- the language -------------------------------------------------------------------------

def test_a_card_face_is_worked_out_from_its_data() -> None:
    game = faced()
    shown = {(c.title, c.corner, c.icons) for c in game.piece_cards}
    assert ("1", "$1", "★") in shown
    assert ("2", "$5", "★★") in shown


@pytest.mark.parametrize(("face", "message", "line"), [
    (FACE.replace('"{size}"', '"{siz}"'), r"unknown name 'siz'", 22),
    (FACE.replace('"${value}"', '"${value +}"'), r"syntax error", 23),
    (FACE.replace("piece.stars", "piece.stars +"), r"syntax error", 25),
    (FACE.replace("piece.stars", "piece.colour"), r"whole number from 0 to 12", 25),
])
def test_a_bad_face_is_a_located_error(face: str, message: str, line: int) -> None:
    with pytest.raises(RulesetError) as caught:
        faced(face)
    text = str(caught.value)
    assert re.search(message, text), text
    assert f"faces.yaml:{line}:" in text, text


def test_a_band_naming_no_attribute_is_a_located_error() -> None:
    with pytest.raises(RulesetError) as caught:
        faced(FACE.replace("  card:\n", "  card:\n    band: colur\n"))
    text = str(caught.value)
    assert "colur" in text and "colour" in text  # did you mean
    assert "faces.yaml:" in text


def test_a_set_may_have_its_own_face() -> None:
    text = BASE.replace("  sets:\n", FACE, 1).replace(
        "      label: Fish card\n", "      label: Fish card\n      card: {title: Fishy}\n")
    game = game_of(text)
    assert {c.title for c in game.piece_cards} == {"Fishy"}
    assert {c.corner for c in game.piece_cards} == {"1", "2"}  # the default: its size


def test_without_card_a_card_still_gets_a_face_with_a_title() -> None:
    game = game_of(BASE.replace("  sets:\n", "  shape: card\n  sets:\n", 1))
    card = game.piece_cards[0]
    assert card is not None and card.title == "red 1 1 1"  # its name
    assert card.corner == "1"  # its first number
    svg = drawn_card(game, values(game, 0))
    assert "red" in " ".join(texts(svg))


# -- the pictures -------------------------------------------------------------------------

def test_a_drawn_face_shows_its_title_corner_and_one_icon_per_star() -> None:
    game = faced()
    for p in range(game.n_pieces):
        piece = values(game, p)
        svg = drawn_card(game, piece)
        words = texts(svg)
        assert str(piece["size"]) in words
        assert f"${piece['value']}" in words
        assert "".join(words).count("★") == piece["stars"]


def test_a_small_card_drops_detail_but_keeps_its_corner() -> None:
    game = faced()
    piece = values(game, 2)  # size 2, $3, two stars
    svg = drawn_card(game, piece, height=28.0)
    assert texts(svg) == ["$3", "R"] or "$3" in texts(svg)
    assert "★" not in "".join(texts(svg))


def test_every_coloured_value_carries_a_mark_besides_its_colour() -> None:
    game = faced()
    for p in range(game.n_pieces):
        piece = values(game, p)
        svg = drawn_card(game, piece, height=60.0)
        assert piece["colour"][0].upper() in texts(svg)


def test_pyramids_show_their_colour_letter_as_well_as_their_size() -> None:
    game = load_game("caldera")
    style = PieceStyle(game)
    for colour in game.ruleset.pieces.attributes["colour"].values:
        c = _Canvas()
        c.piece(style, {"colour": colour, "size": 3}, 50, 100, 16, 46)
        words = texts("".join(c.parts))
        assert game.ruleset.pieces.attributes["colour"].short[colour] in words, words
        assert "L" in words


def test_element_quarters_are_coloured_by_their_element_with_its_letter() -> None:
    game = load_game("aquarius-rising")
    style = PieceStyle(game)
    card = {"kind": "element_card", "tl": "fire", "tr": "water", "bl": "air", "br": "earth"}
    c = _Canvas()
    c.piece(style, card, 50, 100, 16, 69)
    svg = "".join(c.parts)
    for element, letter in (("fire", "F"), ("water", "W"), ("air", "A"), ("earth", "E")):
        fill = style.value_colour("tl", element)
        assert f'fill="{fill}"' in svg
        assert letter in texts(svg)


def test_a_goal_card_is_banded_and_marked_by_its_element() -> None:
    game = load_game("aquarius-rising")
    style = PieceStyle(game)
    svg = drawn_card(game, {"kind": "goal_card", "goal": "water"}, 69.0)
    assert f'fill="{style.value_colour("goal", "water")}"' in svg
    assert "W" in texts(svg) and "Water goal" in " ".join(texts(svg))


def test_a_die_shows_its_pips() -> None:
    game = load_game("pig")
    for pips in range(1, 7):
        svg = drawn_card(game, {"pips": pips}, 40.0)
        assert svg.count("<circle") == pips


def test_a_face_down_card_shows_its_back_words() -> None:
    game = load_game("aquarium")
    svg = drawn_card(game, {"hidden": True, "back": "Aquarium card"}, 100.0)
    assert "Aquarium" in " ".join(texts(svg))
    assert "tt-piece" not in svg  # nothing names a hidden piece


def test_pieces_on_the_table_carry_their_name_for_screen_readers() -> None:
    game = faced()
    state = game.new_state(2, 1)
    svg = position_svg(game, view(game, state, 1), "table", targets=True)
    pieces = re.findall(r'<g class="tt-piece"[^>]*>', svg)
    assert pieces
    for tag in pieces:
        assert 'role="img"' in tag
        name = re.search(r'aria-label="([^"]+)"', tag)
        assert name is not None and name.group(1)
    assert "<title>" in svg


def test_aquarium_legend_shows_each_fish_cards_stars() -> None:
    game = load_game("aquarium")
    fish = [values(game, p) for p in range(game.n_pieces)
            if game.attributes["kind"][p] == "fish" and game.attributes["stars"][p] == 3]
    svg = legend_svg(game, fish, "legend")
    assert "★★★" in svg and "$5" in svg


# -- the terminal -------------------------------------------------------------------------

def test_the_terminal_lists_a_card_by_its_face() -> None:
    game = faced()
    state = game.new_state(2, 1)
    console = Console(width=120, color_system=None, record=True)
    console.print(render_view(game, view(game, state, 1), []))
    shown = console.export_text()
    assert "($1 ★)" in shown or "($3 ★★)" in shown or "($5 ★★)" in shown, shown


def test_a_card_lacking_its_face_attributes_has_an_empty_corner() -> None:
    """Aquarium's action cards have no value or stars: their corner said `None None`."""
    game = load_game("aquarium")
    corners = {c.corner for p, c in enumerate(game.piece_cards)
               if game.attributes["kind"][p] == "action"}
    assert corners == {""}


def test_a_small_card_too_narrow_for_its_words_shows_their_short_form() -> None:
    """In a pile, Aquarium's Replacement fish card showed only `R`."""
    game = load_game("aquarium")
    svg = drawn_card(game, {"kind": "action", "action": "replacement"}, 40.0)
    assert "replace" in texts(svg)
    large = drawn_card(game, {"kind": "action", "action": "replacement"}, 100.0)
    assert "Replacement" in " ".join(texts(large))


def test_a_pyramid_seen_from_above_on_a_card_shows_its_colour_letter() -> None:
    game = load_game("aquarius-rising")
    c = _Canvas()
    c.marker(PieceStyle(game), {"kind": "pyramid", "colour": "blue", "size": 3}, 50, 50, 40)
    assert "b" in texts("".join(c.parts))


def test_dice_are_one_plain_colour_their_pips_tell_them_apart() -> None:
    game = load_game("pig")
    fills = {re.search(r'<rect[^>]* fill="([^"]+)"', drawn_card(game, {"pips": n})).group(1)
             for n in range(1, 7)}
    assert len(fills) == 1
