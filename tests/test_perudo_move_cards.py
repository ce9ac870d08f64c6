"""Invariants of two classics OpenSpiel does not have, over uniform random games played
through the Python API (interpreter.api).

Perudo (rulesets/perudo.yaml): a player knocked out never decides again, every player
still in has as many dice under the cup as the rules say, each dudo costs exactly one
die, and every game ends with exactly one player left, who wins.

Shared Move Cards (rulesets/move-cards.yaml): the five cards stay two in each hand and
one spare, every legal move is a step of the card it names (turned round for Blue), the
card used becomes the spare, and every game ends with a capture of a master or a master
on the other's start square."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from interpreter.api import load_game
from interpreter.play.game import Game
from interpreter.run.state import State

PERUDO_GAMES = 300
MOVE_CARDS_GAMES = 300


class Referee:
    """Reads a state in the ruleset's own language, hidden pieces included."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._compiled: dict[str, Callable[[Any], Any]] = {}

    def __call__(self, state: State, expression: str) -> Any:
        compiled = self._compiled.get(expression)
        if compiled is None:
            compiled = self._compiled[expression] = self.game.compile_expression(expression)
        return compiled(self.game.env(state))


def _decide(game: Game, state: State, rng: random.Random) -> tuple[int, str]:
    """One uniform random decision by the one seat deciding; returns it and its notation."""
    (seat,) = game.deciding_seats(state)
    raw = rng.choice(game.raw_options(state, seat))
    return seat, game.apply_trusted(state, seat, raw)


# -- Perudo ------------------------------------------------------------------------------

def _play_perudo(game: Game, ref: Referee, players: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = game.new_state(players, seed)
    out_when: dict[int, int] = {}
    dudos = 0
    while not state.over:
        for s in range(1, players + 1):
            dice = ref(state, f"dice[{s}]")
            under_cup = ref(state, f"count(pieces(cup[{s}]))")
            if s in state.out:
                assert dice == 0 and under_cup == 0, f"seed {seed}: seat {s} out with dice"
            elif ref(state, "bidder") is None:  # a new round: everyone still in has shaken
                assert under_cup == dice > 0, f"seed {seed}: seat {s} cup {under_cup}, dice {dice}"
        seat, notation = _decide(game, state, rng)
        assert seat not in out_when, (
            f"seed {seed}: seat {seat}, out since decision {out_when.get(seat)}, decided "
            f"{notation} at decision {state.decisions}")
        dudos += notation == "dudo"
        for s in state.out:
            out_when.setdefault(s, state.decisions)
    return {"state": state, "dudos": dudos,
            "dice": [ref(state, f"dice[{s}]") for s in range(1, players + 1)]}


def test_perudo_players_out_never_decide_and_one_player_is_left() -> None:
    game = load_game("perudo")
    ref = Referee(game)
    lengths: dict[int, list[int]] = {}
    for k in range(PERUDO_GAMES):
        players = 2 + k % 5
        result = _play_perudo(game, ref, players, seed=k)
        state = result["state"]
        left = [s for s in range(1, players + 1) if s not in state.out]
        assert len(left) == 1 and state.winners == left, (k, left, state.winners)
        assert sorted(state.out) == sorted(set(state.out)) and len(state.out) == players - 1
        assert result["dice"][left[0] - 1] > 0
        # each dudo costs exactly one die: the dice lost are the rounds played
        assert result["dudos"] == 5 * players - sum(result["dice"]), k
        lengths.setdefault(players, []).append(result["dudos"])
    for players, rounds in lengths.items():
        assert all(5 * players - 5 <= r <= 5 * players - 1 for r in rounds), players


def test_perudo_eliminated_seat_is_passed_over_in_the_bidding() -> None:
    """A four-player game played to its end: after the first player goes out, the
    bidding still comes round to each of the others, never to that player."""
    game = load_game("perudo")
    ref = Referee(game)
    rng = random.Random(7)
    state = game.new_state(4, 7)
    deciders_after: set[int] = set()
    while not state.over:
        seat, _ = _decide(game, state, rng)
        if state.out:
            deciders_after.add(seat)
    first_out = state.out[0]
    assert first_out not in deciders_after
    assert deciders_after >= {1, 2, 3, 4} - set(state.out[:2]) - {first_out}
    assert ref(state, f"dice[{first_out}]") == 0


# -- Shared Move Cards -------------------------------------------------------------------

def _step_of(notation: str) -> tuple[str, int, int]:
    """'fork:b2-c3' → ('fork', 1, 1): the card and the step in columns and rows."""
    title, move = notation.split(":")
    start, end = move.split("-")
    return (title, ord(end[0]) - ord(start[0]), int(end[1:]) - int(start[1:]))


def _check_move_cards_position(game: Game, ref: Referee, state: State, seed: int) -> None:
    assert ref(state, "[count(pieces(hand[1])), count(pieces(hand[2])), "
                      "count(pieces(spare)), count(pieces(deck))]") == [2, 2, 1, 3], seed
    seat = state.current
    patterns = {c[0]: [tuple(d) for d in c[1]]
                for c in ref(state, f"[[c.title, c.pattern] for c in pieces(hand[{seat}])]")}
    turn = 1 if seat == 1 else -1
    for raw in game.raw_options(state, seat):
        notation = game.notation_of(state, seat, raw)
        if notation.endswith(":pass"):
            continue
        title, dx, dy = _step_of(notation)
        assert (dx * turn, dy * turn) in patterns[title], (seed, notation, patterns)


def test_move_cards_moves_follow_the_cards_and_games_end_by_a_master() -> None:
    game = load_game("move-cards")
    ref = Referee(game)
    ends: dict[str, int] = {}
    for seed in range(MOVE_CARDS_GAMES):
        rng = random.Random(seed)
        state = game.new_state(2, seed)
        while not state.over:
            _check_move_cards_position(game, ref, state, seed)
            _seat, notation = _decide(game, state, rng)
            if not state.over:
                assert ref(state, "top(spare).title") == notation.split(":")[0], seed
        (winner,) = state.winners
        loser = 3 - winner
        if ref(state, f"master_of({loser})") is None:
            ends["master captured"] = ends.get("master captured", 0) + 1
        else:
            assert ref(state, f"place_of(master_of({winner})) == start_square({loser})"), seed
            ends["start square"] = ends.get("start square", 0) + 1
    assert set(ends) == {"master captured", "start square"}, ends


@pytest.mark.parametrize("notation, step", [("fork:b2-c3", ("fork", 1, 1)),
                                            ("lunge:b5-b3", ("lunge", 0, -2))])
def test_step_of_reads_a_notation(notation: str, step: tuple[str, int, int]) -> None:
    assert _step_of(notation) == step
