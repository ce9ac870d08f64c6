"""Budgets bound work, sizes and numbers, and run-time errors name where they happened.

Each runaway here was unbounded before steps were counted inside expressions: one
expression, one effect, could hang or eat gigabytes. Now each stops fast, with a
message that names the budget and the ruleset location, and the same game always
stops at the same place (the count is deterministic).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from interpreter.api import load_game
from interpreter.assemble.game import compile_game
from interpreter.errors import BudgetError, RuleError, RulesetError
from interpreter.load.loader import load_ruleset_text
from interpreter.play.game import show_value
from interpreter.run.budget import measure, shown_size, value_size
from interpreter.simulate.playout import make_agents, play_game
from tests.compiled_text import game_of

ROOT = Path(__file__).resolve().parent.parent

BASE = """\
tabletop: 1
game: {name: probe, title: Probe, designer: Test, seats: {min: 2, max: 2}, summary: s}
pieces:
  attributes:
    colour: {values: [red, blue]}
    size: {values: [1, 2]}
  name: NAME
  sets: [{id: a, count: COUNT, each: {colour: [red, blue], size: [1, 2]}, start: pile}]
zones: [{id: pile, kind: pile}, {id: grid, kind: grid, rows: ROWS, cols: 2}]
variables: [{id: v, initial: "1"}, {id: xs, initial: "[1]"}]
setup:
SETUP
turn:
  - choose: "{seat_name(current)}: go"
    options:
      - {id: go, notation: go}
TURN
end:
  - {id: e, when: "turn >= 3"}
BUDGETS
"""


def ruleset(setup: str = "  - let: {x: '1'}", turn: str = "", name: str = "null",
            count: str = "1", rows: str = "2", budgets: str = "") -> str:
    return (BASE.replace("SETUP", setup).replace("TURN", turn).replace("NAME", name)
            .replace("COUNT", count).replace("ROWS", rows).replace("BUDGETS", budgets))


def run_to_end(text: str) -> None:
    game = game_of(text)
    play_game(game, 2, 1, make_agents(2, 1))


def stops(text: str, budget: str, within: float = 2.0) -> BudgetError:
    # CPU time, not wall time: on a busy machine a test waits for a core, which says
    # nothing about how soon the budget stops the game
    started = time.process_time()
    with pytest.raises(BudgetError) as info:
        run_to_end(text)
    assert time.process_time() - started < within
    error = info.value
    assert error.budget == budget
    assert f"budgets.{budget}" in str(error)
    assert str(error).startswith("probe.yaml:"), str(error)
    return error


# -- steps ------------------------------------------------------------------------------

@pytest.mark.parametrize("expression", [
    "[a for a in range(100000) for b in range(100000) if false]",
    "any(false for a in range(100000) for b in range(100000))",
    "all(a >= 0 for a in range(100000) if [b for b in range(100000)] == [])",
    "len([x for x in range(100000) if x in range(100000)])",
])
def test_one_expression_cannot_run_away(expression: str) -> None:
    error = stops(ruleset(setup=f'  - let: {{x: "{expression}"}}'), "steps_for_setup")
    assert error.location is not None and error.location.line == 12
    assert "during the set-up" in str(error)
    error = stops(ruleset(turn=f'  - let: {{x: "{expression}"}}'), "steps_per_decision")
    assert error.location is not None and error.location.line == 17
    assert "while carrying out decision 1" in str(error)


def test_an_option_listing_cannot_run_away() -> None:
    turn = """\
  - choose: "pick"
    options:
      - id: pick
        for: {a: "range(100000)", b: "range(100000)"}
        where: "WHERE"
        notation: "{a}-{b}"
"""
    # a condition of both names must look at every pair; one of neither (false) is
    # tested once, before the loops, and lists nothing at once
    error = stops(ruleset(turn=turn.replace("WHERE", "a + b < 0")), "steps_per_decision")
    assert "option 'pick'" in str(error)


def test_a_say_in_a_loop_is_bounded_by_the_text_it_writes() -> None:
    setup = """\
  - while: "true"
    do:
      - say: "{join(repeat('x', 90000), '')}"
"""
    stops(ruleset(setup=setup), "steps_for_setup")


def test_a_game_that_slows_down_forever_stops_on_the_game_budget() -> None:
    """Caldera with an eruption that can never happen: each turn's list of seen
    arrangements grows, each decision costs more; the game's own budget stops it."""
    text = (ROOT / "rulesets" / "caldera.yaml").read_text()
    mutant = text.replace("height(origin) > 0 and can_land", "height(origin) > 3000 and can_land")
    game = compile_game(load_ruleset_text(mutant, "mutant.yaml"))
    started = time.process_time()
    with pytest.raises(BudgetError) as info:
        play_game(game, 2, 1, make_agents(2, 1))
    assert time.process_time() - started < 5  # 2 s on a quiet machine; CI may be loaded
    assert info.value.budget == "steps_per_game"
    assert info.value.location is not None and "while carrying out decision" in str(info.value)


def test_steps_are_counted_the_same_whoever_looks() -> None:
    """Listing the options (as a UI does) must not change where a game's budget runs
    out: a listing found in the cache is charged again."""
    game = load_game("caldera")
    a, b = game.new_state(2, 5), game.new_state(2, 5)
    for _ in range(30):
        seat = game.deciding_seats(a)[0]
        game.legal_options(b, seat)  # only b is looked at
        game.legal_options(b, seat)
        option = game.legal_options(a, seat)[0].notation
        game.apply_in_place(a, seat, option)
        game.apply_in_place(b, seat, option)
    assert a.steps == b.steps > 0
    assert a.to_json() == b.to_json()


def test_the_bundled_games_stay_far_inside_their_budgets() -> None:
    for name, options, players in [("caldera", {}, 3), ("bottoms-up", {}, 6),
                                   ("high-rise", {"rows": 8, "cols": 8}, 2)]:
        game = load_game(name, options)
        result = play_game(game, players, 2, make_agents(players, 2))
        state = result.final_state
        assert state is not None
        assert state.steps * 10 < game.budgets.steps_per_game, name


# -- sizes and numbers -----------------------------------------------------------------

@pytest.mark.parametrize("expression, budget", [
    ("join(repeat('x' * 99999, 99999), '')", "text_length"),
    ("str(repeat('x' * 99999, 99999))", "text_length"),
    ("repeat(1, 100001)", "list_length"),
    ("range(0, 200000)", "list_length"),
    ("[1] * 100001", "list_length"),
    ("'ab' * 60000", "text_length"),
])
def test_lists_and_texts_have_a_size_limit(expression: str, budget: str) -> None:
    stops(ruleset(setup=f'  - let: {{x: "{expression}"}}'), budget)


def test_a_list_doubled_every_turn_stops_at_the_list_limit() -> None:
    turn = """\
  - set: xs
    value: xs + xs + xs + xs + xs + xs + xs + xs + xs + xs
"""
    text = ruleset(turn=turn).replace('"turn >= 3"', '"turn >= 100"')
    stops(text, "list_length")


def test_numbers_have_a_size_limit() -> None:
    turn = """\
  - set: v
    value: v * 1000 + 7
"""
    text = ruleset(turn=turn).replace('"turn >= 3"', '"turn >= 100"')
    error = stops(text, "largest_number")
    assert "9,007,199,254,740,991" in str(error)


@pytest.mark.parametrize("expression", [
    "roll(100000000000000000000)", "1" + "0" * 400 + " / 3", "-" + "9" * 30])
def test_a_number_too_large_to_write_is_a_located_load_error(expression: str) -> None:
    with pytest.raises(RulesetError) as info:
        game_of(ruleset(setup=f'  - let: {{x: "{expression}"}}'))
    assert "too large" in str(info.value) and "probe.yaml:12:" in str(info.value)


@pytest.mark.parametrize("expression", [
    "not " * 3000 + "true", "1" + "+1" * 2000, "-" * 20000 + "1", "[" * 150 + "1" + "]" * 150])
def test_deep_or_huge_expressions_are_refused_when_loading(expression: str) -> None:
    with pytest.raises(RulesetError) as info:
        game_of(ruleset(setup=f'  - let: {{x: "{expression}"}}'))
    assert "probe.yaml:12:" in str(info.value)
    assert "tabletop's limit" in str(info.value)


def test_declared_sizes_have_limits() -> None:
    for text, budget in [(ruleset(count="100000000"), "pieces"),
                         (ruleset(rows="10000000"), "places")]:
        started = time.process_time()
        with pytest.raises(RulesetError) as info:
            game_of(text)
        assert time.process_time() - started < 2
        assert f"budgets.{budget}" in str(info.value)
        assert "probe.yaml:" in str(info.value)


def test_budgets_can_be_raised_in_the_ruleset() -> None:
    text = ruleset(setup='  - let: {x: "repeat(1, 150000)"}',
                   budgets="budgets: {list_length: 200000}")
    run_to_end(text)


# -- values that share their parts ------------------------------------------------------
# (issue 38) A value may hold one list many times at the cost of one reference each:
# `[l, l]` doubles the size of `l` for two references. Sizes are counted as if nothing
# were shared, and counting them costs their distinct parts, so each stops at once.

SHARED_ROWS = "repeat(range(100000), 100000)"


@pytest.mark.parametrize("effect", [
    f"  - set: xs\n    value: {SHARED_ROWS}",
    f'  - let: {{y: "{SHARED_ROWS}"}}',
    f'  - for_each: row\n    in: "{SHARED_ROWS}"\n    do: []',
    f'  - arrange: "{SHARED_ROWS}"\n    into: "repeat(0, 100000)"\n    as: a',
], ids=["set", "let", "for_each", "arrange"])
def test_a_list_of_shared_rows_stops_at_the_value_size_at_once(effect: str) -> None:
    """100,000 references to one row of 100,000: each list is within list_length, but
    the value holds 10^10 values; the nesting check of `set` went through all of them
    (50 s and 2 GB for 10,000 rows)."""
    error = stops(ruleset(setup=effect), "value_size")
    assert "1,000,000" in str(error)


def test_an_initial_value_of_shared_rows_stops_at_the_value_size() -> None:
    text = ruleset().replace('{id: xs, initial: "[1]"}', f'{{id: xs, initial: "{SHARED_ROWS}"}}')
    started = time.process_time()
    with pytest.raises(BudgetError) as info:
        run_to_end(text)
    assert time.process_time() - started < 2
    assert info.value.budget == "value_size"
    assert str(info.value).startswith("probe.yaml:10:"), str(info.value)


@pytest.mark.parametrize("setup", [
    "  - repeat:\n      - set: xs\n        value: '[xs, xs]'\n    until: 'false'",
    "  - let: {l: '[1]'}\n  - repeat:\n      - let: {l: '[l, l]'}\n    until: 'false'",
], ids=["set", "let"])
def test_a_value_doubled_by_sharing_stops_at_the_value_size(setup: str) -> None:
    """`set xs = [xs, xs]` sixty times: each time one more list of two references, and
    the size doubles (the nesting check went through all of it)."""
    stops(ruleset(setup=setup), "value_size")


def test_a_value_within_the_value_size_is_kept() -> None:
    setup = ("  - let: {l: '[1]', i: '0'}\n  - repeat:\n"
             "      - let: {l: '[l, l]', i: 'i + 1'}\n      - set: xs\n        value: l\n"
             "    until: 'i >= 18'")
    run_to_end(ruleset(setup=setup))
    text = ruleset(setup=setup.replace("18", "19"), budgets="budgets: {value_size: 2000000}")
    run_to_end(text)
    with pytest.raises(BudgetError):
        run_to_end(ruleset(setup=setup.replace("18", "19")))


def test_sizes_are_counted_as_if_unshared_from_the_distinct_parts() -> None:
    row = list(range(1000))
    assert measure([], 10) == (1, 0)
    assert value_size([1, "ab", [2, 3], None], 100) == 1 + 1 + 3 + 3 + 1
    assert value_size([row, row], 10 ** 7) == 1 + 2 * 1001
    assert value_size([[["abc"]], [[]]], 100) == 1 + (1 + (1 + 4)) + (1 + 1)
    doubled: list = [1]
    for _ in range(60):
        doubled = [doubled, doubled]
    size, work = measure(doubled, 10 ** 6)
    assert size > 10 ** 6 and work < 1000
    size, work = measure([[row] * 1000] * 1000, 10 ** 6)
    assert size > 10 ** 6 and work <= 2 * 10 ** 6


@pytest.mark.parametrize("value", [
    [], [[]], [[], []], ["", ""], [1, [2, [3, "abc"]], True, None], [[[[]]], "x"],
    [["a", "b"], ["a", "b"]], [1.5, -3, "nothing"]])
def test_the_shown_size_is_never_more_than_the_text(value: list) -> None:
    game = game_of(ruleset())
    assert shown_size(value, 10 ** 6) <= len(show_value(game, value))


def test_a_template_refuses_a_text_too_long_before_writing_it() -> None:
    """A list of one long list twice was written out in full (gigabytes) before the
    length of the text was checked; the careful path ran out of memory."""
    turn = "  - say: \"{repeat(repeat('x' * 99999, 99999), 2)}\""
    for generate in (True, False):
        game = compile_game(load_ruleset_text(ruleset(turn=turn), "probe.yaml"),
                            generate=generate)
        started = time.process_time()
        with pytest.raises(BudgetError) as info:
            play_game(game, 2, 1, make_agents(2, 1))
        assert time.process_time() - started < 2
        assert info.value.budget == "text_length"
        assert str(info.value).startswith("probe.yaml:17:"), str(info.value)


_D = "d(" * 60 + "1" + ")" * 60
_E = "e(" * 60 + "1" + ")" * 60


@pytest.mark.parametrize("expression", [
    f"{_D} == {_E}", f"{_D} != {_E}", f"{_D} in [{_E}]", f"{_D} < {_E}", f"{_D} >= {_E}",
    f"distinct([{_D}])", f"sorted([{_D}, {_E}])", f"without([{_D}], [{_E}])",
    f"max({_D}, {_E})", f"min([{_D}, {_E}])",
])
def test_comparing_values_that_share_their_parts_is_charged_by_their_size(
        expression: str) -> None:
    """Two equal values of 2^60 values each (sixty doublings by sharing): comparing,
    sorting or hashing them went through every value (a hang, or out of memory for the
    keys of distinct and without); now what it goes through is charged first."""
    define = "define:\n  d(x): '[x, x]'\n  e(x): '[x, x]'\nsetup:"
    text = ruleset(setup=f'  - let: {{x: "{expression}"}}').replace("setup:", define, 1)
    for generate in (True, False):
        started = time.process_time()
        with pytest.raises(BudgetError) as info:
            play_game(compile_game(load_ruleset_text(text, "probe.yaml"), generate=generate),
                      2, 1, make_agents(2, 1))
        assert time.process_time() - started < 2
        assert info.value.budget == "steps_for_setup"


def test_comparing_small_lists_of_lists_still_works() -> None:
    setup = ("  - let: {x: \"[[1, 2], [3]]\"}\n"
             "  - if: \"x == [[1, 2], [3]] and [3] in x and x < [[1, 3]] and "
             "distinct(x + x) == x and sorted(x) == x and without(x, [[3]]) == [[1, 2]] "
             "and max(x) == [3]\"\n    then: [{set: v, value: '7'}]")
    game = game_of(ruleset(setup=setup))
    assert game.new_state(2, 1).vars["v"] == 7


def _doubling_definitions(levels: int) -> str:
    lines = [f"  f{i}(k): f{i + 1}(k) + f{i + 1}(k)" for i in range(levels)]
    return "define:\n" + "\n".join([*lines, f"  f{levels}(k): k + 1"]) + "\nsetup:"


def test_definitions_calling_each_other_compile_in_time_linear_in_the_file() -> None:
    """Sixteen definitions each calling the next twice: written out in place, 65,536
    copies of the last (validate was killed at 30 s and 1.6 GB); now the small ones
    are written out and the others called."""
    text = ruleset(setup="  - set: v\n    value: f0(v)")
    text = text.replace("setup:", _doubling_definitions(16), 1)
    started = time.process_time()
    game = game_of(text)
    assert time.process_time() - started < 2
    assert sum(len(c.source) for c in game.generated_code) < 200_000
    assert game.new_state(2, 1).vars["v"] == 2 ** 16 * 2


def test_a_definition_that_would_take_forever_to_evaluate_stops_on_its_steps() -> None:
    text = ruleset(setup='  - let: {x: "f0(1)"}').replace("setup:", _doubling_definitions(40), 1)
    stops(text, "steps_for_setup")


# -- run-time errors are located -------------------------------------------------------

@pytest.mark.parametrize("expression, words", [
    ("abs('x')", "abs() needs numbers, got the text 'x'"),
    ("range('a')", "range() needs whole numbers"),
    ("range(2.5)", "range() needs whole numbers"),
    ("sum(['a'])", "sum() needs numbers"),
    ("'%y' % 1", "cannot apply '%'"),
    ("'%c' % 99999999", "cannot apply '%'"),
    ("value_name([1])", "value_name() needs one value"),
    ("one_of_each_kind([999999])", "needs a piece"),
    ("next_seat('a')", "next_seat() needs a seat"),
    ("piece_name(-1)", "piece_name() needs a piece"),
    ("place_of(-1)", "place_of() needs a piece"),
    ("top(99)", "top() needs a place"),
    ("[1, 2] < 'a'", "cannot compare a list of 2 with the text 'a'"),
    ("offset(place('a1'), [1], 1)", "offset() cannot use"),
    ("1 in 5", "'in' needs a list or a text"),
])
def test_wrong_values_at_run_time_are_located_rule_errors(expression: str, words: str) -> None:
    turn = f'  - let: {{x: "{expression}"}}'
    with pytest.raises(RuleError) as info:
        run_to_end(ruleset(turn=turn))
    text = str(info.value)
    assert words in text
    assert text.startswith("probe.yaml:17:5: error:"), text
    assert "while carrying out decision 1" in text


def test_distinct_takes_nested_lists() -> None:
    run_to_end(ruleset(setup="  - let: {x: \"distinct([[1, [2]], [1, [2]]])\"}"))


def test_a_misspelt_option_in_a_board_size_is_reported_where_it_is_used() -> None:
    text = (ROOT / "rulesets" / "high-rise.yaml").read_text()
    broken = text.replace("  - id: cols\n", "  - id: columns\n")
    with pytest.raises(RulesetError) as info:
        compile_game(load_ruleset_text(broken, "x.yaml"))
    message = str(info.value)
    assert "unknown name 'cols'" in message and "did you mean 'columns'?" in message
    board_cols = text.splitlines().index("    cols: cols") + 1  # in the board's zone
    assert f"x.yaml:{board_cols}:" in message


# -- templates are the language's own --------------------------------------------------

@pytest.mark.parametrize("name, words", [
    ('"{colour.__class__.__mro__}"', "pieces have no attribute"),
    ('"{colour:>2000000000}"', "syntax error"),
    ('"{top(grid)}"', "unknown name 'grid'"),
    ('"{colour + 1}"', "can only use its attributes"),
    ('"{nope}"', "unknown name 'nope'"),
])
def test_piece_names_are_checked_templates(name: str, words: str) -> None:
    with pytest.raises(RulesetError) as info:
        game_of(ruleset(name=name))
    assert words in str(info.value) and "probe.yaml:7:" in str(info.value)


def test_piece_names_use_value_names_and_literal_braces() -> None:
    game = game_of(ruleset(name='"{size} {colour} {{{colour}}}"'))
    assert game.piece_names[0] == "1 red {red}"


def test_a_definitions_words_may_only_name_its_parameters() -> None:
    text = ruleset().replace(
        "setup:", 'define:\n  big(p):\n    value: "p.size == 2"\n'
                  '    says: "{p.__class__} is big"\nsetup:')
    with pytest.raises(RulesetError) as info:
        game_of(text)
    assert "the words for 'big' must name each parameter" in str(info.value)


# -- listing options ---------------------------------------------------------------------

def test_a_decision_with_no_option_does_not_hide_the_next_ones() -> None:
    """The options of a decision are listed afresh when the rules reach it: a seat with
    no option at one decision still gets the options of the next (they were once taken
    from the first decision's empty listing, and every turn passed without a choice)."""
    game = compile_game(load_ruleset_text(
        (ROOT / "tests" / "rulesets" / "two_choices.yaml").read_text(), "two_choices.yaml"))
    state = game.new_state(2, 1)
    assert game.deciding_seats(state) == [1]
    assert [o.notation for o in game.legal_options(state, 1)] == ["pick"]
    for seat in (1, 2, 1, 2):
        game.apply_in_place(state, seat, "pick")
    assert state.over and state.turn == 4


@pytest.mark.parametrize("generate", [True, False], ids=["generated", "careful"])
def test_steps_never_depend_on_the_games_played_before_in_the_process(generate: bool) -> None:
    """A definition that reads nothing the rules change is computed once per Game, but
    every game is charged for it alike: the first game of a process took 2,530 steps to
    its first move and every later one 1,216 (OpenSpiel's clone check caught it). `pairs`
    uses `lines`, so the definitions a kept one uses are charged alike too."""
    text = (Path(__file__).parent.parent / "benchmarks" / "rulesets" / "tic-tac-toe.yaml"
            ).read_text(encoding="utf-8").replace(
        "define:\n", "define:\n  pairs: \"[[l[0], l[1]] for l in lines]\"\n", 1).replace(
        "board_full: all(", "board_full: len(pairs) > 0 and all(", 1)
    game = compile_game(load_ruleset_text(text, "tic-tac-toe.yaml"), {}, generate=generate)
    steps = []
    for _ in range(3):
        state = game.new_state(2, 1)
        steps.append(game.apply(game.apply(state, 1, "a1"), 2, "b1").steps)
    assert steps[0] == steps[1] == steps[2]
