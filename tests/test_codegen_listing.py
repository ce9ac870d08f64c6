"""Generated option listings keep what an inner `for` does not change (a piece's
arrangement without its origin, computed once per origin, not once per direction) and
agree with the checked closures option for option; generated deals of `arrange` deal
the closures' layouts, with plain values or lists, and stop at their step.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from interpreter.errors import BudgetError, TabletopError
from interpreter.play.game import Game
from interpreter.run.tables import careful_values
from tests.compiled_text import game_of
from tests.test_codegen import _CAREFUL, _GAME, _stopped_at

_MARKS = """\
tabletop: 1
game: {name: marks, title: Marks, designer: Test, seats: {min: 2, max: 2}, summary: s}
pieces:
  attributes:
    colour: {values: [red, blue, black]}
  sets: [{id: a, count: 4, each: {colour: [red, blue, black]}, start: pile}]
zones:
  - {id: board, kind: grid, rows: 4, cols: 4}
  - {id: pile, kind: pile}
define:
  marks: "[c for c in cells(board) if not empty(c) and top(c).colour == black]"
  key_after(a, b): sorted(without(marks, a) + [b])
  seen: "[sorted(marks), sorted(without(marks, place('b2')) + [place('b3')])]"
setup:
  - arrange: DECK
    into: without(cells(board), place('a1'))
    where: all(assigned[n] != value for n in neighbours(place, orthogonal))
    as: dealt
  - for_each: sq
    in: "['a1', 'b2', 'c3', 'd4']"
    do:
      - move: first([p for p in pieces(pile) if p.colour == black])
        to: sq
turn:
  - choose: step
    options:
      - id: step
        for: {origin: marks, dir: directions}
        let: {to: "offset(origin, dir)"}
        where: to != null and empty(to) and key_after(origin, to) not in seen
        notation: "{place_name(origin)}-{dir}"
end: [{id: e, when: "turn >= 3"}]
"""

_DECKS = {"plain": "repeat(1, 5) + repeat(2, 5) + repeat(3, 5)",
          "lists": "repeat([1], 5) + repeat(2, 5) + repeat([3, 1], 5)"}


def _marks(generate: bool, deck: str = "plain") -> Game:
    text = _MARKS.replace("DECK", _DECKS[deck])
    return game_of(text, generate=generate, file="marks.yaml")


_FAST, _SLOW = _marks(True), _marks(False)


def _listed(game: Game, limit: int) -> tuple[str, Any, int]:
    """The first decision's options of `step` listed with a budget of `limit` steps."""
    state = game.new_state(2, 1)
    env = game.env(state)
    env.temps["chooser"] = 1
    env.step_limit = env.steps + limit
    start = env.steps
    kind = game.choices[state.frames[-1][0]].kinds[0]
    try:
        values = kind.values(env) if kind.values is not None else careful_values(kind, env)
        return ("value", values, env.steps - start)
    except BudgetError as exc:
        return ("error", str(exc), env.steps - start)


def test_a_part_an_inner_for_does_not_change_is_kept_for_each_turn_of_the_outer() -> None:
    """`without(marks, origin)`, written out from `key_after`, uses only the outer `for`:
    computed in the first direction of each origin, kept (and charged again) for the
    others."""
    listing = next(c for c in _FAST.generated_code if c.what == "the options 'step'"
                   and c.name.startswith("list"))
    assert "not computed yet" in listing.legend.values(), listing.source
    kept = re.search(r"if (c\d+) is not k\d+ and env\.steps \+ (c\d+) <= env\.step_limit:",
                     listing.source)
    assert kept, listing.source
    # set afresh at the start of each origin's turn, not of each direction's
    lines = [line.strip() for line in listing.source.splitlines()]
    fors = [i for i, line in enumerate(lines) if line.startswith("for v")]
    assert lines[fors[0] + 1].startswith(f"{kept[1]} = "), listing.source
    assert not lines[fors[1] + 1].startswith(f"{kept[1]} = "), listing.source


def test_an_option_listing_with_kept_parts_agrees_with_the_careful_listing() -> None:
    """The same options as the closures; wherever the budget runs out, the listing
    either stops or gives all of them (a listing that tests a part of `where` early may
    charge less than the closures, never more)."""
    full = _listed(_FAST, 10_000_000)
    careful = _listed(_SLOW, 10_000_000)
    assert full[0] == "value" and full[1] == careful[1]
    assert len(full[1]) > 10 and full[2] <= careful[2]
    assert ("b2", "s") not in [(o[0], o[1]) for o in full[1]]  # (b3 again: seen)
    for limit in range(full[2] + 2):
        fast = _listed(_FAST, limit)
        assert fast == (full if limit >= full[2] else fast[:1] + fast[1:]), limit
        assert (fast[0] == "error") == (limit < full[2]), limit


def test_a_kept_part_whose_code_is_a_computed_name_is_kept() -> None:
    """`without(x, 3)` in a loop over x is one value (a name the writer computed, not a
    constant): computed once, its steps charged again at once in the later turns."""
    text = "[without(x, 3) + [a] for a in x]"
    _GAME.compile_expression(text, temps=["x"])
    source = next(c.source for c in _GAME.generated_code if c.what == text)
    assert re.search(r"env\.steps \+= c\d+\n", source), source
    assert source.count("!= 3]") == 1, source
    total = _stopped_at(_CAREFUL, text, [3, 1, 2, 5, 4], 10_000_000)[2]
    for limit in range(total + 2):
        assert _stopped_at(_GAME, text, [3, 1, 2, 5, 4], limit) == _stopped_at(
            _CAREFUL, text, [3, 1, 2, 5, 4], limit), limit


@pytest.mark.parametrize("deck", sorted(_DECKS))
def test_a_deal_deals_the_same_layouts_and_steps_as_the_closures(deck: str) -> None:
    """Decks of plain values or of lists: the same layout and random state as the
    careful deal, seed for seed."""
    fast, careful = _marks(True, deck), _marks(False, deck)
    for seed in range(8):
        a, b = fast.new_state(2, seed).to_json(), careful.new_state(2, seed).to_json()
        # (the first decision's options may be tested for less: see test_codegen)
        assert 0 <= b.pop("steps") - a.pop("steps") <= 2_000
        assert a == b, seed


@pytest.mark.parametrize("deck", sorted(_DECKS))
def test_a_deal_stops_at_the_same_step_as_the_closures(deck: str) -> None:
    fast, careful = _marks(True, deck), _marks(False, deck)
    steps = careful.new_state(2, 3).steps  # (the deal's, and a little after it)
    for limit in [*range(0, 400), *range(steps - 2_100, steps - 2_000)]:
        outcomes = []
        for game in (fast, careful):
            game.budgets.steps_for_setup = limit
            try:
                outcomes.append(("state", game.new_state(2, 3).to_json()))
            except TabletopError as exc:
                outcomes.append(("error", str(exc)))
        assert outcomes[0] == outcomes[1], limit


def test_sorting_two_lists_joined_charges_once_and_stops_where_the_closures_stop() -> None:
    """`sorted(without(cells(board), x) + [a])`: two lists known here (of places, of a
    number) are joined in one line, its charge and sorted's made as one; wherever the
    budget runs out, the closures' error and steps."""
    text = "[sorted(without(cells(board), x) + [a]) for a in range(3)]"
    _GAME.compile_expression(text, temps=["x"])
    source = next(c.source for c in _GAME.generated_code if c.what == text)
    assert re.search(r"env\.steps \+= len\((t\d+)\) \+ len\(\1\)\n", source), source
    for x in (3, [1], "a"):
        total = _stopped_at(_CAREFUL, text, x, 10_000_000)[2]
        for limit in range(total + 2):
            assert _stopped_at(_GAME, text, x, limit) == _stopped_at(_CAREFUL, text, x, limit), (
                x, limit)

