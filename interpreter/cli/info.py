"""Commands about rulesets rather than games: `list`, `validate`, `schema`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from interpreter.api import load
from interpreter.compile.game import compile_game
from interpreter.errors import RulesetError, TabletopError, UsageError
from interpreter.load.catalog import TESTS_SUFFIX, bundled_names, rulesets_dir
from interpreter.load.schema import OptionDecl, json_schema_text


def _option_info(o: OptionDecl) -> dict[str, Any]:
    out: dict[str, Any] = {"id": o.id, "label": o.label, "type": o.type,
                           "default": o.default, "description": " ".join(o.description.split())}
    if o.choices is not None:
        out["choices"] = o.choices
    if o.min is not None:
        out["min"] = o.min
    if o.max is not None:
        out["max"] = o.max
    return out


def game_entries() -> list[dict[str, Any]]:
    """Facts about every bundled game; a ruleset that does not load is listed with its
    error instead of stopping the listing."""
    entries = []
    for name in bundled_names():
        try:
            loaded = load(name)
        except TabletopError as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            entries.append({"name": name, "error": first})
            continue
        model = loaded.model
        g = model.game
        entry: dict[str, Any] = {
            "name": name,
            "title": g.title,
            "designer": g.designer,
            "seats": {"min": g.seats.min, "max": g.seats.max},
            "summary": " ".join(g.summary.split()),
            "status": g.status,
            "group": g.group,
            "options": [_option_info(o) for o in model.options],
        }
        if loaded.variant is not None:
            entry["extends"] = loaded.variant.base_name
        entries.append(entry)
    by_name = {e["name"]: e for e in entries}
    for e in entries:
        base = by_name.get(e.get("extends", ""))
        if base is not None:
            base.setdefault("variants", []).append(e["name"])
    return _variants_after_their_base(entries)


def _variants_after_their_base(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Games in name order, each followed by its variants (and theirs); games without a
    group first, then each group's games (`game.group`, groups in name order). A variant
    stays under its base, whatever its own group."""
    by_name = {e["name"]: e for e in entries}
    shelves: dict[str, list[dict[str, Any]]] = {}

    def place(e: dict[str, Any], shelf: list[dict[str, Any]]) -> None:
        shelf.append(e)
        for v in e.get("variants", []):
            place(by_name[v], shelf)
    for e in entries:
        if e.get("extends") not in by_name:
            place(e, shelves.setdefault(e.get("group") or "", []))
    return [e for group in sorted(shelves) for e in shelves[group]]


def _option_text(o: dict[str, Any]) -> Text:
    kind = o["type"]
    if kind == "choice":
        kind = "one of " + ", ".join(o.get("choices") or [])
    elif kind == "int" and ("min" in o or "max" in o):
        kind = f"int {o.get('min', '')}–{o.get('max', '')}"
    default = o["default"]
    if isinstance(default, bool):
        default = "true" if default else "false"
    return Text.assemble((o["id"], "bold"), f" ({kind}, default {default}): ",
                         o["description"])


def list_games(
    json_out: Annotated[bool, typer.Option(
        "--json", metavar="", help="Print the list as JSON.")] = False,
) -> None:
    """List the bundled games and their variants, with player counts and options.

    Options are set with `--option KEY=VALUE` on play, run and simulate.
    """
    entries = game_entries()
    if json_out:
        typer.echo(json.dumps(entries, indent=2))
        return
    console = Console()
    if not entries:
        console.print(Text(f"No games found in {rulesets_dir()}."))
        return
    tables: list[Table] = []
    shelf: str | None = None
    for e in entries:
        if not tables or (e.get("group") != shelf and "extends" not in e):
            shelf = e.get("group")
            tables.append(_games_table(shelf or "Bundled games"))
        table = tables[-1]
        if "error" in e:
            table.add_row(Text(e["name"], style="bold"), "", Text(
                f"does not load: {e['error']} (run `tabletop validate {e['name']}`)",
                style="red"), "")
            continue
        seats = e["seats"]
        seat_text = (str(seats["min"]) if seats["min"] == seats["max"]
                     else f"{seats['min']}–{seats['max']}")
        options = (Text("\n").join(_option_text(o) for o in e["options"]) if e["options"]
                   else Text("none", style="dim"))
        summary = Text(e["summary"])
        name = Text.assemble((e["name"], "bold"), "\n", (e["title"], "dim"))
        if "extends" in e:
            name = Text.assemble("↳ ", name)
            summary = Text.assemble((f"A variant of {e['extends']}. ", "italic"), summary)
        if e.get("variants"):
            summary.append(f"\nVariants: {', '.join(e['variants'])}", style="dim")
        table.add_row(name, seat_text, summary, options)
    for table in tables:
        console.print(table)


def _games_table(title: str) -> Table:
    table = Table(title=title, show_lines=True, title_justify="left")
    table.add_column("Game", no_wrap=True)
    table.add_column("Seats", justify="center", no_wrap=True)
    table.add_column("Summary", ratio=2)
    table.add_column("Options", ratio=3)
    return table


def validate(
    targets: Annotated[list[str], typer.Argument(
        metavar="PATH|GAME...", help="Ruleset files or bundled game names to check.",
        show_default=False)],
) -> None:
    """Check rulesets: load and compile each one with its default options.

    Prints `ok: PATH` for each valid ruleset. Scenario-test files (`*.tests.yaml`) are
    checked as such: their ruleset, pieces, places and expectations. Problems are
    printed to stderr as
    `PATH:LINE:COL: error: ...` with the offending line; every file is checked, and the
    exit code is 1 when any of them has a problem.
    """
    failed = 0
    for target in targets:
        try:
            if target.endswith(TESTS_SUFFIX):
                from interpreter.scenarios.runner import load_scenario_file

                load_scenario_file(Path(target))
                typer.echo(f"ok: {target} (scenario tests)")
                continue
            loaded = load(target)
            compile_game(loaded, {})
        except RulesetError as exc:
            failed += 1
            typer.echo(str(exc), err=True)
            continue
        except TabletopError as exc:
            failed += 1
            typer.echo(f"error: {exc}", err=True)
            continue
        typer.echo(f"ok: {loaded.path}")
    if failed:
        if len(targets) > 1:
            typer.echo(f"{failed} of {len(targets)} files have problems", err=True)
        raise typer.Exit(1)


def schema(
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar="FILE", help="Write the schema to FILE instead of stdout.",
        dir_okay=False, show_default=False)] = None,
) -> None:
    """Print the JSON Schema of the ruleset language, for editors.

    Point yaml-language-server at it with a first line like
    `# yaml-language-server: $schema=tabletop.schema.json` to get completion and
    checking while writing a ruleset.
    """
    text = json_schema_text()
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
    typer.echo(f"wrote {out}", err=True)
