"""How long `tabletop` takes to start: median wall and CPU time of short commands.

A benchmark, not a test (tests/test_startup.py checks what start-up imports, which holds
on a loaded machine; a time does not). Each command runs N times in a fresh process,
after one run that writes the bytecode and catalog caches, as a user's second run finds
them (PYTHONDONTWRITEBYTECODE is dropped for the children).

    python benchmarks/startup.py                       # this tree, 10 runs each
    python benchmarks/startup.py -n 20 --tree /tmp/old --tree .   # side by side

Each --tree is a source tree (a checkout, or `git archive` of a commit): its commands run
with PYTHONPATH set to it, from its folder, so each plays its own rulesets.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = [["--help"], ["list"], ["validate", "rulesets/caldera.yaml"],
            ["validate", "rulesets/aquarium.yaml"]]
ENTRY = "from interpreter.cli.entry import main; main()"


def once(tree: Path, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """One run: its wall time and its CPU time (user + system), in seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", ENTRY, *args], cwd=tree, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: tabletop {' '.join(args)} failed:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(tree: Path, args: list[str], runs: int) -> tuple[float, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    env["COLUMNS"] = "80"
    once(tree, args, env)  # warm the caches
    times = [once(tree, args, env) for _ in range(runs)]
    return (statistics.median(t[0] for t in times), statistics.median(t[1] for t in times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=10)
    parser.add_argument("--tree", action="append", type=Path,
                        help="a source tree to measure (repeatable); default: this one")
    options = parser.parse_args()
    trees = [t.resolve() for t in options.tree or [Path(__file__).resolve().parents[1]]]
    print(f"median of {options.runs} runs; load average {os.getloadavg()[0]:.1f}")
    head = "".join(f"  {str(t)[-24:]:>24}" for t in trees)
    print(f"{'command':<36}{head}")
    print(f"{'':<36}" + "".join(f"  {'wall s':>11} {'cpu s':>12}" for _ in trees))
    for args in COMMANDS:
        cells = []
        for tree in trees:  # interleaved, so a change in the machine's load hits both
            wall, cpu = measure(tree, args, options.runs)
            cells.append(f"  {wall:>11.3f} {cpu:>12.3f}")
        print(f"{'tabletop ' + ' '.join(args):<36}" + "".join(cells))


if __name__ == "__main__":
    main()
