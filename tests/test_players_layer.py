"""The rulebook's players' layer in players' words: no bookkeeping (variables and places
no player sees), component lines in English, the whole scoring and every end with its
winner, rulings that do not repeat their titles, and option notes that list what an
option touches."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.compile.english import humanize
from interpreter.docs.build import environment, render_game
from interpreter.docs.players import bookkeeping_variables, off_table_zones
from interpreter.docs.rulebook import Rulebook, _terms_used, build_rulebook
from interpreter.load.loader import load_ruleset, load_ruleset_text
from interpreter.load.schema import Definition

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(p.name.removesuffix(".yaml") for p in (ROOT / "rulesets").glob("*.yaml")
                 if not p.name.endswith(".tests.yaml")
                 and "extends:" not in p.read_text(encoding="utf-8"))
FIVE = ["caldera", "bottoms-up", "high-rise", "aquarium", "aquarius-rising"]
_BOOKS: dict[str, Rulebook] = {}


def book_of(name: str) -> Rulebook:
    if name not in _BOOKS:
        _BOOKS[name] = build_rulebook(load_ruleset(ROOT / "rulesets" / f"{name}.yaml"))
    return _BOOKS[name]


def players_part(book: Rulebook) -> str:
    """The page up to the exact rules, without the examples (scenario checks quote the
    exact rules on purpose)."""
    text = render_game(environment(), book, None, [])
    head = text.split("\n## The exact rules\n")[0]
    return re.sub(r"\n## Examples\n.*?(?=\n## |\Z)", "\n", head, flags=re.S)


def section(text: str, title: str) -> str:
    return text.split(f"\n{title}\n", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


# -- 1. no bookkeeping -------------------------------------------------------------------

@pytest.mark.parametrize("name", BUNDLED)
def test_the_players_layer_names_no_place_off_the_table(name: str) -> None:
    book = book_of(name)
    loaded = load_ruleset(ROOT / "rulesets" / f"{name}.yaml")
    from interpreter.assemble.game import compile_game_once
    game = compile_game_once(loaded, {})
    text = players_part(book)
    for zone in off_table_zones(game):
        label = game.zones[zone].label
        assert f"**{label}**" not in text, label
        assert f"starting in *{label}" not in text, label


@pytest.mark.parametrize("name", BUNDLED)
def test_the_players_layer_names_no_bookkeeping_variable(name: str) -> None:
    from interpreter.assemble.game import compile_game_once
    game = compile_game_once(load_ruleset(ROOT / "rulesets" / f"{name}.yaml"), {})
    text = players_part(book_of(name))
    for var in bookkeeping_variables(game):
        assert f"**{humanize(var).capitalize()}**" not in text, var
        assert f"`{var}`" not in text, var


@pytest.mark.parametrize("name", BUNDLED)
def test_component_lines_read_as_english(name: str) -> None:
    """"size size 1", "all with kind fish", "for kind food cost": a value's name stands
    alone, and a value the set's label already says is not said again."""
    loaded = load_ruleset(ROOT / "rulesets" / f"{name}.yaml")
    rs = loaded.model
    components = section(players_part(book_of(name)), "## Components")
    for attr, decl in rs.pieces.attributes.items():
        for value in decl.values:
            said = str(decl.names.get(value, value))
            if not said.replace(".", "").isdigit():
                assert f"{humanize(attr)} {said}" not in components, (attr, said)
    assert "all with kind" not in components and "for kind" not in components


def test_aquarium_lists_only_what_players_see() -> None:
    text = players_part(book_of("aquarium"))
    for gone in ("A pile being made", "The piles, stacked", "Starting fish", "**Kept**",
                 "**Bank**", "size size", "kind fish", "kind food cost", "- Discard.",
                 "- Keep."):
        assert gone not in text, gone
    assert "6 Rainbow Fish cards (size 1, value 0, 2★)" in text
    assert "| 2 | 1 | 1 | 1★ | — |" in text  # the Size column: 1, not "size 1"


def test_aquarius_rising_shows_no_helper_procedure_nor_the_ground_list() -> None:
    text = players_part(book_of("aquarius-rising"))
    for gone in ("### Give trio", "### Draw", "### Trade", "### Play action",
                 "the rules keep a list", "Shuffle the unused goal cards"):
        assert gone not in text, gone


TINY = """
game: {name: tiny, title: Tiny, seats: {min: 2, max: 2}, designer: Someone,
       summary: A tiny game.}
pieces:
  attributes:
    colour: {values: [red]}
  sets:
    - {id: stones, count: 4, each: {colour: [red]}, start: box}
zones:
  - {id: box, kind: pile, on_table: false}
  - {id: scratch, label: Scratch pile, kind: pile, on_table: false}
  - {id: board, kind: grid, rows: 1, cols: 3}
variables:
  - {id: tally, initial: 0, on_table: false}
procedures:
  - id: tidy
    do:
      - shuffle: scratch
  - id: place_one
    do:
      - move: first(pieces(box))
        to: first(cells(board))
setup:
  - shuffle: scratch
  - set: tally
    value: 1
    text: The rules keep a tally of the turns.
turn:
  - if: "true"
    text: Decide whether to go on or to stop.
    then:
      - choose: "{seat_name(current)}: go on?"
        options:
          - {id: stop, notation: stop, label: Stop, do: [{end_game: stopped}]}
          - id: go_on
            notation: go
            label: Go on
            text: Keep playing.
            do:
              - call: tidy
  - call: place_one
"""


def tiny_book() -> Rulebook:
    return build_rulebook(load_ruleset_text(TINY, "tiny.yaml"))


def test_bookkeeping_said_in_words_stays_out_of_the_players_layer() -> None:
    """A designer's words on a step that only keeps the rules' books (a variable no player
    tracks) are bookkeeping too; a step done only off the table is not "left out"."""
    p = tiny_book().players
    assert "tally" not in p.setup
    assert not p.setup_left_out


def test_an_options_bare_name_is_not_listed_under_the_designers_summary() -> None:
    p = tiny_book().players
    assert "Decide whether to go on or to stop." in p.turn
    assert "- Stop." not in p.turn
    assert "- Keep playing." in p.turn  # an option the designer put in words stays


def test_a_procedure_without_words_shows_only_where_the_layer_points_to_it() -> None:
    p = tiny_book().players
    names = [x["name"] for x in p.procedures]
    assert names == ["Place one"], names
    assert "(see “Place one” below)" in p.turn
    text = players_part(tiny_book())
    assert "Scratch pile" not in text and "**Box**" not in text


# -- 2. the whole scoring, every end with its winner --------------------------------------

@pytest.mark.parametrize("name", FIVE)
def test_the_players_layer_says_what_every_score_term_means(name: str) -> None:
    rs = load_ruleset(ROOT / "rulesets" / f"{name}.yaml").model
    text = " ".join(section(players_part(book_of(name)),
                            "## End of the game and scoring").split())
    written = {k.split("(")[0].strip(): v for k, v in rs.define.items()}
    keys = [*([rs.scores] if rs.scores is not None else []), *rs.rank]
    terms = _terms_used(keys, set(written))
    assert terms, name
    for term in terms:
        definition = written[term]
        assert isinstance(definition, Definition) and definition.text, term
        assert " ".join(definition.text.split()) in text, term


def test_aquariums_scoring_is_complete_for_players() -> None:
    end = section(players_part(book_of("aquarium")), "## End of the game and scoring")
    for part in ("printed on the fish and plants", "plant bonus", "set bonus", "trio",
                 "Rainbow Fish", "the third one with 4 or 6 players", "the fourth"):
        assert part in end, part


_WHO = re.compile(r"\b(wins?|draw|loses?)\b", re.IGNORECASE)


@pytest.mark.parametrize("name", BUNDLED)
def test_every_end_says_who_wins(name: str) -> None:
    book = book_of(name)
    ends = book.players.end
    rs = load_ruleset(ROOT / "rulesets" / f"{name}.yaml").model
    assert len(ends) >= len(rs.end)
    for line in ends:
        assert _WHO.search(line), line
    end = section(players_part(book), "## End of the game and scoring")
    for line in ends:
        assert line in end


def test_calderas_bare_board_ends_the_game_and_says_who_wins() -> None:
    ends = book_of("caldera").players.end
    assert ("The game ends when no pieces are left on the board outside the caps. The "
            "scoring below decides who wins.") in ends


# -- 3. rulings, tables, examples, options ---------------------------------------------------

@pytest.mark.parametrize("name", BUNDLED)
def test_no_ruling_repeats_its_title(name: str) -> None:
    for r in book_of(name).rulings:
        first = re.split(r"[:.]\s", str(r["text"]), maxsplit=1)[0]
        assert re.findall(r"\w+", first.lower()) != re.findall(r"\w+", str(r["title"]).lower()), r


def test_a_ruling_that_opens_with_its_title_drops_it() -> None:
    rulings = {r["id"]: r for r in book_of("caldera").rulings}
    said = str(rulings["power-play"]["text"])
    assert not said.lower().startswith("power play:"), said


def test_an_open_grid_is_described_by_its_square_names() -> None:
    places = section(players_part(book_of("aquarius-rising")), "### Places")
    line = next(x for x in places.splitlines() if x.startswith("- **The tabletop**"))
    assert "a1 to" not in line and "83 × 83" not in line
    assert "x,y" in line and "0,0" in line


def test_examples_name_the_tie_breaks_as_the_rulings_do_and_count_stories_from_one() -> None:
    page = render_game(environment(), book_of("aquarius-rising"), None, [])
    assert "Step 2" not in page and "Step 3" not in page
    assert "First tie-break: pips of Fire there" in page
    assert "on the house at 0,0 (story 2), matching Fire" in page
    assert "(story 1)" not in page


def test_option_notes_list_what_the_pieces_an_option_brings_in_change() -> None:
    page = render_game(environment(), book_of("aquarius-rising"), None, [])

    def notes(label: str) -> str:
        return page.split(f"### Option: {label}, exactly")[1].split("\n### ")[0]

    assert "the term “colour fits”" in notes("To the Clouds")
    assert "white pieces it brings into play" in notes("To the Clouds")
    assert "the term “pyramid element”" in notes("Sky High")
    assert "the term “demands”" in notes("Aquarius Dragon start")
    assert "the option “Shuffle goals”" in notes("Aquarius deck")
    # A step is named by its words, not only as "a step of the set-up".
    assert "A step of the set-up.\n" not in page

