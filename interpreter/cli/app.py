"""The `tabletop` command: one Typer app, with every user error turned into a message.

Commands live in small modules (info, play_command, batch); this module wires them up
and makes sure no user ever sees a traceback: a TabletopError is printed to stderr and
exits 1, anything else is reported as an internal error (a bug) and exits 1 too.
Set TABLETOP_DEBUG=1 to get the traceback of an internal error.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import sys
from enum import StrEnum
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from interpreter.cli import (
    analyze_command,
    batch,
    compile_command,
    info,
    parts_command,
    play_command,
)
from interpreter.errors import RuleError, RulesetError, TabletopError, UsageError
from interpreter.serve import command as serve_command


def error_text(exc: TabletopError) -> str:
    """How an error reads on stderr: located ruleset errors as they are, others prefixed."""
    if isinstance(exc, RulesetError) or (isinstance(exc, RuleError) and exc.trace):
        return str(exc)
    return f"error: {exc}"


def report(exc: TabletopError) -> None:
    _say(error_text(exc))


def _say(text: str) -> None:
    """A message on stderr, unless stderr cannot take it either (then exit 1 says it)."""
    with contextlib.suppress(OSError):
        typer.echo(text, err=True)


OUTPUT_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
"""What writing the output can run into (`tabletop list > /dev/full`): the user's to fix,
not a bug. Files that commands write report their own errors."""


def output_failed(exc: OSError) -> bool:
    return exc.errno in OUTPUT_ERRORS


def flush_stdout() -> None:
    """Push buffered output out now, inside the command, so a full disk is reported like
    any other problem rather than at interpreter exit."""
    if sys.stdout is not None:
        sys.stdout.flush()


def _quiet_stdout() -> None:
    """After a failed write, point stdout at /dev/null so the interpreter's own flush at
    exit cannot fail again (Python would print an "Exception ignored" message)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


class _Group(TyperGroup):
    """Runs a command and turns user errors into one clear message and exit code 1."""

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            result = super().invoke(ctx)
            flush_stdout()
            return result
        except TabletopError as exc:
            report(exc)
            raise typer.Exit(1) from None
        except (typer.Exit, typer.Abort, typer.TyperException, KeyboardInterrupt, EOFError,
                BrokenPipeError):
            raise  # Typer's own (usage errors, --help, exits, a closed pipe), the user's keys
        except OSError as exc:
            if exc.errno == errno.ENAMETOOLONG:  # a path argument longer than the OS takes
                name = str(exc.filename or "")
                shown = name if len(name) <= 60 else name[:57] + "..."
                _say(f"error: a file name is too long: {shown}")
                raise typer.Exit(1) from None
            if not output_failed(exc):
                return self._internal(exc)
            _quiet_stdout()
            _say(f"error: cannot write the output: {exc.strerror or exc}")
            raise typer.Exit(1) from None
        except Exception as exc:
            return self._internal(exc)

    @staticmethod
    def _internal(exc: Exception) -> Any:
        """A bug: one message (the traceback with TABLETOP_DEBUG=1), exit 1."""
        if os.environ.get("TABLETOP_DEBUG"):
            raise exc
        _say(f"internal error: {type(exc).__name__}: {exc}\n"
             "This is a bug in tabletop; run again with TABLETOP_DEBUG=1 to see "
             "where it happened, and please report it.")
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
app.command("parts")(parts_command.parts)
app.command("play")(play_command.play)
app.command("run")(batch.run)
app.command("simulate")(batch.simulate)
app.command("analyze")(analyze_command.analyze)
app.command("test")(batch.test)
app.command("compile")(compile_command.compile_source)
app.command("serve")(serve_command.serve)


class Paper(StrEnum):
    """Paper sizes of the printable pages and PDFs."""

    a4 = "a4"
    letter = "letter"


SITE_OUT = Path("generated_docs")
"""Where the bundled games' rulebooks (the project's site) go."""
BOOKS_OUT = Path("rulebooks")
"""Where named rulesets' rulebooks go, away from the site so building one game's book
never rewrites (or, as a folder of other games, prunes) the site."""


@app.command("docs")
def docs(
    targets: Annotated[list[str] | None, typer.Argument(
        metavar="GAME|PATH", help="Only these rulesets' rulebooks (your own game's "
        "file, say, with its NAME.tests.yaml beside it); none: every bundled game.",
        show_default=False)] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="DIR", help="Where the rulebooks go [default: generated_docs, or "
        "rulebooks when rulesets are named].", show_default=False)] = None,
    check: Annotated[bool, typer.Option(
        "--check", help="Write nothing; exit 1 when the rulebooks are stale.")] = False,
    templates: Annotated[Path | None, typer.Option(
        "--templates", metavar="DIR", help="Your own Jinja templates, used before the "
        "built-in ones (same file names).", show_default=False)] = None,
    pdf: Annotated[Path | None, typer.Option(
        "--pdf", metavar="DIR", help="Also build one printable PDF per game there.",
        show_default=False)] = None,
    paper: Annotated[Paper, typer.Option(
        "--paper", case_sensitive=False, help="Paper size of the printable pages and "
        "PDFs.")] = Paper.a4,
) -> None:
    """Write the rulebooks (Markdown, SVG diagrams, printable HTML) from the rulesets.

    The same YAML that the interpreter runs makes the rulebook, so the two cannot
    drift: `--check` (run by the tests) fails when generated_docs/ is out of date.
    Publish the site with `mkdocs build`. Name rulesets (`tabletop docs my-game.yaml
    --pdf pdfs`) to build only their rulebooks, into rulebooks/ unless `--out` says.
    """
    from interpreter.docs.cli import docs_command
    from interpreter.load.catalog import find_ruleset

    paths: list[Path] | None = None
    if targets:
        found: dict[Path, Path] = {}
        for target in targets:
            path = find_ruleset(target)
            found.setdefault(path.resolve(), path)  # each file once, in the order named
        paths = list(found.values())
    out = out if out is not None else BOOKS_OUT if paths else SITE_OUT
    for flag, folder in (("--out", out), ("--pdf", pdf)):
        if folder is not None and folder.exists() and not folder.is_dir():
            raise UsageError(f"{flag} {folder} is a file; the rulebooks go into a folder")
    made = not check and not out.exists()
    if not check:
        try:  # fail now, not after building every rulebook
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot write the rulebooks to {out}: "
                             f"{exc.strerror or exc}") from None
    code = 1
    try:
        code = docs_command(out=out, check=check, templates=templates, pdf=pdf,
                            paths=paths, paper=paper.value,
                            again=_docs_again(targets or [], out))
    except OSError as exc:
        if output_failed(exc) and exc.filename is None:
            raise  # stdout itself: reported by the group
        where = exc.filename or out
        raise UsageError(f"cannot write the rulebooks to {out} ({where}: "
                         f"{exc.strerror or exc})") from None
    finally:
        if made and code:  # a ruleset with errors leaves no empty folder behind
            with contextlib.suppress(OSError):
                out.rmdir()
    if code:
        raise typer.Exit(code)


def _docs_again(targets: list[str], out: Path) -> str:
    """The command that brings stale rulebooks up to date, for `--check` to suggest."""
    words = ["tabletop", "docs", *targets]
    if out != (BOOKS_OUT if targets else SITE_OUT):
        words += ["--out", str(out)]
    return shlex.join(words)


def _tolerant_streams() -> None:
    """A terminal that cannot show some character (an ASCII-only locale) gets `?` for it
    instead of a crash: names and notes may hold any character."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]


def main() -> None:
    """Console-script entry point."""
    _tolerant_streams()
    try:
        app(prog_name="tabletop")
    except SystemExit as exc:
        # A usage error (unknown option, bad value) exits 2 by Click's convention; here
        # every bad input exits 1, as tools driving tabletop expect.
        sys.exit(_flushed(1 if exc.code == 2 else exc.code))
    except KeyboardInterrupt:
        _say("\ninterrupted")
        sys.exit(130)
    except TabletopError as exc:  # raised outside a command (should not happen)
        report(exc)
        sys.exit(1)
    except OSError as exc:  # writing --help or a usage message to a full disk
        if not output_failed(exc):
            raise
        _quiet_stdout()
        _say(f"error: cannot write the output: {exc.strerror or exc}")
        sys.exit(1)


def _flushed(code: Any) -> Any:
    """The exit code, once stdout is flushed: 1 (with a message) when that fails."""
    try:
        flush_stdout()
    except OSError as exc:
        _quiet_stdout()
        if isinstance(exc, BrokenPipeError):
            return code
        _say(f"error: cannot write the output: {exc.strerror or exc}")
        return 1
    return code


if __name__ == "__main__":
    main()
