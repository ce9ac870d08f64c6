"""Playing whole games with agents: one game (`play_game`) or many (`simulate`).

Seeds make everything repeatable: game i of a simulation with seed S is the game with
seed S + i, and each agent's own random generator is seeded from the game's seed and
its seat, so the same seed gives the same game in any process. A simulation is
streamed: work is made as it is handed out and results are added to running totals
(a Tally), so memory stays flat however many games are asked for.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.agents import make_agent
from interpreter.agents.base import Agent, OptionChoice
from interpreter.agents.pool import workers_deaf_to_ctrl_c
from interpreter.agents.random_agent import RandomAgent
from interpreter.errors import IllegalMove, RuleError, TabletopError
from interpreter.play.game import Game
from interpreter.run import rng as rngmod
from interpreter.run.machine import Machine
from interpreter.run.state import State
from interpreter.run.view import view

if TYPE_CHECKING:
    from interpreter.load.loader import LoadedRuleset


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


def make_agents(players: int, seed: int, agent: str | dict[int, str] = "random",
                game: Game | None = None) -> dict[int, Agent]:
    """Each seat's agent, seeded per seat, with `game`'s settings for its kind (see
    `make_agent`)."""
    names = agent if isinstance(agent, dict) else {s: agent for s in range(1, players + 1)}
    return {s: make_agent(names[s], agent_seed(seed, s), game) for s in range(1, players + 1)}


def seat_agents(game: Game, seats: dict[int, str], seed: int,
                resumed_after: int | None = None, person: str = "human") -> dict[int, Agent]:
    """A computer player for every seat that is not a `person`, seeded per seat. A
    resumed game's players get generators derived (hashed) from the seed, seat and
    decisions so far: never a linear function of the seed, which they would otherwise
    give away."""
    def own_seed(seat: int) -> int:
        if resumed_after is None:
            return agent_seed(seed, seat)
        return rngmod.derive_seed(seed, "agent", seat, resumed_after)

    return {s: make_agent(kind, own_seed(s), game) for s, kind in seats.items()
            if kind != person}


def choose_option(game: Game, state: State, seat: int, agent: Agent,
                  searched: list[int] | None = None) -> tuple[int, tuple]:
    """The option `agent` picks for `seat` (whose decision it is), in internal form,
    without carrying it out. A searching agent (one with `search`) is handed the state
    and reads of it only what its kind allows (see `interpreter.agents.search`)."""
    if isinstance(agent, RandomAgent):
        return game.sample_option(state, seat, agent, searched)
    search = getattr(agent, "search", None)
    if search is not None:
        return search(game, state, seat)
    options = game.legal_options(state, seat)
    return options[agent.choose(lambda: view(game, state, seat),
                                [OptionChoice(o.notation, o.label, o.kind)
                                 for o in options])].raw


def decide(game: Game, state: State, seat: int, agent: Agent,
           searched: list[int] | None = None, machine: Machine | None = None,
           words: bool = True) -> str:
    """Ask `agent` for the decision of `seat` (whose decision it is) and carry it out in
    place; returns its notation. The random player samples without a full listing, on
    `machine` when given (the one that advanced `state` last); `searched` counts the
    steps of its search, which a playout bounds with the game's step budget."""
    if isinstance(agent, RandomAgent):
        return game.play_sampled(state, seat, agent, searched, machine, words)
    return game.apply_trusted(state, seat, choose_option(game, state, seat, agent), words)


def play_game(game: Game, players: int | None, seed: int, agents: dict[int, Agent],
              moves: Iterable[str] = (), keep_state: bool = True) -> GameResult:
    """Play one game: first the given moves (notations), then the agents."""
    state = game.new_state(players, seed)
    decisions: list[tuple[int, str]] = []
    for number, text in enumerate(moves, start=1):
        seats = game.deciding_seats(state)
        if not seats:
            raise IllegalMove(f"move {number} ('{_shown(text)}'): the game is already over")
        seat, notation = _seat_and_notation(text, seats)
        try:
            game.apply_in_place(state, seat, notation)
        except IllegalMove as exc:
            raise IllegalMove(f"move {number} ('{_shown(text)}'): {exc}") from None
        decisions.append((seat, notation))
    searched = [0]
    machine = Machine(game, state, limited=False)
    while not state.over:
        seats = game.deciding_seats(state)
        if not seats:
            raise RuleError("the game is stuck: no seat has a decision and it is not over")
        seat = seats[0]
        decisions.append((seat, decide(game, state, seat, agents[seat], searched, machine,
                                       words=keep_state)))  # words for a state kept
    return GameResult(seed, state.players, list(state.winners or []), game.scores(state),
                      state.turn, decisions, state.reason, state if keep_state else None)


def _shown(text: str, limit: int = 60) -> str:
    """A move as quoted in a message: whole when short, else its start (a moves file may
    hold a line of any length)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _seat_and_notation(text: str, seats: Sequence[int]) -> tuple[int, str]:
    """A move line is `notation`, or `seat: notation` when several seats decide."""
    head, sep, rest = text.partition(":")
    if sep and head.strip().isascii() and head.strip().isdigit():
        seat = int(head.strip()) if len(head.strip()) <= 6 else 0
        if seat not in seats:
            raise IllegalMove(f"'{_shown(text)}': seat {seat} has no decision now "
                              f"(deciding: {', '.join(map(str, seats))})")
        return seat, rest.strip()
    return seats[0], text.strip()


# -- simulation -----------------------------------------------------------------------

MAX_REASONS = 50
"""Distinct end reasons a simulation counts one by one; the rest are counted together
(a ruleset may write a number into its reason, and memory must stay flat)."""
OTHER_REASONS = "(other reasons)"
NO_REASON = "(no reason given)"
ERROR_EXAMPLES = 5


@dataclass
class Tally:
    """Running totals of a simulation: the same few numbers however many games are
    played, so a million games need no more memory than ten."""

    games: int = 0
    errors: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    draws: int = 0
    turns: int = 0
    decisions: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    error_examples: list[tuple[int, str]] = field(default_factory=list)
    """The errors of the lowest seeds (at most ERROR_EXAMPLES), sorted by seed."""

    def add_game(self, winners: Sequence[int], turns: int, decisions: int,
                 reason: str | None) -> None:
        if len(winners) == 1:
            self.wins[winners[0]] += 1
        else:
            self.draws += 1
        self.turns += turns
        self.decisions += decisions
        self.count_reason(reason or NO_REASON, 1)
        self.games += 1

    def add_error(self, seed: int, error: str) -> None:
        self.errors += 1
        self.games += 1
        self._keep_examples([(seed, error)])

    def count_reason(self, reason: str, count: int) -> None:
        if reason in self.reasons or len(self.reasons) < MAX_REASONS:
            self.reasons[reason] += count
        else:
            self.reasons[OTHER_REASONS] += count

    def merge(self, other: Tally) -> None:
        """Add another tally's games (a worker's batch) to this one."""
        self.games += other.games
        self.errors += other.errors
        self.wins.update(other.wins)
        self.draws += other.draws
        self.turns += other.turns
        self.decisions += other.decisions
        for reason, count in other.reasons.items():
            self.count_reason(reason, count)
        self._keep_examples(other.error_examples)

    def _keep_examples(self, new: list[tuple[int, str]]) -> None:
        self.error_examples = sorted(self.error_examples + new)[:ERROR_EXAMPLES]


@dataclass
class _Batch:
    """Games first … first+count-1 of a simulation, played by one worker."""

    game_ref: tuple[str, dict[str, Any]]
    players: int | None
    first: int
    count: int
    agent: str


_WORKER_GAMES: dict[tuple, Game] = {}


def worker_game(ref: tuple[str, dict[str, Any]]) -> Game:
    """The game `ref` names (ruleset, options), compiled once in this process: a worker
    plays many games of it, and a Game is not changed by playing it."""
    from interpreter.api import load_game

    key = (ref[0], tuple(sorted(ref[1].items())))
    game = _WORKER_GAMES.get(key)
    if game is None:
        game = _WORKER_GAMES[key] = load_game(ref[0], ref[1])
    return game


def forget_games(paths: Iterable[str]) -> None:
    """Drop this process's compiled games of these rulesets (new versions came in)."""
    gone = set(paths)
    for key in [key for key in _WORKER_GAMES if key[0] in gone]:
        del _WORKER_GAMES[key]


def _play_into(tally: Tally, game: Game, players: int, seed: int, agent: str) -> None:
    """Play the game of `seed` and count it (a rule that fails counts as an error)."""
    try:
        result = play_game(game, players, seed, make_agents(players, seed, agent, game),
                           keep_state=False)
    except TabletopError as exc:
        tally.add_error(seed, f"{type(exc).__name__}: {exc}")
        return
    tally.add_game(result.winners, result.turns, len(result.decisions), result.reason)


def _run_batch(batch: _Batch) -> Tally:
    game = worker_game(batch.game_ref)
    players = game.check_players(batch.players)
    tally = Tally()
    for seed in range(batch.first, batch.first + batch.count):
        _play_into(tally, game, players, seed, batch.agent)
    return tally


def lost_batch(batch: _Batch, error: str) -> Tally:
    """A batch no worker could play (see `backends.ray_stream`): each of its games counts
    as an error with the reason, so none goes missing from the totals."""
    tally = Tally()
    for seed in range(batch.first, batch.first + batch.count):
        tally.add_error(seed, error)
    return tally


def seed_batches(n: int, largest: int) -> Iterator[tuple[int, int]]:
    """(first game, games) of each batch of `n` games, made as they are handed out:
    nothing proportional to n is ever held. The first batches are single games, so
    progress shows at once; they grow to `largest`."""
    start, size = 0, 1
    while start < n:
        count = min(size, n - start)
        yield start, count
        start += count
        size = min(2 * size, largest)


def largest_batch(n: int, jobs: int) -> int:
    """Games per batch at most: one in this process (progress and Ctrl-C at every game);
    in worker processes up to 8, fewer when that would leave a worker idle at the end."""
    return 1 if jobs <= 1 else max(1, min(8, n // (jobs * 8)))


def stream(work: Iterable[Any], run: Callable[[Any], Any], jobs: int,
           take: Callable[[Any], None]) -> bool:
    """Run each piece of work, here (`jobs` 1) or in `jobs` worker processes, and hand
    each result to `take` as it comes (in any order, so totals must not depend on it).
    Returns True when Ctrl-C stopped it: what `take` was given so far is kept.

    `run` must be a module-level function and the work picklable (workers are spawned,
    not forked: a fork would copy the main process's threads and locks)."""
    try:
        if jobs > 1:
            ctx = multiprocessing.get_context("spawn")
            with workers_deaf_to_ctrl_c():
                pool = ctx.Pool(jobs)
            with pool:
                for result in pool.imap_unordered(run, work):
                    take(result)
        else:
            for item in work:
                take(run(item))
    except KeyboardInterrupt:
        return True
    return False


def worker_count(jobs: int, n: int) -> int:
    """Processes worth starting: no more than the games, nor than the machine's cores."""
    return max(1, min(jobs, n, os.cpu_count() or 1))


def run_batches(total: int, work: Callable[[int], Iterable[Any]], run: Callable[[Any], Any],
                take: Callable[[Any], None], lost: Callable[[Any, str], Any], jobs: int = 1,
                backend: str = "local", address: str | None = None,
                rulesets: Mapping[str, LoadedRuleset] | None = None) -> bool:
    """Play `total` games cut into the batches of `work(largest batch)` on a backend:
    `local` (`stream`, with `jobs` processes) or `ray` (`backends.ray_stream`, at
    `address` or on a local instance; `lost` turns a batch that failed there into
    results; `rulesets`, the loaded rulesets by the paths the batches name, go along so
    that no node needs the files). Each result goes to `take`; returns True when Ctrl-C
    stopped it."""
    if backend == "ray":
        from interpreter.simulate.backends import ray_stream  # Ray only when asked for

        return ray_stream(total, work, run, take, lost, address, rulesets=rulesets)
    from interpreter.simulate.backends import check_backend

    check_backend(backend, address, jobs)
    jobs = worker_count(jobs, total)
    return stream(work(largest_batch(total, jobs)), run, jobs, take)


def simulate(game_ref: tuple[str, dict[str, Any]], n: int, players: int | None, seed: int,
             agent: str = "random", jobs: int = 1,
             progress: Callable[[int], None] | None = None, backend: str = "local",
             address: str | None = None) -> dict[str, Any]:
    """Play `n` games (seeds seed … seed+n-1) and summarise them, on `backend` (see
    `run_batches`): the same seeds give the same summary on any backend.

    Results are counted as they come (a Tally), so memory stays flat for any `n`. Ctrl-C
    stops early: the games finished so far are summarised, with `interrupted` true."""
    started = time.perf_counter()
    game = worker_game(game_ref)
    game.check_players(players)
    tally = Tally()

    def work(largest: int) -> Iterator[_Batch]:
        return (_Batch(game_ref, players, seed + first, count, agent)
                for first, count in seed_batches(n, largest))

    def take(part: Tally) -> None:
        tally.merge(part)
        if progress:
            progress(part.games)

    interrupted = run_batches(n, work, _run_batch, take, lost_batch, jobs, backend, address,
                              rulesets={game_ref[0]: game.loaded})
    elapsed = time.perf_counter() - started
    report = summarise(tally, elapsed, game, players)
    report["requested"] = n
    report["interrupted"] = interrupted
    return report


def summarise(tally: Tally, elapsed: float, game: Game, players: int | None
              ) -> dict[str, Any]:
    """The contract of `simulate --json`: wins per seat, draws, errors (with the lowest
    seeds' messages), how games ended (`end_reasons`), length and speed."""
    n_players = game.check_players(players)
    finished = tally.games - tally.errors
    return {
        "game": game.name,
        "players": n_players,
        "options": game.options,
        "games": tally.games,
        "errors": tally.errors,
        "error_examples": [{"seed": seed, "error": error}
                           for seed, error in tally.error_examples],
        "wins_by_seat": {str(s): tally.wins.get(s, 0) for s in range(1, n_players + 1)},
        "draws": tally.draws,
        "end_reasons": dict(tally.reasons.most_common()),
        "mean_turns": round(tally.turns / finished, 2) if finished else 0,
        "mean_decisions": round(tally.decisions / finished, 2) if finished else 0,
        "seconds": round(elapsed, 3),
        "games_per_second": round(tally.games / elapsed, 2) if elapsed > 0 else 0,
        "decisions_per_second": round(tally.decisions / elapsed, 1) if elapsed > 0 else 0,
    }
