"""Playing whole games with agents: one game (`play_game`) or many (`simulate`).

Seeds make everything repeatable: game i of a simulation with seed S is the game with
seed S + i, and each agent's own random generator is seeded from the game's seed and
its seat, so the same seed gives the same game in any process.
"""

from __future__ import annotations

import multiprocessing
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from interpreter.agents import make_agent
from interpreter.agents.base import Agent, OptionChoice
from interpreter.agents.random_agent import RandomAgent
from interpreter.compile.game import Game
from interpreter.errors import IllegalMove, RuleError, TabletopError
from interpreter.run import rng as rngmod
from interpreter.run.state import State
from interpreter.run.view import view


@dataclass
class GameResult:
    """How one game ended."""

    seed: int
    players: int
    winners: list[int]
    scores: dict[int, Any] | None
    turns: int
    decisions: list[tuple[int, str]]
    reason: str | None
    final_state: State | None = field(default=None, repr=False)

    @property
    def draw(self) -> bool:
        return len(self.winners) != 1


def agent_seed(seed: int, seat: int) -> int:
    """A computer player's own seed: a hash of (game seed, seat), so its choices reveal
    nothing about the game seed and no two seats' or games' players move alike."""
    return rngmod.derive_seed(seed, "agent", seat)


def make_agents(players: int, seed: int, agent: str | dict[int, str] = "random"
                ) -> dict[int, Agent]:
    names = agent if isinstance(agent, dict) else {s: agent for s in range(1, players + 1)}
    return {s: make_agent(names[s], agent_seed(seed, s)) for s in range(1, players + 1)}


def option_choices(game: Game, state: State, seat: int) -> list[OptionChoice]:
    return [OptionChoice(o.notation, o.label, o.kind) for o in game.legal_options(state, seat)]


def decide(game: Game, state: State, seat: int, agent: Agent) -> str:
    """Ask `agent` for `seat`'s decision and carry it out in place; returns its notation."""
    spec = game.choices[state.frames[-1][0]]
    raws = game.raw_options(state, seat)
    if isinstance(agent, RandomAgent):
        index = agent.choose_raw([spec.kinds[r[0]].id for r in raws])
    else:
        index = agent.choose(lambda: view(game, state, seat), option_choices(game, state, seat))
    raw = raws[index]
    notation = game.notation_of(state, seat, raw)
    game.apply_in_place(state, seat, raw)
    return notation


def play_game(game: Game, players: int | None, seed: int, agents: dict[int, Agent],
              moves: Iterable[str] = (), keep_state: bool = True) -> GameResult:
    """Play one game: first the given moves (notations), then the agents."""
    state = game.new_state(players, seed)
    decisions: list[tuple[int, str]] = []
    for number, text in enumerate(moves, start=1):
        seats = game.deciding_seats(state)
        if not seats:
            raise IllegalMove(f"move {number} ('{text}'): the game is already over")
        seat, notation = _seat_and_notation(text, seats)
        try:
            game.apply_in_place(state, seat, notation)
        except IllegalMove as exc:
            raise IllegalMove(f"move {number} ('{text}'): {exc}") from None
        decisions.append((seat, notation))
    while not state.over:
        seats = game.deciding_seats(state)
        if not seats:
            raise RuleError("the game is stuck: no seat has a decision and it is not over")
        seat = seats[0]
        decisions.append((seat, decide(game, state, seat, agents[seat])))
    return GameResult(seed, state.players, list(state.winners or []), game.scores(state),
                      state.turn, decisions, state.reason, state if keep_state else None)


def _seat_and_notation(text: str, seats: Sequence[int]) -> tuple[int, str]:
    """A move line is `notation`, or `seat: notation` when several seats decide."""
    head, sep, rest = text.partition(":")
    if sep and head.strip().isdigit():
        seat = int(head.strip())
        if seat not in seats:
            raise IllegalMove(f"'{text}': seat {seat} has no decision now "
                              f"(deciding: {', '.join(map(str, seats))})")
        return seat, rest.strip()
    return seats[0], text.strip()


# -- simulation -----------------------------------------------------------------------

@dataclass
class _Job:
    game_ref: tuple[str, dict[str, Any]]
    players: int | None
    seed: int
    agent: str


_WORKER_GAMES: dict[tuple, Game] = {}


def _worker_game(ref: tuple[str, dict[str, Any]]) -> Game:
    from interpreter.api import load_game

    key = (ref[0], tuple(sorted(ref[1].items())))
    game = _WORKER_GAMES.get(key)
    if game is None:
        game = _WORKER_GAMES[key] = load_game(ref[0], ref[1])
    return game


def _run_one(job: _Job) -> dict[str, Any]:
    try:
        game = _worker_game(job.game_ref)
        players = game.check_players(job.players)
        result = play_game(game, players, job.seed, make_agents(players, job.seed, job.agent),
                           keep_state=False)
        return {"seed": job.seed, "winners": result.winners, "turns": result.turns,
                "decisions": len(result.decisions), "error": None}
    except TabletopError as exc:
        return {"seed": job.seed, "error": f"{type(exc).__name__}: {exc}"}


def simulate(game_ref: tuple[str, dict[str, Any]], n: int, players: int | None, seed: int,
             agent: str = "random", jobs: int = 1,
             progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play `n` games (seeds seed … seed+n-1) and summarise them."""
    started = time.perf_counter()
    work = [_Job(game_ref, players, seed + i, agent) for i in range(n)]
    results: list[dict[str, Any]] = []
    if jobs > 1 and n > 1:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(jobs) as pool:
            for r in pool.imap_unordered(_run_one, work, chunksize=max(1, n // (jobs * 8))):
                results.append(r)
                if progress:
                    progress(1)
    else:
        for job in work:
            results.append(_run_one(job))
            if progress:
                progress(1)
    elapsed = time.perf_counter() - started
    return summarise(results, elapsed, _worker_game(game_ref), players)


def summarise(results: list[dict[str, Any]], elapsed: float, game: Game,
              players: int | None) -> dict[str, Any]:
    n_players = game.check_players(players)
    ok = [r for r in results if r["error"] is None]
    errors = [r for r in results if r["error"] is not None]
    wins: Counter[int] = Counter()
    draws = 0
    for r in ok:
        if len(r["winners"]) == 1:
            wins[r["winners"][0]] += 1
        else:
            draws += 1
    total_decisions = sum(r["decisions"] for r in ok)
    return {
        "game": game.name,
        "players": n_players,
        "options": game.options,
        "games": len(results),
        "errors": len(errors),
        "error_examples": [{"seed": r["seed"], "error": r["error"]}
                           for r in sorted(errors, key=lambda r: r["seed"])[:5]],
        "wins_by_seat": {str(s): wins.get(s, 0) for s in range(1, n_players + 1)},
        "draws": draws,
        "mean_turns": round(sum(r["turns"] for r in ok) / len(ok), 2) if ok else 0,
        "mean_decisions": round(total_decisions / len(ok), 2) if ok else 0,
        "seconds": round(elapsed, 3),
        "games_per_second": round(len(results) / elapsed, 2) if elapsed > 0 else 0,
        "decisions_per_second": round(total_decisions / elapsed, 1) if elapsed > 0 else 0,
    }
