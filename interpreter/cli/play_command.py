"""`tabletop play`: set up (or load) a game, then hand it to the interactive loop."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from interpreter.agents import make_agent
from interpreter.agents.base import Agent
from interpreter.api import load
from interpreter.cli.options import HUMAN, describe_seats, parse_options, parse_seats
from interpreter.cli.params import OptionsOpt, PlayersOpt
from interpreter.cli.play import PlaySession
from interpreter.compile.game import compile_game
from interpreter.errors import UsageError
from interpreter.load.loader import LoadedRuleset
from interpreter.run.playout import agent_seed
from interpreter.run.record import SavedGame, check_ruleset, read_save, replay


def build_agents(seats: dict[int, str], seed: int) -> dict[int, Agent]:
    """A computer player for every seat that is not a person, seeded per seat."""
    return {s: make_agent(kind, agent_seed(seed, s)) for s, kind in seats.items()
            if kind != HUMAN}


def play(
    game_ref: Annotated[str | None, typer.Argument(
        metavar="GAME", help="A bundled game's name or a ruleset file (may be left out "
        "with --load).", show_default=False)] = None,
    players: PlayersOpt = None,
    option: OptionsOpt = None,
    seat: Annotated[list[str] | None, typer.Option(
        "--seat", "-s", metavar="N=KIND",
        help="Who plays seat N: human or random (repeatable). Default: seat 1 is you, "
             "the others play at random.", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", metavar="S", help="Random seed (default: a fresh one, printed at the "
        "start).", show_default=False)] = None,
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="FILE", help="Save the game to FILE after every decision.",
        dir_okay=False, show_default=False)] = None,
    load_from: Annotated[Path | None, typer.Option(
        "--load", metavar="FILE", help="Continue a saved game (and keep saving to FILE "
        "unless --save names another file).", dir_okay=False, show_default=False)] = None,
) -> None:
    """Play a game at this terminal against computer players (or with friends).

    On your turn the board is drawn, with what the other players did since your last
    move, and the legal options are listed. Type an option's number or its notation;
    `help` shows the commands and the game's rulings, `quit` stops. With --save (or
    --load) nothing is lost when you stop: continue later with `--load FILE`.
    """
    console = Console()
    interactive = sys.stdin.isatty()
    if load_from is not None:
        if players is not None or option or seed is not None:
            raise UsageError("--players, --option and --seed come from the saved game; "
                             "leave them out with --load")
        saved = read_save(load_from)
        loaded = load(game_ref) if game_ref is not None else _load_saved_game(saved, load_from)
        check_ruleset(saved, loaded, str(load_from))
        game = compile_game(loaded, saved.options)
        n = game.check_players(saved.players)
        seats = parse_seats(seat or [], n, defaults=_complete(saved.seats, n))
        saved.seats = seats
        state = replay(game, saved, str(load_from))
        agents = build_agents(seats, saved.seed + len(saved.decisions))
        save_path = save if save is not None else load_from
        record = saved
        intro = (f"{game.title}: continuing {load_from} after {len(saved.decisions)} "
                 f"decisions; seats {describe_seats(seats)}.")
    else:
        if game_ref is None:
            raise UsageError("name the game to play (see `tabletop list`), or give --load FILE")
        loaded = load(game_ref)
        game = compile_game(loaded, parse_options(option or []))
        n = game.check_players(players)
        seats = parse_seats(seat or [], n)
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        state = game.new_state(n, seed)
        agents = build_agents(seats, seed)
        save_path = save
        record = SavedGame.start(game, n, seed, seats)
        intro = f"{game.title}: {n} players ({describe_seats(seats)}), seed {seed}."
    console.print(Text(intro + " Type `help` for the commands."), soft_wrap=True)
    session = PlaySession(game, state, seats, agents, record, console,
                          ask=lambda prompt: console.input(Text(prompt)),
                          save_path=save_path, interactive=interactive,
                          colour=console.color_system is not None)
    code = session.run()
    if code:
        raise typer.Exit(code)


def _load_saved_game(saved: SavedGame, where: Path) -> LoadedRuleset:
    """The bundled ruleset a save names; a game played from a file needs that file."""
    try:
        return load(saved.game)
    except UsageError:
        raise UsageError(f"{where} is a game of '{saved.game}', which is not a bundled game: "
                         f"name its ruleset file, e.g. `tabletop play PATH/{saved.game}.yaml "
                         f"--load {where}`") from None


def _complete(seats: dict[int, str], players: int) -> dict[int, str]:
    """A saved seat list, filled in (seat 1 a person, others random) where it is short."""
    return {s: seats.get(s, HUMAN if s == 1 else "random") for s in range(1, players + 1)}
