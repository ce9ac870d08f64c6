"""The engine against hand-written peers, raced side by side in one run.

A benchmark, not a test: run it by hand, before and after a change to the hot path.

    python benchmarks/peers.py                          # every race, default sizes
    python benchmarks/peers.py --races caldera --repeats 7
    python benchmarks/peers.py -n 300 --caldera-games 30
    python benchmarks/peers.py --races caldera --baseline /tmp/base --clock cpu

Races (random playouts, uniform random players on both sides):

  tic-tac-toe   benchmarks/rulesets/tic-tac-toe.yaml through the engine, against OpenSpiel's
                `python_tic_tac_toe` and its C++ `tic_tac_toe`, in games per second
  connect-four  benchmarks/rulesets/connect-four.yaml through the engine, against a plain
                Python Connect Four with OpenSpiel's state interface
                (benchmarks/connect_four_python.py) and, when OpenSpiel is installed, the
                same rules hosted as an OpenSpiel Python game and OpenSpiel's C++
                `connect_four`, in games per second
  caldera       rulesets/caldera.yaml (2 players, default options) through the engine,
                against the hand-written Caldera of benchmarks/caldera_reference.py, in
                decisions per second: whole games, then the set-up alone (ms per game) and
                the play after it (both sides time all their set-ups, then their play
                from those set-ups: a whole game is the two)

Every competitor's batch is run in turn within each repeat (the order rotating from one
repeat to the next), so all of them see the same machine load; the table gives the median
of the repeats and the ratio engine / competitor. A batch plays at least --min-seconds:
fast competitors play more rounds of games (Caldera: exactly --caldera-games on each side,
the same seeds, so that the long tail of the set-up deal weighs the same on both).
With --baseline DIR, the engine of another checkout (old code, say) races too, in a
process of its own, its batches in turn with the others'. OpenSpiel is optional
(`pip install -e ".[bench]"`); without it those rows are skipped with a note.

The engine plays through `play_game` with `make_agents` (its random player). The Caldera
reference plays the same policy with the same players' seeds, so as long as the engine's
random player draws as it does today the two play the very same games (the table says
whether they did).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import caldera_reference  # noqa: E402
from connect_four_python import ConnectFourGame, openspiel_python_game  # noqa: E402
from timing import CLOCKS, clock, interleave, use_clock  # noqa: E402

from interpreter.api import load_game  # noqa: E402
from interpreter.simulate.playout import agent_seed, make_agents, play_game  # noqa: E402

RULESETS = HERE / "rulesets"
RACES = ("tic-tac-toe", "connect-four", "caldera")

Batch = Callable[[int], tuple[int, int, float, float]]
"""Play the games of one batch, from a first seed; returns (games, decisions, seconds for
the whole games, seconds their set-ups take: 0 when not measured)."""


@dataclass
class Competitor:
    name: str
    batch: Batch
    games: int
    """Games per round of a batch."""
    engine: bool = False
    one_round: bool = False
    """Play exactly one round, whatever the time: every competitor then plays the same
    seeds (the Caldera race compares the same games, set-ups included)."""
    rates: list[float] = field(default_factory=list)
    decision_rates: list[float] = field(default_factory=list)
    setup_ms: list[float] = field(default_factory=list)
    """Milliseconds per set-up, when the batch measures them."""
    play_rates: list[float] = field(default_factory=list)
    """Decisions per second after set-up: the play's time alone."""
    decisions_per_game: float = 0.0

    def run(self, first_seed: int, min_seconds: float) -> None:
        games = decisions = rounds = 0
        elapsed = setups = 0.0
        while True:
            g, d, whole, setup = self.batch(first_seed + rounds * self.games)
            elapsed += whole
            setups += setup
            games += g
            decisions += d
            rounds += 1
            if self.one_round or elapsed >= min_seconds:
                break
        self.rates.append(games / elapsed)
        self.decision_rates.append(decisions / elapsed)
        if setups:
            self.setup_ms.append(1000 * setups / games)
            self.play_rates.append(decisions / (elapsed - setups))
        self.decisions_per_game = decisions / games


@dataclass
class Race:
    name: str
    unit: str
    """What the ratio compares: "games" or "decisions" per second."""
    competitors: list[Competitor]
    notes: list[str] = field(default_factory=list)


# -- engine batches ---------------------------------------------------------------------

def engine_batch(game_ref: str | Path, games: int, players: int = 2,
                 time_setups: bool = False) -> Batch:
    """Whole games through `play_game`; with `time_setups`, as the Caldera reference
    times its games: all the set-ups (`Game.new_state`, timed), then the play from each
    (timed), a whole game being the two. (Subtracting set-ups timed again on their own
    from whole games left the play's figure with the noise of both.)"""
    game = load_game(game_ref)

    def run(first: int) -> tuple[int, int, float, float]:
        seeds = range(first, first + games)
        decisions = 0
        if not time_setups:
            started = clock()
            for seed in seeds:
                decisions += len(play_game(game, players, seed, make_agents(players, seed),
                                           keep_state=False).decisions)
            return games, decisions, clock() - started, 0.0
        started = clock()
        set_up = [game.new_state(players, seed) for seed in seeds]
        setup = clock() - started
        for seed, state in zip(seeds, set_up, strict=True):
            decisions += len(_play_from(game, state, seed).decisions)
        return games, decisions, clock() - started, setup
    return run


def _play_from(game: Any, state: Any, seed: int) -> Any:
    """`play_game` of `seed` from its set-up, already made (`state`): the engine of any
    checkout (a baseline's too) plays it as it plays the whole game."""
    game.new_state = lambda players, seed: state  # (this game's set-up, made before)
    try:
        return play_game(game, state.players, seed, make_agents(state.players, seed),
                         keep_state=False)
    finally:
        del game.new_state


# -- a baseline engine, in a process of its own --------------------------------------------

class BaselineEngine:
    """The engine of another checkout (--baseline DIR: its `interpreter` package), in a
    process of its own that plays the batches it is sent, timed there by the same clock:
    its batches run in turn with every other competitor's, so that old and new code see
    the same machine load in one run."""

    def __init__(self, tree: Path, clock_name: str) -> None:
        self.tree = tree
        path = os.pathsep.join(p for p in (str(tree), os.environ.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--clock", clock_name,
             "--serve-baseline", str(tree)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": path})
        self._ask(None)  # (it says it is ready once its engine is imported)

    def _ask(self, request: list[Any] | None) -> Any:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        if request is not None:
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
        reply = stdout.readline()
        if not reply:
            raise SystemExit(f"the baseline engine at {self.tree} stopped (see above)")
        return json.loads(reply)

    def batch(self, game_ref: str | Path, games: int, players: int = 2,
              time_setups: bool = False) -> Batch:
        def run(first: int) -> tuple[int, int, float, float]:
            g, d, whole, setup = self._ask([str(game_ref), games, players, time_setups, first])
            return g, d, whole, setup
        return run

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def serve_baseline(tree: Path) -> None:
    """The baseline's process: play each batch asked for on stdin (one JSON list a line),
    answer with its (games, decisions, seconds, set-up seconds)."""
    import interpreter
    found = Path(interpreter.__file__).resolve()
    if tree.resolve() not in found.parents:
        raise SystemExit(f"--baseline {tree}: Python imported the engine from {found}, "
                         "not from that directory (is it a checkout of this project?)")
    print(json.dumps("ready"), flush=True)
    batches: dict[tuple[Any, ...], Batch] = {}
    for line in sys.stdin:
        game_ref, games, players, time_setups, first = json.loads(line)
        key = (game_ref, games, players, time_setups)
        if key not in batches:
            batches[key] = engine_batch(game_ref, games, players, time_setups)
        print(json.dumps(batches[key](first)), flush=True)


# -- OpenSpiel-style batches ----------------------------------------------------------------

def openspiel_style_batch(game: Any, games: int) -> Batch:
    """Uniform random playouts written the usual way for OpenSpiel games."""

    def run(first: int) -> tuple[int, int, float, float]:
        rng = random.Random(first)
        choice = rng.choice
        decisions = 0
        started = clock()
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
        return games, decisions, clock() - started, 0.0
    return run


def load_openspiel() -> tuple[Any, str]:
    try:
        import open_spiel.python.games  # noqa: F401  (registers python_tic_tac_toe)
        import pyspiel
    except ImportError as exc:
        return None, (f"OpenSpiel is not installed ({exc}); its rows are skipped: "
                      "pip install -e \".[bench]\"")
    return pyspiel, ""


# -- Caldera reference batches -------------------------------------------------------------

def reference_batch(games: int, players: int = 2) -> Batch:
    """Whole games of the hand-written Caldera, with the engine's players' seeds: all the
    set-ups (`Caldera()`, timed), then the play on each (timed)."""

    def run(first: int) -> tuple[int, int, float, float]:
        seeds = range(first, first + games)
        started = clock()
        set_up = [caldera_reference.Caldera(seed, players) for seed in seeds]
        setup = clock() - started
        decisions = 0
        for seed, game in zip(seeds, set_up, strict=True):
            agent_seeds = [agent_seed(seed, s) for s in range(1, players + 1)]
            _, log = caldera_reference.random_playout(seed, players, agent_seeds, game=game)
            decisions += len(log)
        return games, decisions, clock() - started, setup
    return run


# -- the races -----------------------------------------------------------------------------

def baseline_rows(baseline: BaselineEngine | None, game_ref: str | Path, games: int,
                  time_setups: bool = False, one_round: bool = False) -> list[Competitor]:
    """The same engine batch played by the baseline checkout, when there is one."""
    if baseline is None:
        return []
    return [Competitor(f"Tabletop baseline ({baseline.tree})",
                       baseline.batch(game_ref, games, time_setups=time_setups), games,
                       one_round=one_round)]


def tic_tac_toe_race(games: int, pyspiel: Any, note: str,
                     baseline: BaselineEngine | None = None) -> Race:
    path = RULESETS / "tic-tac-toe.yaml"
    race = Race("tic-tac-toe", "games", [
        Competitor("Tabletop (benchmarks/rulesets/tic-tac-toe.yaml)",
                   engine_batch(path, games), games, engine=True),
        *baseline_rows(baseline, path, games)])
    if pyspiel is None:
        race.notes.append(note)
    else:
        race.competitors += [
            Competitor("OpenSpiel python_tic_tac_toe",
                       openspiel_style_batch(pyspiel.load_game("python_tic_tac_toe"), games),
                       games),
            Competitor("OpenSpiel C++ tic_tac_toe",
                       openspiel_style_batch(pyspiel.load_game("tic_tac_toe"), games * 10),
                       games * 10)]
    return race


def connect_four_race(games: int, pyspiel: Any, note: str,
                      baseline: BaselineEngine | None = None) -> Race:
    path = RULESETS / "connect-four.yaml"
    race = Race("connect-four", "games", [
        Competitor("Tabletop (benchmarks/rulesets/connect-four.yaml)",
                   engine_batch(path, games), games, engine=True),
        *baseline_rows(baseline, path, games),
        Competitor("plain Python port (connect_four_python.py)",
                   openspiel_style_batch(ConnectFourGame(), games * 4), games * 4)])
    if pyspiel is None:
        race.notes.append(note)
    else:
        race.competitors += [
            Competitor("the same port as an OpenSpiel Python game (pyspiel.State)",
                       openspiel_style_batch(openspiel_python_game(), games * 2), games * 2),
            Competitor("OpenSpiel C++ connect_four",
                       openspiel_style_batch(pyspiel.load_game("connect_four"), games * 10),
                       games * 10)]
    return race


def caldera_race(games: int, baseline: BaselineEngine | None = None) -> Race:
    return Race("caldera", "decisions", [
        Competitor("Tabletop (rulesets/caldera.yaml)",
                   engine_batch("caldera", games, time_setups=True), games, engine=True,
                   one_round=True),
        *baseline_rows(baseline, "caldera", games, time_setups=True, one_round=True),
        Competitor("hand-written Python (caldera_reference.py)", reference_batch(games),
                   games, one_round=True)])


# -- output --------------------------------------------------------------------------------

def ratio_text(engine: float, other: float) -> str:
    if not other or engine != engine or other != other:
        return "—"
    r = engine / other
    return f"{r:.2f}× (1/{1 / r:.1f})" if r < 1 else f"{r:.2f}×"


def report(races: list[Race], repeats: int, seconds: float) -> None:
    print(f"\nMedians of {repeats} interleaved repeats (each batch at least {seconds:g} s); "
          "ratio = engine / competitor\n")
    header = (f"{'race':<14}{'competitor':<56}{'games/s':>11}{'decisions/s':>13}"
              f"{'dec/game':>10}  ratio")
    print(header)
    print("-" * (len(header) + 14))
    for race in races:
        label = race.name
        engine = next(c for c in race.competitors if c.engine)
        for c in race.competitors:
            games = statistics.median(c.rates)
            decisions = statistics.median(c.decision_rates)
            if c is engine:
                ratio = ""
            elif race.unit == "decisions":
                ratio = ratio_text(statistics.median(engine.decision_rates), decisions)
            else:
                ratio = ratio_text(statistics.median(engine.rates), games)
            print(f"{label:<14}{c.name:<56}{games:>11,.1f}{decisions:>13,.0f}"
                  f"{c.decisions_per_game:>10.1f}  {ratio}")
            label = ""
        timed = [c for c in race.competitors if c.setup_ms]
        if timed:
            print(f"{'':<14}{'of which set-up alone, ms per game:':<56}")
            for c in timed:
                ratio = "" if c is engine else ratio_text(
                    statistics.median(c.setup_ms), statistics.median(engine.setup_ms))
                print(f"{'':<14}{'  ' + c.name:<56}{statistics.median(c.setup_ms):>11.2f}"
                      f"{'':>23}  {ratio}")
            print(f"{'':<14}{'play after set-up:':<56}")
            for c in timed:
                ratio = "" if c is engine else ratio_text(
                    statistics.median(engine.play_rates), statistics.median(c.play_rates))
                print(f"{'':<14}{'  ' + c.name:<56}{'':>11}"
                      f"{statistics.median(c.play_rates):>13,.0f}{'':>10}  {ratio}")
        for note in race.notes:
            print(f"{'':<14}note: {note}")
    print()


def same_games_note(games: int = 3) -> str:
    """Whether the engine and the Caldera reference play the same games from the same
    seeds (the same decisions, notation for notation)."""
    game = load_game("caldera")
    for seed in range(games):
        result = play_game(game, 2, seed, make_agents(2, seed), keep_state=False)
        seeds = [agent_seed(seed, s) for s in (1, 2)]
        _, log = caldera_reference.random_playout(seed, 2, seeds)
        if [n for _, n in result.decisions] != log:
            return ("the engine's random player draws differently from the reference's "
                    "now: same policy, other games (compare decisions per game)")
    return (f"the engine and the reference play the same games from the same seeds "
            f"(checked on {games} games, notation for notation)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--races", default=",".join(RACES),
                        help=f"comma-separated, from {', '.join(RACES)} (default: all)")
    parser.add_argument("-n", "--games", type=int, default=200,
                        help="engine games per round of tic-tac-toe and Connect Four "
                        "(peers play a multiple of it); default 200")
    parser.add_argument("--caldera-games", type=int, default=20,
                        help="Caldera games per repeat, the same seeds for both sides "
                        "(--min-seconds does not apply); default 20")
    parser.add_argument("--repeats", type=int, default=5, help="the median is reported")
    parser.add_argument("--min-seconds", type=float, default=0.5,
                        help="least time of a batch (more rounds are played); default 0.5")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="also race the engine of another checkout of this project "
                        "(e.g. `git worktree add /tmp/base main`), in a process of its "
                        "own, in turn with the others: ratio = this engine / that one")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time batches by wall time or by CPU time of the process "
                        "that plays them (steadier on a busy machine); default wall")
    parser.add_argument("--serve-baseline", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    use_clock(args.clock)
    if args.serve_baseline is not None:
        serve_baseline(args.serve_baseline)
        return
    if args.baseline is not None and not (args.baseline / "interpreter").is_dir():
        parser.error(f"--baseline {args.baseline}: no interpreter/ package there")
    wanted = [r.strip() for r in args.races.split(",") if r.strip()]
    for r in wanted:
        if r not in RACES:
            parser.error(f"unknown race {r!r}; choose from {', '.join(RACES)}")
    if args.games < 1 or args.caldera_games < 1 or args.repeats < 1:
        parser.error("-n, --caldera-games and --repeats must be at least 1")

    pyspiel, note = load_openspiel()
    baseline = None if args.baseline is None else BaselineEngine(args.baseline, args.clock)
    races = []
    if "tic-tac-toe" in wanted:
        races.append(tic_tac_toe_race(args.games, pyspiel, note, baseline))
    if "connect-four" in wanted:
        races.append(connect_four_race(args.games, pyspiel, note, baseline))
    if "caldera" in wanted:
        races.append(caldera_race(args.caldera_games, baseline))

    interleave([c for race in races for c in race.competitors], args.repeats,
               args.min_seconds)
    for race in races:
        if race.name == "caldera":
            race.notes.append(same_games_note())
    if baseline is not None:
        baseline.close()
    report(races, args.repeats, args.min_seconds)


if __name__ == "__main__":
    main()
