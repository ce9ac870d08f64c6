"""The rulebook's examples are scenario cases: exactly the cases marked ``example:`` in
each game's tests file, each passing, drawn before and after its moves with arrows and
highlights worked out from the change, its checks stated in words; a bad example block
is a located error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.api import load
from interpreter.assemble.game import compile_game
from interpreter.docs.build import environment, render_game
from interpreter.docs.diagrams import MARK, Arrow, Highlight, position_svg
from interpreter.docs.rulebook import Rulebook, build_rulebook
from interpreter.errors import RulesetError
from interpreter.run.view import SPECTATOR, view
from interpreter.scenarios.runner import load_scenario_file, run_case

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "rulesets"
GAMES = ["caldera", "bottoms-up", "high-rise", "aquarium", "aquarius-rising"]

_books: dict[str, Rulebook] = {}


def book_of(game: str) -> Rulebook:
    if game not in _books:
        _books[game] = build_rulebook(load(RULESETS / f"{game}.yaml"))
    return _books[game]


@pytest.mark.parametrize("game", GAMES)
def test_the_examples_are_exactly_the_marked_cases_and_each_passes(game: str) -> None:
    suite = load_scenario_file(RULESETS / f"{game}.tests.yaml")
    marked = [p for p in suite.cases if p.case.example is not None]
    book = book_of(game)
    assert [x.case for x in book.case_examples] == [p.case.name for p in marked]
    assert [x.title for x in book.case_examples] == [p.case.example.caption for p in marked]
    for p in marked:
        result = run_case(suite.path, p)
        assert result.passed, result.message
    # every game shows a key moment and its ending, with who won
    assert len(marked) >= 2
    assert any(x.ending.startswith("The game is over.") for x in book.case_examples)


@pytest.mark.parametrize("game", GAMES)
def test_every_example_picture_is_in_the_book(game: str) -> None:
    book = book_of(game)
    files = {d.file for d in book.diagrams}
    page = render_game(environment(), book, None)
    for x in book.case_examples:
        assert f"### {x.title}" in page
        for d in x.diagrams():
            assert d.file in files and f"]({d.file})" in page
        for check in x.checks:
            assert check in page


def test_a_capture_is_drawn_with_arrows_and_a_highlight() -> None:
    book = book_of("caldera")
    x = next(x for x in book.case_examples if "captures" in x.title)
    move = x.moves[0]
    assert (move.seat, move.label, move.notation) == (
        "Player 1", "Move the cap on b2 east to c2", "b2-e")
    assert "Player 1 captures the red large on d2." in move.said
    assert move.after is not None
    svg = move.after.svg
    assert svg.count(f'stroke="{MARK}" stroke-width="3"') == 2 + 1  # 2 arrows, 1 outline
    assert ">→ Captured<" in svg and ">×2<" in svg  # two pieces went to the pile
    assert MARK not in x.before.svg
    assert "The top piece of c2 is a cap." in x.checks
    assert "Player 2 decides next." in x.checks
    assert x.ending == ""


def test_the_end_says_who_won_and_the_scores() -> None:
    x = next(x for x in book_of("caldera").case_examples if x.title.startswith("The end"))
    assert x.ending == "The game is over. Player 1 wins. Scores: Player 1 3, Player 2 0."
    assert "Player 1 wins." in x.checks
    assert x.checks[-1] == ("The game says “Game over: The first player to hold three "
                            "monochrome trios wins at once.”")


def test_moves_before_the_shown_ones_only_reach_the_position() -> None:
    x = next(x for x in book_of("aquarium").case_examples if x.title.startswith("A purchase"))
    assert [m.notation for m in x.moves] == ["+1", "x2", "half", "pay"]
    assert "The moves `buy`, `pass`, `pass` and `pass` lead to the position below." in x.where
    assert x.moves[0].secret and x.moves[0].after is None


def test_an_arrow_needs_both_ends_drawn_else_it_marks_the_one_drawn() -> None:
    game = compile_game(load(RULESETS / "caldera.yaml"))
    seen = view(game, game.new_state(2, 1), SPECTATOR)
    both = position_svg(game, seen, "t", ["board"], arrows=[Arrow("a1", "c3", 2)])
    assert "<path d=\"M" in both and ">×2<" in both
    alone = position_svg(game, seen, "t", ["board"], arrows=[Arrow("a1", "box")])
    assert "<path d=\"M" not in alone and ">→ Set aside<" in alone
    marked = position_svg(game, seen, "t", ["board"], highlights=[Highlight("e5", "new")])
    assert ">new<" in marked and 'stroke-dasharray="7,4"' in marked
    assert position_svg(game, seen, "t", ["board"]) == position_svg(game, seen, "t", ["board"])


def write_case(tmp_path: Path, example: str, moves: str = "[a4-n]") -> Path:
    tests = tmp_path / "caldera.tests.yaml"
    (tmp_path / "caldera.yaml").write_text(
        (RULESETS / "caldera.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    tests.write_text(f"""players: 2
cases:
  - name: a quiet move
    position:
      board:
        a4: [red small, red medium, red large, black small]
    moves: {moves}
    deciding: [1]
    example:
{example}
""", encoding="utf-8")
    return tests


@pytest.mark.parametrize("example, where, message", [
    ("      captoin: A quiet move", "captoin", r"unknown key 'captoin'(.|\n)*"
                                               r"did you mean 'caption'"),
    ("      caption: A quiet move\n      show: 2", "show: 2",
     r"show: 2 moves, but the case has 1 move"),
    ("      caption: A quiet move\n      values:\n        - {label: X, value: trios(one)}",
     "trios(one)", r"unknown name 'one'"),
    ("      caption: A quiet move\n      values:\n        - {label: X, vaule: 1}",
     "vaule", r"unknown key 'vaule'(.|\n)*did you mean 'value'"),
])
def test_a_bad_example_block_is_a_located_error(tmp_path: Path, example: str, where: str,
                                                message: str) -> None:
    tests = write_case(tmp_path, example)
    with pytest.raises(RulesetError) as caught:
        load_scenario_file(tests)
    text = str(caught.value)
    assert re.search(message, text), text
    line = next(i for i, t in enumerate(tests.read_text().splitlines(), 1) if where in t)
    assert re.match(rf"{re.escape(str(tests))}:{line}:\d+: error: ", text), text


def test_a_failing_example_stops_the_rulebook(tmp_path: Path) -> None:
    tests = write_case(tmp_path, "      caption: A quiet move", moves="[a4-n, a5-s]")
    with pytest.raises(RulesetError) as caught:
        build_rulebook(load(tmp_path / "caldera.yaml"))
    text = str(caught.value)
    assert text.startswith(f"{tests}:3:")
    assert "the case 'a quiet move' is an example of the rulebook, but it fails" in text
