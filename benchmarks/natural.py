"""Every natural formulation of tic-tac-toe and Connect Four raced against its peer.

A benchmark, not a test: run it by hand, before and after a change to generated code.

    python benchmarks/natural.py                         # both races, default sizes
    python benchmarks/natural.py --races tic-tac-toe --repeats 7
    python benchmarks/natural.py --baseline /tmp/base    # and the same rulesets on another tree
    python benchmarks/natural.py --clock cpu             # CPU time: steadier on a busy machine
    python benchmarks/natural.py --checks --baseline /tmp/base   # the end rules alone

benchmarks/rulesets/ holds the project's own tic-tac-toe and Connect Four and the same
games written other ways a newcomer would, as the README teaches (after a mark, the lines
through the marked square with offsets; a scan of every square in every direction;
counting by comprehensions; a drop to the lowest empty square of a column):
tests/test_natural_rulesets.py checks that each plays the very same game. Each is played
through the engine with random players (as benchmarks/peers.py plays them) against
OpenSpiel's `python_tic_tac_toe` (skipped with a note when OpenSpiel is not installed)
and the plain Python Connect Four of benchmarks/connect_four_python.py.

With `--checks`, only the end rules are timed: each formulation's, over the positions
of 80 recorded random games (each as the rules see it after a move), best of the repeats
in CPU time, with the Python bytecodes they execute (counted by tracing: the same on a
busy machine as on a quiet one), on this tree and on the baseline's.

With `--baseline DIR`, a second process plays every formulation on the tree at DIR (a
checkout of main, say), in the same rounds: before and after side by side, in one run.
The table gives medians of interleaved repeats (with `--best`, each one's fastest repeat:
on a machine others load, the repeat they slowed least), the ratio to the peer (games per
second, as peers.py compares them), the ratio to the baseline, and for each race how much
slower the slowest formulation is than the fastest.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from connect_four_python import ConnectFourGame  # noqa: E402
from peers import (  # noqa: E402
    Batch,
    Competitor,
    engine_batch,
    load_openspiel,
    openspiel_style_batch,
    ratio_text,
)
from timing import interleave, use_clock  # noqa: E402

RULESETS = HERE / "rulesets"
RACES = ("tic-tac-toe", "connect-four")


def formulations(race: str) -> list[Path]:
    """The project's own ruleset first, then the natural ones, by name."""
    own = RULESETS / f"{race}.yaml"
    return [own, *sorted(p for p in RULESETS.glob(f"{race}-*.yaml")
                         if not p.name.endswith(".tests.yaml"))]


class Baseline:
    """A process playing engine batches on another tree (PYTHONPATH), one batch at a
    time, on request: its timings come back as they were measured there."""

    def __init__(self, tree: Path, clock: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve", "--clock", clock],
            env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=str(tree))
        self.tree = tree

    def batch(self, path: Path, games: int) -> Batch:
        def run(first: int) -> tuple[int, int, float, float]:
            assert self.process.stdin is not None and self.process.stdout is not None
            self.process.stdin.write(json.dumps([str(path), games, first]) + "\n")
            self.process.stdin.flush()
            answer = self.process.stdout.readline()
            if not answer:
                raise SystemExit(f"the baseline at {self.tree} stopped")
            g, d, whole = json.loads(answer)
            return g, d, whole, 0.0
        return run

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def recorded_positions(game: Any, games: int = 80) -> list[Any]:
    """The positions of random games, each as the end rules see it after a move (the
    seat that moved is current), the last of each game left out."""
    import random
    positions = []
    for seed in range(games):
        pick = random.Random(seed)
        state = game.new_state(2, seed)
        while not state.over:
            seat = state.current
            state = game.apply(state, seat, pick.choice(game.legal_options(state, seat)))
            if not state.over:
                seen = state.copy()
                seen.current = seat
                positions.append(seen)
    return positions


def check_costs(path: str, repeats: int) -> tuple[float, float]:
    """Microseconds (CPU, best of `repeats`) and bytecodes per evaluation of the end
    rules of the ruleset at `path` over recorded positions (an environment's making left
    out of both)."""
    from interpreter.api import load_game
    from interpreter.run.machine import Env
    game = load_game(path)
    positions, rules = recorded_positions(game), game.end_rules

    def checks() -> None:
        for state in positions:
            env = Env(game, state)
            for rule in rules:
                if rule.when(env):
                    break

    def making() -> None:
        for state in positions:
            Env(game, state)

    def best(run: Any) -> float:
        times = []
        for _ in range(repeats):
            started = time.process_time()
            run()
            times.append(time.process_time() - started)
        return min(times)

    def bytecodes(run: Any) -> int:
        count = [0]

        def trace(frame: Any, event: str, arg: Any) -> Any:
            frame.f_trace_opcodes = True
            if event == "opcode":
                count[0] += 1
            return trace
        sys.settrace(trace)
        try:
            run()
        finally:
            sys.settrace(None)
        return count[0]

    checks()
    seconds = best(checks) - best(making)
    return (seconds / len(positions) * 1e6,
            (bytecodes(checks) - bytecodes(making)) / len(positions))


def report_checks(races: list[str], repeats: int, baseline: Path | None) -> None:
    """`--checks`: each formulation's end rules alone, here and on the baseline."""
    print(f"\nThe end rules alone over recorded positions (CPU time, best of {repeats}; "
          f"bytecodes executed)" + (f"; baseline: {baseline}" if baseline else ""))
    header = f"{'formulation':<26}{'µs':>8}{'bytecodes':>11}"
    if baseline:
        header += f"{'µs then':>10}{'bytecodes then':>16}"
    print(header)
    print("-" * len(header))
    for race in races:
        for path in formulations(race):
            us, ops = check_costs(str(path), repeats)
            line = f"{path.stem:<26}{us:>8.2f}{ops:>11.0f}"
            if baseline:
                answer = subprocess.run(
                    [sys.executable, str(Path(__file__).resolve()), "--serve-checks",
                     str(path), "--repeats", str(repeats)],
                    env=dict(os.environ, PYTHONPATH=str(baseline)), cwd=str(baseline),
                    capture_output=True, text=True, check=True).stdout
                then_us, then_ops = json.loads(answer)
                line += f"{then_us:>10.2f}{then_ops:>16.0f}"
            print(line)


def serve() -> None:
    """The baseline's side: play the batches asked for on stdin, one JSON line each."""
    import interpreter
    print(f"baseline engine: {Path(interpreter.__file__).parent}", file=sys.stderr)
    batches: dict[tuple[str, int], Batch] = {}
    for line in sys.stdin:
        path, games, first = json.loads(line)
        key = (path, games)
        if key not in batches:
            batches[key] = engine_batch(path, games)
        g, d, whole, _ = batches[key](first)
        print(json.dumps([g, d, whole]), flush=True)


def race_competitors(race: str, games: int, baseline: Baseline | None, pyspiel: object
                     ) -> tuple[list[Competitor], list[Competitor], Competitor | None, str]:
    """This tree's formulations, the baseline's, and the peer (None without OpenSpiel)."""
    ours = [Competitor(p.stem, engine_batch(p, games), games, engine=True)
            for p in formulations(race)]
    theirs = ([Competitor(p.stem, baseline.batch(p, games), games) for p in formulations(race)]
              if baseline else [])
    if race == "tic-tac-toe":
        if pyspiel is None:
            return ours, theirs, None, ""
        peer = Competitor("OpenSpiel python_tic_tac_toe", openspiel_style_batch(
            pyspiel.load_game("python_tic_tac_toe"), games), games)  # type: ignore[attr-defined]
    else:
        peer = Competitor("plain Python port (connect_four_python.py)",
                          openspiel_style_batch(ConnectFourGame(), games * 4), games * 4)
    return ours, theirs, peer, ""


def report(race: str, ours: list[Competitor], theirs: list[Competitor],
           peer: Competitor | None, note: str, best: bool = False) -> None:
    med = max if best else statistics.median
    peer_rate = med(peer.rates) if peer else 0.0
    header = (f"{'formulation':<26}{'games/s':>10}{'decisions/s':>13}{'dec/game':>10}"
              f"  {'vs peer':<16}")
    if theirs:
        header += f"{'baseline games/s':>17}  {'vs peer then':<16}now / then"
    print(f"\n{race}" + (f": peer {peer.name}, {peer_rate:,.1f} games/s, "
                        f"{med(peer.decision_rates):,.0f} decisions/s" if peer else ""))
    print(header)
    print("-" * len(header))
    for i, c in enumerate(ours):
        rate = med(c.rates)
        line = (f"{c.name:<26}{rate:>10,.1f}{med(c.decision_rates):>13,.0f}"
                f"{c.decisions_per_game:>10.1f}  {ratio_text(rate, peer_rate):<16}")
        if theirs:
            then = med(theirs[i].rates)
            line += (f"{then:>17,.1f}  {ratio_text(then, peer_rate):<16}"
                     f"{ratio_text(rate, then)}")
        print(line)
    rates = [med(c.rates) for c in ours]
    print(f"slowest / fastest: {min(rates) / max(rates):.2f}"
          + (f" (baseline {min(t := [med(c.rates) for c in theirs]) / max(t):.2f})"
             if theirs else ""))
    if note:
        print(f"note: {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--races", default=",".join(RACES),
                        help=f"comma-separated, from {', '.join(RACES)} (default: all)")
    parser.add_argument("-n", "--games", type=int, default=100,
                        help="engine games per round of a batch; default 100")
    parser.add_argument("--repeats", type=int, default=5, help="the median is reported")
    parser.add_argument("--min-seconds", type=float, default=0.3,
                        help="least time of a batch (more rounds are played); default 0.3")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another tree (a checkout) whose engine plays the same rulesets")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="what a batch's time is: wall-clock time (as peers.py) or the "
                        "process's CPU time, steadier on a machine others are using")
    parser.add_argument("--best", action="store_true",
                        help="report each competitor's fastest repeat instead of the median: "
                        "on a machine others load, what the others took is least in it")
    parser.add_argument("--checks", action="store_true",
                        help="time the end rules alone over recorded positions (and count "
                        "the bytecodes they execute) instead of whole games")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--serve-checks", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_checks:
        print(json.dumps(check_costs(args.serve_checks, args.repeats)))
        return
    use_clock(args.clock)  # every batch (peers.py's too) reads this clock
    if args.serve:
        serve()
        return
    wanted = [r.strip() for r in args.races.split(",") if r.strip()]
    for r in wanted:
        if r not in RACES:
            parser.error(f"unknown race {r!r}; choose from {', '.join(RACES)}")
    if args.games < 1 or args.repeats < 1:
        parser.error("-n and --repeats must be at least 1")
    if args.baseline is not None and not (args.baseline / "interpreter").is_dir():
        parser.error(f"--baseline {args.baseline}: no interpreter/ there")

    if args.checks:
        report_checks(wanted, args.repeats, args.baseline.resolve() if args.baseline else None)
        return
    pyspiel, note = load_openspiel()
    baseline = Baseline(args.baseline.resolve(), args.clock) if args.baseline else None
    races = []
    for race in wanted:
        ours, theirs, peer, _ = race_competitors(race, args.games, baseline, pyspiel)
        races.append((race, ours, theirs, peer, note if peer is None else ""))
    competitors = [c for _, ours, theirs, peer, _ in races
                   for c in [*ours, *theirs, *([peer] if peer else [])]]
    try:
        interleave(competitors, args.repeats, args.min_seconds)
    finally:
        if baseline:
            baseline.close()
    print(f"\n{'Fastest' if args.best else 'Medians'} of {args.repeats} interleaved repeats "
          f"(each batch at least "
          f"{args.min_seconds:g} s of {args.clock} time, {args.games} engine games a round)"
          + (f"; baseline: {args.baseline}" if baseline else ""))
    for race, ours, theirs, peer, race_note in races:
        report(race, ours, theirs, peer, race_note, args.best)
    print()


if __name__ == "__main__":
    main()
