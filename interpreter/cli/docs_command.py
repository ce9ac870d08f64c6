"""`tabletop docs`: the rulebooks, written from the rulesets."""

from __future__ import annotations

import contextlib
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from interpreter.errors import UsageError
from interpreter.invoked import runnable


class Paper(StrEnum):
    """Paper sizes of the printable pages and PDFs."""

    a4 = "a4"
    letter = "letter"


SITE_OUT = Path("generated_docs")
"""Where the bundled games' rulebooks (the project's site) go."""
BOOKS_OUT = Path("rulebooks")
"""Where named rulesets' rulebooks go, away from the site so building one game's book
never rewrites (or, as a folder of other games, prunes) the site."""


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
        from interpreter.cli.app import output_failed

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
    words = ["docs", *targets]
    if out != (BOOKS_OUT if targets else SITE_OUT):
        words += ["--out", str(out)]
    return runnable(*words)
