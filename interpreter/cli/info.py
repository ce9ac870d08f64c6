"""Commands about rulesets rather than games: `list`, `validate`, `schema`.

Kept light: `tabletop list` reads the catalog (each game's `game` facts and options,
cached) and never loads the engine; `validate` and `schema` import it when they run."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Annotated, Any

import typer

from interpreter.errors import RulesetError, TabletopError, UsageError
from interpreter.invoked import runnable
from interpreter.load.catalog import (
    TESTS_SUFFIX,
    bundled_catalog,
    catalog_entry,
    find_ruleset,
    rulesets_dir,
)

MIN_SUMMARY = 24
"""The narrowest a summary column gets before a narrow terminal's lines are cut anyway."""


def game_entries() -> list[dict[str, Any]]:
    """Facts about every bundled game, each base followed by its variants; a ruleset
    that does not read is listed with its error instead of stopping the listing."""
    entries = bundled_catalog()
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

    def place(e: dict[str, Any], shelf: list[dict[str, Any]], depth: int) -> None:
        e["depth"] = depth
        shelf.append(e)
        for v in e.get("variants", []):
            place(by_name[v], shelf, depth + 1)
    for e in entries:
        if e.get("extends") not in by_name:
            place(e, shelves.setdefault(e.get("group") or "", []), 0)
    return [e for group in sorted(shelves) for e in shelves[group]]


def _seats(e: dict[str, Any]) -> str:
    low, high = e["seats"]["min"], e["seats"]["max"]
    return str(low) if low == high else f"{low}–{high}"


def list_games(
    game: Annotated[str | None, typer.Argument(
        metavar="GAME", help="Show this game's options and variants (a bundled game's "
        "name or a ruleset file).", show_default=False)] = None,
    json_out: Annotated[bool, typer.Option(
        "--json", metavar="", help="Print the list (or the game's entry) as JSON.")] = False,
) -> None:
    """List the bundled games, one line each, their variants indented under them.

    Each line gives the game's name (what to type after play, run, simulate ...), its
    number of seats and its summary, on the shelf of its group (`game.group`, e.g.
    Classics). `tabletop list GAME` shows one game in full: its options, set with
    `--option KEY=VALUE` on play, run and simulate, and its variants.
    """
    entries = game_entries()
    if game is not None:
        _show_game(game, entries, json_out)
        return
    if json_out:
        shown = [{k: v for k, v in e.items() if k != "depth"} for e in entries]
        typer.echo(json.dumps(shown, indent=2))
        return
    typer.echo(_games_text(entries, _width()), nl=False)


def _width() -> int:
    """The terminal's width (COLUMNS when set), as the lines are cut to it."""
    import shutil

    return max(40, shutil.get_terminal_size((80, 24)).columns)


def _games_text(entries: list[dict[str, Any]], width: int) -> str:
    """One line per game, its variants indented under it, grouped by shelf."""
    if not entries:
        return f"No games found in {rulesets_dir()}.\n"
    names = max(len(e["name"]) + 2 * e["depth"] for e in entries)
    lines: list[str] = []
    shelf: str | None = None
    for e in entries:
        if not lines or (e.get("group") != shelf and "extends" not in e):
            shelf = e.get("group")
            lines += [*([""] if lines else []), shelf or "Bundled games"]
        name = "  " * e["depth"] + e["name"]
        if "error" in e:
            text = f"does not load (`{runnable('validate', e['name'])}` says why): {e['error']}"
            seats = ""
        else:
            text, seats = e["summary"], _seats(e)
        lines.append(_cut(f"  {name:<{names}}  {seats:>4}  {text}", width))
    lines += ["", *textwrap.wrap(f"The number is how many play. `{runnable('list', 'GAME')}` "
                                 "shows a game's options and variants.", width - 1)]
    return "\n".join(lines) + "\n"


def _cut(line: str, width: int) -> str:
    """A line cut to the terminal's width, ending with … when something was cut."""
    return line if len(line) <= width else line[:width - 1] + "…"


def _show_game(ref: str, entries: list[dict[str, Any]], json_out: bool) -> None:
    """One game in full: its facts, its options with their descriptions, its variants."""
    by_name = {e["name"]: e for e in entries}
    entry = by_name.get(ref)
    if entry is None:
        path = find_ruleset(ref)
        entry, _ = catalog_entry(path)
        entry["variants"] = [e["name"] for e in entries if e.get("extends") == entry["name"]]
    entry = {k: v for k, v in entry.items() if k != "depth"}
    if json_out:
        typer.echo(json.dumps(entry, indent=2))
        return
    if "error" in entry:
        raise UsageError(f"{entry['name']} does not load: {entry['error']} (run "
                         f"`{runnable('validate', ref)}`)")
    typer.echo(_game_text(entry, by_name, _width()), nl=False)


def _game_text(e: dict[str, Any], by_name: dict[str, dict[str, Any]], width: int) -> str:
    def para(text: str, indent: str = "") -> list[str]:
        return textwrap.wrap(text, width - 1, initial_indent=indent,
                             subsequent_indent=indent) or [indent.rstrip()]

    by = f" by {e['designer']}" if e.get("designer") else ""
    lines = [f"{e['title']} ({e['name']}){by}: {_seats(e)} players"]
    if "extends" in e:
        lines.append(f"A variant of {e['extends']}.")
    lines += para(e["summary"])
    lines += ["", "Options (set with --option KEY=VALUE on play, run and simulate):"
              if e["options"] else "Options: none."]
    for o in e["options"]:
        lines += para(f"{o['id']}: {_kind(o)}, default {_value(o['default'])}", "  ")
        lines += para(" ".join(x for x in (o["label"] + ".", o["description"]) if x != "."),
                      "      ")
    variants = e.get("variants") or []
    if variants:
        lines += ["", "Variants:"]
        names = max(len(v) for v in variants)
        for v in variants:
            summary = by_name.get(v, {}).get("summary", "")
            lines.append(_cut(f"  {v:<{names}}  {summary}", width))
    return "\n".join(lines) + "\n"


def _kind(o: dict[str, Any]) -> str:
    kind = o["type"]
    if kind == "choice":
        return "one of " + ", ".join(o.get("choices") or [])
    if kind == "bool":
        return "true or false"
    if kind == "int" and ("min" in o or "max" in o):
        return f"a whole number {o.get('min', '')}–{o.get('max', '')}"
    return "a whole number" if kind == "int" else str(kind)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


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
            from interpreter.api import load
            from interpreter.assemble.game import compile_game

            loaded = load(target)
            # The careful path checks all the rules do: generated code only speeds them
            # up, and falls back to it for anything it cannot write, so it finds nothing
            # more (and costs the most of compiling).
            compile_game(loaded, {}, generate=False)
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
    from interpreter.load.schema import json_schema_text

    text = json_schema_text()
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
    typer.echo(f"wrote {out}", err=True)
