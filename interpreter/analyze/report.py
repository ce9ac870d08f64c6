"""The HTML balance report: one self-contained static page (no scripts, no network).

The page is rendered by a Jinja2 template (`templates/analyze.html.j2`, autoescaped:
reasons and labels come from the ruleset's text) from the JSON report, with the charts
inlined as SVG. It is written next to its final name and moved into place, so a report
being replaced is never left half written.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from interpreter.analyze.charts import group_charts
from interpreter.analyze.summary import ALPHA, group_rows, headlines
from interpreter.errors import UsageError
from interpreter.load.catalog import shorten

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def render_html(report: dict[str, Any], command: str) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    groups = []
    for number, group in enumerate(report["groups"]):
        runs = [report["configurations"][i] for i in group["configurations"]]
        groups.append({
            "label": group["label"],
            "id": f"group-{number + 1}",
            "columns": [_column(report, run["variant"]) for run in runs],
            "rows": group_rows(report, group),
            "charts": [(title, Markup(svg))  # matplotlib's own SVG, not the ruleset's
                       for title, svg in group_charts(report, group, number)],
            "errors": [(run["variant"], e) for run in runs for e in run["error_examples"]],
        })
    return env.get_template("analyze.html.j2").render(
        report=report, groups=groups, headlines=headlines(report), command=command,
        alpha=ALPHA)


def _column(report: dict[str, Any], key: str) -> str:
    label = next(v["label"] for v in report["variants"] if v["key"] == key)
    return f"{key}: {label}" if len(report["variants"]) > 1 else label


def check_writable(path: Path) -> None:
    """Fail now, before any game is played, when the report could not be written."""
    shown = shorten(str(path))
    if path.is_dir():
        raise UsageError(f"--html {shown} is a folder; give the report's file name")
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise UsageError(f"--html {shown}: {shorten(str(folder))} {what}")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists()
                                                    and not os.access(path, os.W_OK)):
        raise UsageError(f"--html {shown}: cannot write there (permission denied)")


def write_html(path: Path, text: str) -> None:
    """Write the report atomically; a failure is the user's to fix (a full disk)."""
    try:
        fd, temporary = tempfile.mkstemp(prefix=".tabletop-report-", suffix=".html",
                                         dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.chmod(temporary, 0o666 & ~_umask())  # as open() would make it
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise UsageError(f"cannot write the report {shorten(str(path))}: "
                         f"{exc.strerror or exc}") from None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
