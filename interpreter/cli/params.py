"""Command-line parameters shared by play, run and simulate, declared once."""

from __future__ import annotations

from typing import Annotated

import typer

GameArg = Annotated[str, typer.Argument(
    metavar="GAME", help="A bundled game's name (see `tabletop list`) or a ruleset file.",
    show_default=False)]

PlayersOpt = Annotated[int | None, typer.Option(
    "--players", "-p", metavar="N",
    help="Number of players (default: the game's minimum).", show_default=False)]

OptionsOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="KEY=VALUE",
    help="Set a game option (repeatable), e.g. --option power_play=false. "
         "`tabletop list` shows each game's options.", show_default=False)]

AgentOpt = Annotated[str, typer.Option(
    "--agent", "-a", metavar="NAME", help="Computer player for every seat.")]

JsonOpt = Annotated[bool, typer.Option(
    "--json", metavar="", help="Print one JSON object for tools.")]
