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
import sys
from difflib import get_close_matches
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup
from typer.main import get_command_from_info
from typer.models import CommandInfo

from interpreter.cli.commands import COMMANDS
from interpreter.errors import RuleError, RulesetError, TabletopError


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
    """Runs a command and turns user errors into one clear message and exit code 1.

    Commands are made from their modules (interpreter.cli.commands) only when they run
    or show their own help: the list of commands in `tabletop --help` comes from their
    summaries, so starting tabletop does not import the engine."""

    _listing = False
    """True while the group's own help is written: commands are then only listed."""

    def list_commands(self, ctx: typer.Context) -> list[str]:
        return [*COMMANDS, *(name for name in super().list_commands(ctx)
                             if name not in COMMANDS)]

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        lazy = COMMANDS.get(cmd_name)
        if found is not None or lazy is None:
            return found
        if self._listing:
            return TyperCommand(cmd_name, help=lazy.summary)
        command = get_command_from_info(
            CommandInfo(name=cmd_name, callback=lazy.load()),
            pretty_exceptions_short=True, rich_markup_mode=self.rich_markup_mode)
        self.commands[cmd_name] = command
        return command

    def format_help(self, ctx: typer.Context, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def resolve_command(self, ctx: typer.Context, args: list[str]) -> Any:
        """As Typer's, suggesting the commands not yet made too (`tabletop lst`)."""
        names = self.list_commands(ctx)
        if args and args[0] not in names and not args[0].startswith("-"):
            near = get_close_matches(args[0], names)
            if near:
                ctx.fail(f"No such command {args[0]!r}. Did you mean "
                         + ", ".join(repr(m) for m in near) + "?")
        return super().resolve_command(ctx, args)

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
        from importlib import metadata

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
