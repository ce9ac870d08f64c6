"""Each bundled game played in a real terminal (tmux) at 80×24 against computer players
(issue 40's "done when"): the captured screens say moves in the game's words, mark the
last move on the board, and print no raw variable (an id such as `secret_colour`, or
`turn 0`, `starter 1`)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import pytest
from console import console_script

from interpreter.api import load_game

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["caldera", "bottoms-up", "high-rise", "aquarium", "aquarius-rising"]
MOVES = 4
PROMPT = "Player 1>"
REVERSE = re.compile(r"\x1b\[(?:[0-9]+;)*7(?:;[0-9]+)*m")
"""Reverse video (SGR 7), alone or among other attributes: how a marked place is drawn."""

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="needs tmux (a real terminal)")


def tabletop() -> list[str]:
    exe = console_script()
    return [exe] if exe else [sys.executable, "-m", "interpreter.cli"]


class Terminal:
    """A tmux server of its own running one command in an 80×24 pane."""

    def __init__(self, name: str, command: str) -> None:
        self.tmux = ["tmux", "-L", f"tabletop-80x24-{name}-{os.getpid()}", "-f", "/dev/null"]
        subprocess.run([*self.tmux, "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
                        "-c", str(ROOT), command], check=True, timeout=30)

    def screen(self, escapes: bool = False) -> str:
        """The visible screen (no scrollback), with its colours and styles if asked."""
        return subprocess.run([*self.tmux, "capture-pane", "-p", *(["-e"] if escapes else []),
                               "-t", "t"], capture_output=True, text=True, check=True,
                              timeout=30).stdout

    def type(self, text: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", "t", text, "Enter"], check=True,
                       timeout=30)

    def wait_for_prompt(self, unlike: str = "", seconds: float = 60) -> str:
        """The screen once it ends in the person's prompt and differs from `unlike`."""
        deadline = time.monotonic() + seconds
        shown = ""
        while time.monotonic() < deadline:
            shown = self.screen()
            if shown != unlike and shown.rstrip().endswith(PROMPT):
                return shown
            if "Game over" in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"no prompt within {seconds} s:\n{shown}")

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, timeout=30)


@cache
def screens(name: str) -> tuple[list[str], list[str]]:
    """The screens at each of the person's first decisions (plain, and with escapes),
    seat 1 taking its first option each time, the others random."""
    command = shlex.join([*tabletop(), "play", name, "--seed", "11"]) + "; sleep 60"
    term = Terminal(name, command)
    plain, styled = [], []
    try:
        shown = term.wait_for_prompt()
        for _ in range(MOVES):
            plain.append(shown)
            styled.append(term.screen(escapes=True))
            if "Game over" in shown:
                break
            term.type("1")
            shown = term.wait_for_prompt(unlike=shown)
    finally:
        term.close()
    return plain, styled


@pytest.mark.parametrize("name", GAMES)
def test_the_screens_fit_80x24_and_say_moves_in_words(name: str) -> None:
    plain, _ = screens(name)
    assert len(plain) >= 2
    said = 0
    for shown in plain:
        lines = shown.rstrip("\n").splitlines()
        assert len(lines) <= 24, shown
        for line in lines:
            # the old notation-only lines: `Player 2: nS-a1`, `Player 1 revealed start-red`
            assert not re.fullmatch(r"\s*Player \d+: \S+", line), shown
            assert not re.fullmatch(r"\s*Player \d+ revealed [^:\s]+", line), shown
            if re.match(r"Player \d+\b.* {2}\S", line):  # words, the notation beside
                said += 1
    assert said, "\n\n".join(plain)


@pytest.mark.parametrize("name", GAMES)
def test_the_last_move_is_marked_on_the_board(name: str) -> None:
    """After the person's first move, the board marks the last move (a place in reverse
    video, not counting the legend's own sample) under a legend that says it; a move
    that moved nothing (a bid, a pass) has nothing to mark."""
    plain, styled = screens(name)
    marked = 0
    for shown, escaped in zip(plain[1:], styled[1:], strict=True):
        legend = re.search(r"^Last move \(Player \d+\): ", shown, re.MULTILINE)
        board = above_the_legend(escaped)
        if legend is not None and REVERSE.search(board):
            marked += 1
        else:
            assert legend is None and not REVERSE.search(board), shown
    assert marked, "\n\n".join(plain)


def above_the_legend(screen: str) -> str:
    """The screen above the last move's legend and the log: the board and the piles (the
    legend draws its places as the board marks them, so it is left out)."""
    lines = screen.splitlines()
    end = next((i for i, line in enumerate(lines)
                if "Last move (" in line or "Since your last move" in line), len(lines))
    return "\n".join(lines[:end])


@pytest.mark.parametrize("name", GAMES)
def test_no_raw_variable_line(name: str) -> None:
    """No line prints a variable by its id (`secret_colour`, or `secret colour Player 1
    green`, `turn 0`, `starter 1`): players see a variable only under its label."""
    game = load_game(name)
    plain, _ = screens(name)
    for shown in plain:
        table = the_table(shown)
        for var in game.variables:
            if "_" in var:  # an id no sentence of the game's words contains
                assert var not in shown, f"'{var}' printed:\n{shown}"
            said = re.escape(var.replace("_", " "))
            # a raw dump starts a line or follows another's "·" (`beads Player 1 15 ·
            # price 0`); inside a sentence the words are the game's ("Double the price ×2")
            found = re.search(rf"(?:^\s*|· ){said} (?:Player \d+ )?[^\s…]", table,
                              re.MULTILINE)
            assert found is None, f"'{var}' printed raw:\n{shown}"


def the_table(shown: str) -> str:
    """The part of a screen that draws the table (under the header, above the last
    move, the log and the prompt), where a variable would be printed."""
    lines = shown.splitlines()
    start = next((i + 1 for i, line in enumerate(lines) if " — turn " in line), 0)
    end = next((i for i, line in enumerate(lines[start:], start)
                if re.match(r"(Since your last move|Last move \(|Player \d+: )", line)),
               len(lines))
    return "\n".join(lines[start:end])
