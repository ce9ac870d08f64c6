"""Command-line parameters shared by play, run and simulate, declared once."""

from __future__ import annotations

import re
from typing import Annotated

import typer

from interpreter.simulate.record import MAX_SEED_DIGITS

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
    "--agent", "-a", metavar="NAME[:K=V,...]",
    help="Computer player for every seat: random (a kind of option at random, then one "
         "option of that kind), uniform (every legal option equally likely), mcts (UCT "
         "search; sees hidden cards, not future dice) or ismcts (searches only what its "
         "seat may know: for games with secrets). mcts and ismcts take settings, e.g. "
         "mcts:playouts=400 (the default), mcts:seconds=1 (per decision; not "
         "reproducible), depth=20 (decisions a playout plays before judging the position "
         "by the game's ranking; 0: to the end), c=0.7 (exploration), groups=40 (a "
         "decision with more than 40 options is searched by the option's first value, "
         "e.g. the piece, then the rest; default 0: off), judge=score (judge a playout's "
         "new position at once by score margins, after its mover's follow-up decisions, "
         "instead of judge=play: playing on at random; lead=3: the margin worth 0.88 of a "
         "win), workers=2 (one search in 2 processes, each its share of the playouts; "
         "the same seed gives the same choices). A ruleset's computer_players may set "
         "these for its game; --agent wins.")]

JsonOpt = Annotated[bool, typer.Option(
    "--json", metavar="", help="Print one JSON object for tools.")]

BackendOpt = Annotated[str, typer.Option(
    "--backend", metavar="local|ray",
    help="Where the games are played: local (this machine, --jobs processes) or ray (a "
         "Ray cluster at --address, else a Ray instance started here for the run; needs "
         "tabletop[ray]). The same seeds give the same results on either.")]

AddressOpt = Annotated[str | None, typer.Option(
    "--address", metavar="HOST:PORT",
    help="With --backend ray: the Ray cluster's head node, as `ray start --head` prints "
         "it (or auto: the cluster started on this machine).", show_default=False)]


_SEED = re.compile(rf"[+-]?[0-9]{{1,{MAX_SEED_DIGITS}}}")


def parse_seed(text: str) -> int:
    """A --seed value: a whole number (either sign, at most 100 digits; each is hashed
    into the generator's state, so any is as good as another), else a clear usage error;
    not Python's int(), which also takes `1_000` and fails past 4,300 digits."""
    if isinstance(text, int):  # a default value, already a number
        return text
    stripped = text.strip()
    if not _SEED.fullmatch(stripped):
        shown = stripped if len(stripped) <= 24 else stripped[:20] + "…"
        raise typer.BadParameter(f"a seed is a whole number of at most {MAX_SEED_DIGITS} "
                                 f"digits, e.g. 42, not '{shown}'")
    return int(stripped)
