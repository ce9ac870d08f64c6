"""`tabletop compile GAME`: the Python source the rules were compiled to, for a designer
who wants to see what runs (and a reviewer who wants to check it is only the rules)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.syntax import Syntax

from interpreter.api import load_game
from interpreter.cli.options import parse_options
from interpreter.cli.params import GameArg, OptionsOpt
from interpreter.errors import UsageError


def compile_source(
    game_ref: GameArg,
    option: OptionsOpt = None,
    find: Annotated[str | None, typer.Option(
        "--find", metavar="TEXT", help="Only the functions whose expression contains TEXT.",
        show_default=False)] = None,
    plain: Annotated[bool, typer.Option(
        "--plain", help="No colours (also when the output is not a terminal).")] = False,
) -> None:
    """Show the Python source generated from a ruleset's expressions and option lists.

    Each expression, definition and option list of the ruleset is compiled to one
    Python function (only generated names and quoted values from the checked rules go
    into it; the ruleset's text is never run). Above each function, a comment gives the
    expression it came from. When the generated code meets a value it does not expect,
    the careful interpreter takes over, with the same messages.
    """
    game = load_game(game_ref, parse_options(option or []))
    found = [c for c in game.generated_code if find is None or find in c.what]
    if not found:
        raise UsageError(f"no generated function's expression contains {find!r}"
                         if find is not None else "this ruleset has no generated code")
    parts = []
    for c in found:
        what = " ".join(c.what.split())
        legend = "".join(f"#   {k}: {v}\n" for k, v in c.legend.items())
        parts.append(f"# {what}\n{legend}{c.source}")
    text = "\n".join(parts)
    console = Console(no_color=plain, highlight=False)
    if plain or not console.is_terminal:
        typer.echo(text, nl=False)
    else:
        console.print(Syntax(text, "python", theme="ansi_dark", word_wrap=True))
