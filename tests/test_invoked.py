"""Commands in messages are printed as this user can type them: the quick start never
puts `tabletop` on PATH (it is `.venv/bin/tabletop`), so `tabletop play --load …` would
be `command not found`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.invoked import command_prefix, invocation, runnable

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).parent / "tabletop"


def test_tabletop_on_path_running_this_script_is_typed_by_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(SCRIPT.parent))
    assert invocation(str(SCRIPT)) == ["tabletop"]


def test_a_script_not_on_path_is_typed_by_its_shortest_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no tabletop there
    monkeypatch.chdir(SCRIPT.parent.parent.parent)
    relative = os.path.relpath(SCRIPT)
    assert invocation(str(SCRIPT)) == [relative]
    monkeypatch.chdir(tmp_path)  # far away: the absolute path is shorter
    assert invocation(str(SCRIPT)) == [min(os.path.relpath(SCRIPT), str(SCRIPT), key=len)]


def test_another_tabletop_on_path_is_not_this_one(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "tabletop"
    other.write_text("#!/bin/sh\n")
    other.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(SCRIPT.parent)
    assert invocation(str(SCRIPT)) == ["./tabletop"]


def test_python_m_is_typed_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    main = str(ROOT / "interpreter" / "cli" / "__main__.py")
    words = invocation(main)
    assert words[1:] == ["-m", "interpreter.cli"]
    assert os.path.abspath(words[0]) == os.path.abspath(sys.executable)


def test_not_started_as_a_command_is_plain_tabletop() -> None:
    assert invocation("/usr/lib/python3/site-packages/pytest/__main__.py") == ["tabletop"]
    assert command_prefix("pytest") == "tabletop"


def test_a_path_with_a_space_is_quoted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.chdir(tmp_path)
    spaced = tmp_path / "my env" / "bin" / "tabletop"
    assert command_prefix(str(spaced)) == "'my env/bin/tabletop'"
    monkeypatch.setattr(sys, "argv", [str(spaced)])
    assert runnable("play", "--load", "a b.json") == "'my env/bin/tabletop' play --load 'a b.json'"


@pytest.mark.skipif(not SCRIPT.exists(), reason="needs the installed tabletop script")
def test_messages_name_the_command_as_invoked() -> None:
    """Through the real script, not on PATH: the suggestions name `.venv/bin/tabletop`."""
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    relative = os.path.relpath(SCRIPT, ROOT)
    done = subprocess.run([relative, "test", "--base"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert f"`{relative} test my-variant --base`" in done.stderr, done.stderr
    done = subprocess.run([relative, "play", "caldera", "--seed", "5"], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120)
    assert f"{relative} play caldera --players 2 --seed 5" in done.stdout + done.stderr
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "parts", "caldera",
                           "nowhere"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert "-m interpreter.cli parts caldera` lists them" in done.stderr, done.stderr
