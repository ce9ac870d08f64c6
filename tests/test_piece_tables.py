"""Cards with data: a set's `table` gives one piece per row (for each combination of
`each`), its mistakes are located to the row's key, and the rulebook prints the table,
marked provisional when the values are."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.api import load, load_game
from interpreter.compile.game import compile_game
from interpreter.docs.build import environment, print_html, render_game
from interpreter.docs.rulebook import build_rulebook
from interpreter.errors import RulesetError
from interpreter.load.loader import load_ruleset_text

RULESET = Path(__file__).resolve().parent / "rulesets" / "card_table.yaml"


def test_one_piece_per_row_for_each_colour() -> None:
    game = load_game(RULESET)
    assert game.n_pieces == 2 * 4
    a = game.attributes
    pieces = list(zip(a["colour"], a["size"], a["value"], a["stars"], strict=True))
    assert pieces == [("red", 1, 1, 1), ("red", 1, 1, 1), ("red", 2, 3, 2), ("red", 2, 5, 2),
                      ("blue", 1, 1, 1), ("blue", 1, 1, 1), ("blue", 2, 3, 2),
                      ("blue", 2, 5, 2)]
    # identical rows are identical pieces (one kind); different rows are different kinds
    assert game.piece_kind_id[0] == game.piece_kind_id[1] != game.piece_kind_id[2]
    state = game.new_state(2, 1)
    assert sorted(state.sites[game.zones["deck"].first]) == list(range(8))


def test_count_repeats_the_whole_table_and_a_table_needs_no_each() -> None:
    text = RULESET.read_text(encoding="utf-8").replace(
        "      each: {colour: [red, blue]}\n", "      count: 3\n")
    game = compile_game(load_ruleset_text(text, "no_each.yaml"))
    assert game.n_pieces == 3 * 4
    assert game.attributes["colour"] == [None] * 12
    assert game.attributes["value"] == [1, 1, 3, 5] * 3


@pytest.mark.parametrize(("old", "new", "message", "token", "hint"), [
    ("{size: 2, value: 5, stars: 2}", "{size: 2, valeu: 5, stars: 2}",
     "set 'fish', row 4 of its table: unknown attribute 'valeu'", "valeu", "'value'"),
    ("{size: 2, value: 3, stars: 2}", "{size: 2, value: 4, stars: 2}",
     "set 'fish', row 3 of its table: '4' is not a value of 'value'", "value: 4", None),
    ("{size: 2, value: 3, stars: 2}", "{size: true, value: 3, stars: 2}",
     "Input should be a valid integer", "size", None),
    ("{size: 1, value: 1, stars: 1}\n        - {size: 2",
     "{size: 1, value: 1, stars: 1, colour: red}\n        - {size: 2",
     "row 2 of its table: 'colour' is given by 'each' already", "colour: red", None),
])
def test_a_mistake_in_a_row_is_located_at_its_key(old: str, new: str, message: str,
                                                  token: str, hint: str | None) -> None:
    text = RULESET.read_text(encoding="utf-8")
    assert old in text
    bad = text.replace(old, new, 1)
    with pytest.raises(RulesetError) as info:
        compile_game(load_ruleset_text(bad, "bad.yaml"))
    d = next(d for d in info.value.diagnostics if message in d.message)
    assert d.location is not None
    line = bad.splitlines()[d.location.line - 1]
    assert line[d.location.col - 1:].startswith(token), (line, d.location.col)
    assert d.render().startswith(f"bad.yaml:{d.location.line}:{d.location.col}: error: ")
    if hint is not None:
        assert d.hint is not None and hint in d.hint


def test_the_rulebook_prints_the_table_marked_provisional() -> None:
    book = build_rulebook(load(RULESET))
    env = environment()
    page = render_game(env, book, print_link=None)
    assert ("- **Fish cards: one for each row of their table below (provisional), for one "
            "of each colour (red, blue) — 8 pieces**") in page
    assert "One for each row, for one of each colour (red, blue):" in page
    assert "#### Fish card (provisional)" in page
    assert "*These values are provisional: the published game's are not known.*" in page
    # identical rows are counted once; the columns follow the declared attributes
    assert ("| Copies | Size | Value | Stars |\n|---|---|---|---|\n| 2 | 1 | 1 | 1 |\n"
            "| 1 | 2 | 3 | 2 |\n| 1 | 2 | 5 | 2 |\n") in page
    html = print_html(env, book)
    assert "<th>Stars</th>" in html and "<td>5</td>" in html


def test_a_confirmed_table_is_not_marked() -> None:
    text = RULESET.read_text(encoding="utf-8")
    assert "      provisional: true\n" in text
    confirmed = load_ruleset_text(text.replace("      provisional: true\n", ""),
                                  "confirmed.yaml")
    assert compile_game(confirmed).n_pieces == 8
    page = render_game(environment(), build_rulebook(confirmed), print_link=None)
    assert "provisional" not in page
    assert "#### Fish card\n" in page
