"""`tabletop list` fits a terminal: one line per game, `tabletop list GAME` for one
game's options, and a catalog that is read from the rulesets only when they change."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interpreter.cli.app import app
from interpreter.load import catalog

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def listed(*args: str, columns: int = 80) -> str:
    result = runner.invoke(app, ["list", *args], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_list_fits_in_40_lines_of_80_columns_one_line_per_game() -> None:
    text = listed()
    lines = text.splitlines()
    assert len(lines) <= 40, text
    assert all(len(line) <= 80 for line in lines), text
    games = json.loads(listed("--json"))
    for game in games:
        rows = [line for line in lines if line.split()[:1] == [game["name"]]]
        assert len(rows) == 1, (game["name"], text)
        row = rows[0]
        assert row.startswith("    " if "extends" in game else "  ")
        seats = game["seats"]
        assert (f" {seats['min']}–{seats['max']} " in row if seats["min"] != seats["max"]
                else f" {seats['min']} " in row)
        assert row.rstrip("…").split(None, 2)[2][:10] == game["summary"][:10], row


def test_a_game_shows_its_options_with_their_descriptions_wrapped_under_them() -> None:
    text = listed("aquarium")
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines), text
    assert lines[0].startswith("Aquarium (aquarium)") and "2–6 players" in lines[0]
    entry = json.loads(listed("aquarium", "--json"))
    assert entry["name"] == "aquarium" and entry["options"]
    for option in entry["options"]:
        head = next(i for i, line in enumerate(lines)
                    if line.startswith(f"  {option['id']}: "))
        assert f"default {str(option['default']).lower()}" in lines[head].lower()
        body = []
        for line in lines[head + 1:]:
            if not line.startswith("      "):
                break
            body.append(line.strip())
        # the description is all there, wrapped under the option, not in a column
        assert " ".join(option["description"].split()) in " ".join(body), option["id"]
        assert any(len(line) > 60 for line in lines[head + 1:head + 1 + len(body)]) or \
            len(body) == 1


def test_a_game_lists_its_variants_and_a_variant_names_its_base() -> None:
    text = listed("high-rise")
    assert "\nVariants:\n" in text
    assert "high-rise-numbered-slips" in text.split("\nVariants:\n")[1]
    assert "A variant of high-rise." in listed("high-rise-numbered-slips")


def test_an_unknown_game_is_one_message() -> None:
    result = runner.invoke(app, ["list", "caldra"])
    assert result.exit_code == 1
    assert "did you mean 'caldera'" in result.output


def test_list_and_its_help_say_how_to_see_a_games_options() -> None:
    assert "list GAME" in listed()
    result = runner.invoke(app, ["list", "--help"], env={"COLUMNS": "80"})
    assert "tabletop list GAME" in " ".join(result.stdout.split())


def _copy_rulesets(tmp_path: Path) -> Path:
    folder = tmp_path / "rulesets"
    folder.mkdir()
    for name in ("caldera", "caldera-two-trios", "nim"):
        shutil.copy(ROOT / "rulesets" / f"{name}.yaml", folder)
    return folder


def test_the_catalog_is_cached_and_read_again_when_a_file_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _copy_rulesets(tmp_path)
    monkeypatch.setenv("TABLETOP_RULESETS", str(folder))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    read: list[str] = []
    real = catalog.catalog_entry

    def counted(path: Path) -> tuple[dict, list[str]]:
        read.append(path.name)
        return real(path)
    monkeypatch.setattr(catalog, "catalog_entry", counted)

    first = {e["name"]: e for e in catalog.bundled_catalog()}
    assert sorted(read) == ["caldera-two-trios.yaml", "caldera.yaml", "nim.yaml"]
    assert first["caldera-two-trios"]["options"][0]["default"] is False
    read.clear()
    assert {e["name"]: e for e in catalog.bundled_catalog()} == first
    assert read == []  # all from the cache

    # the base changes: the variant, made from it, is read again too
    base = folder / "caldera.yaml"
    text = base.read_text().replace("summary: >-\n", "summary: >-\n    Changed.\n", 1)
    assert "Changed." in text
    base.write_text(text)
    os.utime(base, ns=(1, 1))
    again = {e["name"]: e for e in catalog.bundled_catalog()}
    assert sorted(read) == ["caldera-two-trios.yaml", "caldera.yaml"]
    assert again["caldera"]["summary"].startswith("Changed.")

    # a game removed is no longer listed; a damaged cache is only slower
    (folder / "nim.yaml").unlink()
    catalog.catalog_cache(folder).write_text("{not json")
    assert [e["name"] for e in catalog.bundled_catalog()] == ["caldera", "caldera-two-trios"]


def test_a_broken_ruleset_is_listed_with_its_error(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _copy_rulesets(tmp_path)
    (folder / "broken.yaml").write_text("game: [\n")
    monkeypatch.setenv("TABLETOP_RULESETS", str(folder))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    text = listed()
    row = next(line for line in text.splitlines() if line.startswith("  broken"))
    assert "does not load" in row and "validate broken" in row
    # a variant whose base is missing is listed in error until the base is there
    (folder / "nim-fast.yaml").write_text(
        "extends: nim-base\ngame: {name: nim-fast, title: Fast Nim}\n")
    row = next(line for line in listed().splitlines() if line.startswith("  nim-fast"))
    assert "does not load" in row
    shutil.copy(folder / "nim.yaml", folder / "nim-base.yaml")
    row = next(line for line in listed().splitlines() if "nim-fast" in line)
    assert "does not load" not in row and row.startswith("    nim-fast"), row


def test_list_loads_no_ruleset_model_nor_compiler(tmp_path: Path) -> None:
    """The catalog is read from the YAML: the ruleset models, the compiler and the
    runtime stay unimported (a warm cache or not). (Typer itself uses pydantic to read
    parameters: the library is not the cost, the models built on it are.)"""
    script = ("import sys\nfrom interpreter.cli.app import main\n"
              "sys.argv = ['tabletop', 'list']\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              "bad = sorted(m for m in sys.modules if m.startswith(("
              "'interpreter.compile', 'interpreter.run', 'interpreter.primitives', "
              "'interpreter.load.schema', 'interpreter.api')))\n"
              "print('LOADED', bad, file=sys.stderr)")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "COLUMNS": "80"}
    for _ in range(2):  # a cold cache, then a warm one
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              env=env, cwd=ROOT, timeout=120)
        assert "caldera" in done.stdout, done.stderr
        assert "LOADED []" in done.stderr, done.stderr
