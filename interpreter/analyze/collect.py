"""Playing the games of an analysis and adding each to running totals.

A game is played as `simulate` plays it (game i of a run with seed S has seed S + i,
its agents seeded from it), but every decision is also recorded: how many options the
seat had (the branching factor) and which kind of option it took. Listing the options
is not charged to the game, and the random player then picks from that list with the
same draws, so the games are the very games `simulate` plays.

Totals are counters and histograms only, so memory stays flat for any number of games,
and adding them up in any order gives the same numbers: the report of `--jobs 4` is
the report of `--jobs 1`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from interpreter.analyze.histogram import Histogram
from interpreter.errors import RuleError, TabletopError
from interpreter.play.game import Game, numeric_scores
from interpreter.simulate.playout import Tally, choose_option, make_agents, worker_game

GameRef = tuple[str, dict[str, Any]]
"""A ruleset's path and the options it is played with (as worker_game takes it)."""


@dataclass(frozen=True)
class Matchup:
    """Who sits at the seats: `field` at every seat, or one `focal` player against the
    field, moved one seat on each game so that it plays every seat equally often."""

    field: str
    focal: str | None = None

    def agents(self, players: int, game_index: int) -> dict[int, str]:
        """The agent of each seat in game `game_index` of the run."""
        if self.focal is None:
            return {s: self.field for s in range(1, players + 1)}
        seat = self.focal_seat(players, game_index)
        return {s: self.focal if s == seat else self.field for s in range(1, players + 1)}

    def focal_seat(self, players: int, game_index: int) -> int:
        return game_index % players + 1

    def label(self, players: int) -> str:
        if self.focal is None:
            return f"{self.field} at every seat"
        others = players - 1
        return f"{self.focal} vs {'' if others == 1 else f'{others}× '}{self.field}"

    def key(self) -> str:
        """A short id for JSON: `random`, `mcts vs random`."""
        return self.field if self.focal is None else f"{self.focal} vs {self.field}"


@dataclass
class GameRecord:
    """One finished game, as the totals need it (dropped once counted)."""

    winners: list[int]
    turns: int
    decisions: int
    reason: str | None
    branching: Counter[int]
    kinds: Counter[str]
    scores: dict[int, Any] | None
    agents: dict[int, str]


def play_recorded(game: Game, players: int, seed: int, agents: dict[int, str]
                  ) -> GameRecord:
    """Play the game of `seed` with these agents, recording each decision."""
    players_agents = make_agents(players, seed, agents, game)
    state = game.new_state(players, seed)
    branching: Counter[int] = Counter()
    kinds: Counter[str] = Counter()
    decisions = 0
    while not state.over:
        seats = game.deciding_seats(state)
        if not seats:
            raise RuleError("the game is stuck: no seat has a decision and it is not over")
        seat = seats[0]
        spec = game.choices[state.frames[-1][0]]
        branching[len(game.raw_options(state, seat))] += 1
        raw = choose_option(game, state, seat, players_agents[seat])
        kinds[spec.kinds[raw[0]].id] += 1
        game.apply_trusted(state, seat, raw, words=False)  # no log is read
        decisions += 1
    return GameRecord(list(state.winners or []), state.turn, decisions, state.reason,
                      branching, kinds, game.scores(state), agents)


@dataclass
class Totals:
    """Running totals of one configuration (variant, seat count, matchup)."""

    tally: Tally = field(default_factory=Tally)
    turns: Histogram = field(default_factory=Histogram)
    decisions: Histogram = field(default_factory=Histogram)
    branching: Histogram = field(default_factory=Histogram)
    margins: Histogram = field(default_factory=Histogram)
    """Highest score minus the second highest, in games that keep numeric scores."""
    kinds: Counter[str] = field(default_factory=Counter)
    agent_wins: Counter[str] = field(default_factory=Counter)
    """Games won outright by a seat this agent played."""
    score_sums: Counter[int] = field(default_factory=Counter)
    scored_games: int = 0

    def add(self, record: GameRecord) -> None:
        self.tally.add_game(record.winners, record.turns, record.decisions, record.reason)
        self.turns.add(record.turns)
        self.decisions.add(record.decisions)
        for options, count in record.branching.items():
            self.branching.add(options, count)
        self.kinds.update(record.kinds)
        if len(record.winners) == 1:
            self.agent_wins[record.agents[record.winners[0]]] += 1
        scores = numeric_scores(record.scores)
        if scores is not None:
            self.scored_games += 1
            for seat, value in enumerate(scores, start=1):
                self.score_sums[seat] += value  # type: ignore[assignment]
            if len(scores) > 1:
                top, second = sorted(scores, reverse=True)[:2]
                self.margins.add(top - second)

    def add_error(self, seed: int, exc: TabletopError) -> None:
        self.tally.add_error(seed, f"{type(exc).__name__}: {exc}")

    def merge(self, other: Totals) -> None:
        self.tally.merge(other.tally)
        for mine, theirs in ((self.turns, other.turns), (self.decisions, other.decisions),
                             (self.branching, other.branching),
                             (self.margins, other.margins)):
            mine.merge(theirs)
        self.kinds.update(other.kinds)
        self.agent_wins.update(other.agent_wins)
        self.score_sums.update(other.score_sums)
        self.scored_games += other.scored_games


@dataclass(frozen=True)
class Batch:
    """Games first … first+count-1 of configuration `config`, played by one worker."""

    config: int
    ref: GameRef
    players: int
    matchup: Matchup
    seed: int
    first: int
    count: int


def run_batch(batch: Batch) -> tuple[int, Totals]:
    """Play a batch (in a worker process or here) and total it."""
    game = worker_game(batch.ref)
    totals = Totals()
    for index in range(batch.first, batch.first + batch.count):
        seed = batch.seed + index
        try:
            record = play_recorded(game, batch.players, seed,
                                   batch.matchup.agents(batch.players, index))
        except TabletopError as exc:
            totals.add_error(seed, exc)
            continue
        totals.add(record)
    return batch.config, totals


def lost_batch(batch: Batch, error: str) -> tuple[int, Totals]:
    """A batch no worker could play (see `backends.ray_stream`): each of its games counts
    as an error with the reason, so none goes missing from the report."""
    totals = Totals()
    for index in range(batch.first, batch.first + batch.count):
        totals.tally.add_error(batch.seed + index, error)
    return batch.config, totals
