"""`tabletop parts GAME [ADDRESS] [--yaml]`: every part a variant can address.

A variant names what it changes by address (`replace: {cap_move: ...}`); this command
lists the addresses of a game with one line of English each, and prints one part's YAML
as a variant writes it. The addresses come from interpreter.load.parts, which the merge
of a variant uses too, so what is listed is exactly what a variant can name.
"""

from __future__ import annotations

import io
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text
from ruamel.yaml import YAML

from interpreter.api import load
from interpreter.assemble.game import compile_game
from interpreter.assemble.part_words import PartWords
from interpreter.errors import UsageError, did_you_mean
from interpreter.invoked import runnable
from interpreter.load.parts import Addresses, Part


def parts(
    game: Annotated[str, typer.Argument(
        metavar="GAME", help="A bundled game's name or a ruleset file (a variant too).",
        show_default=False)],
    address: Annotated[str | None, typer.Argument(
        metavar="[ADDRESS]", help="Only this part (as listed without ADDRESS).",
        show_default=False)] = None,
    as_yaml: Annotated[bool, typer.Option(
        "--yaml", help="Print the part's YAML, as a variant writes it under "
        "`replace: {ADDRESS: ...}`.")] = False,
) -> None:
    """List every part of a game that a variant can change, with its English.

    Each line is an address, then what the part says. A variant file names parts by
    these addresses: `replace: {ADDRESS: YAML}`, `remove: [ADDRESS]`,
    `insert: [{after: ADDRESS, items: [...]}]` and `change: {ADDRESS: {field: value}}`.
    With ADDRESS, only that part is shown; with --yaml, its YAML (replacing the part
    with it gives the same game).
    """
    loaded = load(game)
    found = Addresses(loaded.tree)
    chosen = found.parts
    if address is not None:
        part = found.find(address)
        if part is None:
            hint = did_you_mean(address, found.names())
            raise UsageError(f"{game} has no part '{address}'" + (f"; {hint}" if hint else "")
                             + f" (`{runnable('parts', game)}` lists them)")
        chosen = [part]
    elif as_yaml:
        raise UsageError("--yaml prints one part: give its ADDRESS, e.g. "
                         f"`{runnable('parts', game, found.parts[-1].address, '--yaml')}`")
    if as_yaml:
        typer.echo(part_yaml(chosen[0]), nl=False)
        return
    words = PartWords(compile_game(loaded, {}))
    console = Console(soft_wrap=True)
    width = max(len(p.address) for p in chosen) if chosen else 0
    for p in chosen:
        if address is None:
            line = Text.assemble((p.address.ljust(min(width, 40)), "bold"), "  ", words.say(p))
            console.print(line)
            continue
        console.print(Text.assemble((p.address, "bold"), (f"  ({p.kind})", "dim")))
        for said in words.lines(p):
            console.print(Text("  " + said))


def plain(node: Any) -> Any:
    """A located tree as plain data (for dumping)."""
    if isinstance(node, dict):
        return {plain(k): plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    if isinstance(node, str):
        return str(node)
    return node


def part_yaml(part: Part) -> str:
    """A part's YAML as a variant writes it: `replace: {ADDRESS: <this>}`."""
    yaml = YAML()
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 88
    out = io.StringIO()
    yaml.dump({"x": plain(part.node)}, out)
    text = out.getvalue().removeprefix("x:")
    if text.startswith(" "):  # a scalar on the key's line
        return text[1:]
    lines = text.splitlines(keepends=True)[1:]
    return "".join(line[2:] if line.startswith("  ") else line for line in lines)


__all__ = ["part_yaml", "parts"]
