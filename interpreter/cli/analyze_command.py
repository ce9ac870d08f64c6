"""`tabletop analyze`: is my game balanced? Many games of each variant, seat count and
agent matchup, shown as a terminal summary, JSON, or a static HTML report with charts."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from interpreter.agents import SEES_HIDDEN_NOTE, sees_hidden, workers_note
from interpreter.analyze.plan import make_plan
from interpreter.analyze.runner import analyze as run_analysis
from interpreter.analyze.stats import ALPHA
from interpreter.analyze.summary import group_rows, headlines
from interpreter.cli.batch import progress_bar
from interpreter.cli.params import AddressOpt, BackendOpt, JsonOpt, parse_seed
from interpreter.errors import UsageError
from interpreter.invoked import runnable
from interpreter.run.view import hides_anything
from interpreter.simulate.backends import check_backend

DEFAULT_GAMES = 200
LABEL_WIDTH = 48
"""A measure's label in the terminal at most (an end rule's text may be a paragraph;
--json and --html give it whole)."""


def analyze(
    rulesets: Annotated[list[str], typer.Argument(
        metavar="GAME",
        help="A bundled game's name or a ruleset file; several (a game and variant files "
             "that extend it) are compared side by side.", show_default=False)],
    players: Annotated[list[int] | None, typer.Option(
        "--players", "-p", metavar="N",
        help="Seat count to analyze (repeatable; default: every count the game allows).",
        show_default=False)] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="KEY=VALUE",
        help="Set a game option (repeatable). Several values for one key are variants "
             "compared side by side: -o power_play=true -o power_play=false.",
        show_default=False)] = None,
    games: Annotated[int, typer.Option(
        "-n", "--games", metavar="N",
        help="Games per configuration (variant × seat count × matchup).")] = DEFAULT_GAMES,
    seed: Annotated[int, typer.Option(
        "--seed", metavar="S", parser=parse_seed,
        help="Seed of the first game; game i of every configuration uses S + i.")] = 0,
    agents: Annotated[list[str] | None, typer.Option(
        "--agents", "-a", metavar="A,B",
        help="Computer players, e.g. random,mcts or random,mcts:playouts=100 (settings "
             "after a colon, comma-separated): each plays every seat, and each pair "
             "plays mixed, seats rotated.", show_default=False)] = None,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", metavar="J",
        help="Worker processes (at most one per game and per CPU core).")] = 1,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    json_out: JsonOpt = False,
    html: Annotated[Path | None, typer.Option(
        "--html", metavar="FILE",
        help="Also write a self-contained HTML report with charts to FILE.",
        show_default=False)] = None,
) -> None:
    """Is the game balanced? Play many games and report per seat, variant and matchup.

    For every configuration (variant × seat count × agent matchup), N games with seeds
    S … S+N-1: win rate per seat and draw rate with 95% confidence intervals (Wilson)
    and a χ² test of whether the seats win equally often (first-player advantage); how
    games ended (each end rule's text or end_game's reason); game length in turns and
    decisions, options per decision (branching factor), how often each kind of option
    is taken, and the score margin (highest − second highest), as distributions.

    **Variants**: several rulesets (a game and variant files that extend it) and/or
    several values for one option key (`-o power_play=true -o power_play=false`; with
    two keys, every combination) are compared side by side: the first variant (A) with
    each other, per seat count and matchup, by two-proportion tests for rates and
    Mann-Whitney U for lengths and margins, Holm-corrected; significant differences are
    marked. Every configuration plays the same seeds.

    **Matchups** (`--agents random,mcts`): each agent at every seat, and for each pair
    one of them in one seat against the other in the rest, moved a seat on each game so
    that it plays every seat equally often; per-agent win rates are shown.

    Defaults: every seat count, the random player, 200 games per configuration (about
    ±7 points of confidence on a rate). Searching players are slow (mcts: about half a
    second per decision at 400 playouts): use `--jobs` and fewer playouts.

    Output: a summary on the terminal, or with --json one object (game, variants,
    seat_counts, agents, configurations: per configuration its games, errors,
    wins_by_seat and draws as {count, rate, low, high}, seat_balance_p, end_reasons,
    turns, decisions, branching, score_margin as distributions, option_kinds, agents;
    groups: each seat count and matchup with its comparisons' tests). --html FILE also
    writes the report as one static page with charts. A progress bar shows on a
    terminal; Ctrl-C stops early and reports the games played so far (exit code 130).
    Games that stop with an error are counted and shown; the exit code is then 1.
    --backend ray plays the games on a Ray cluster (see guides/ray.md), with the same
    results; a batch whose worker fails for good counts its games as errors.
    """
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    check_backend(backend, address, jobs)
    if html is not None:
        from interpreter.analyze.report import check_writable

        check_writable(html)
    plan = make_plan(rulesets, option or [], players or [], agents or [], games, seed)
    if any(hides_anything(v.game) for v in plan.variants) and any(
            sees_hidden(m.field) or sees_hidden(m.focal or "") for m in plan.matchups):
        typer.echo(f"note: {SEES_HIDDEN_NOTE}", err=True)
    cores_note = workers_note(t for m in plan.matchups for t in (m.field, m.focal) if t)
    if cores_note is not None:
        typer.echo(f"note: {cores_note}", err=True)
    with progress_bar(plan.variants[0].game.title, plan.total_games) as advance:
        report = run_analysis(plan, jobs, progress=advance, backend=backend,
                              address=address)
    if html is not None:
        from interpreter.analyze.report import render_html, write_html

        write_html(html, render_html(report, _command_line()))
    if json_out:
        typer.echo(json.dumps(report))
    else:
        console = Console()
        console.print(summary(report))
        if html is not None:
            console.print(Text(f"Report written to {html}", style="bold"))
    if report["interrupted"]:
        raise typer.Exit(130)
    if report["errors"]:
        raise typer.Exit(1)


def _command_line() -> str:
    """The command as typed (shown in the report, so it can be run again)."""
    return runnable(*sys.argv[1:]) if sys.argv[1:] else runnable("analyze")


def summary(report: dict[str, Any]) -> Group:
    """The terminal's report: headlines, then a table per seat count and matchup with
    the variants side by side."""
    several = len(report["variants"]) > 1
    lines: list[Any] = [Text(
        f"{report['title']}: {report['games']} games, {report['games_per_configuration']} "
        f"per configuration, seed {report['seed']}, agents {', '.join(report['agents'])} "
        f"({report['seconds']} s, {report['games_per_second']} games/s)", style="bold")]
    if several:
        for v in report["variants"]:
            lines.append(Text(f"  {v['key']}: {v['label']} ({v['path']})"))
    for v in report["variants"]:
        if v["computer_players"]:
            given = ", ".join(f"{k}:{val}" for k, val in v["computer_players"].items())
            lines.append(Text(f"  {v['key'] + ': ' if several else ''}computer players as "
                              f"the ruleset sets them: {given}"))
    if report["interrupted"]:
        lines.append(Text(f"Interrupted: {report['games']} of {report['requested']} games "
                          "were played.", style="bold yellow"))
    news = headlines(report)
    if news:
        lines.append(Text("At a glance", style="bold underline"))
        lines += [Text(f"• {line}") for line in news]
    for group in report["groups"]:
        lines.append(_group_table(report, group, several))
    if several:
        lines.append(Text(f"* differs significantly from A (Holm-adjusted p < {ALPHA}: "
                          "two-proportion z test for rates, Mann-Whitney U for lengths).",
                          style="dim"))
    lines.append(Text("Rates: 95% confidence interval (Wilson) in brackets. Lengths: median "
                      "(10th–90th percentile), mean.", style="dim"))
    for group in report["groups"]:
        for i in group["configurations"]:
            run = report["configurations"][i]
            for e in run["error_examples"]:
                where = f"{run['variant']}, " if several else ""
                lines.append(Text(f"{where}{group['label']}, seed {e['seed']}: "
                                  f"{e['error']}", style="red"))
    if not report["errors"]:
        lines.append(Text("No errors.", style="green"))
    return Group(*lines)


def _group_table(report: dict[str, Any], group: dict[str, Any], several: bool) -> Table:
    runs = [report["configurations"][i] for i in group["configurations"]]
    table = Table(title=group["label"], title_justify="left", title_style="bold")
    table.add_column("", ratio=2)
    for run in runs:
        label = next(v["label"] for v in report["variants"] if v["key"] == run["variant"])
        table.add_column(f"{run['variant']}: {label}" if several else "Value", ratio=1)
    section = ""
    for row in group_rows(report, group):
        if row.section != section:
            section = row.section
            table.add_row(Text(section, style="bold cyan"), *[""] * len(runs))
        cells = [Text(cell + (" *" if mark else ""), style="bold yellow" if mark else "")
                 for cell, mark in zip(row.cells, row.marks, strict=True)]
        label = textwrap.shorten(row.label, LABEL_WIDTH, placeholder="…")
        table.add_row(Text("  " + label), *cells)
    return table
