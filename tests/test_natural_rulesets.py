"""The natural formulations of tic-tac-toe and Connect Four in benchmarks/rulesets/ (each
written another way a newcomer would, as the README teaches) play exactly the game of the
project's own ruleset: stepped in lockstep over seeded random games, both show the same
legal moves at every decision and end with the same winners after the same moves. They
pass their own scenario cases too. benchmarks/natural.py races them; a race between
rulesets that play different games would measure nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from interpreter.api import load_game
from interpreter.scenarios.runner import run_scenario_files

RULESETS = Path(__file__).resolve().parents[1] / "benchmarks" / "rulesets"


def same_square(notation: str) -> str:
    return notation


def column_of(notation: str) -> str:
    """connect-four-drop names a move by its column: `d3` is `d`."""
    return notation[0]


FORMULATIONS: list[tuple[str, str, Callable[[str], str]]] = [
    ("tic-tac-toe.yaml", "tic-tac-toe-offsets.yaml", same_square),
    ("tic-tac-toe.yaml", "tic-tac-toe-scan.yaml", same_square),
    ("tic-tac-toe.yaml", "tic-tac-toe-count.yaml", same_square),
    ("tic-tac-toe.yaml", "tic-tac-toe-middle.yaml", same_square),
    ("connect-four.yaml", "connect-four-drop.yaml", column_of),
    ("connect-four.yaml", "connect-four-scan.yaml", same_square),
]


def play_lockstep(reference_file: str, natural_file: str, to_natural: Callable[[str], str],
                  seed: int) -> list[int]:
    """One random game on both rulesets (the moves drawn from the reference's legal
    ones); returns the winners, which both must agree on."""
    reference, natural = load_game(RULESETS / reference_file), load_game(RULESETS / natural_file)
    ref_state, nat_state = reference.new_state(2, seed), natural.new_state(2, seed)
    rng = random.Random(seed)
    moves: list[str] = []
    while not ref_state.over:
        where = f"{natural_file}, seed {seed}, after {moves}"
        assert not nat_state.over, f"{where}: only {natural_file} ended"
        seat = reference.deciding_seats(ref_state)[0]
        assert natural.deciding_seats(nat_state) == [seat], where
        ref_moves = [o.notation for o in reference.legal_options(ref_state, seat)]
        nat_moves = [o.notation for o in natural.legal_options(nat_state, seat)]
        assert sorted(nat_moves) == sorted(to_natural(n) for n in ref_moves), where
        move = rng.choice(ref_moves)
        reference.apply_in_place(ref_state, seat, move)
        natural.apply_in_place(nat_state, seat, to_natural(move))
        moves.append(move)
    where = f"{natural_file}, seed {seed}, moves {moves}"
    assert nat_state.over, f"{where}: only {reference_file} ended"
    assert nat_state.winners == ref_state.winners, where
    assert nat_state.reason == ref_state.reason, where
    return list(ref_state.winners)


@pytest.mark.parametrize(("reference_file", "natural_file", "to_natural"), FORMULATIONS,
                         ids=[f[1] for f in FORMULATIONS])
def test_each_formulation_plays_the_same_game(reference_file: str, natural_file: str,
                                              to_natural: Callable[[str], str]) -> None:
    outcomes = [tuple(play_lockstep(reference_file, natural_file, to_natural, seed))
                for seed in range(40)]
    assert {(1,), (2,)} <= set(outcomes)  # the games reached both players' wins


@pytest.mark.parametrize("natural_file", [f[1] for f in FORMULATIONS])
def test_each_formulation_passes_its_scenario_cases(natural_file: str) -> None:
    tests = RULESETS / natural_file.replace(".yaml", ".tests.yaml")
    results = run_scenario_files([tests])
    failed = [r for r in results if not r.passed]
    assert results and not failed, failed
