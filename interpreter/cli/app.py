"""The `tabletop` command: one Typer app, with every user error turned into a message.

Commands live in small modules (info, play_command, batch); this module wires them up
and makes sure no user ever sees a traceback: a TabletopError is printed to stderr and
exits 1, anything else is reported as an internal error (a bug) and exits 1 too.
Set TABLETOP_DEBUG=1 to get the traceback of an internal error.
"""

from __future__ import annotations

import os
import sys
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from interpreter.cli import batch, info, play_command
from interpreter.errors import RuleError, RulesetError, TabletopError


def error_text(exc: TabletopError) -> str:
    """How an error reads on stderr: located ruleset errors as they are, others prefixed."""
    if isinstance(exc, RulesetError) or (isinstance(exc, RuleError) and exc.trace):
        return str(exc)
    return f"error: {exc}"


def report(exc: TabletopError) -> None:
    typer.echo(error_text(exc), err=True)


class _Group(TyperGroup):
    """Runs a command and turns user errors into one clear message and exit code 1."""

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except TabletopError as exc:
            report(exc)
            raise typer.Exit(1) from None
        except (typer.Exit, typer.Abort, typer.TyperException, KeyboardInterrupt, EOFError,
                BrokenPipeError):
            raise  # Typer's own (usage errors, --help, exits, a closed pipe), the user's keys
        except Exception as exc:
            if os.environ.get("TABLETOP_DEBUG"):
                raise
            typer.echo(f"internal error: {type(exc).__name__}: {exc}\n"
                       "This is a bug in tabletop; run again with TABLETOP_DEBUG=1 to see "
                       "where it happened, and please report it.", err=True)
            raise typer.Exit(1) from None


app = typer.Typer(
    cls=_Group,
    name="tabletop",
    help="Play, check and simulate tabletop games described in YAML rulesets.\n\n"
         "GAME is a bundled game's name (see `tabletop list`) or the path of a ruleset "
         "file. Seats are numbered from 1.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        try:
            version = metadata.version("tabletop")
        except metadata.PackageNotFoundError:
            version = "unknown"
        typer.echo(f"tabletop {version}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, metavar="",
        help="Show the version and exit.")] = False,
) -> None:
    """Play, check and simulate tabletop games described in YAML rulesets.

    GAME is a bundled game's name (see `tabletop list`) or the path of a ruleset file.
    Seats are numbered from 1.
    """


app.command("list")(info.list_games)
app.command("validate")(info.validate)
app.command("schema")(info.schema)
app.command("play")(play_command.play)
app.command("run")(batch.run)
app.command("simulate")(batch.simulate)
app.command("test")(batch.test)


@app.command("docs")
def docs(
    out: Annotated[Path, typer.Option("--out", metavar="DIR",
                                      help="Where the rulebooks go.")] = Path("generated_docs"),
    check: Annotated[bool, typer.Option(
        "--check", help="Write nothing; exit 1 when the rulebooks are stale.")] = False,
    templates: Annotated[Path | None, typer.Option(
        "--templates", metavar="DIR", help="Your own Jinja templates, used before the "
        "built-in ones (same file names).", show_default=False)] = None,
    pdf: Annotated[Path | None, typer.Option(
        "--pdf", metavar="DIR", help="Also build one printable PDF per game there.",
        show_default=False)] = None,
) -> None:
    """Write the rulebooks (Markdown, SVG diagrams, printable HTML) from the rulesets.

    The same YAML that the interpreter runs makes the rulebook, so the two cannot
    drift: `--check` (run by the tests) fails when generated_docs/ is out of date.
    Publish the site with `mkdocs build`.
    """
    from interpreter.docs.cli import docs_command

    code = docs_command(out=out, check=check, templates=templates, pdf=pdf)
    if code:
        raise typer.Exit(code)


def main() -> None:
    """Console-script entry point."""
    try:
        app(prog_name="tabletop")
    except SystemExit as exc:
        # A usage error (unknown option, bad value) exits 2 by Click's convention; here
        # every bad input exits 1, as tools driving tabletop expect.
        if exc.code == 2:
            sys.exit(1)
        raise
    except KeyboardInterrupt:
        typer.echo("\ninterrupted", err=True)
        sys.exit(130)
    except TabletopError as exc:  # raised outside a command (should not happen)
        report(exc)
        sys.exit(1)


if __name__ == "__main__":
    main()
