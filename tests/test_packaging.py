"""The built wheel: a non-editable install holds every module and the bundled games.

The bundled rulesets stay in the repository's rulesets/ (the designers' folder) and
pyproject.toml maps them into the package as `interpreter.rulesets`; the package list is
written out by hand, so this checks that nothing is left behind. The wheel is built
from a copy of the sources (never the checkout's own build/ folder), then run from where
it was unpacked, away from the checkout, as an installed tabletop would be.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "interpreter", "rulesets")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(ROOT / name, src / name)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps",
                    "--no-build-isolation", "--quiet", "-w", str(out)],
                   check=True, capture_output=True, text=True, timeout=300)
    (built,) = out.glob("tabletop-*.whl")
    return built


def test_the_wheel_holds_every_module_template_and_bundled_game(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "interpreter").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert modules and modules <= names, sorted(modules - names)
    templates = {f"interpreter/templates/{p.name}"
                 for p in (ROOT / "interpreter" / "templates").iterdir() if p.is_file()}
    assert templates <= names, sorted(templates - names)
    games = {f"interpreter/rulesets/{p.name}" for p in (ROOT / "rulesets").glob("*.yaml")}
    assert {"interpreter/rulesets/caldera.yaml",
            "interpreter/rulesets/caldera.tests.yaml"} <= games <= names, sorted(games - names)


def test_the_unpacked_wheel_lists_plays_and_tests_the_bundled_games(
        wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_RULESETS"}
    env["PYTHONPATH"] = str(site)

    def tabletop(*args: str) -> subprocess.CompletedProcess[str]:
        code = ("import sys, interpreter; assert interpreter.__file__.startswith(sys.argv[1]);"
                " del sys.argv[1]; from interpreter.cli.app import main; main()")
        return subprocess.run([sys.executable, "-c", code, str(site), *args], cwd=away,
                              env=env, capture_output=True, text=True, timeout=300)

    listed = tabletop("list", "--json")
    assert listed.returncode == 0, listed.stderr
    games = {g["name"]: g for g in json.loads(listed.stdout)}
    assert set(games) == {p.stem for p in (ROOT / "rulesets").glob("*.yaml")
                          if not p.name.endswith(".tests.yaml")}
    assert games["caldera-two-trios"]["extends"] == "caldera"
    played = tabletop("run", "caldera", "--seed", "1", "--json")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["game"] == "caldera"
    tested = tabletop("test", "caldera-two-trios")
    assert tested.returncode == 0 and " 0 failed" in tested.stdout, tested.stdout


def quick_start_commands() -> list[str]:
    """The shell commands of the README's Quick start, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section, flags=re.S)


def test_quick_start_works_without_a_global_install_and_ci_runs_its_tests() -> None:
    play, tests = quick_start_commands()
    for command in (play, tests):  # PEP 668 systems refuse pip outside a venv
        assert command.startswith("python3 -m venv .venv && .venv/bin/pip install -e "), (
            command)
    assert play.endswith(".venv/bin/tabletop play caldera")
    assert "pytest -n auto" in tests
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert tests in ci, "the README's test command is not the one .ci/run runs"
