"""A text naming a place names that place wherever a place is expected (README,
Expressions): a quoted name is found when the ruleset compiles, a computed one when the
effect runs, and a name no place has is a located mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.assemble.game import Game, compile_game
from interpreter.errors import RuleError, RulesetError
from interpreter.load.loader import load_ruleset_text

RULESET = """\
tabletop: 1
game:
  name: place-names
  title: Place names
  designer: Test Suite
  seats: {min: 2, max: 2}
  summary: Put counters on named squares.
pieces:
  attributes:
    colour:
      values: [red, blue]
  sets:
    - id: counters
      each: {colour: [red, blue]}
      count: 3
      start: pile
zones:
  - id: pile
    kind: pile
  - id: spare
    kind: pile
  - id: board
    kind: grid
    rows: 3
    cols: 3
setup:
  - move: top(pile)
    to: SETUP_TO
turn:
  - choose: "Put"
    options:
      - id: put
        for:
          n: "[1, 2]"
        notation: "put{n}"
        do:
          - move: top(pile)
            to: TURN_TO
          - shuffle: "'spare'"
end:
  - id: done
    when: count(pieces(pile)) == 0
    winners: "[current]"
"""


def compiled(setup_to: str = "\"'a1'\"", turn_to: str = "\"'b' + str(n)\"",
             path: str = "place-names.yaml") -> Game:
    text = RULESET.replace("SETUP_TO", setup_to).replace("TURN_TO", turn_to)
    return compile_game(load_ruleset_text(text, path), {})


def test_a_quoted_place_name_is_that_place() -> None:
    game = compiled()
    state = game.new_state(2, seed=1)
    a1 = game.site_by_name["a1"]
    assert len(state.sites[a1]) == 1
    state = game.apply(state, state.current, "put2")
    assert len(state.sites[game.site_by_name["b2"]]) == 1


def test_a_quoted_name_no_place_has_is_a_located_mistake() -> None:
    with pytest.raises(RulesetError) as info:
        compiled(setup_to="\"'a11'\"")
    (d,) = info.value.diagnostics
    assert d.message == "no square or place is called 'a11'"
    assert d.hint is not None and "'a1'" in d.hint
    assert d.location is not None and d.location.line == 28
    assert d.source_line is not None
    assert d.source_line[d.location.col - 1:].startswith("'a11'")


def test_a_quoted_name_in_a_built_in_has_a_did_you_mean() -> None:
    with pytest.raises(RulesetError) as info:
        compiled(setup_to="top('sparee')")
    (d,) = info.value.diagnostics
    assert d.message == "no square or place is called 'sparee'"
    assert d.hint is not None and "'spare'" in d.hint


def test_a_computed_text_that_names_no_place_is_a_located_rule_error() -> None:
    game = compiled(turn_to="\"'z' + str(n)\"")
    state = game.new_state(2, seed=1)
    with pytest.raises(RuleError) as info:
        game.apply(state, state.current, "put1")
    text = str(info.value)
    assert "the text 'z1' names no place of this game" in text
    assert "place-names.yaml:37:13: error: move: " in text, text


def test_the_readme_promise_holds_in_a_file(tmp_path: Path) -> None:
    """`tabletop validate` accepts it and a whole game plays (it once stopped every game
    with "the text 'c1' is not a place")."""
    from interpreter.simulate.playout import make_agents, play_game

    game = compiled(path=str(tmp_path / "place-names.yaml"))
    for seed in range(3):
        result = play_game(game, 2, seed, make_agents(2, seed))
        assert result.winners
