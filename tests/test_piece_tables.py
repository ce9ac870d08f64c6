"""Cards with data: a set's `table` gives one piece per row (for each combination of
`each`), its mistakes are located to the row's key, and the rulebook prints the table,
marked provisional when the values are."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.api import load, load_game
from interpreter.assemble.game import compile_game
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


# -- data that are lists: a movement card's pattern ------------------------------------------
MOVE_CARDS = Path(__file__).resolve().parent / "rulesets" / "move_cards.yaml"


def test_a_table_may_give_lists_to_an_attribute_declared_as_data() -> None:
    game = load_game(MOVE_CARDS)
    patterns = [p for p in game.attributes["pattern"] if p is not None]
    assert patterns == [[[0, 2], [0, -1]], [[-2, 0], [2, 0], [0, 1]], [[1, 0], [0, 1], [0, -1]]]
    # different patterns, different kinds of piece (the kinds are keys: tuples)
    assert len({game.piece_kind_id[p] for p in range(game.n_pieces)}) == game.n_pieces
    state = game.new_state(2, 0)
    env = game.env(state)
    tiger = game.compile_expression("first([c for c in pieces(cards) if c.title == tiger])")(env)
    env.temps["x"] = tiger
    for text, value in [("[d[0] for d in x.pattern]", [0, 0]), ("len(x.pattern)", 2),
                        ("x.pattern == [[0, 2], [0, -1]]", True), ("x.pattern[1][1]", -1),
                        ("[0, 2] in x.pattern", True)]:
        assert game.compile_expression(text, temps=["x"])(env) == value, text
    assert [o.notation for o in game.legal_options(state, 1)] == [
        "tiger-c3", "crab-a1", "crab-e1", "crab-c2", "ox-d1", "ox-c2"]


def test_views_states_and_both_ways_of_running_keep_the_lists() -> None:
    import json

    from interpreter.run.view import view
    from interpreter.simulate.playout import make_agents, play_game
    game = load_game(MOVE_CARDS)
    careful = compile_game(load(MOVE_CARDS), generate=False)
    state = game.new_state(2, 0)
    cards = view(game, state, 1)["zones"]["cards"]["pieces"]
    assert cards[0] == {"kind": "card", "title": "tiger", "pattern": [[0, 2], [0, -1]]}
    assert json.loads(json.dumps(cards)) == cards
    assert game.piece_like(cards[0]) is not None
    cards[0]["pattern"][0][0] = 99  # a view's lists are copies: the game's stay as they are
    assert view(game, state, 1)["zones"]["cards"]["pieces"][0]["pattern"] == [[0, 2], [0, -1]]
    for seed in range(4):
        a = play_game(game, 2, seed, make_agents(2, seed))
        b = play_game(careful, 2, seed, make_agents(2, seed))
        assert a.decisions == b.decisions and a.winners == b.winners


def test_the_rulebook_and_the_terminal_show_a_list_as_it_is_written() -> None:
    from rich.console import Console

    from interpreter.run.view import view
    from interpreter.view.render import render_view
    book = build_rulebook(load(MOVE_CARDS))
    page = render_game(environment(), book, print_link=None)
    assert "\\[\\[0, 2\\], \\[0, -1\\]\\]" in page or "[[0, 2], [0, -1]]" in page
    game = load_game(MOVE_CARDS)
    console = Console(width=200, record=True)
    console.print(render_view(game, view(game, game.new_state(2, 0), 1), colour=False))
    assert "card tiger ([[0, 2], [0, -1]])" in console.export_text()


@pytest.mark.parametrize(("old", "new", "message"), [
    ("    pattern:\n      data: true\n", "    pattern:\n      values: [1]\n",
     "row 1 of its table: 'pattern' is given a list, [[0, 2], [0, -1]]; an attribute whose "
     "values are given card by card, lists too, is declared with `data: true`"),
    ("    pattern:\n      data: true\n", "    pattern: {}\n",
     "an attribute needs its `values` (or `data: true`"),
    ("{title: tiger, pattern: [[0, 2], [0, -1]]}", "{title: tiger, pattern: [[0, 2.5]]}",
     "a piece's data holds whole numbers, texts and lists of them, not 2.5"),
])
def test_a_wrong_list_is_told_where_it_is(old: str, new: str, message: str) -> None:
    text = MOVE_CARDS.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(RulesetError) as info:
        compile_game(load_ruleset_text(text.replace(old, new, 1), "bad.yaml"))
    assert any(message in d.message for d in info.value.diagnostics), info.value
    assert all(d.location is not None for d in info.value.diagnostics)
