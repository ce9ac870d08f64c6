"""Commands that play without a person: `run` (one game), `simulate` (many), `test`."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, Group
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from interpreter.analyze.stats import wilson
from interpreter.api import load_game
from interpreter.cli.options import MAX_MOVES_BYTES, parse_options, read_moves
from interpreter.cli.params import (
    AddressOpt,
    AgentOpt,
    BackendOpt,
    GameArg,
    JsonOpt,
    OptionsOpt,
    PlayersOpt,
    parse_seed,
)
from interpreter.errors import IllegalMove, RulesetError, TabletopError, UsageError
from interpreter.invoked import runnable
from interpreter.load.catalog import find_ruleset
from interpreter.play.game import Game
from interpreter.simulate import playout
from interpreter.simulate.backends import check_backend
from interpreter.simulate.playout import GameResult, make_agents, play_game


def _numbered_moves(moves: list[tuple[int, str]], where: list[int]) -> Iterator[str]:
    """The moves' texts, noting the line number of the one being played in `where`."""
    for line, text in moves:
        where[0] = line
        yield text


def read_stdin() -> str:
    """All of standard input, or a clear message when there is none to read."""
    if sys.stdin is None:
        raise UsageError("standard input is closed: there are no moves to read from `-`")
    try:
        text = sys.stdin.read(MAX_MOVES_BYTES + 1)
        if len(text) > MAX_MOVES_BYTES:
            raise UsageError(f"the moves on standard input are longer than "
                             f"{MAX_MOVES_BYTES:,} characters")
        return text
    except UnicodeDecodeError:
        raise UsageError("the moves on standard input are not text (UTF-8)") from None
    except OSError as exc:
        raise UsageError(f"cannot read standard input: {exc.strerror or exc}") from None


def play_with_moves(game: Game, players: int, seed: int, agent: str,
                    moves: list[tuple[int, str]], source: str) -> GameResult:
    """One game: the given moves first, then the agent for every seat. An illegal move
    is reported with its line in the moves file."""
    agents = make_agents(players, seed, agent, game)
    where = [0]
    try:
        return play_game(game, players, seed, agents, _numbered_moves(moves, where))
    except IllegalMove as exc:
        name = "stdin" if source == "-" else source
        raise IllegalMove(f"{name}, line {where[0]}: {exc}") from None


def result_json(game: Game, result: GameResult) -> dict[str, Any]:
    """A finished game as one JSON object (the contract of `run --json`)."""
    from interpreter.scenarios.position import position_of  # only here: a quick start

    assert result.final_state is not None
    return {
        "game": game.name,
        "players": result.players,
        "seed": result.seed,
        "options": game.options,
        "winners": result.winners,
        "draw": result.draw,
        "scores": None if result.scores is None else {
            str(s): v for s, v in result.scores.items()},
        "reason": result.reason,
        "turns": result.turns,
        "log": [notation for _, notation in result.decisions],
        "seats": [seat for seat, _ in result.decisions],
        "final_state": position_of(game, result.final_state),
        "engine_state": result.final_state.to_json(),
    }


def run(
    game_ref: GameArg,
    players: PlayersOpt = None,
    option: OptionsOpt = None,
    seed: Annotated[int, typer.Option(
        "--seed", metavar="S", parser=parse_seed,
        help="Random seed: a whole number, negative or up to 100 digits long.")] = 0,
    moves: Annotated[str | None, typer.Option(
        "--moves", "-m", metavar="FILE|-",
        help="Play these moves first: one notation per line (`SEAT: notation` when "
             "several seats decide at once); blank lines and # comments are ignored; "
             "`-` reads stdin.", show_default=False)] = None,
    agent: AgentOpt = "random",
    json_out: JsonOpt = False,
) -> None:
    """Play one game without a person and print how it ended.

    The same game, options, seed and moves always give the same game. With --json,
    print one object with winners, draw, scores, reason, turns, log (the decisions'
    notations in order), seats (who made each), seed, players, options, final_state and
    engine_state. final_state is the last position in the scenario tests' format: its
    keys (players, options, position: each place's pieces by name, bottom first; turn;
    variables that changed, as expressions; out; ended: winners and reason) are those of
    a case in a tests file, so pasting them into one (JSON is YAML) starts the case from
    this position. engine_state is the engine's own state (sites, frames, rng), for tools
    that restore it with State.from_json.
    """
    game = load_game(game_ref, parse_options(option or []))
    n = game.check_players(players)
    move_list: list[tuple[int, str]] = []
    if moves is not None:
        stdin_text = read_stdin() if moves == "-" else None
        move_list = read_moves(moves, stdin_text)
    result = play_with_moves(game, n, seed, agent, move_list, moves or "")
    if json_out:
        typer.echo(json.dumps(result_json(game, result)))
        return
    if len(result.winners) == 1:
        outcome = f"{game.seat_name(result.winners[0])} wins"
    elif result.winners:
        outcome = "draw between " + ", ".join(game.seat_name(s) for s in result.winners)
    else:
        outcome = "nobody wins"
    typer.echo(f"{game.title}, {n} players, seed {seed}: {outcome} after {result.turns} "
               f"turns ({len(result.decisions)} decisions).")
    if result.reason:
        typer.echo(f"Reason: {result.reason}")
    if result.scores is not None:
        typer.echo("Scores: " + ", ".join(f"{game.seat_name(s)} {v}"
                                          for s, v in result.scores.items()))


def simulate(
    game_ref: GameArg,
    games: Annotated[int, typer.Option(
        "-n", "--games", metavar="N", help="How many games to play.", show_default=False)],
    players: PlayersOpt = None,
    option: OptionsOpt = None,
    seed: Annotated[int, typer.Option(
        "--seed", metavar="S", parser=parse_seed,
        help="Seed of the first game; game i uses S + i.")] = 0,
    agent: AgentOpt = "random",
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", metavar="J",
        help="Worker processes (at most one per game and per CPU core).")] = 1,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Play many games between computer players and report the balance.

    Shows wins per seat and draws with their 95% confidence intervals (Wilson score), how
    the games ended, mean game length and speed. With --json, print one object with
    games, errors, error_examples, wins_by_seat (seat → count), draws,
    win_rate_by_seat (seat → {rate, low, high}: the 95% interval of the win rate over
    the games that finished), draw_rate ({rate, low, high}), end_reasons (each end's
    text → how many games ended so), mean_turns, mean_decisions, games_per_second,
    requested, interrupted. Results are counted as games finish, so memory stays flat
    for any N, and a progress bar shows on a terminal; Ctrl-C stops early and reports
    the games played so far (exit code 130). Games that stop with an error (a rule that
    cannot be carried out, a budget exceeded) are counted and shown with their seeds;
    the exit code is 1 when there are any, so CI notices. With --backend ray the games
    are played on a Ray cluster (see guides/ray.md); a batch whose worker fails for
    good counts its games as errors. For a whole balance report (every seat count,
    variants side by side, agent matchups, charts) see `tabletop analyze`.
    """
    if games < 1:
        raise UsageError(f"-n must be at least 1, not {games}")
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    check_backend(backend, address, jobs)
    options = parse_options(option or [])
    game = load_game(game_ref, options)  # report bad options here, not in every worker
    n = game.check_players(players)
    make_agents(n, seed, agent, game)
    ref = (str(find_ruleset(game_ref).resolve()), options)
    console = Console()
    with progress_bar(game.title, games) as advance:
        report = playout.simulate(ref, games, n, seed, agent, jobs, progress=advance,
                                  backend=backend, address=address)
    add_rates(report)
    if json_out:
        typer.echo(json.dumps(report))
    else:
        console.print(simulation_table(game, report, agent))
    if report["interrupted"]:
        raise typer.Exit(130)
    if report["errors"]:
        raise typer.Exit(1)


@contextlib.contextmanager
def progress_bar(title: str, total: int) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr while the block runs, when stderr is a terminal (progress
    goes where it is seen, never into piped output); yields how to advance it, or None."""
    if sys.stderr is None or not sys.stderr.isatty():
        yield None
        return
    with Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(title, total=total)
        yield lambda k: progress.advance(task, k)


def add_rates(report: dict[str, Any]) -> None:
    """Each seat's win rate and the draw rate with their 95% Wilson intervals, over the
    games that finished: `win_rate_by_seat` {seat: {rate, low, high}}, `draw_rate`."""
    finished = report["games"] - report["errors"]
    report["win_rate_by_seat"] = {seat: _interval(wins, finished)
                                  for seat, wins in report["wins_by_seat"].items()}
    report["draw_rate"] = _interval(report["draws"], finished)


def _interval(count: int, total: int) -> dict[str, float]:
    rate = wilson(count, total)
    return {"rate": round(rate.rate, 4), "low": round(rate.low, 4),
            "high": round(rate.high, 4)}


def simulation_table(game: Game, report: dict[str, Any], agent: str) -> Group:
    """Win rates per seat, draws, how the games ended, errors with examples, length and
    speed."""
    total = report["games"]
    finished = total - report["errors"]
    title = Text(f"{game.title}: {total} games, {report['players']} players, agent {agent}",
                 style="bold")
    table = Table()
    table.add_column("Seat")
    table.add_column("Wins", justify="right")
    table.add_column("Win rate", justify="right")
    table.add_column("95% interval", justify="right")
    for seat, wins in report["wins_by_seat"].items():
        table.add_row(game.seat_name(int(seat)), str(wins), _rate(wins, finished),
                      _shown_interval(report["win_rate_by_seat"][seat], finished))
    table.add_row("Draws", str(report["draws"]), _rate(report["draws"], finished),
                  _shown_interval(report["draw_rate"], finished), style="dim")
    lines: list[Any] = [title]
    if report.get("interrupted"):
        lines.append(Text(f"Interrupted: {total} of {report['requested']} games were "
                          "played.", style="bold yellow"))
    lines += [table, Text(
        f"Mean game: {report['mean_turns']} turns, {report['mean_decisions']} decisions. "
        f"{report['games_per_second']} games/s ({report['seconds']} s).")]
    if report["end_reasons"]:
        reasons = Table(title="How the games ended", title_justify="left")
        reasons.add_column("Reason", ratio=1)
        reasons.add_column("Games", justify="right")
        reasons.add_column("Share", justify="right")
        for reason, count in report["end_reasons"].items():
            reasons.add_row(Text(reason), str(count), _rate(count, finished))
        lines.append(reasons)
    if report["errors"]:
        lines.append(Text(f"{report['errors']} games stopped with an error:", style="bold red"))
        for ex in report["error_examples"]:
            lines.append(Text(f"  seed {ex['seed']}: {ex['error']}", style="red"))
    else:
        lines.append(Text("No errors.", style="green"))
    return Group(*lines)


def _rate(count: int, total: int) -> str:
    return f"{100 * count / total:.1f}%" if total else "–"


def _shown_interval(rate: dict[str, float], total: int) -> str:
    return f"{100 * rate['low']:.1f}–{100 * rate['high']:.1f}%" if total else "–"


def test(
    targets: Annotated[list[str] | None, typer.Argument(
        metavar="[GAME|PATH]...", help="Games or test files (default: every "
        "rulesets/*.tests.yaml).", show_default=False)] = None,
    base: Annotated[bool, typer.Option(
        "--base", help="For variants: run the base game's cases on the variant and report "
        "which still hold and which the variant changes.")] = False,
) -> None:
    """Run scenario tests: named positions and moves with what must hold afterwards.

    Each game's tests live in `rulesets/GAME.tests.yaml`. Prints ✓ or ✗ per case with
    the reason of each failure; exits 0 only when every case passes. With --base, each
    VARIANT is run against its base's cases instead: a case the variant changes is
    reported, not failed, unless the variant's tests file lists the cases it changes
    (`base_changes:`): then any other change, or a listed case that still holds, fails.
    """
    try:
        from interpreter.scenarios.runner import discover, run_scenario_files
    except ImportError as exc:
        raise UsageError(f"scenario tests are not available in this installation ({exc})"
                         ) from None
    console = Console()
    if base:
        _test_against_base(console, list(targets or []))
        return
    files = discover(list(targets or []))
    if not files:
        raise UsageError("no scenario test files found"
                         + (f" for {', '.join(targets)}" if targets else ""))
    passed = failed = broken = 0
    for path in files:
        console.print(Text(_shown_path(path), style="bold"))
        try:
            results = run_scenario_files([path])
        except TabletopError as exc:  # a malformed tests file: report it, go on
            broken += 1
            typer.echo(str(exc) if isinstance(exc, RulesetError) else f"error: {exc}",
                       err=True)
            continue
        for r in results:
            if r.passed:
                passed += 1
                console.print(Text.assemble(("  ✓ ", "green"), str(r.name)))
                continue
            failed += 1
            where = getattr(r, "location", None)
            console.print(Text.assemble(("  ✗ ", "bold red"), str(r.name),
                                        (f"  ({where})" if where else "", "dim")))
            for line in str(r.message or "").splitlines():
                console.print(Text("      " + line, style="red"), soft_wrap=True)
    summary = f"{passed} passed, {failed} failed"
    if broken:
        summary += f", {broken} test file{'s' if broken > 1 else ''} could not be read"
    console.print(Text(summary, style="bold red" if failed or broken else "bold green"))
    if failed or broken or not passed:
        raise typer.Exit(1)


def _test_against_base(console: Console, targets: list[str]) -> None:
    from interpreter.load.catalog import find_ruleset
    from interpreter.scenarios.base_cases import compare_with_base

    if not targets:
        raise UsageError("--base needs the variants to compare, e.g. "
                         f"`{runnable('test', 'my-variant', '--base')}`")
    surprised = 0
    for target in targets:
        comparison = compare_with_base(find_ruleset(target))
        console.print(Text(f"{_shown_path(comparison.base_tests)} "
                           f"(the cases of {comparison.base_title}) on "
                           f"{_shown_path(comparison.variant)}", style="bold"))
        for case in comparison.cases:
            if case.holds:
                console.print(Text.assemble(("  ✓ ", "green"), case.name,
                                            ("  still holds", "dim")))
                continue
            label = "changed" if case.applies else "no longer applies"
            if comparison.declared:
                label += " (as the variant says)" if case.expected else \
                    " — not among the variant's base_changes"
            style = "bold red" if comparison.declared and not case.expected else "bold yellow"
            console.print(Text.assemble(("  ≠ ", style), case.name,
                                        (f"  {label}", style.removeprefix("bold "))))
            for line in case.why.splitlines():
                console.print(Text("      " + line, style="yellow"), soft_wrap=True)
        for case in comparison.surprises:
            if case.holds:
                console.print(Text(f"  ✗ {case.name}: still holds, but the variant's "
                                   "base_changes says it changes", style="bold red"))
        surprised += len(comparison.surprises)
        console.print(Text(f"{comparison.held} of {len(comparison.cases)} base cases still "
                           f"hold; the variant changes {comparison.changed}", style="bold"))
    if surprised:
        console.print(Text(f"{surprised} base case{'s' if surprised > 1 else ''} came out "
                           "otherwise than the variants' base_changes say", style="bold red"))
        raise typer.Exit(1)


def _shown_path(path: Path) -> str:
    """A path relative to the working folder when it is inside it (shorter to read)."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)

