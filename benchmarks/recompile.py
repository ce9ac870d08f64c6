"""How long recompiling a ruleset after a small edit takes (the studio's keystroke loop).

A benchmark, not a test. For every bundled ruleset, in one process: its first compile
(the compile memories emptied first, so it finds nothing remembered), then recompiles
after a one-character edit of the game's summary and after a one-number edit of its
first definition that holds a number, then the whole keystroke after a summary edit
(load + compile + set-up). Each edit is typed six times over (one more character, or
the number one larger) and the mean kept: Python's full garbage collection comes every
second compile or so of a large ruleset, and a mean shares it out as a designer who
types meets it. Times are CPU milliseconds (less disturbed by the other work on a
shared machine than wall time).

    python benchmarks/recompile.py                         # this tree, 3 rounds
    python benchmarks/recompile.py --tree /work/main --tree . -n 3   # side by side

Each --tree is a source tree run with its own `.venv/bin/python` when it has one (else
this Python), PYTHONPATH set to it; the trees take turns, round by round, so both see
the same load. The table gives each tree's medians over the rounds and, with two
trees, the second's times as a share of the first's.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

EDITS = 6
"""Edits timed after each kind of change (their mean is kept)."""
COLUMNS = ("first", "summary", "definition", "keystroke")


def edit_summary(text: str, k: int) -> str | None:
    """`text` with k letters added to the game's summary (a keystroke in its prose)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        found = re.match(r"(\s*|.*[{,]\s*)summary:\s*(.*)$", line)
        if found is None:
            continue
        value = found.group(2)
        if value.startswith((">", "|")):  # a block: its first line
            lines[i + 1] += "x" * k
        elif value.endswith(('"', "'", '"}', "'}")):  # quoted: inside the quotes
            cut = len(line) - (2 if value.endswith("}") else 1)
            lines[i] = line[:cut] + "x" * k + line[cut:]
        else:
            lines[i] += "x" * k
        return "\n".join(lines)
    return None


def edit_definition(text: str, k: int) -> str | None:
    """`text` with the first whole number in its `define:` section made k larger (a
    keystroke in one definition), or None when it has none."""
    start = re.search(r"^define:\s*$", text, re.MULTILINE)
    if start is None:
        return None
    end = re.search(r"^\S", text[start.end():], re.MULTILINE)
    stop = start.end() + (end.start() if end else len(text) - start.end())
    for line in re.finditer(r"^ +\S[^\n]*$", text[start.end():stop], re.MULTILINE):
        if line.group(0).lstrip().startswith("#"):
            continue
        number = re.search(r"(?<![\w.'\"])\d+(?![\w.'\"])", line.group(0))
        if number is not None:
            at = start.end() + line.start() + number.start()
            value = int(number.group(0)) + k
            return text[:at] + str(value) + text[at + len(number.group(0)):]
    return None


def worker(tree: Path) -> dict[str, dict[str, float | None]]:
    """Time every bundled ruleset of `tree` in this process (see the module's doc)."""
    from interpreter.assemble.game import compile_game
    from interpreter.errors import RulesetError
    from interpreter.load.loader import load_ruleset_text
    try:
        from interpreter.compile import memo
        forget = memo.forget_all
    except ImportError:  # (a tree without the compile memories)
        def forget() -> None:
            return None

    def compile_ms(text: str, path: Path) -> float | None:
        loaded = load_ruleset_text(text, str(path))
        start = time.process_time()
        try:
            compile_game(loaded)
        except RulesetError:
            return None  # (an edit the rules refuse: not timed)
        return (time.process_time() - start) * 1000

    def keystroke_ms(text: str, path: Path) -> float:
        start = time.process_time()
        compile_game(load_ruleset_text(text, str(path))).new_state()
        return (time.process_time() - start) * 1000

    def mean(times: list[float | None]) -> float | None:
        kept = [t for t in times if t is not None]
        return statistics.mean(kept) if kept else None

    results: dict[str, dict[str, float | None]] = {}
    for path in sorted((tree / "rulesets").glob("*.yaml")):
        if path.name.endswith(".tests.yaml"):
            continue
        text = path.read_text(encoding="utf-8")
        forget()
        row: dict[str, float | None] = {"first": compile_ms(text, path)}
        for column, edit in (("summary", edit_summary), ("definition", edit_definition)):
            edited = [edit(text, k) for k in range(1, EDITS + 1)]
            row[column] = mean([compile_ms(t, path) for t in edited if t is not None])
        typed = [edit_summary(text, k) for k in range(EDITS + 1, 2 * EDITS + 1)]
        row["keystroke"] = mean([keystroke_ms(t, path) for t in typed if t is not None])
        results[path.stem] = row
    return results


def python_of(tree: Path) -> str:
    own = tree / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


def run_tree(tree: Path) -> dict[str, dict[str, float | None]]:
    """One round of one tree, in a fresh process of its own Python."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([python_of(tree), __file__, "--worker", str(tree)], cwd=tree,
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the benchmark failed:\n{done.stderr}")
    return json.loads(done.stdout)


def shown(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def table(trees: list[Path], rounds: list[list[dict[str, Any]]]) -> str:
    """Each tree's medians over the rounds; with two trees, the second's share too."""
    names = list(rounds[0][0])
    medians = [{name: {c: statistics.median(v) if (v := [r[i][name][c] for r in rounds
                                                          if r[i][name][c] is not None])
                       else None for c in COLUMNS} for name in names}
               for i in range(len(trees))]
    head = ["ruleset".ljust(30)]
    for i, _ in enumerate(trees):
        head += [f"{c[:5]}:{i + 1}".rjust(9) for c in COLUMNS]
    if len(trees) == 2:
        head += [f"{c[:5]} 2/1".rjust(10) for c in COLUMNS]
    lines = [" ".join(head)]
    for name in names:
        cells = [name.ljust(30)]
        for m in medians:
            cells += [shown(m[name][c]).rjust(9) for c in COLUMNS]
        if len(trees) == 2:
            for c in COLUMNS:
                a, b = medians[0][name][c], medians[1][name][c]
                cells.append(("-" if not a or b is None else f"{b / a:.0%}").rjust(10))
        lines.append(" ".join(cells))
    legend = [f"tree {i + 1}: {t}" for i, t in enumerate(trees)]
    return "\n".join([*legend, "CPU ms, median of rounds; first = first compile, summary/"
                      "definition = recompile after a one-character edit there (mean of "
                      f"{EDITS}), keystroke = load + compile + set-up after a summary edit",
                       *lines])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--rounds", type=int, default=3)
    parser.add_argument("--tree", action="append", type=Path,
                        help="a source tree to measure (repeatable); default: this one")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker is not None:
        print(json.dumps(worker(options.worker)))
        return
    trees = [t.resolve() for t in options.tree or [Path(__file__).resolve().parents[1]]]
    rounds = []
    for r in range(options.rounds):
        order = trees if r % 2 == 0 else trees[::-1]  # (each goes first in turn)
        done = {t: run_tree(t) for t in order}
        rounds.append([done[t] for t in trees])
        print(f"round {r + 1} of {options.rounds} done", file=sys.stderr)
    print(table(trees, rounds))


if __name__ == "__main__":
    main()
