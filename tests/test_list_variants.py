"""`tabletop list` shows every bundled variant under its base, as the README says."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from interpreter.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def listed(*args: str) -> str:
    result = runner.invoke(app, ["list", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.stdout


def first_cells(table: str) -> list[str]:
    """Each game's name, top to bottom, with `↳ ` before a variant's (indented)."""
    return [("↳ " if line.startswith("    ") else "") + line.split()[0]
            for line in table.splitlines() if line.startswith("  ")]


def test_each_variant_is_listed_under_its_base_and_named_by_it() -> None:
    games = json.loads(listed("--json"))
    bases = {g["name"]: g.get("variants", []) for g in games if "extends" not in g}
    variants = {g["name"]: g["extends"] for g in games if "extends" in g}
    bundled = {p.stem for p in (ROOT / "rulesets").glob("*.yaml")
               if not p.name.endswith(".tests.yaml")}
    assert set(bases) | set(variants) == bundled
    assert variants["caldera-two-trios"] == "caldera"
    assert sorted(bases["high-rise"]) == ["high-rise-black-white-covers",
                                          "high-rise-numbered-slips"]

    table = listed()
    rows = first_cells(table)
    assert [r.removeprefix("↳ ") for r in rows] == [g["name"] for g in games]
    for i, row in enumerate(rows):
        name = row.removeprefix("↳ ")
        if name in variants:  # marked, and right after its base or a sibling
            assert row.startswith("↳ "), row
            above = rows[i - 1].removeprefix("↳ ")
            assert above == variants[name] or variants.get(above) == variants[name], rows
        else:
            assert not row.startswith("↳ "), row
    for base, its in bases.items():
        if its:
            shown = listed(base)
            assert [line.split()[0] for line in shown.split("\nVariants:\n", 1)[1]
                    .splitlines()] == its, base
    assert "A variant of caldera." in listed("caldera-two-trios")


def test_games_of_a_group_are_listed_together_under_its_name() -> None:
    """`game.group` puts a game on its own shelf: the games without one first (the
    platform's own), then one table per group, its games in name order."""
    games = json.loads(listed("--json"))
    groups = [g["group"] for g in games]
    classics = [g["name"] for g in games if g["group"] == "Classics"]
    assert {"tic-tac-toe", "kuhn-poker", "oware"} <= set(classics)
    assert classics == sorted(classics)
    assert groups == sorted(groups, key=lambda group: group or ""), groups

    table = listed()
    assert table.startswith("Bundled games") and "\nClassics\n" in table
    ours, shelf = table.split("\nClassics", 1)
    assert "caldera" in ours and "tic-tac-toe" not in ours
    assert all(name in shelf for name in classics) and "caldera" not in shelf
