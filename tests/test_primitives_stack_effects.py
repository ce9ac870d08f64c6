"""The stack effect primitives: shrink, grow, recolor, destroy, create, match.

They run on a small test ruleset (tests/rulesets/stack_effects_basic.yaml) whose
pieces have an ordered text attribute `rank` (low, mid, high) and a `suit`; each
option of its turn applies one effect to the top piece of table:1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.api import load_game
from interpreter.assemble.game import Game
from interpreter.compile.english import Describer
from interpreter.errors import RulesetError
from interpreter.load.schema import json_schema
from interpreter.primitives import PRIMITIVES
from interpreter.run.state import State

RULESETS = Path(__file__).parent / "rulesets"
BASIC = RULESETS / "stack_effects_basic.yaml"


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(BASIC)


def start(game: Game, table: dict[int, list[str]], box_only: list[str] | None = None
          ) -> State:
    """table:N holds the pieces given by code (suit letter + rank digit), bottom first;
    with `box_only`, every other box piece goes to `gone`."""
    st = game.blank_state(2, 0)
    box, gone = game.zones["box"].first, game.zones["gone"].first
    first = game.zones["table"].first

    def take(code: str) -> int:
        return next(p for p in st.sites[box] if game.piece_codes[p] == code)

    def put(p: int, site: int) -> None:
        st.stack(st.loc[p]).remove(p)
        st.stack(site).append(p)
        st.loc[p] = site
    for n, codes in table.items():
        for code in codes:
            put(take(code), first + n - 1)
    if box_only is not None:
        keep = list(box_only)
        for p in list(st.sites[box]):
            if game.piece_codes[p] in keep:
                keep.remove(game.piece_codes[p])
            else:
                put(p, gone)
    game.start_turn(st, 1)
    return st


def codes(game: Game, st: State, site: str) -> list[str]:
    return [game.piece_codes[p] for p in st.sites[game.site_by_name[site]]]


def run(game: Game, st: State, notation: str) -> State:
    game.apply_in_place(st, game.deciding_seats(st)[0], notation)
    return st


# -- shrink / grow ------------------------------------------------------------------------

def test_shrink_swaps_for_the_next_lower_value_in_declared_order(game: Game) -> None:
    st = start(game, {1: ["A3"]})
    old = st.sites[game.site_by_name["table:1"]][0]
    run(game, st, "shrink")
    assert codes(game, st, "table:1") == ["A2"]
    assert st.loc[old] == game.site_by_name["box"]  # the old piece went back to the supply
    assert game.piece_codes[st.vars["made"]] == "A2"  # `as` names the replacement
    assert st.vars["outcome"] == ""


def test_shrink_keeps_the_piece_in_its_place_in_the_stack(game: Game) -> None:
    st = start(game, {1: ["B1", "A3"]})
    run(game, st, "shrink")
    assert codes(game, st, "table:1") == ["B1", "A2"]


def test_shrink_with_no_replacement_runs_else(game: Game) -> None:
    st = start(game, {1: ["A3"]}, box_only=["B2", "A1"])
    run(game, st, "shrink")
    assert codes(game, st, "table:1") == ["A3"]
    assert st.vars["outcome"] == "no smaller"
    assert st.vars["made"] is None


def test_shrink_below_the_first_value_runs_else(game: Game) -> None:
    st = start(game, {1: ["A1"]})
    run(game, st, "shrink")
    assert st.vars["outcome"] == "no smaller"


def test_shrink_by_two_steps(game: Game) -> None:
    st = start(game, {1: ["L3"]})
    run(game, st, "shrink2")
    assert codes(game, st, "table:1") == ["L1"]
    st = start(game, {1: ["L2"]})
    run(game, st, "shrink2")
    assert codes(game, st, "table:1") == ["L2"]
    assert st.vars["outcome"] == "not two smaller"


def test_grow_takes_from_any_place_of_the_supply_list(game: Game) -> None:
    st = start(game, {1: ["B1"]}, box_only=[])  # everything else is in `gone`
    run(game, st, "grow")
    assert codes(game, st, "table:1") == ["B2"]
    st = start(game, {1: ["B3"]})
    run(game, st, "grow")
    assert st.vars["outcome"] == "no larger"


def test_swaps_do_not_fire_enter_triggers(game: Game) -> None:
    st = start(game, {1: ["A3"]})
    run(game, st, "shrink")
    assert st.vars["arrivals"] == 0


# -- recolor ------------------------------------------------------------------------------

def test_recolor_swaps_for_the_same_rank_in_another_suit(game: Game) -> None:
    st = start(game, {1: ["A2"]})
    run(game, st, "suit-leaf")
    assert codes(game, st, "table:1") == ["L2"]


def test_recolor_to_its_own_value_changes_nothing(game: Game) -> None:
    st = start(game, {1: ["A2"]}, box_only=[])
    run(game, st, "suit-acorn")
    assert codes(game, st, "table:1") == ["A2"]
    assert st.vars["outcome"] == ""


def test_recolor_with_none_available_runs_else(game: Game) -> None:
    st = start(game, {1: ["A2"]}, box_only=["L1", "L3"])
    run(game, st, "suit-leaf")
    assert codes(game, st, "table:1") == ["A2"]
    assert st.vars["outcome"] == "no such suit"


# -- destroy / create ---------------------------------------------------------------------

def test_destroy_moves_the_piece_out_and_what_was_above_drops(game: Game) -> None:
    st = start(game, {1: ["A1", "B2"]})
    run(game, st, "destroy")
    assert codes(game, st, "table:1") == ["A1"]
    assert codes(game, st, "gone") == ["B2"]


def test_create_takes_a_matching_piece_into_a_free_place(game: Game) -> None:
    st = start(game, {1: ["A1"]})
    run(game, st, "create-bell")
    assert codes(game, st, "table:2") == ["B1"]
    assert game.piece_codes[st.vars["made"]] == "B1"
    assert st.vars["arrivals"] == 1  # create moves the piece: enter triggers fire


def test_create_with_only_some_attributes_given(game: Game) -> None:
    st = start(game, {1: ["A1"]}, box_only=["L3", "L1"])
    run(game, st, "create-any")
    assert codes(game, st, "table:1") == ["L3", "A1"]  # at: bottom


def test_create_with_none_in_the_supply_runs_else(game: Game) -> None:
    st = start(game, {1: ["A1"]}, box_only=["B1", "L2"])
    run(game, st, "create-acorn")
    assert codes(game, st, "table:2") == []
    assert st.vars["outcome"] == "none to create"
    assert st.vars["made"] is None


# -- match --------------------------------------------------------------------------------

@pytest.mark.parametrize(("top", "outcome"), [("A1", "an acorn"), ("B1", ""),
                                              ("L1", "something else")])
def test_match_runs_the_case_of_the_value(game: Game, top: str, outcome: str) -> None:
    st = start(game, {1: [top]})
    run(game, st, "match")
    assert st.vars["outcome"] == outcome


@pytest.mark.parametrize(("n", "outcome"), [(1, "one"), (2, "two"), (3, "")])
def test_match_on_numbers(game: Game, n: int, outcome: str) -> None:
    st = start(game, {1: ["A1"]})
    run(game, st, f"number-{n}")
    assert st.vars["outcome"] == outcome


# -- errors, English, schema -----------------------------------------------------------------

def _broken(tmp_path: Path, old: str, new: str) -> str:
    text = BASIC.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "broken.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_game(path)
    return str(info.value)


def test_unknown_attribute_is_a_located_error(tmp_path: Path) -> None:
    message = _broken(tmp_path, "attribute: rank\n            supply: box\n            as: got",
                      "attribute: rnak\n            supply: box\n            as: got")
    assert "broken.yaml:" in message
    assert "shrink: pieces have no attribute 'rnak'" in message
    assert "rank" in message


def test_create_with_an_unknown_attribute_is_an_error(tmp_path: Path) -> None:
    message = _broken(tmp_path, "create: {suit: suit, rank: low}",
                      "create: {suit: suit, colour: low}")
    assert "create: pieces have no attribute 'colour'" in message


def test_match_case_no_piece_can_have_is_an_error(tmp_path: Path) -> None:
    message = _broken(tmp_path, "              acorn:\n", "              akorn:\n")
    assert "match: no piece has suit 'akorn'" in message
    assert "acorn" in message


def test_unknown_keys_are_rejected(tmp_path: Path) -> None:
    message = _broken(tmp_path, "            steps: 2\n", "            step: 2\n")
    assert "step" in message


def test_each_primitive_has_an_english_sentence(game: Game) -> None:
    turn = game.ruleset.turn[0]
    sentences: dict[str, list[str]] = {}
    for option in turn.options:
        for effect in option.do:
            if effect.keyword in ("shrink", "grow", "recolor", "destroy", "create", "match"):
                sentences.setdefault(effect.keyword, effect.english(Describer()))
    shrink = sentences["shrink"]
    assert shrink[0].startswith("Shrink ") and "by one step of rank" in shrink[0]
    assert "with a lower rank and otherwise identical." in shrink[0]
    assert shrink[1] == "If the supply has no such piece:"
    assert shrink[2].startswith("  ")  # the fallback block, indented
    assert "by one step of rank" in sentences["grow"][0]
    assert "with a higher rank" in sentences["grow"][0]
    assert sentences["recolor"][0].startswith("Change the suit of ")
    assert sentences["destroy"][0].startswith("Destroy ")
    assert sentences["destroy"][0].endswith("and is out of play.")
    assert sentences["create"][0].startswith("Take a piece with suit ")
    assert sentences["create"][1] == "If there is no such piece:"
    match = sentences["match"]
    assert match[0].startswith("Depending on ") and match[1] == "  - acorn:"
    assert "  - bell: nothing happens." in match
    assert match[-2] == "  - anything else:"
    for lines in sentences.values():
        assert all(line.strip() for line in lines)


def test_the_json_schema_describes_them() -> None:
    schema = json_schema()
    defs = schema["$defs"]
    for name in ("Shrink", "Grow", "Recolor", "Destroy", "Create", "Match"):
        assert name in defs, name
        props = defs[name]["properties"]
        assert all("description" in props[k] or "$ref" in props[k] or "anyOf" in props[k]
                   for k in props), name
    assert {"shrink", "grow", "recolor", "destroy", "create", "match"} <= set(PRIMITIVES)
    assert "else" in defs["Shrink"]["properties"]
    assert "cases" in defs["Match"]["properties"]
