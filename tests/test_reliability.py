"""Reliability: broken and hostile inputs end in one clear, located message, quickly.

Issue 9 asks that every budget bound work and memory, that no input end in an internal
error, that every error carry its location, and that templates stay the language's
own. The full probe catalogue (`tests/probes/`, run it with
`python -m tests.probes.run`) runs each probe as its own process and measures it; this
module keeps the probes in the suite, fast:

- a seeded sample of the mutated bundled rulesets (deleted keys, wrong types, renamed
  references, junk, truncation, bad bytes, ...): no internal error, a located message,
  a bounded time;
- every probe named in the issue, one test each: in-process through the CLI where that
  is faithful, as a real process where one matters (/dev/full, a closed stdin, worker
  processes, memory only an address-space cap stops).

Each check is the catalogue's own (`tests.probes.run.judge`): exit code 0 or 1, no
"internal error", `FILE:LINE:COL` for an error about a file, at most 2 s of CPU time,
the budget named when one should stop the run, the decision named for a run-time error.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter.cli.app import app  # noqa: E402
from tests.probes import catalogue as cat  # noqa: E402
from tests.probes.run import NO_WHEN, Limits, Outcome, execute, judge, write_inputs  # noqa: E402

LIMITS = Limits(timeout=6.0, seconds=2.0, megabytes=500.0, address_space_mb=3000)
"""As the catalogue's runner, with a shorter time-out: a hang costs 6 s, not 10."""

WALL_LIMIT = 6.0
"""In-process runs are interrupted after this many seconds (a hang, not a slow run:
'slow' is judged on CPU time, which a busy machine does not inflate)."""

MUTANT_SAMPLE = 100


class Overran(BaseException):
    """Raised into a run that goes past WALL_LIMIT (a BaseException, so the CLI's
    'internal error' handler, which catches Exception, lets it through)."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    def alarm(signum: int, frame: object) -> None:
        raise Overran

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def invoke(args: tuple[str, ...], stdin: str | bytes | None) -> Outcome:
    """One `tabletop` command in this process, timed (wall and CPU)."""
    runner = CliRunner()
    started, cpu = time.monotonic(), time.process_time()
    timed_out = False
    code: int | None
    try:
        with deadline(WALL_LIMIT):
            result = runner.invoke(app, list(args), input=stdin, catch_exceptions=True)
        code, output = result.exit_code, result.output
        if code == 2:  # a usage error: the console script's main() makes it exit 1
            code = 1
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            output += f"\nTraceback (most recent call last): {result.exception!r}"
    except Overran:
        code, output, timed_out = None, "", True
    return Outcome(code=code, stdout=output, stderr="", seconds=time.monotonic() - started,
                   megabytes=0.0, cpu_seconds=time.process_time() - cpu,
                   timed_out=timed_out)


@contextlib.contextmanager
def probe_folder(probe: cat.Probe, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                 ) -> Iterator[None]:
    write_inputs(probe, tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TABLETOP_RULESETS", raising=False)
    monkeypatch.delenv("TABLETOP_DEBUG", raising=False)
    for key, value in probe.env.items():
        monkeypatch.setenv(key, value)
    yield


def check(probe: cat.Probe, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run a probe (in-process, or as a process when it needs one) and assert it passes
    the catalogue's judgement."""
    if probe.process:
        outcome = execute(probe, limits=LIMITS, folder=tmp_path)
    else:
        with probe_folder(probe, tmp_path, monkeypatch):
            outcome = invoke(probe.args, None if probe.stdin == cat.CLOSED else probe.stdin)
    failures = judge(probe, outcome, LIMITS)
    if ("other", NO_WHEN) in failures and probe.located:
        # caught before the game ran (a compile-time error): no decision to name
        with probe_folder(probe, tmp_path, monkeypatch):
            if invoke(("validate", probe.located), None).code == 1:
                failures.remove(("other", NO_WHEN))
    text = (outcome.stdout + outcome.stderr).strip()
    assert not failures, (
        f"{probe.name}: {'; '.join(reason for _, reason in failures)}\n"
        f"$ {probe.command()}\n{text[:1500]}")


# -- the probes' base ruleset is valid wherever they put something -------------------------

@pytest.mark.parametrize("where", cat.PLACEMENTS)
def test_the_base_ruleset_plays_with_a_harmless_expression_in_each_place(
        where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Otherwise every expression probe would fail early on the same mistake, and
    'located, no internal error' would pass for the wrong reason."""
    harmless = {"where": "n <= 2", "end": "turn >= 6", "for": "[1, 2]", "if": "true"}
    probe = cat.Probe(f"control/{where}", "expressions", cat.run_args(),
                      {cat.RULESET: cat.placed(harmless.get(where, "1"), where)})
    with probe_folder(probe, tmp_path, monkeypatch):
        outcome = invoke(probe.args, None)
    assert outcome.code == 0, outcome.stdout


# -- a seeded sample of mutated bundled rulesets ------------------------------------------

def _sample() -> list[tuple[int, cat.Mutant]]:
    """Stratified by file, so every bundled file keeps its share (at least one) whatever
    files are added."""
    every = list(enumerate(cat.mutants()))
    rng = random.Random(cat.SEED)
    by_file: dict[str, list[tuple[int, cat.Mutant]]] = {}
    for item in every:
        by_file.setdefault(item[1].source, []).append(item)
    chosen: list[tuple[int, cat.Mutant]] = []
    for name in sorted(by_file):
        group = by_file[name]
        share = max(1, round(MUTANT_SAMPLE * len(group) / len(every)))
        chosen.extend(rng.sample(group, min(share, len(group))))
    return sorted(chosen, key=lambda x: x[0])


SAMPLE = _sample()


def test_the_sample_covers_every_mutation_and_every_bundled_file() -> None:
    assert {m.kind for _, m in SAMPLE} == set(cat.MUTATIONS)
    assert {m.source for _, m in SAMPLE} == {p.name for p in cat.RULESETS.glob("*.yaml")}


@pytest.mark.parametrize(("index", "mutant"), SAMPLE, ids=[m.name for _, m in SAMPLE])
def test_a_mutated_ruleset_is_reported_located_and_fast(
        index: int, mutant: cat.Mutant, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    check(cat.mutant_probe(mutant, index), tmp_path, monkeypatch)


# -- every probe named in the issue -------------------------------------------------------

NAMED = {
    # section 3: budgets bound work and memory
    "budgets/roll-1e20": "roll(100000000000000000000)",
    "budgets/random-int-over-2-64": "random_int above 2^64 (a constant)",
    "budgets/random-int-2-64-computed": "random_int above 2^64 (computed)",
    "budgets/comprehension-1e10-if-false":
        "[a for a in range(100000) for b in range(100000) if false]",
    "budgets/any-1e10": "any(...) over 10^5 x 10^5",
    "budgets/option-for-1e10-where-false": "an option for: over 10^5 x 10^5, where: false",
    "budgets/arrange-1000-places-where-false": "arrange over 1,000 places",
    "budgets/join-repeat-99999": "join(repeat('x'*99999, 99999), '')",
    "budgets/str-repeat": "str(repeat(...))",
    "budgets/set-doubles-list-each-turn": "a set that doubles a list each turn",
    "budgets/number-squared-in-loop": "a number squared in a loop",
    "budgets/number-squared-each-turn": "a number squared each turn",
    "budgets/say-100kb-in-loop": "say of a 100 KB line in a loop",
    "budgets/say-99999-literal-in-loop": "say of a 100 KB literal line in a loop",
    "budgets/piece-count-1e8": "count: 100000000 in a piece set",
    "budgets/slots-size-1e8": "size: 100000000 slots",
    "budgets/grid-rows-1e7": "rows: 10000000",
    "yaml/billion-laughs": "YAML aliases: a 339-byte billion laughs",
    "yaml/nested-500-lists": "YAML nested 500 deep (flow)",
    "yaml/nested-500-block": "YAML nested 500 deep (block)",
    "budgets/not-3000": "not x 3000",
    "budgets/not-3000-in-template": "not x 3000 in a template",
    "budgets/not-3000-in-define": "not x 3000 in a definition",
    "budgets/plus-2000": "1+1+... x 2000",
    "budgets/minus-20000": "- x 20000",
    "budgets/caldera-height-3000": "Caldera with height(origin) > 3000",
    "budgets/decisions-never-end": "the decision budget bounds time",
    # section 4: no internal errors, every error located
    "schema/high-rise-option-typo-cols": "a typo'd option in a board size or piece count",
    "rules/builtin-00-abs_x": "abs('x')",
    "rules/builtin-01-range_a": "range('a')",
    "rules/builtin-02-range_2_5": "range(2.5)",
    "rules/builtin-03-sum_a": "sum(['a'])",
    "rules/builtin-04-y_1": "'%y' % 1",
    "rules/builtin-05-c_99999999": "'%c' % 99999999",
    "rules/builtin-06-value_name_1": "value_name([1])",
    "rules/builtin-07-one_of_each_kind_999999": "one_of_each_kind([999999])",
    "rules/builtin-08-next_seat_a": "next_seat('a')",
    "rules/builtin-09-distinct_1_2": "distinct([[1,[2]]])",
    "rules/builtin-10-999999999999999999999999999999": "a 400-digit number / 3",
    "rules/builtin-11-str_99999999999999999999999999": "str() of a 5,000-digit number",
    "rules/builtin-12-piece_name_1": "piece_name(-1)",
    "rules/builtin-13-place_of_1": "place_of(-1)",
    "rules/effect-arrange-into-non-place": "arrange into: a non-place",
    "rules/effect-choose-for-non-list": "an option for: that gives a non-list",
    "rules/for-non-list-at-decision": "an option for: that becomes a non-list later",
    "yaml/directive-after-value": "a: 1 then %YAML 9.9",
    "yaml/directive-after-end": "a directive after ...",
    "yaml/bytes-ff-line-5": "a non-UTF-8 byte: line:col",
    "yaml/bytes-latin1": "a Latin-1 file: line:col",
    "saves/nested-100000": "a save nested very deep",
    "saves/nested-in-options": "a save with a deep value inside",
    "saves/seed-5001-digits": "a 5,001-digit seed in a save",
    "saves/version-true": "\"version\": true",
    "saves/game-etc-passwd": "a game field of /etc/passwd",
    "saves/game-other-bundled": "another bundled game's name",
    "cli/docs-out-a-file": "docs --out <a file>",
    "cli/docs-out-unwritable": "docs --out <unwritable dir>",
    "cli/list-dev-full": "list > /dev/full",
    "cli/play-stdin-closed": "play with stdin closed",
    "cli/run-moves-stdin-closed": "run --moves - with stdin closed",
    "cli/simulate-n-1e8": "simulate -n 100000000",
    "cli/simulate-jobs-64": "--jobs 64 for 3 games",
    "cli/run-seed-5001": "a 5,001-digit seed on the command line",
    # section 5: templates belong to the language
    "templates/name-00": "pieces.name \"{colour.__class__.__mro__}\"",
    "templates/name-01": "pieces.name \"{colour.__class__}\"",
    "templates/name-02": "pieces.name {colour:>2000000000}",
    "templates/says-00": "a definition's says with {p.__class__.__mro__}",
    "templates/says-01": "a definition's says with {p.__class__}",
    "templates/says-02": "a definition's says with {p:>2000000000}",
}

PROBES = {p.name: p for p in cat.catalogue()}

OUTGROWN = {"budgets/option-for-1e10-where-false": "budgets/option-for-1e10-where-both"}
"""Probes a later change made harmless, with the probe that still runs away in their
place: an option's `where: false` is now tested once, before its `for` loops."""


def test_the_catalogue_keeps_every_probe_named_in_the_issue() -> None:
    assert set(NAMED) <= set(PROBES), sorted(set(NAMED) - set(PROBES))
    assert {p.name for p in PROBES.values() if p.issue} <= set(NAMED)
    assert len(PROBES) >= 700


@pytest.mark.parametrize("name", list(NAMED), ids=list(NAMED))
def test_a_probe_named_in_the_issue(name: str, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    check(PROBES[name], tmp_path, monkeypatch)


def test_budget_probes_assert_time_budget_and_location() -> None:
    """What a budget probe demands, spelled out: it must fail, name a budget, carry
    FILE:LINE:COL and stay within 2 s (judge's CPU-time rule)."""
    for name in NAMED:
        probe = PROBES[OUTGROWN.get(name, name)]
        if probe.category != "budgets":
            continue
        assert probe.must_fail and probe.budget and probe.located, name
    for name in OUTGROWN:  # now harmless: it must pass, quickly
        assert not PROBES[name].must_fail and PROBES[name].note
    limits = Limits()
    good = Outcome(1, "", "probe.yaml:3:4: error: too much (budgets.steps_per_decision)\n"
                   "  during the set-up", 0.5, 40.0, 0.5, False)
    probe = PROBES["budgets/comprehension-1e10-if-false"]
    assert judge(probe, good, limits) == []
    slow = Outcome(1, "", good.stderr, 2.5, 40.0, 2.5, False)
    assert [k for k, _ in judge(probe, slow, limits)] == ["slow"]
    unnamed = Outcome(1, "", "probe.yaml:3:4: error: too much\n  during the set-up", 0.5,
                      40.0, 0.5, False)
    assert [k for k, _ in judge(probe, unnamed, limits)] == ["other"]
    unlocated = Outcome(1, "", "error: too much (budgets.steps_per_decision) during the "
                        "set-up", 0.5, 40.0, 0.5, False)
    assert [k for k, _ in judge(probe, unlocated, limits)] == ["unlocated"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_real_process_is_measured() -> None:
    """The runner's own machinery: exit code, output and memory of a real process."""
    probe = cat.Probe("self/validate", "cli", ("validate", "r.yaml"), {"r.yaml": cat.ruleset()})
    outcome = execute(probe, limits=LIMITS)
    assert outcome.code == 0, outcome.stderr
    assert "ok:" in outcome.stdout
    assert 5 < outcome.megabytes < 500
