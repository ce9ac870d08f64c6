"""`tabletop docs`: write the rulebooks, check that they are fresh, or build PDFs."""

from __future__ import annotations

import sys
from pathlib import Path

from interpreter.docs.build import build_pdfs, write_docs
from interpreter.errors import RulesetError, TabletopError


def docs_command(out: Path = Path("generated_docs"), check: bool = False,
                 templates: Path | None = None, pdf: Path | None = None,
                 paths: list[Path] | None = None, paper: str = "a4",
                 again: str = "tabletop docs") -> int:
    """Write the rulebooks into `out` (or with `check` only compare them); with `pdf`,
    also write one PDF per game into that folder; with `paths`, only those rulesets'
    rulebooks. `again` is the command that would bring stale rulebooks up to date.
    Returns the exit code: 1 when `check` finds stale, missing or extra files, or when
    something fails."""
    if templates is not None and not templates.is_dir():
        print(f"error: no such templates folder: {templates}", file=sys.stderr)
        return 1
    if pdf is not None:  # before the rulebooks are built (seconds), not after
        try:
            pdf.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"error: cannot write the PDFs to {pdf}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 1
    try:
        result = write_docs(out, check=check, templates=templates, paths=paths, paper=paper)
    except TabletopError as exc:
        print(_error_text(exc), file=sys.stderr)
        return 1
    for name, problem in result.skipped.items():
        print(f"skipped {name}: it does not load ({problem})", file=sys.stderr)
    code = 0
    if check:
        if result.fresh:
            print(f"{out}: the rulebooks are up to date")
        else:
            for what, files in (("stale", result.stale), ("missing", result.missing),
                                ("extra", result.extra)):
                for f in files:
                    print(f"{what}: {out / f}")
            print(f"{out}: the rulebooks are out of date; run: {again}", file=sys.stderr)
            code = 1
    else:
        changed = len(result.written) + len(result.extra)
        if changed:
            for f in result.written:
                print(f"wrote {out / f}")
            for f in result.extra:
                print(f"removed {out / f}")
        else:
            print(f"{out}: the rulebooks were already up to date")
    if pdf is not None:
        try:
            for path in build_pdfs(pdf, templates=templates, paper=paper, paths=paths):
                print(f"wrote {path}")
        except TabletopError as exc:
            print(_error_text(exc), file=sys.stderr)
            return 1
        except OSError as exc:
            print(f"error: cannot write the PDFs to {pdf}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 1
    return code


def _error_text(exc: TabletopError) -> str:
    """Located errors as they are (`FILE:LINE:COL: error: ...`), others prefixed."""
    text = str(exc)
    return text if isinstance(exc, RulesetError) else f"error: {text}"
