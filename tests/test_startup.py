"""Starting tabletop is quick: `--help` and `list` import no part of the engine, each
command's module is imported only when that command runs. Checked by what is imported
(robust on a loaded machine, unlike a wall time; benchmarks/startup.py measures that)."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli.commands import COMMANDS

ROOT = Path(__file__).resolve().parents[1]

HEAVY = ("interpreter.api", "interpreter.compile", "interpreter.run",
         "interpreter.primitives", "interpreter.load.schema", "interpreter.load.loader",
         "interpreter.agents", "interpreter.analyze", "interpreter.serve",
         "interpreter.docs", "interpreter.scenarios", "interpreter.view",
         "jinja2", "matplotlib", "ruamel")


def imported_by(*args: str) -> list[str]:
    """The engine's heavy modules that running `tabletop ARGS` imported."""
    script = ("import sys\nfrom interpreter.cli.app import main\n"
              f"sys.argv = ['tabletop', *{list(args)!r}]\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              f"print('\\n'.join(m for m in sys.modules if m.startswith({HEAVY!r})),"
              " file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env={"COLUMNS": "80", "PATH": "/usr/bin"})
    assert "Usage" in done.stdout, done.stdout + done.stderr
    return done.stderr.split()


def test_help_imports_none_of_the_engine() -> None:
    assert imported_by("--help") == []


@pytest.mark.parametrize("command", ["list", "validate", "schema"])
def test_a_commands_help_imports_none_of_the_engine(command: str) -> None:
    assert imported_by(command, "--help") == []


def test_importing_the_app_imports_no_command() -> None:
    script = ("import sys\nimport interpreter.cli.app\n"
              "print(sorted(m for m in sys.modules if m.startswith('interpreter')))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=True)
    loaded = set(eval(done.stdout))
    assert loaded <= {"interpreter", "interpreter.cli", "interpreter.cli.app",
                      "interpreter.cli.commands", "interpreter.errors"}, loaded


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_commands_summary_is_its_docstrings_first_paragraph(name: str) -> None:
    """`tabletop --help` lists the summaries without importing the commands: they must
    say what the commands' own help says."""
    doc = inspect.getdoc(COMMANDS[name].load()) or ""
    assert COMMANDS[name].summary == " ".join(doc.split("\n\n")[0].split())


def test_the_root_help_lists_every_command_with_its_summary() -> None:
    from typer.testing import CliRunner

    from interpreter.cli.app import app

    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for name, lazy in COMMANDS.items():
        line = next(x for x in result.stdout.splitlines() if f"│ {name} " in x)
        assert lazy.summary[:40] in line, line
