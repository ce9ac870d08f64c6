"""`tabletop play`: set up (or load) a game, then hand it to the interactive loop."""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from interpreter.agents import SEES_HIDDEN_NOTE, ruleset_settings_note, sees_hidden, workers_note
from interpreter.agents.base import Agent
from interpreter.api import load
from interpreter.assemble.game import compile_game
from interpreter.cli.options import HUMAN, describe_seats, parse_options, parse_seats
from interpreter.cli.params import OptionsOpt, PlayersOpt, parse_seed
from interpreter.cli.play import PlaySession, line_reader, recall
from interpreter.errors import IllegalMove, SaveFileError, UsageError
from interpreter.invoked import runnable
from interpreter.load.catalog import bundled_names, rulesets_dir
from interpreter.load.loader import LoadedRuleset
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import hides_anything
from interpreter.simulate.playout import seat_agents
from interpreter.simulate.record import (
    SavedGame,
    SaveInUse,
    SaveLock,
    check_ruleset,
    read_save,
    replay,
)


def build_agents(game: Game, seats: dict[int, str], seed: int,
                 resumed_after: int | None = None) -> dict[int, Agent]:
    """The computer players of a game played here (see `seat_agents`)."""
    return seat_agents(game, seats, seed, resumed_after, HUMAN)


def fresh_seed() -> int:
    """A new game's seed: 128 bits from the operating system, so nobody can guess it (it
    decides every hidden card and die), and never shown while the game can go on."""
    return secrets.randbits(128)


def replay_command(game_ref: str, game: Game, players: int, seats: dict[int, str],
                   seed: int) -> str:
    """The command that plays this very game again: same set-up, dice and computer
    players (options and seats only where they differ from the defaults)."""
    parts = ["play", game_ref, "--players", str(players)]
    defaults = {o.id: o.default for o in game.ruleset.options}
    for key, value in game.options.items():
        if key in defaults and value != defaults[key]:
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            parts += ["--option", f"{key}={text}"]
    for seat, kind in sorted(seats.items()):
        if kind != (HUMAN if seat == 1 else "random"):
            parts += ["--seat", f"{seat}={kind}"]
    parts += ["--seed", str(seed)]
    return runnable(*parts)


def play(
    game_ref: Annotated[str | None, typer.Argument(
        metavar="GAME", help="A bundled game's name or a ruleset file (may be left out "
        "with --load).", show_default=False)] = None,
    players: PlayersOpt = None,
    option: OptionsOpt = None,
    seat: Annotated[list[str] | None, typer.Option(
        "--seat", "-s", metavar="N=KIND",
        help="Who plays seat N (repeatable): human, or a computer player: random, uniform, "
             "mcts or ismcts, with settings as in --agent of `simulate` (e.g. --seat "
             "2=mcts:seconds=2). Default: seat 1 is you, the others play at random.",
        show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", metavar="S", parser=parse_seed, help="Random seed, a whole number "
        "(default: 128 fresh random bits, kept secret while the game can go on; shown, "
        "with the command that plays the same game again, once it is over or stopped "
        "without a save).", show_default=False)] = None,
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="FILE", help="Save the game to FILE after every decision. The "
        "file holds the seed and every decision, secret ones too: it is written readable "
        "by you only (mode 0600); do not show it to the other players. An existing FILE "
        "is refused unless --force; a FILE another game is being saved to, always.",
        dir_okay=False, show_default=False)] = None,
    load_from: Annotated[Path | None, typer.Option(
        "--load", metavar="FILE", help="Continue a saved game (and keep saving to FILE "
        "unless --save names another file). A game played from a ruleset file needs "
        "that file named too: `tabletop play RULES.yaml --load FILE`.", dir_okay=False,
        show_default=False)] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="With --save: replace the file if it exists. With --load: replay "
        "a save made with an earlier version of the ruleset as far as its decisions stay "
        "legal, and continue from there (the save itself is kept; the game goes on in "
        "FILE.replayed.json, replacing it, unless --save names a file).")] = False,
) -> None:
    """Play a game at this terminal against computer players (or with friends).

    On your turn the board is drawn, with what the other players did since your last
    move, and the legal options (in groups when there are many: type a group's key, a
    place or the start of a notation to list them). Type an option's number or its
    notation; `?` explains, `undo` takes your last decision back (against computer
    players), `state` and `log` show what you may see, `quit` stops. On a terminal the
    screen fits its size, so the board stays in view. With --save (or --load) nothing
    is lost when you stop: continue later with `--load FILE`.

    The seed decides everything hidden, so it stays secret while the game can go on: it
    is shown when the game ends, or when you stop it without saving. A save file is the
    referee's record (seed and every decision, secret picks too): it is written readable
    by its owner only (mode 0600), and one game at a time saves to it.
    """
    if force and load_from is None and save is None:
        raise UsageError("--force replaces the file of --save FILE, or replays a saved "
                         "game (--load FILE): give one of them")
    locks: list[SaveLock] = []
    try:
        _play(game_ref, players, option, seat, seed, save, load_from, force, locks)
    finally:
        for lock in locks:
            lock.release()


def _play(game_ref: str | None, players: int | None, option: list[str] | None,
          seat: list[str] | None, seed: int | None, save: Path | None,
          load_from: Path | None, force: bool, locks: list[SaveLock]) -> None:
    """`play` with the save file(s) it holds gathered in `locks` (let go by the caller)."""
    console = Console()
    if load_from is not None:
        if players is not None or option or seed is not None:
            raise UsageError("--players, --option and --seed come from the saved game; "
                             "leave them out with --load")
        where = str(load_from)
        saved = read_save(load_from)  # a damaged file is said before anything is held
        if save is None or _same_file(save, load_from):
            locks.append(_hold(load_from, continuing=True))
            saved = read_save(load_from)  # as it is now that no other game may write it
        else:
            SaveLock.tidy_if_free(load_from)
        loaded = load(game_ref) if game_ref is not None else _load_saved_game(saved, where)
        changed = force and saved.ruleset_hash != loaded.content_hash
        if changed:
            if saved.game != loaded.model.game.name:
                check_ruleset(saved, loaded, where)  # another game: --force does not help
        else:
            _check_ruleset(saved, loaded, where, game_ref)
        game = _compile_saved(loaded, saved, where)
        n = saved.players
        seats = parse_seats(seat or [], n, defaults=_complete(saved.seats, n))
        _need_stdin(seats)
        saved.seats = seats
        note = None
        if changed:
            state, note = replay_as_far_as_legal(game, saved, where)
            saved.ruleset_hash = loaded.content_hash
        else:
            state = replay(game, saved, where)
        agents = build_agents(game, seats, saved.seed, resumed_after=len(saved.decisions))
        save_path = save if save is not None else (
            _replayed_path(load_from) if changed else load_from)
        if not _same_file(save_path, load_from):
            locks.append(_claim(save_path, force, game_ref))
        record = saved
        seed = saved.seed
        game_ref = game_ref if game_ref is not None else saved.game
        intro = (f"{game.title}: continuing {load_from} after {len(saved.decisions)} "
                 f"decisions; seats {describe_seats(seats)}.")
        if note is not None:
            console.print(Text(note, style="yellow"), soft_wrap=True)
        if changed and save is None:
            intro += f" The save itself is kept; this game is saved to {save_path}."
    else:
        if game_ref is None:
            raise UsageError(f"name the game to play (see `{runnable('list')}`), or give "
                             "--load FILE")
        loaded = load(game_ref)
        game = compile_game(loaded, parse_options(option or []))
        n = game.check_players(players)
        seats = parse_seats(seat or [], n)
        _need_stdin(seats)
        if seed is None:
            seed = fresh_seed()
        if save is not None:
            locks.append(_claim(save, force, game_ref))
        state = game.new_state(n, seed)
        agents = build_agents(game, seats, seed)
        save_path = save
        record = SavedGame.start(game, n, seed, seats)
        intro = f"{game.title}: {n} players ({describe_seats(seats)})."
    console.print(Text(intro + " Type `help` for the commands."), soft_wrap=True)
    if hides_anything(game) and any(sees_hidden(kind) for kind in seats.values()):
        console.print(Text(f"Note: {SEES_HIDDEN_NOTE}", style="yellow"), soft_wrap=True)
    settings_note = ruleset_settings_note(game, seats.values())
    if settings_note is not None:
        console.print(Text(settings_note, style="dim"), soft_wrap=True)
    cores_note = workers_note(seats.values())
    if cores_note is not None:
        console.print(Text(f"Note: {cores_note}", style="yellow"), soft_wrap=True)
    session = PlaySession(game, state, seats, agents, record, console,
                          ask=line_reader(console),
                          save_path=save_path,
                          interactive=sys.stdin is not None and sys.stdin.isatty(),
                          colour=console.color_system is not None,
                          replay=replay_command(game_ref, game, n, seats, seed),
                          fit=fits_screen(console),
                          rules_file=None if game_ref in bundled_names() else game_ref,
                          locks=locks)
    if load_from is not None:  # undo reaches back past the load
        session.history = recall(game, record, seats,
                                 lambda index: build_agents(game, seats, seed, resumed_after=index))
    code = session.run()
    if code:
        raise typer.Exit(code)


def _hold(path: Path, continuing: bool = False) -> SaveLock:
    """This game's hold on its save file, or a SaveFileError when another game (a
    `tabletop play` still running) is being saved to it: both would write the file in
    turn, and one game would be lost."""
    try:
        return SaveLock.take(path)
    except SaveInUse as exc:
        if continuing:
            raise SaveInUse(f"{exc}: it is being played there, so it cannot be continued "
                            "here too; quit that game first") from None
        raise SaveInUse(f"{exc}; quit that game first, or save this one to another file"
                        ) from None


def _claim(path: Path, force: bool, game_ref: str | None) -> SaveLock:
    """Hold the file this game will be saved to; an existing file is refused unless
    `force` (it may be another game's save)."""
    lock = _hold(path)
    if force or not os.path.lexists(path):
        return lock
    lock.release()
    resume = runnable(*["play",
                        *([game_ref] if game_ref and game_ref not in bundled_names() else []),
                        "--load", str(path)])
    raise SaveFileError(f"{path} already exists and would be replaced by this game; to "
                        f"continue the game saved there: `{resume}`; to replace it: add "
                        "--force")


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (the same one when neither exists yet)."""
    try:
        return a.samefile(b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _need_stdin(seats: dict[int, str]) -> None:
    """People type their decisions on stdin: refuse clearly when it is closed."""
    if sys.stdin is None and any(kind == HUMAN for kind in seats.values()):
        raise UsageError("standard input is closed, so nobody can type a decision; give "
                         "the game a terminal or a file of input (or --seat 1=random)")


def fits_screen(console: Console) -> bool:
    """Whether screens are fitted to a height: on a terminal, or when LINES says one."""
    return (console.is_terminal and not console.is_dumb_terminal) or "LINES" in os.environ


def _check_ruleset(saved: SavedGame, loaded: LoadedRuleset, where: str,
                   game_ref: str | None) -> None:
    """check_ruleset, and when the ruleset changed, how to replay the save anyway."""
    try:
        check_ruleset(saved, loaded, where)
    except SaveFileError as exc:
        if saved.game != loaded.model.game.name or "ruleset changed" not in str(exc):
            raise
        command = runnable("play", *([game_ref] if game_ref else []), "--load", where,
                           "--force")
        raise SaveFileError(f"{exc}; to replay it with the changed rules as far as its "
                            f"decisions stay legal: {command}") from None


def replay_as_far_as_legal(game: Game, saved: SavedGame, where: str) -> tuple[State, str]:
    """The saved game replayed under a changed ruleset up to its first decision that is
    no longer legal (the save's decisions are cut there), and what to tell the player.
    The decision is named by number and seat, never by what was chosen (a secret)."""
    state = game.new_state(saved.players, saved.seed)
    total = len(saved.decisions)
    for number, (seat, notation) in enumerate(saved.decisions, start=1):
        try:
            game.apply_in_place(state, seat, notation)
        except IllegalMove:
            del saved.decisions[number - 1:]
            return state, (f"The ruleset changed since {where} was saved. Decision "
                           f"{number} of {total} ({game.seat_name(seat)}) is not legal under "
                           f"the changed rules, so the game continues after decision "
                           f"{number - 1}; the later decisions are dropped.")
    return state, (f"The ruleset changed since {where} was saved; all {total} decisions "
                   "are still legal under the changed rules.")


def _replayed_path(path: Path) -> Path:
    """Where a forced replay is saved, so the original save stays as it was."""
    return path.with_name(f"{path.stem}.replayed.json")


def _load_saved_game(saved: SavedGame, where: str) -> LoadedRuleset:
    """The bundled ruleset a save names. The name is never used as a path (a save could
    name any file); a game played from a file needs that file named on the command line."""
    if saved.game not in bundled_names():
        raise SaveFileError(f"{where} is a game of '{saved.game}', which is not a bundled "
                            f"game: name its ruleset file, e.g. `{runnable('play')} "
                            f"PATH/{saved.game}.yaml --load {where}`")
    return load(rulesets_dir() / f"{saved.game}.yaml")


def _compile_saved(loaded: LoadedRuleset, saved: SavedGame, where: str) -> Game:
    """The saved game compiled with its options and player count, or a SaveFileError
    naming the field that does not fit the ruleset."""
    try:
        game = compile_game(loaded, saved.options)
    except UsageError as exc:
        raise SaveFileError(f"{where} is damaged: field 'options': {exc}") from None
    try:
        game.check_players(saved.players)
    except UsageError as exc:
        raise SaveFileError(f"{where} is damaged: field 'players': {exc}") from None
    return game


def _complete(seats: dict[int, str], players: int) -> dict[int, str]:
    """A saved seat list, filled in (seat 1 a person, others random) where it is short."""
    return {s: seats.get(s, HUMAN if s == 1 else "random") for s in range(1, players + 1)}
