"""Generated code for the operations a newcomer writes (offsets at a distance a loop
computes, `range`, a definition with parameters called inside a loop) is lean, and still
agrees with the checked closures value for value, error for error and step for step,
also when a step budget runs out part-way.
"""

from __future__ import annotations

import re

import pytest

from interpreter.play.game import Game
from tests.compiled_text import game_of, outcome

_LINES = """\
tabletop: 1
game: {name: lines, title: Lines, designer: Test, seats: {min: 2, max: 2}, summary: s}
pieces:
  attributes:
    colour: {values: [red, blue]}
  sets: [{id: a, count: 4, each: {colour: [red, blue]}, start: pile}]
zones:
  - {id: board, kind: grid, rows: 4, cols: 4}
  - {id: pile, kind: pile}
define:
  reds: "[c for c in cells(board) if not empty(c) and top(c).colour == red]"
  mine(col): "[c for c in cells(board) if not empty(c) and top(c).colour == col]"
  near(col): "[c for c in reds if col == red] + mine(col)"
setup:
  - for_each: sq
    in: "['a1', 'b2', 'c3', 'b1', 'c1', 'd4', 'a4']"
    do:
      - move: first(pieces(pile))
        to: sq
turn:
  - choose: go
    options:
      - {id: go, notation: go}
      - id: mark
        for: {square: cells(board)}
        where: "any(empty(square) and d != 'x' for d in orthogonal)"
        notation: "{place_name(square)}"
      - id: pair
        for: {square: cells(board), other: "[c for c in cells(board) if c != square]"}
        where: "row(other) == 1 and all(empty(square) and k < 9 for k in range(2))"
        notation: "{place_name(square)}-{place_name(other)}"
end: [{id: e, when: "turn >= 3"}]
"""


_FAST = game_of(_LINES, file="lines.yaml")
_CAREFUL = game_of(_LINES, generate=False, file="lines.yaml")


def _outcome(game: Game, text: str, limit: int = 1_000_000) -> tuple[str, str, int]:
    return outcome(game, text, limit=limit)


def _legend(text: str) -> str:
    """What the names of the generated code for `text` stand for."""
    _outcome(_FAST, text)
    return " ".join(v for code in _FAST.generated_code if code.what == text
                    for v in code.legend.values())


_SCAN = ("any(all(top(offset(c, d, k)).colour == red for k in range(3)) "
         "for c in cells(board) for d in directions)")

_MIDDLE = ("any(top(c).colour == red and top(offset(c, d)).colour == red "
           "and top(offset(c, d, -1)).colour == red for c in cells(board) for d in orthogonal)")

_OFF_ANYTHING = "[top(offset(p, d)).colour for p in [null, 'c3', 5, 'pile'] for d in orthogonal]"

_OF_MINE = "[top(offset(c, 'n', 1)) for c in mine(red) if c in mine(blue)]"
_COUNTED = "len([k for k in range(3) if k != 1])"

_CHAINED = "any(k > 1 for k in [0, 1, 2, 3])"
_OUTER_KEPT = "len([c for c in mine(red) if c in mine(red)])"
_STEPS_KEPT = "[k * 2 > 1 and empty(c) for k in [1, 2, 0, 1] for c in cells(board)]"
_NESTED_KEPT = "[top(c).colour == top('a1').colour for c in cells(board) for d in orthogonal]"
_ONLY_READ = ["first(pieces('a1'))", "last(pieces('c1'))", "first(pieces('a2'))"]
_COUNT = ("any(len([k for k in range(3) if offset(c, d, k) in mine(red)]) == 3 "
          "for c in mine(red) for d in directions)")

EXPRESSIONS = [
    "[offset(c, d, k) for c in cells(board) for d in directions for k in range(-4, 5)]",
    "[offset('b2', d, k) for d in ['n', 'se', 'up'] for k in [1, 3]]",
    "[offset('b2', 'n', k) for k in [1, 2.5]]",
    "[offset(p, 'e', k) for p in [null, 'c3', 'a1'] for k in [1, -1]]",
    "[offset(c, d, start + k) for c in cells(board) for d in orthogonal "
    "for start in [-2, -1, 0] for k in range(3)]",
    "range(3)", "range(-2)", "range(2, 6)", "[k * k for k in range(1, 4)]",
    "len(range(100000))", "range(2.5)", "range('a')", "[range(k) for k in range(4)]",
    "any(len([k for k in range(4) if offset(c, d, k) in mine(red)]) == 3 "
    "for c in mine(red) for d in orthogonal)",
    "[len(near(col)) for col in [red, blue, red, blue]]",
    "[mine(col) for col in [red, red, blue, red]]",
    "[len(mine(c)) for c in [red, 3, red]]",
    "[near(c) for c in [blue, blue, red, red]]",
    # parts the same in every turn of a loop, kept: only where and once they are computed
    "[top(c).colour == top('a1').colour for c in cells(board)]",
    "[c for c in cells(board) for d in orthogonal "
    "if not empty(c) and top(c).colour == red and offset(c, d) != null]",
    "[len(reds) + k for k in range(3)]",
    "[1 // 0 for k in []]",
    "[k for k in range(3) if k > 5 and 1 // 0 == 1]",
    "[k for k in [1, 2] if k > 1 or 'a' < 1]",
    "[k for k in [2, 1] if k > 1 or 'a' < 1]",
    "[col == red and len(mine(col)) > 0 for col in [red, blue] for k in range(2)]",
    "[[p for p in pieces('a1') if p != k] for k in range(3)]",
    # a scan of every square in every direction (the square itself kept across directions)
    _SCAN,
    "any(all(top(offset(c, d, k)).colour == blue for k in range(2)) "
    "for c in cells(board) for d in ['n', 'e', 'up'])",
    "[[top(offset(c, d, k)).colour for k in [0, 1]] for c in cells(board) for d in orthogonal]",
    "[top(offset(c, d, 0)) for c in cells(pile) for d in ['n', 'e']]",
    "[bottom(offset(c, 'se', 1)).colour for c in cells(board)]",
    # a definition's squares, read unchecked; a comprehension only counted
    _OF_MINE, _COUNTED,
    "[c == 'b2' for c in mine(blue) if c in near(red)]",
    "len([1 // 0 for k in range(2)])", "len([k for k in range(5) if 1 // (k - 3) > 0])",
    "len([[c, d] for c in cells(board) for d in orthogonal if empty(offset(c, d))])",
    "[len([k for k in [1, 2] if offset(c, 'n', k) in mine(blue)]) for c in mine(red)]",
    # the turns of any() and all() chained
    _CHAINED, _OUTER_KEPT, _STEPS_KEPT, _NESTED_KEPT, *_ONLY_READ,
    "[first(pieces(c)) for c in cells(board)]", "first(pieces(board))",
    "[len(mine(red)) + 1 > k and top(c).colour == red for c in cells(board) for k in [1, 2]]",
    "all(any(k == j for j in [0, 1]) for k in range(3))",
    "all(1 // (k - 1) > -5 for k in [3, 2, 1])", "any(k > 5 for k in [])",
    "[any(top(offset(c, d)) == null for d in orthogonal) for c in cells(board)]",
    # a quantifier over a loop not written out, inside a chained turn: not chained itself
    "all(any(j == k for j in range(k + 1)) for k in [1, 2, 3])",
    "any(all(c != 'a1' for c in mine(col)) and col == blue for col in ['red', 'blue'])",
    # the turns after the first unswitched on a test they all share (the square itself)
    _MIDDLE,
    "any(all(top(offset(c, d, k)).colour == blue for k in range(3)) "
    "for c in cells(board) for d in directions)",
    "any(all(top(offset(c, d, k)).colour == red for k in [0, 1]) or d == 'w' "
    "for c in cells(board) for d in orthogonal)",
    "any(not empty(c) and top(offset(c, d)).colour == 1 // len(reds) "
    "for c in cells(board) for d in ['e', 'n'])",
    "[any(top(c).colour == col and offset(c, d) == null for d in orthogonal) "
    "for c in cells(board) for col in [red, blue]]",
    # an offset from what may not be a place: a place or null all the same
    _OFF_ANYTHING,
    "[top(offset(p, d, k)).colour for p in [5, 'b2', null] for d in ['n', 'w'] for k in [0, 2]]",
    "[empty(offset(p, 1, -1)) for p in [5, 'b2', 'pile']]",
    # parts known here: what they decide is not computed
    "any(true for k in [1, 2])", "all(not true for k in range(3))",
    "false and 1 // 0 == 1", "true or 1 // 0 == 1", "not (true and false)",
    "[k for k in range(3) if true and k > 0]",
    "[all(k > 0 or true for k in range(2)) for c in cells(pile)]",
]


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_natural_expressions_agree_with_the_closures(text: str) -> None:
    fast = _outcome(_FAST, text)
    assert fast == _outcome(_CAREFUL, text)
    if fast[0] == "value":  # and wherever a budget stops them
        for limit in range(0, fast[2] + 3, max(1, fast[2] // 60)):
            assert _outcome(_FAST, text, limit) == _outcome(_CAREFUL, text, limit), limit


def test_an_offset_at_a_distance_a_loop_computes_is_looked_up() -> None:
    legend = _legend(EXPRESSIONS[4])
    assert "the square at each distance in each direction of each" in legend
    assert "built-in offset" not in legend
    assert "built-in range" not in legend


def test_a_definition_called_in_a_loop_with_the_same_arguments_is_kept() -> None:
    """Its value is kept while the arguments stay the same (and charged again: see the
    budgets above), instead of being computed anew in each turn of the loop."""
    legend = _legend(EXPRESSIONS[13])
    assert "definition mine" in legend and "not computed yet" in legend


def test_a_part_the_same_in_every_turn_of_a_loop_is_kept() -> None:
    legend = _legend("[c for c in cells(board) for d in orthogonal "
                     "if not empty(c) and top(c).colour == red and offset(c, d) != null]")
    assert "not computed yet" in legend


def test_a_kept_part_that_computes_no_definition_is_checked_by_the_steps_alone() -> None:
    """Kept only when computing it charged nothing and put no definition into the cache:
    a part that calls no definition cannot put one there (only the steps are compared,
    as for arithmetic, which may charge), and one that hands the environment nothing
    cannot charge either (kept as it is, as whether a square is empty or a scan's own
    mark)."""
    steps = _source(_STEPS_KEPT)
    assert "len(env.cache)" not in steps and re.search(r"\n\s*c\d+ = env\.steps\n", steps)
    for text in (_SCAN, "[c for c in cells(board) for d in orthogonal "
                 "if not empty(c) and top(c).colour == red and offset(c, d) != null]"):
        kept = _source(text)
        assert "len(env.cache)" not in kept and re.search(r"\n\s*c\d+ = t\d+\n", kept)


def test_a_kept_parts_own_part_the_same_for_longer_is_kept_for_longer() -> None:
    """`top(c).colour == top('a1').colour`, kept for every direction of a square, computes
    `top('a1').colour` once for the whole expression: its kept name is tested inside the
    block that computes the square's part (as a scan's own mark compares with mark_of(s))."""
    lines = _source(_NESTED_KEPT).splitlines()
    nested = False
    for i, line in enumerate(lines):
        if (outer := re.fullmatch(r"(\s*)if c\d+ is (k\d+):", line)) is None:
            continue
        for later in lines[i + 1:]:
            if len(later) - len(later.lstrip()) <= len(outer[1]):
                break
            nested = nested or re.fullmatch(rf"\s*if c\d+ is {outer[2]}:", later) is not None
    assert nested


def test_the_first_piece_of_a_place_is_read_without_copying_its_pieces() -> None:
    """first(pieces(place)) and last(...) only read the list: the place's own is read
    (charged as the copy the closures make is) and known to be a list."""
    for text in _ONLY_READ:
        source = _source(text)
        assert "[:]" not in source and "is list" not in source, text


def test_a_part_using_an_options_variable_is_not_kept_from_one_option_to_the_next() -> None:
    """An option's `for` is a loop the listing writes itself: a part of its condition
    that uses the option's variable changes from one option to the next."""
    for game in (_FAST, _CAREFUL):
        state = game.new_state(2, 1)
        notations = [o.notation for o in game.legal_options(state, 1)]
        full = {"a1", "b2", "c3", "b1", "c1", "d4", "a4"}
        empty = [f"{c}{r}" for r in range(1, 5) for c in "abcd" if f"{c}{r}" not in full]
        assert notations == ["go", *empty, *[f"{s}-{o}" for s in empty
                                            for o in ["a1", "b1", "c1", "d1"] if o != s]]


def test_a_long_range_of_constants_is_not_written_out_in_the_source() -> None:
    """A short one is a list in the source; a long one is made as the code runs (the
    source of 50,000 numbers took seconds to compile)."""
    text = "[k for k in range(50000) if k < 0]"
    assert _outcome(_FAST, text) == _outcome(_CAREFUL, text)
    sources = [code.source for code in _FAST.generated_code if code.what == text]
    assert sources and len(sources[0]) < 5_000


def _source(text: str) -> str:
    """The source generated for `text` (its latest)."""
    _outcome(_FAST, text)
    return [code.source for code in _FAST.generated_code if code.what == text][-1]


def test_the_mark_on_a_square_an_offset_reaches_needs_only_a_test_for_null() -> None:
    """A board's offset table gives a square or null, and a square's top piece is a piece
    or null: reading its attribute asks nothing else (no type() of either)."""
    text = "[top(offset(c, 'n', 1)).colour for c in cells(board)]"
    assert _outcome(_FAST, text) == _outcome(_CAREFUL, text)
    source = _source(text)
    assert "type(" not in source
    assert "f_top" not in _legend(text) and "none_or_give_up" not in _legend(text)


def test_the_square_itself_is_read_once_for_every_direction() -> None:
    """offset(c, d, 0) is c in every direction: what is computed of it in the first
    direction's turn is kept for the others (one kept name, set in each of the eight
    turns written out, computed in the first that runs)."""
    source = _source(_SCAN)
    kept = re.findall(r"\n\s*(?:if c\d+ == [^:]+: )?(c\d+) = t\d+\n", source)
    assert max((kept.count(name) for name in set(kept)), default=0) == 8


def test_the_squares_a_definition_gives_are_read_unchecked() -> None:
    """A definition that is a comprehension of a zone's cells gives a list of places: a
    loop over it, and looking for a square in it, test nothing of what it holds."""
    assert "type(" not in _source(_OF_MINE)


def test_the_length_of_a_comprehension_counts_without_building_its_list() -> None:
    source = _source(_COUNTED)
    assert ".append(" not in source and "+= 1" in source


def test_the_turns_of_any_and_all_are_chained() -> None:
    """Each turn written out runs in the `else` of the one before: no loop run once to
    leave by `break`."""
    source = _source(_CHAINED)
    assert "in (0,)" not in source and "break" not in source and "else:" in source


def test_a_definitions_value_outside_a_loop_is_kept_for_the_loop() -> None:
    """`for c in mine(red)` and `c in mine(red)` share what is kept: the second computes
    nothing while the arguments are the same (both charged as the closures charge; the
    second also with what looking into the list charges, at once, or as written)."""
    assert _source(_OUTER_KEPT).count(" and env.steps + c") == 3


def test_looking_into_a_kept_list_of_squares_charges_the_call_and_the_look_at_once() -> None:
    """`offset(c, d, k) in mine(red)` with mine(red) kept: one addition and one test of
    the budget for the call and for looking into its squares, the kept list looked into."""
    assert re.search(r"env\.steps \+= (c\d+)\n\s*(t\d+) = c\d+\n\s*t\d+ = \w+ in \2\n",
                     _source(_COUNT))


def test_a_turn_charges_its_element_and_the_loop_inside_it_at_once() -> None:
    """The steps of an element (charged before it is computed) and of the loop it begins
    with, with range(3)'s, are one addition and one test of the budget: what comes between
    them (the quantifier's first value, a loop's kept names set afresh) is set before."""
    for text in (_SCAN, _COUNT):
        assert re.search(r"\n\s*env\.steps \+= \d+ \+ 3 \+ \d+\n", _source(text)), text


def test_looking_into_a_kept_list_stops_at_every_step_limit_as_the_closures_do() -> None:
    steps = _outcome(_FAST, _COUNT)[2]
    for limit in range(0, steps + 2, next(p for p in range(steps // 150, steps) if all(
            p % d for d in range(2, p)))):
        assert _outcome(_FAST, _COUNT, limit) == _outcome(_CAREFUL, _COUNT, limit), limit


def test_a_scan_charges_the_directions_after_the_first_at_once_when_its_square_differs() -> None:
    """The square itself, read in the first direction's turn, is the same in every turn:
    when it is not of the colour, each turn after only charges its steps (charged at
    once, one addition); when it is, the turns after are written knowing so."""
    source = _source(_SCAN)
    false = re.search(r"elif not (c\d+):  # false in every turn.*\n(.*)\n(.*)\n(.*)", source)
    assert false is not None
    assert false[2].strip().startswith("env.steps += ")
    assert false[3].strip().startswith("if env.steps > env.step_limit: ")
    assert false[4].strip() == "else:  # true in every turn"


def test_a_middle_square_of_another_colour_skips_the_directions_after_the_first() -> None:
    assert re.search(r"elif not c\d+:  # false in every turn.*\n\s*pass\n", _source(_MIDDLE))


def test_parts_known_here_are_not_written() -> None:
    assert _source("any(true for k in [1, 2])").count("True") == 1
    assert "//" not in _source("false and 1 // 0 == 1")


def test_the_mark_on_a_square_offset_from_anything_needs_only_a_test_for_null() -> None:
    """offset() gives a place or null whatever it is given (or fails): the top of what it
    gives, and that piece's mark, are read in place, not by the built-ins."""
    legend = _legend(_OFF_ANYTHING)
    assert "f_top" not in legend and "none_or_give_up" not in legend


@pytest.mark.parametrize("text", [_SCAN, _MIDDLE])
def test_unswitched_turns_stop_at_every_step_limit_as_the_closures_do(text: str) -> None:
    """The charges of the turns after the first, added up at once, stop where the first
    of them that went past the budget would have stopped: at about 120 limits a prime
    number of steps apart (so that they fall at every place within the charges)."""
    steps = _outcome(_FAST, text)[2]
    for limit in range(0, steps + 2, next(p for p in range(steps // 120, steps) if all(
            p % d for d in range(2, p)))):
        assert _outcome(_FAST, text, limit) == _outcome(_CAREFUL, text, limit), limit
