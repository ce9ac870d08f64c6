"""Non-interference through play (`through_play`): for every bundled game that hides
anything, two games that differ only in a hidden fact reached through play (another
seat's secret pick made otherwise, another deal) look the same to a seat, every zone,
count, variable, log line and option of it, until it learns the fact.

`secret_money.yaml` shows why the comparison must go through play: its public bank
gives every seat's secret money away, which a comparison of states that differ by
surgery on the hidden money cannot see (the surgery leaves the bank as it was).
`python -m tests.soak_secrecy` runs the same comparisons over many more games.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from test_hidden_information import differ_in_hidden, dump, random_position
from through_play import KINDS, Leak, Tally, pairs, sweep

from interpreter.api import load_game
from interpreter.assemble.game import Game
from interpreter.run.view import view

RULESETS = Path(__file__).resolve().parent / "rulesets"

GAMES: list[tuple[str, dict[str, Any], int, dict[str, Any], set[str]]] = [
    # game, options, players, settings of `pairs`, kinds of pair the run must find (a
    # "redeal" of everything hidden or of one kind of back)
    ("bottoms-up", {}, 4, {"observers": (2,), "picks": 2, "draws": 2, "redeals": 1},
     {"pick", "draw", "seed", "redeal"}),
    ("high-rise", {}, 2, {"draws": 2, "redeals": 1}, {"draw", "seed", "redeal"}),
    ("high-rise", {"covered_hidden": True}, 2, {"draws": 2, "redeals": 2}, {"draw", "seed"}),
    ("high-rise-numbered-slips", {}, 2, {"redeals": 1}, {"seed", "redeal"}),
    ("high-rise-black-white-covers", {}, 2, {"draws": 2, "redeals": 1}, {"draw", "redeal"}),
    ("aquarium", {}, 3, {"observers": (1, 3), "picks": 2, "draws": 2, "seeds_tried": 0},
     {"pick", "draw", "redeal"}),
    ("aquarium", {"mode": "advanced"}, 2, {"picks": 2, "draws": 2, "seeds_tried": 0},
     {"pick", "draw", "redeal"}),
    ("aquarius-rising", {}, 2, {"observers": (1,), "draws": 2, "seeds_tried": 0},
     {"draw", "redeal"}),
    ("aquarius-rising", {"chicken": True}, 3, {"observers": (1,), "draws": 2,
                                               "seeds_tried": 0}, {"draw", "redeal"}),
    # the classics that hide something: hands, dice under cups, secret bids, a card
    # out of play
    ("kuhn-poker", {}, 2, {"draws": 4, "redeals": 2}, {"draw", "seed", "redeal"}),
    ("liars-dice", {}, 2, {"draws": 4, "redeals": 2}, {"draw", "seed", "redeal"}),
    ("goofspiel", {}, 2, {"picks": 2, "draws": 2, "redeals": 1}, {"pick", "draw", "redeal"}),
    ("perudo", {}, 3, {"draws": 2, "redeals": 1}, {"draw", "redeal"}),
    ("move-cards", {}, 2, {"draws": 2, "redeals": 1}, {"draw", "redeal"}),
]


@cache
def ruleset(name: str) -> Game:
    return load_game(str(RULESETS / name))


@pytest.mark.parametrize(("name", "options", "players", "settings", "kinds"), GAMES,
                         ids=[f"{g[0]}-{'-'.join(f'{k}={v}' for k, v in g[1].items()) or 'default'}"
                              for g in GAMES])
def test_bundled_games_show_nothing_of_a_hidden_fact_reached_through_play(
        name: str, options: dict[str, Any], players: int, settings: dict[str, Any],
        kinds: set[str]) -> None:
    game = load_game(name, options)
    tally = sweep(game, players, range(1), **settings)
    tried = {kind.removesuffix("-one") for kind in tally.pairs}  # either kind of re-deal
    assert kinds <= tried, tally  # every kind of hidden fact was tried
    assert tally.compared >= 30, tally


def test_the_test_rulesets_secrets_hold_too() -> None:
    """The engine's own hidden-information ruleset: a face-down deck, owner-only hands, a
    vault nobody sees, private coins, secret bids and simultaneous secret plays."""
    tally = sweep(ruleset("cards.yaml"), 3, range(3))
    assert {"pick", "redeal", "redeal-one"} <= set(tally.pairs), tally
    assert tally.compared >= 100, tally


# -- the proof: a public variable derived from hidden values -----------------------------------
@pytest.mark.parametrize("kind", ["pick", "draw"])
def test_a_public_bank_that_gives_hidden_money_away_is_caught(kind: str) -> None:
    """Another secret pick, or another secret deal, followed by the same moves: the bank
    differs, and the harness says so."""
    game = ruleset("secret_money.yaml")
    with pytest.raises(Leak, match=r"view\.variables\.bank: \d+ ≠ \d+"):
        sweep(game, 2, range(3), kinds=(kind,))


def test_surgery_on_hidden_values_does_not_catch_it() -> None:
    """The old comparison (`test_hidden_information`): the money differs, the bank does
    not, and the views are the same. So it cannot see this kind of leak."""
    game = ruleset("secret_money.yaml")
    differing = 0
    for seed in range(40):
        state = random_position(game, 2, seed, seed % 8)
        for seat in (1, 2):
            other = differ_in_hidden(game, state, seat, random.Random(seed))
            differing += other.seat_vars["money"] != state.seat_vars["money"]
            assert dump(view(game, state, seat)) == dump(view(game, other, seat))
    assert differing >= 60


def test_a_redeal_from_the_view_does_not_catch_it_either() -> None:
    """A position drawn from what the seat sees (as `ismcts` draws them) is surgery too:
    the money is drawn anew, the bank kept; only play derives the bank again."""
    game = ruleset("secret_money.yaml")
    tally = sweep(game, 2, range(3), kinds=("redeal",))
    assert tally.pairs["redeal"] >= 5 and tally.stopped["over"] == tally.pairs["redeal"]


def test_the_same_game_with_the_bank_hidden_passes() -> None:
    game = ruleset("secret_money_hidden_bank.yaml")
    tally = sweep(game, 2, range(3))
    assert {"pick", "draw", "seed", "redeal"} <= set(tally.pairs), tally
    # compared to the end, unless the other draw dealt the seat itself other money
    assert set(tally.stopped) <= {"over", "its own value"}, tally
    assert tally.stopped["over"] >= 20, tally
    assert tally.compared >= 100, tally


def test_a_pair_differs_in_the_hidden_fact() -> None:
    """Each kind of pair really differs in what the seat may not see (not vacuous)."""
    game = ruleset("secret_money_hidden_bank.yaml")
    differ: set[str] = set()
    for pair in pairs(game, 2, 1, kinds=KINDS):
        if pair.a.to_json() != pair.b.to_json():
            differ.add(pair.kind)
    assert {"pick", "draw", "seed", "redeal"} <= differ


def test_a_leak_names_the_game_the_pair_and_what_differs() -> None:
    game = ruleset("secret_money.yaml")
    with pytest.raises(Leak) as caught:
        sweep(game, 2, range(1), kinds=("pick",), observers=(1,))
    message = str(caught.value)
    assert message.startswith("secret-money, 2 players, seed 0, decision ")
    assert "picked otherwise" in message and "seat 1 is shown different things" in message


def test_tally_counts_what_was_compared() -> None:
    tally = Tally()
    tally.add("pick", 3, "over")
    tally.add("pick", 2, "illegal")
    assert tally.pairs == {"pick": 2} and tally.compared == 5
    assert tally.stopped == {"over": 1, "illegal": 1}
