"""Run the reliability probes against the `tabletop` command and report per category.

Each probe runs in its own empty folder as a subprocess of the `tabletop` console
script (the one next to this Python, unless --tabletop names another), with a
time-out (a hang) and a cap on its address space; its peak memory (ru_maxrss from
os.wait4, or VmHWM), CPU time and wall time are measured. At most two probes run at
once, niced.

A probe passes when: the exit code is 0 or 1; nothing says "internal error" or shows
a traceback; an error about a file given to tabletop carries that file's NAME:LINE:COL
(and whatever else the probe says an error must mention); it ends within 2 s and
500 MB (more than 2 s of CPU time, or 4 s of wall time, is "over 2 s": the
machine may be busy); a budget probe fails naming its budget; a run-time rule error
says the decision (or the set-up) it happened in; nothing the probe forbids is printed.

A run-time probe whose message lacks the decision is excused when `tabletop validate`
rejects the same file (the mistake was caught before the game ran). A probe that fails
only by being slow is run once more alone (a loaded machine is not a slow tabletop).

Examples::

    python -m tests.probes.run                         # everything (some minutes)
    python -m tests.probes.run -c budgets -c saves     # two categories
    python -m tests.probes.run -k caldera --failures   # names matching a regex
    python -m tests.probes.run --issue --json          # the probes named in the issue
    python -m tests.probes.run --write /tmp/p -k laughs  # inputs, to reproduce by hand

Exit code 0 when every probe selected passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `tests.probes` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.probes.catalogue import CATEGORIES, CLOSED, Probe, Symlink, catalogue, select
    from tests.probes.serve_probes import ServeProbe, run_serve_probe, serve_probes
else:
    from .catalogue import CATEGORIES, CLOSED, Probe, Symlink, catalogue, select
    from .serve_probes import ServeProbe, run_serve_probe, serve_probes

KINDS = ("internal", "unlocated", "hang", "slow", "memory", "other")
"""Ways a probe fails (one probe may fail several ways)."""

OUTPUT_LIMIT = 256 * 1024
"""Bytes of each of stdout and stderr kept for judging (the files may be larger)."""


@dataclass
class Limits:
    timeout: float = 10.0
    """Seconds after which a probe is killed and counted as a hang."""
    seconds: float = 2.0
    """A probe that takes more CPU time than this (user + system, its worker processes
    included), or more than twice this in wall time, is 'over 2 s'. CPU time is the
    measure because the machine may be busy: a probe's wall time then says more about
    the machine than about tabletop; twice the wall time still catches waiting."""
    megabytes: float = 500.0
    """A probe whose peak resident memory is larger is 'over 500 MB'."""
    address_space_mb: int = 3000
    """RLIMIT_AS of each probe's process, so a runaway cannot take the machine down."""


@dataclass
class Outcome:
    code: int | None
    stdout: str
    stderr: str
    seconds: float
    megabytes: float
    cpu_seconds: float
    timed_out: bool
    problems: list[str] = field(default_factory=list)
    """What the probe's `check` found in the files the command left."""


@dataclass
class Result:
    name: str
    category: str
    command: str
    passed: bool
    kinds: list[str]
    reasons: list[str]
    code: int | None
    seconds: float
    megabytes: float
    cpu_seconds: float
    output_head: str = ""
    retried: bool = False
    issue: bool = False
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def default_tabletop() -> str:
    """The `tabletop` console script of this Python's environment (else the PATH's)."""
    here = Path(sys.executable).parent / "tabletop"
    if here.exists():
        return str(here)
    found = shutil.which("tabletop")
    if found is None:
        raise SystemExit("cannot find the `tabletop` command; pass --tabletop PATH")
    return found


def write_inputs(probe: Probe, folder: Path) -> None:
    """The probe's files (and folders and links) in `folder`."""
    for rel, content in probe.files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is None:
            path.mkdir(parents=True, exist_ok=True)
        elif isinstance(content, Symlink):
            if path.is_symlink():
                path.unlink()
            path.symlink_to(content.target)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8", "surrogatepass"))


def _read(path: Path) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read(OUTPUT_LIMIT)
    except OSError:
        return ""
    return data.decode("utf-8", "replace")


def _hear_ctrl_c() -> None:
    """In the probe's process, before its shell starts: Ctrl-C as a terminal delivers it.
    A runner started in the background of a script inherits SIGINT ignored, and so would
    every probe (a shell cannot undo that), so an interrupted probe would run on."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def execute(probe: Probe, tabletop: str | None = None, limits: Limits | None = None,
            folder: Path | None = None) -> Outcome:
    """Run one probe in a fresh folder (or `folder`) and measure it."""
    limits = limits or Limits()
    tabletop = tabletop or default_tabletop()
    own = folder is None
    work = Path(tempfile.mkdtemp(prefix="tabletop-probe-")) if own else folder
    assert work is not None
    io_dir = Path(tempfile.mkdtemp(prefix="tabletop-probe-io-"))
    try:
        write_inputs(probe, work)
        stdin_file: Any
        if probe.stdin is None or probe.stdin == CLOSED:
            stdin_file = open(os.devnull, "rb")  # noqa: SIM115
        else:
            data = probe.stdin if isinstance(probe.stdin, bytes) else probe.stdin.encode()
            (io_dir / "stdin").write_bytes(data)
            stdin_file = open(io_dir / "stdin", "rb")  # noqa: SIM115
        out_path, err_path = io_dir / "stdout", io_dir / "stderr"
        stdout_file = open("/dev/full" if probe.stdout_full else out_path, "wb")  # noqa: SIM115
        stderr_file = open(err_path, "wb")  # noqa: SIM115
        script = f'ulimit -v {limits.address_space_mb * 1024} 2>/dev/null; exec "$0" "$@"'
        if probe.stdin == CLOSED:
            script += " <&-"
        env = {k: v for k, v in os.environ.items()
               if k not in ("TABLETOP_DEBUG", "TABLETOP_RULESETS")}
        env.update({"COLUMNS": "100", "PYTHONDONTWRITEBYTECODE": "1"})
        env.update(probe.env)
        inherited = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.monotonic()
        timed_out = False
        hiwater = 0
        try:
            proc = subprocess.Popen(["/bin/sh", "-c", script, tabletop, *probe.args],
                                    cwd=work, stdin=stdin_file, stdout=stdout_file,
                                    stderr=stderr_file, env=env, start_new_session=True,
                                    preexec_fn=_hear_ctrl_c)
        finally:
            for f in (stdin_file, stdout_file, stderr_file):
                f.close()
        interrupted = False
        # honest work allowed more time (probe.seconds) is not a hang until well past it
        deadline = max(limits.timeout, 2 * (probe.seconds or 0) + (probe.interrupt_after or 0))
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            hiwater = max(hiwater, _hiwater_kb(proc.pid))
            if (probe.interrupt_after is not None and not interrupted
                    and time.monotonic() - started > probe.interrupt_after):
                interrupted = True  # Ctrl-C: to the whole group, as a terminal sends it
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGINT)
            if time.monotonic() - started > deadline:
                timed_out = True
                _kill_group(proc.pid)
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.005)
        seconds = time.monotonic() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        _kill_group(proc.pid)  # worker processes it may have left behind
        problems = probe.check(work) if probe.check and not timed_out else []
        return Outcome(
            code=None if timed_out else proc.returncode,
            stdout="" if probe.stdout_full else _read(out_path), stderr=_read(err_path),
            seconds=seconds, megabytes=_peak_kb(usage.ru_maxrss, inherited, hiwater) / 1024,
            cpu_seconds=usage.ru_utime + usage.ru_stime, timed_out=timed_out,
            problems=problems)
    finally:
        shutil.rmtree(io_dir, ignore_errors=True)
        if own:
            shutil.rmtree(work, ignore_errors=True)


def _hiwater_kb(pid: int) -> int:
    """The peak resident memory so far of a running process (VmHWM), in KiB."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _peak_kb(maxrss: int, inherited: int, hiwater: int) -> int:
    """The probe's own peak memory. A child's ru_maxrss starts from its parent's peak at
    the fork (Linux counts the forked memory image until exec), so when it is no larger
    than this runner's own peak it says nothing of the probe: then the largest VmHWM
    seen while polling is the probe's peak."""
    if maxrss > inherited:
        return maxrss
    return hiwater or maxrss


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


INTERNAL = re.compile(r"internal error|Traceback \(most recent call last\)|This is a bug in "
                      r"tabletop")
WHEN = re.compile(r"decision \d|set-up|setup|set up|before the first decision")


def location_pattern(name: str) -> re.Pattern[str]:
    """`NAME:LINE:COL` with NAME the file's name, after any folder."""
    return re.compile(r"(?:^|[\s/'\"(\[])" + re.escape(Path(name).name) + r":\d+:\d+")


NO_WHEN = "the error does not say the decision (or set-up) it happened in"


def judge(probe: Probe, outcome: Outcome, limits: Limits | None = None
          ) -> list[tuple[str, str]]:
    """The (kind, reason) of each way a probe's outcome fails; empty when it passed."""
    limits = limits or Limits()
    failures: list[tuple[str, str]] = []
    text = outcome.stdout + "\n" + outcome.stderr

    def fail(kind: str, reason: str) -> None:
        failures.append((kind, reason))

    if outcome.timed_out:
        fail("hang", f"still running after {limits.timeout:g} s (killed)")
    else:
        if INTERNAL.search(text):
            line = next((ln for ln in text.splitlines() if INTERNAL.search(ln)), "")
            fail("internal", line.strip()[:200])
        elif outcome.code not in probe.codes:
            fail("internal", f"exit code {outcome.code} (expected one of "
                             f"{', '.join(map(str, probe.codes))})")
        allowed = probe.seconds or limits.seconds
        if probe.interrupt_after is not None:
            allowed += probe.interrupt_after  # it was meant to run until interrupted
        if outcome.cpu_seconds > allowed or outcome.seconds > 2 * allowed:
            fail("slow", f"took {outcome.cpu_seconds:.1f} s of CPU time, "
                         f"{outcome.seconds:.1f} s in all")
    if outcome.megabytes > limits.megabytes:
        fail("memory", f"peak memory {outcome.megabytes:.0f} MB")
    errored = outcome.timed_out or outcome.code not in (0, None)
    if not outcome.timed_out and errored:
        if probe.located and not location_pattern(probe.located).search(text):
            fail("unlocated", f"the error does not carry {Path(probe.located).name}:LINE:COL")
        for needed in probe.mentions:
            if needed not in text:
                fail("unlocated", f"the error does not mention {needed!r}")
        if probe.decision and not WHEN.search(text):
            fail("other", NO_WHEN)
    if probe.must_fail and outcome.code == 0:
        fail("other", "exited 0: the run should have stopped with an error")
    if probe.budget and not outcome.timed_out and outcome.code != 0 and not any(
            b in text for b in probe.budget):
        fail("other", f"the message names none of: {', '.join(probe.budget)}")
    for bad in probe.forbid:
        if bad in text:
            fail("other", f"the output contains {bad!r}")
    for problem in outcome.problems:
        fail("other", problem)
    return failures


def head(outcome: Outcome, lines: int = 6) -> str:
    text = (outcome.stderr.strip() + "\n" + outcome.stdout.strip()).strip()
    out = [ln[:200] for ln in text.splitlines()[:lines]]
    return "\n".join(out)


def run_probe(probe: Probe, tabletop: str, limits: Limits) -> Result:
    if isinstance(probe, ServeProbe):  # a running server, judged by its own probe
        outcome, failures = run_serve_probe(probe, tabletop, limits.megabytes)
    else:
        outcome = execute(probe, tabletop, limits)
        failures = judge(probe, outcome, limits)
    if (("other", NO_WHEN) in failures and probe.located and probe.args
            and probe.args[0] in ("run", "play")):
        # the mistake may have been caught before the game ran: then there is no decision
        check = Probe(probe.name, probe.category, ("validate", probe.located), probe.files)
        if execute(check, tabletop, limits).code == 1:
            failures.remove(("other", NO_WHEN))
    kinds = list(dict.fromkeys(kind for kind, _ in failures))
    return Result(probe.name, probe.category, probe.command(), not failures, kinds,
                  [reason for _, reason in failures], outcome.code, round(outcome.seconds, 3),
                  round(outcome.megabytes, 1), round(outcome.cpu_seconds, 3),
                  head(outcome), issue=probe.issue, note=probe.note)


def run_all(probes: list[Probe], tabletop: str, limits: Limits, jobs: int = 2,
            retry: bool = True, progress: bool = True) -> list[Result]:
    """Every probe, at most `jobs` at a time; slow-only failures are retried alone."""
    results: dict[str, Result] = {}
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    with Progress(TextColumn("[bold]probes"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[failed]} failing"), TimeElapsedColumn(),
                  TimeRemainingColumn(), TextColumn("{task.fields[current]}"),
                  console=console, transient=True, disable=not progress) as bar:
        task = bar.add_task("probes", total=len(probes), failed=0, current="")
        failed = 0
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(run_probe, p, tabletop, limits): p for p in probes}
            for future in as_completed(futures):
                probe = futures[future]
                result = future.result()
                results[probe.name] = result
                failed += not result.passed
                bar.update(task, advance=1, failed=failed, current=probe.name[-40:])
        if retry:
            again = [p for p in probes if results[p.name].kinds == ["slow"]]
            if again:
                task2 = bar.add_task("retry", total=len(again), failed=0, current="")
                for probe in again:
                    second = run_probe(probe, tabletop, limits)
                    second.retried = True
                    second.extra["first_seconds"] = results[probe.name].cpu_seconds
                    results[probe.name] = second
                    bar.update(task2, advance=1, current=probe.name[-40:])
    return [results[p.name] for p in probes]


def summarize(results: list[Result]) -> list[dict[str, Any]]:
    """One row per category (and a total): counts of each kind, worst time and memory."""
    rows = []
    for category in [*CATEGORIES, "total"]:
        chosen = [r for r in results if category == "total" or r.category == category]
        if not chosen:
            continue
        slowest = max(chosen, key=lambda r: r.cpu_seconds)
        longest = max(chosen, key=lambda r: r.seconds)
        largest = max(chosen, key=lambda r: r.megabytes)
        rows.append({
            "category": category,
            "probes": len(chosen),
            "passed": sum(r.passed for r in chosen),
            **{kind: sum(kind in r.kinds for r in chosen) for kind in KINDS},
            "worst_cpu_seconds": slowest.cpu_seconds,
            "worst_cpu_seconds_probe": slowest.name,
            "worst_seconds": longest.seconds,
            "worst_seconds_probe": longest.name,
            "worst_megabytes": largest.megabytes,
            "worst_megabytes_probe": largest.name,
        })
    return rows


HEADERS = {"internal": "internal errors", "unlocated": "unlocated errors", "hang": "hangs",
           "slow": "over 2 s", "memory": "over 500 MB", "other": "other failures"}


def print_table(rows: list[dict[str, Any]], limits: Limits) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="tabletop reliability probes", title_justify="left")
    table.add_column("category")
    table.add_column("probes", justify="right")
    table.add_column("passed", justify="right")
    for kind in KINDS:
        label = HEADERS[kind]
        if kind == "slow":
            label = f"over {limits.seconds:g} s"
        elif kind == "memory":
            label = f"over {limits.megabytes:g} MB"
        table.add_column(label, justify="right")
    table.add_column("worst CPU time", justify="right")
    table.add_column("worst wall time", justify="right")
    table.add_column("worst memory", justify="right")
    for row in rows:
        style = "bold" if row["category"] == "total" else None
        table.add_row(row["category"], str(row["probes"]), str(row["passed"]),
                      *[str(row[k]) for k in KINDS], f"{row['worst_cpu_seconds']:.2f} s",
                      f"{row['worst_seconds']:.2f} s",
                      f"{row['worst_megabytes']:.0f} MB", style=style)
    Console(width=max(150, shutil.get_terminal_size().columns)).print(table)


def print_failures(results: list[Result]) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(width=max(150, shutil.get_terminal_size().columns))
    for r in results:
        if r.passed:
            continue
        console.print(Text.assemble((f"{r.name}", "bold red"), f"  [{', '.join(r.kinds)}]",
                                    f"  exit {r.code}, {r.cpu_seconds:.2f} s CPU, "
                                    f"{r.seconds:.2f} s wall, {r.megabytes:.0f} MB",
                                    (f"  (retried; first {r.extra.get('first_seconds')} s CPU)"
                                     if r.retried else "")))
        console.print(Text(f"  $ {r.command}", style="cyan"), soft_wrap=True)
        for reason in r.reasons:
            console.print(Text(f"  - {reason}"), soft_wrap=True)
        for line in r.output_head.splitlines():
            console.print(Text(f"    | {line}", style="dim"), soft_wrap=True)


def write_probe_inputs(probes: list[Probe], target: Path) -> None:
    """Each probe's files in target/<name>/, with `command` (the line to run there)."""
    for p in probes:
        folder = target / p.name.replace("/", "__")
        folder.mkdir(parents=True, exist_ok=True)
        write_inputs(p, folder)
        if p.stdin not in (None, CLOSED):
            data = p.stdin if isinstance(p.stdin, bytes) else str(p.stdin).encode()
            (folder / "stdin").write_bytes(data)
        (folder / "command").write_text(p.command() + "\n")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tests.probes.run",
        description=__doc__.replace("Examples::", "Examples:"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Categories: " + ", ".join(CATEGORIES) + " (see tests/probes/catalogue.py).")
    parser.add_argument("-c", "--category", action="append", choices=CATEGORIES,
                        help="run only this category (repeatable)")
    parser.add_argument("-k", "--name", action="append", metavar="REGEX",
                        help="run only probes whose name matches (repeatable)")
    parser.add_argument("--issue", action="store_true",
                        help="run only the probes named in the issue text")
    parser.add_argument("-j", "--jobs", type=int, default=2, choices=[1, 2],
                        help="probes run at once (default 2, the most allowed)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds before a probe counts as a hang (default 10)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="a probe taking more CPU seconds than this (or twice as many "
                             "seconds of wall time) fails (default 2)")
    parser.add_argument("--megabytes", type=float, default=500.0,
                        help="a probe with more peak memory fails (default 500)")
    parser.add_argument("--address-space", type=int, default=3000, metavar="MB",
                        help="address-space cap of each probe process (default 3000 MB)")
    parser.add_argument("--nice", type=int, default=10,
                        help="niceness of the runner and its probes (default 10)")
    parser.add_argument("--no-retry", action="store_true",
                        help="do not rerun probes that failed only by being slow")
    parser.add_argument("--tabletop", metavar="PATH", help="the tabletop command to probe")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object: per-category rows and every result")
    parser.add_argument("--json-out", metavar="FILE", type=Path,
                        help="also write that JSON object to FILE (with the table printed)")
    parser.add_argument("--failures", action="store_true",
                        help="list each failing probe: command, reasons, first lines of output")
    parser.add_argument("--list", action="store_true",
                        help="list the selected probes (name, category, command) and exit")
    parser.add_argument("--write", metavar="DIR", type=Path,
                        help="write the selected probes' inputs into DIR/<name>/ and exit")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    probes = select([*catalogue(), *serve_probes()], args.category, args.name, args.issue)
    if not probes:
        print("no probe matches", file=sys.stderr)
        return 1
    if args.list:
        for p in probes:
            print(f"{p.name}\t{p.category}\t{p.command()}")
        return 0
    if args.write:
        write_probe_inputs(probes, args.write)
        print(f"wrote {len(probes)} probes into {args.write}", file=sys.stderr)
        return 0
    if args.nice:
        os.nice(args.nice)
    limits = Limits(timeout=args.timeout, seconds=args.seconds, megabytes=args.megabytes,
                    address_space_mb=args.address_space)
    tabletop = args.tabletop or default_tabletop()
    started = time.monotonic()
    results = run_all(probes, tabletop, limits, jobs=args.jobs, retry=not args.no_retry,
                      progress=not args.json and sys.stderr.isatty())
    elapsed = time.monotonic() - started
    rows = summarize(results)
    report = json.dumps({"seconds": round(elapsed, 1), "limits": asdict(limits),
                         "categories": rows, "results": [asdict(r) for r in results]},
                        indent=1)
    if args.json_out:
        args.json_out.write_text(report + "\n", encoding="utf-8")
    if args.json:
        print(report)
    else:
        if args.failures:
            print_failures(results)
        print_table(rows, limits)
        failing = sum(not r.passed for r in results)
        print(f"{len(results)} probes in {elapsed:.0f} s: {len(results) - failing} passed, "
              f"{failing} failed" + ("" if args.failures or not failing else
                                     " (--failures lists them)"))
    return 1 if any(not r.passed for r in results) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # `... --list | head`: the reader has gone; so do we
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
