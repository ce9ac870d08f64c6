"""Random play is the fuzzer: thousands of random Caldera games, with the rules'
invariants checked at every decision of every game.

Games run in a spawn-context Pool(2) of module-level workers; each worker returns
counts and a digest of every game's log, so the parent can replay a sample of games
in its own process and check it gets the same games.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time
from functools import cache
from typing import Any

import pytest
from fuzz_support import start_worker

from interpreter.api import load_game
from interpreter.assemble.game import Game
from interpreter.run.state import State
from interpreter.simulate.playout import decide, make_agents

NOTATION_CHECK_EVERY = 5
"""Rendering every option's notation costs a quarter of the run; every 5th decision
still covers tens of thousands of decisions."""
GAMES_PER_SEAT_COUNT = int(os.environ.get("TABLETOP_FUZZ_GAMES", "1000"))
JSON_CHECK_EVERY = 60
N_PIECES = 90


@cache
def caldera(power_play: bool = True) -> Game:
    return load_game("caldera", {"power_play": power_play})


def check_invariants(game: Game, state: State) -> None:
    sites = state.lists()
    # Every piece in exactly one place, and the index agrees.
    everything = [p for stack in sites for p in stack]
    assert len(everything) == N_PIECES
    assert sorted(everything) == list(range(N_PIECES))
    for i, stack in enumerate(sites):
        for p in stack:
            assert state.loc[p] == i
    colour = game.attributes["colour"]
    size = game.attributes["size"]
    board = game.zones["board"].sites_in_play(state.players)
    captured = game.zones["captured"].sites_in_play(state.players)
    box = game.zones["box"].first
    # Every place in play is a board square, a captured pile or the box.
    in_play = set(board) | set(captured) | {box}
    assert all(not sites[s] for s in range(len(sites)) if s not in in_play)
    # The box holds exactly the 12 black mediums and larges, always.
    assert sorted(sites[box]) == sorted(p for p in range(N_PIECES)
                                        if colour[p] == "black" and size[p] != 1)
    # Caps: exactly 6 black smalls, all on the board, each the top of its stack.
    caps = 0
    for s in board:
        stack = sites[s]
        for depth, p in enumerate(stack):
            if colour[p] == "black":
                assert size[p] == 1, "a black medium or large left the box"
                assert depth == len(stack) - 1, "something is on top of a cap"
                caps += 1
    assert caps == 6
    for s in captured:
        assert all(colour[p] != "black" for p in sites[s])
    # The 72 coloured pieces are on the board or captured.
    coloured = sum(1 for s in (*board, *captured) for p in sites[s] if colour[p] != "black")
    assert coloured == 72


def check_json(game: Game, state: State) -> None:
    data = state.to_json()
    text = json.dumps(data, sort_keys=True)
    back = game.state_from_json(json.loads(text))
    assert back.to_json() == data
    assert json.dumps(back.to_json(), sort_keys=True) == text
    assert back.loc == state.loc


def play_checked(players: int, seed: int, power_play: bool = True) -> dict[str, Any]:
    """One random game with every invariant checked at every decision."""
    game = caldera(power_play)
    agents = make_agents(players, seed)
    state = game.new_state(players, seed)
    log: list[tuple[int, str]] = []
    json_checks = 0
    decisions = 0
    while not state.over:
        check_invariants(game, state)
        if decisions % JSON_CHECK_EVERY == 0:
            check_json(game, state)
            json_checks += 1
        seats = game.deciding_seats(state)
        assert len(seats) == 1
        seat = seats[0]
        raws = game.raw_options(state, seat)
        assert raws, "a seat is asked with no legal option"
        if decisions % NOTATION_CHECK_EVERY == 0:
            spec, env = game.choices[state.frames[-1][0]], game.env(state)
            notations = [spec.render(env, seat, r, label=False) for r in raws]
            assert len(set(notations)) == len(notations), "two options share a notation"
        log.append((seat, decide(game, state, seat, agents[seat])))
        decisions += 1
    check_invariants(game, state)
    check_json(game, state)
    json_checks += 1
    assert state.winners and all(1 <= w <= players for w in state.winners)
    digest = hashlib.sha256(json.dumps([log, state.to_json()], sort_keys=True)
                            .encode()).hexdigest()
    return {"seed": seed, "decisions": decisions, "json_checks": json_checks,
            "digest": digest, "winners": state.winners, "turns": state.turn,
            "power_plays": sum(1 for _, n in log if n.startswith("pp-"))}


def run_batch(job: tuple[int, list[int], bool]) -> list[dict[str, Any]]:
    """Worker: play a batch of seeds (module level, so a spawned process can import it)."""
    players, seeds, power_play = job
    return [play_checked(players, seed, power_play) for seed in seeds]


def run_many(players: int, seeds: list[int], power_play: bool = True,
             jobs: int = 2) -> list[dict[str, Any]]:
    batches = [(players, seeds[i:i + 25], power_play) for i in range(0, len(seeds), 25)]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(jobs, initializer=start_worker) as pool:
        out = [r for batch in pool.imap_unordered(run_batch, batches) for r in batch]
    return sorted(out, key=lambda r: r["seed"])


@pytest.mark.parametrize("players", [2, 3])
def test_random_caldera_games_keep_every_invariant(players: int) -> None:
    seeds = list(range(GAMES_PER_SEAT_COUNT))
    started = time.perf_counter()
    results = run_many(players, seeds)
    elapsed = time.perf_counter() - started
    assert [r["seed"] for r in results] == seeds          # every game ran, none vacuous
    decisions = sum(r["decisions"] for r in results)
    assert decisions > 100 * len(seeds)
    assert all(r["json_checks"] >= 2 for r in results)
    assert sum(r["power_plays"] for r in results) > 0      # Power Play got exercised
    wins = {s: sum(1 for r in results if r["winners"] == [s]) for s in range(1, players + 1)}
    assert all(n > 0 for n in wins.values()), wins
    print(f"\n{players} seats: {len(results)} games, {decisions} decisions in "
          f"{elapsed:.1f} s; single wins by seat {wins}")
    # Same seed, same game: replay a sample here, in the parent process.
    for r in results[:: max(1, len(results) // 12)]:
        again = play_checked(players, r["seed"])
        assert again["digest"] == r["digest"]
    # Different seeds give different games.
    assert len({r["digest"] for r in results}) == len(results)


def test_without_power_play() -> None:
    results = run_many(2, list(range(60)), power_play=False) + \
        run_many(3, list(range(40)), power_play=False)
    assert len(results) == 100
    assert all(r["power_plays"] == 0 for r in results)
    assert all(r["json_checks"] >= 2 for r in results)


def test_a_state_resumed_from_json_plays_on_identically() -> None:
    game = caldera()
    for seed in range(5):
        agents_a, agents_b = make_agents(2, seed), make_agents(2, seed)
        a = game.new_state(2, seed)
        b = a.copy()
        while not a.over:
            b = game.state_from_json(json.loads(json.dumps(b.to_json())))
            seat = game.deciding_seats(a)[0]
            assert game.deciding_seats(b) == [seat]
            assert decide(game, a, seat, agents_a[seat]) == decide(game, b, seat, agents_b[seat])
        assert a.to_json() == b.to_json()
