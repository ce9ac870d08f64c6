"""Issue 9: secrets stay secret, and every bad input gets a clear message.

Seeds decide every hidden card and die, so a fresh one is 128 random bits shown only
once the game cannot go on (over, or stopped with no save: issue 38); hot-seat screens
leave nothing in the terminal's scrollback; save files (the referee's record) are
private and checked field by field; and odd command lines, full disks and closed inputs
end in one message, never a traceback.
Real processes are used where only they show the problem (/dev/full, a closed stdin,
Ctrl-C, a terminal in tmux).
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from console import console_script, invoke
from rich.console import Console

from interpreter.agents import make_agent
from interpreter.api import load, load_game
from interpreter.cli.play import PlaySession, line_reader
from interpreter.cli.play_command import build_agents
from interpreter.run import rng
from interpreter.simulate import playout, record
from interpreter.simulate.record import SavedGame, read_save, write_save

ROOT = Path(__file__).resolve().parents[1]
HIGH_RISE_MOVES = 25  # a player's decisions in High Rise on its default 3×3 board




def tabletop() -> list[str]:
    exe = console_script()
    return [exe] if exe else [sys.executable, "-m", "interpreter.cli"]


def run_process(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    if "stdout" not in kwargs:
        kwargs["capture_output"] = True
    done = subprocess.run([*tabletop(), *args], text=True, timeout=60, check=False,
                          cwd=ROOT, **kwargs)
    for bad in ("Traceback", "internal error", "Exception ignored"):
        assert bad not in done.stderr, done.stderr
    return done


# -- 1. seeds are secrets ------------------------------------------------------------------

def test_a_fresh_seed_is_128_bits_hidden_until_the_end_then_replays_the_game(
        tmp_path: Path) -> None:
    """Without --seed nothing about the seed shows during play; at the end it is shown
    as a command, and that command plays the very same game again."""
    save = tmp_path / "g.json"
    moves = "1\n" * (HIGH_RISE_MOVES + 5)
    first = invoke("play", "high-rise", "--save", str(save), input=moves)
    assert first.exit_code == 0, first.stderr
    before, sep, after = first.stdout.partition("Game over")
    assert sep and "seed" not in before.lower()
    shown = re.search(r"This game's seed was (\d+); play it again from the start with:\s+"
                      r"(tabletop play high-rise .*--seed (\d+))", after)
    assert shown, after
    seed = int(shown.group(1))
    assert seed == int(shown.group(3)) == read_save(save).seed
    assert seed.bit_length() > 64  # 128 random bits; ≤ 64 has probability 2**-64

    again = invoke(*shlex.split(shown.group(2))[1:], input=moves)
    assert again.exit_code == 0
    replayed = again.stdout.partition("Game over")[2]
    assert replayed.partition("This game's seed")[0] == after.partition("The finished")[0]
    assert shown.group(0) in replayed


def test_a_save_that_fails_when_quitting_is_said_and_the_seed_still_shown(
        tmp_path: Path) -> None:
    game = load_game("caldera")
    seats = {1: "human", 2: "random"}
    answers = iter(["quit", "y", str(tmp_path / "no-such-folder" / "later.json"), ""])
    out = io.StringIO()
    session = PlaySession(game, game.new_state(2, 5), seats, build_agents(game, seats, 5),
                          SavedGame.start(game, 2, 5, seats), Console(file=out, width=100),
                          lambda prompt: next(answers), interactive=True, colour=False,
                          replay="tabletop play caldera --players 2 --seed 5")
    assert session.run() == 0
    assert "Not saved: cannot save the game" in out.getvalue()
    assert "This game's seed was 5" in out.getvalue()


@pytest.mark.parametrize(("keys", "stop"), [("quit\n", "Game stopped."),
                                            ("", "End of input")])
def test_stopping_shows_the_seed_only_then(keys: str, stop: str) -> None:
    result = invoke("play", "caldera", input=keys)
    before, sep, after = result.stdout.partition(stop)
    assert sep and "seed" not in before.lower()
    assert re.search(r"seed was \d+; play it again from the start with:\s+tabletop play "
                     r"caldera --players 2 --seed \d+", after), after


@pytest.mark.parametrize(("keys", "stop"), [("1\nquit\n", "Game stopped."),
                                            ("1\n", "End of input")])
def test_stopping_a_saved_game_never_shows_its_seed(tmp_path: Path, keys: str,
                                                    stop: str) -> None:
    """Issue 38: the seed replays every secret, so while a save can continue the game
    only the save (the referee's record) keeps it; so too when that save is continued."""
    save = tmp_path / "g.json"
    first = invoke("play", "bottoms-up", "--seat", "2=human", "--save", str(save),
                   input=keys)
    assert stop in first.stdout and f"Saved to {save}" in first.stdout
    assert "seed" not in first.stdout.lower(), first.stdout
    assert str(read_save(save).seed) not in first.stdout
    again = invoke("play", "--load", str(save), input=keys)
    assert stop in again.stdout and "seed" not in again.stdout.lower(), again.stdout


STOPS: dict[str, Any] = {"quit": "quit", "ctrl-c": KeyboardInterrupt, "eof": EOFError}


def _stopped(stop: str, *after: str, save: Path | None = None,
             interactive: bool = True) -> tuple[int, str]:
    """A caldera game (seed 5) stopped by `stop` after one decision, with the answers
    `after` to what it then asks: its exit code and everything it printed."""
    game = load_game("caldera")
    seats = {1: "human", 2: "random"}
    replies = iter(["1", STOPS[stop], *after])

    def ask(prompt: str) -> str:
        reply = next(replies)
        if isinstance(reply, type):
            raise reply
        return reply

    out = io.StringIO()
    session = PlaySession(game, game.new_state(2, 5), seats, build_agents(game, seats, 5),
                          SavedGame.start(game, 2, 5, seats), Console(file=out, width=100),
                          ask, save_path=save, interactive=interactive, colour=False,
                          replay="tabletop play caldera --players 2 --seed 5")
    code = session.run()
    assert next(replies, None) is None  # every answer was asked for
    return code, out.getvalue()


@pytest.mark.parametrize("stop", STOPS)
def test_a_game_stopped_with_its_save_never_shows_the_seed(tmp_path: Path,
                                                           stop: str) -> None:
    save = tmp_path / "g.json"
    code, text = _stopped(stop, save=save)
    assert code == (0 if stop == "quit" else 1)
    assert f"Saved to {save}" in text and "seed" not in text.lower(), text
    assert read_save(save).seed == 5  # the save keeps it


@pytest.mark.parametrize("stop", ["quit", "ctrl-c"])
def test_a_game_saved_when_offered_never_shows_the_seed(tmp_path: Path, stop: str) -> None:
    later = tmp_path / "later.json"
    _, text = _stopped(stop, "y", str(later))
    assert f"Saved to {later}" in text and "seed" not in text.lower(), text
    assert read_save(later).seed == 5


@pytest.mark.parametrize(("stop", "answers"), [("quit", ("n",)), ("ctrl-c", ("n",)),
                                               ("eof", ())])
def test_a_game_stopped_without_a_save_shows_the_seed(stop: str,
                                                      answers: tuple[str, ...]) -> None:
    """Declined (or nothing to decline: end of input), the game cannot go on, so its
    seed is shown with the command that plays it again."""
    _, text = _stopped(stop, *answers)
    assert "This game's seed was 5; play it again from the start with:" in text, text


def test_stopped_without_a_terminal_nor_a_save_shows_the_seed() -> None:
    _, text = _stopped("quit", interactive=False)
    assert "This game's seed was 5" in text


def test_a_loaded_games_computer_players_are_reseeded_by_a_hash() -> None:
    """Loading after k decisions used to seed the players like a new game of seed S + k
    (a linear function of the seed); now each is derive_seed(S, "agent", seat, k)."""
    game = load_game("caldera")
    seats = {1: "human", 2: "random", 3: "random"}
    seed, k = 41, 9
    resumed = build_agents(game, seats, seed, resumed_after=k)
    assert set(resumed) == {2, 3}
    for seat, agent in resumed.items():
        expected = make_agent("random", rng.derive_seed(seed, "agent", seat, k))
        assert agent.rng == expected.rng  # type: ignore[attr-defined]
        linear = build_agents(game, seats, seed + k)[seat]
        assert agent.rng != linear.rng  # type: ignore[attr-defined]


def test_seeds_on_the_command_line() -> None:
    """Any whole number of either sign up to 100 digits is a seed (hashed like any other);
    anything else is one short message, not Python's int() error."""
    negative = invoke("run", "caldera", "--seed", "-5", "--json")
    assert negative.exit_code == 0 and json.loads(negative.stdout)["seed"] == -5
    assert invoke("run", "high-rise", "--seed", "9" * 100, "--json").exit_code == 0
    for bad in ("1e9", "9" * 5000, "", "1_000", "٣"):
        result = invoke("run", "caldera", "--seed", bad)
        assert result.exit_code != 0
        assert "a seed is a whole number of at most 100 digits" in result.stderr
        assert len(result.stderr) < 1000


# -- 2. hot-seat screens leave nothing behind ----------------------------------------------

def test_hand_over_clears_screen_and_scrollback_on_a_private_screen() -> None:
    """On a terminal, seats' screens go on the alternate screen, and each hand-over erases
    the screen and then the scrollback (ESC[2J ESC[3J): tmux and VTE push a cleared
    screen into the scrollback, so ESC[2J alone kept the last seat's secret there."""
    game = load_game("bottoms-up")
    seats = {1: "human", 2: "human", 3: "random", 4: "random"}
    state = game.new_state(4, 7)
    answers = iter(["", "1", "", "quit"])
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=True, color_system=None,
                      _environ={"TERM": "xterm-256color"})
    session = PlaySession(game, state, seats, build_agents(game, seats, 7),
                          SavedGame.start(game, 4, 7, seats), console,
                          lambda prompt: next(answers), interactive=False, colour=False)
    assert session.run() == 0
    text = out.getvalue()
    enter, leave, wipe = "\x1b[?1049h", "\x1b[?1049l", "\x1b[2J\x1b[3J\x1b[H"
    seat1 = text.index("Your secret colour: ")
    seat2 = text.index("Pass the keyboard to Player 2")
    assert text.index(enter) < text.index("Pass the keyboard to Player 1") < seat1
    assert wipe in text[seat1:seat2]
    assert text.rindex("Your secret colour: ") < text.rindex(leave) < text.index(
        "Game stopped")
    assert "secret colour" not in text[text.rindex(leave):]


class Pane:
    """A real terminal: a tmux server of its own running one command in a 120×40 pane."""

    def __init__(self, name: str, command: str) -> None:
        self.tmux = ["tmux", "-L", f"tabletop-{name}-{os.getpid()}", "-f", "/dev/null"]
        subprocess.run([*self.tmux, "new-session", "-d", "-s", "t", "-x", "120", "-y",
                        "40", "-c", str(ROOT), command + "; sleep 60"], check=True,
                       timeout=30)

    def history(self) -> str:
        """The whole history of the pane, scrollback included."""
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-t", "t", "-S", "-",
                               "-E", "-"], capture_output=True, text=True, check=True,
                              timeout=30).stdout

    def wait_for(self, text: str) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            seen = self.history()
            if text in seen:
                return seen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never showed; the pane holds:\n{self.history()}")

    def keys(self, *typed: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", "t", *typed], check=True, timeout=30)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, timeout=30)


needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="needs tmux (a real terminal)")


def _hot_seat_round(pane: Pane) -> tuple[str, str]:
    """Player 1 and then Player 2 of Bottoms Up take the keyboard in turn (Player 1
    makes a decision); the pane's history while Player 2 is at it, and the secret
    colour Player 1 was shown."""
    pane.wait_for("Player 1, press Enter")
    pane.keys("Enter")
    seat1 = pane.wait_for("Player 1>")
    mine = re.search(r"Your secret colour: (\w+)", seat1)
    assert mine
    pane.keys("1", "Enter")
    handed = pane.wait_for("Player 2, press Enter")
    assert "secret colour" not in handed, handed
    pane.keys("Enter")
    return pane.wait_for("Player 2>"), mine.group(1)


@needs_tmux
def test_hot_seat_in_a_real_terminal_leaves_no_secret_in_the_scrollback() -> None:
    """`tabletop play` in tmux: while seat 2 is at the keyboard, the whole history of the
    pane (scrollback included) holds nothing of seat 1's secret colour. Stopped, and
    the offer to save declined, the game cannot go on: then its seed is shown."""
    pane = Pane("hot-seat", shlex.join([*tabletop(), "play", "bottoms-up", "--players",
                                        "4", "--seat", "1=human", "--seat", "2=human",
                                        "--seed", "7"]))
    try:
        seat2, colour1 = _hot_seat_round(pane)
        assert "Your secret colour: " in seat2
        assert f"Your secret colour: {colour1}" not in seat2, seat2  # colours differ
        pane.keys("quit", "Enter")
        after = pane.wait_for("Save this game")  # back on the ordinary screen
        assert "secret colour" not in after, after
        pane.keys("n", "Enter")
        pane.wait_for("This game's seed was 7; play it again")
    finally:
        pane.close()


@needs_tmux
@pytest.mark.parametrize(("stop", "said"), [(("quit", "Enter"), "Game stopped."),
                                            (("C-c",), "Interrupted.")])
def test_in_a_real_terminal_a_saved_game_stopped_shows_no_seed(
        tmp_path: Path, stop: tuple[str, ...], said: str) -> None:
    """Issue 38's case: `play bottoms-up --seat 2=human --save g.json`, a round, then
    `quit` or Ctrl-C: the screen says where the game is saved, and nothing of its seed."""
    save = tmp_path / "g.json"
    pane = Pane(f"saved-{len(stop)}", shlex.join([*tabletop(), "play", "bottoms-up",
                                                  "--seat", "2=human", "--save",
                                                  str(save)]))
    try:
        _hot_seat_round(pane)
        pane.keys(*stop)
        shown = pane.wait_for(f"Saved to {save}")
        assert said in shown
        time.sleep(0.5)  # anything it would print after
        shown = pane.history()
        assert "seed" not in shown.lower(), shown
        assert str(read_save(save).seed) not in shown.replace("\n", "")
    finally:
        pane.close()


# -- 3. save files are the referee's record ------------------------------------------------

@pytest.fixture(scope="module")
def caldera_save(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real save of a caldera game (seed 1) after a few decisions, as JSON data."""
    save = tmp_path_factory.mktemp("save") / "c.json"
    result = invoke("play", "caldera", "--seed", "1", "--save", str(save), input="1\nquit\n")
    assert result.exit_code == 0
    return json.loads(save.read_text())


def test_save_files_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        new = tmp_path / "new.json"
        assert invoke("play", "caldera", "--save", str(new), input="quit\n").exit_code == 0
        assert stat.S_IMODE(new.stat().st_mode) == 0o600
        shared = tmp_path / "shared.json"
        shared.write_text("{}")
        shared.chmod(0o644)
        write_save(shared, read_save(new))
        assert stat.S_IMODE(shared.stat().st_mode) == 0o600
    finally:
        os.umask(old)
    assert "0600" in invoke("play", "--help").stdout


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    return lambda d: d.update({key: value})


def _high_rise_hash(d: dict[str, Any]) -> None:
    d["ruleset_hash"] = load("high-rise").content_hash


# (what to do to the save's data, or its text; what the message must say)
TAMPERED: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("deep", lambda d: '{"format": "tabletop-save", "x": ' + "[" * 100_000 + "]" * 100_000
     + "}", "nested too deeply"),
    ("long-seed", lambda d: json.dumps(d).replace('"seed": 1', '"seed": 1' + "0" * 5000),
     "number too long"),
    ("nan-seed", lambda d: json.dumps(d).replace('"seed": 1', '"seed": NaN'), "not JSON"),
    ("version-true", _set("version", True), "field 'version'"),
    ("float-seed", _set("seed", 1.5), "field 'seed'"),
    ("text-seed", _set("seed", "1"), "field 'seed'"),
    ("big-seed", _set("seed", 10 ** 100), "field 'seed'"),
    ("game-path", _set("game", "/etc/passwd"), "field 'game'"),
    ("game-yaml", _set("game", "caldera.yaml"), "field 'game'"),
    ("other-hash", _high_rise_hash, "ruleset hash is that of 'high-rise'"),
    ("decision-text-seat", lambda d: d["decisions"].insert(0, ["1", "x"]), "field 'decisions'"),
    ("decision-bool-seat", lambda d: d["decisions"].insert(0, [True, "x"]),
     "field 'decisions'"),
    ("decision-short", lambda d: d["decisions"].insert(0, [1]), "field 'decisions'"),
    ("decision-seat-9", lambda d: d["decisions"].insert(0, [9, "x"]), "field 'decisions'"),
    ("decisions-dict", _set("decisions", {"1": "x"}), "field 'decisions'"),
    ("seat-out-of-range", lambda d: d["seats"].update({"5": "human"}), "field 'seats'"),
    ("seat-kind", lambda d: d["seats"].update({"2": "robot"}), "field 'seats'"),
    ("players-0", _set("players", 0), "field 'players'"),
    ("players-7", _set("players", 7), "field 'players'"),
    ("option-value", lambda d: d["options"].update(power_play="maybe"), "field 'options'"),
    ("option-unknown", lambda d: d["options"].update(nope=True), "field 'options'"),
    ("option-list", lambda d: d["options"].update(power_play=[[1]]), "field 'options'"),
    ("missing", lambda d: d.pop("players"), "field 'players' is missing"),
]


@pytest.mark.parametrize(("tamper", "message"), [(t, m) for _, t, m in TAMPERED],
                         ids=[i for i, _, _ in TAMPERED])
def test_a_bad_save_is_one_clear_message_naming_the_file(
        tmp_path: Path, caldera_save: dict[str, Any], tamper: Callable[..., Any],
        message: str) -> None:
    data = json.loads(json.dumps(caldera_save))
    text = tamper(data)
    save = tmp_path / "tampered.json"
    save.write_text(text if isinstance(text, str) else json.dumps(data))
    result = invoke("play", "--load", str(save), input="quit\n")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {save}") or f" {save} " in result.stderr
    assert message in result.stderr, result.stderr
    assert len(result.stderr) < 600


def test_a_save_never_names_a_file_to_read(tmp_path: Path,
                                           caldera_save: dict[str, Any]) -> None:
    """The `game` field used to be loaded as a path, echoing that file's first line."""
    private = tmp_path / "private.yaml"
    private.write_text("TOP-SECRET first line\n")
    save = tmp_path / "s.json"
    save.write_text(json.dumps({**caldera_save, "game": str(private)}))
    result = invoke("play", "--load", str(save))
    assert result.exit_code == 1 and "field 'game'" in result.stderr
    assert "TOP-SECRET" not in result.stdout + result.stderr


def test_messages_about_a_save_never_quote_its_decisions(
        tmp_path: Path, caldera_save: dict[str, Any]) -> None:
    data = json.loads(json.dumps(caldera_save))
    data["decisions"].insert(0, [1, "zz-secret-pick"])
    save = tmp_path / "s.json"
    save.write_text(json.dumps(data))
    result = invoke("play", "--load", str(save))
    assert result.exit_code == 1 and "decision 1" in result.stderr
    assert "zz-secret-pick" not in result.stdout + result.stderr


def test_a_huge_save_is_refused_before_it_is_parsed(
        tmp_path: Path, caldera_save: dict[str, Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record, "SAVE_FILE_LIMIT", 200)
    save = tmp_path / "big.json"
    save.write_text(json.dumps(caldera_save))
    result = invoke("play", "--load", str(save))
    assert result.exit_code == 1 and "larger than" in result.stderr


# -- 4. bad input on the command line -------------------------------------------------------

def test_docs_out_must_be_a_folder_it_can_write(tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    for args in (["--out", str(a_file)], ["--pdf", str(a_file), "--check"],
                 ["--out", "/proc/no-such-folder/docs"]):
        result = invoke("docs", *args)
        assert result.exit_code == 1 and result.stderr.startswith("error: "), result.stderr
    assert a_file.read_text() == "mine"


def test_docs_never_empties_a_folder_of_other_files(tmp_path: Path) -> None:
    """`docs` only ever removes files it wrote there itself (its manifest): `--out .` in a
    project adds the rulebooks and leaves every other file alone."""
    (tmp_path / "README.md").write_text("mine")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("print()")
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "index.md").write_text("my guide")
    result = invoke("docs", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "caldera" / "index.md").is_file()
    assert (tmp_path / "README.md").read_text() == "mine"
    assert (tmp_path / "src" / "main.py").is_file()
    assert (tmp_path / "guide" / "index.md").read_text() == "my guide"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["list"], ["run", "high-rise", "--seed", "1", "--json"],
                                  ["--help"]])
def test_output_to_a_full_disk_is_one_message(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = run_process(args, stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 1
    assert done.stderr.strip() == "error: cannot write the output: No space left on device"


@pytest.mark.parametrize("args", [["play", "caldera"],
                                  ["run", "caldera", "--seed", "1", "--moves", "-"]])
def test_a_closed_stdin_is_one_message(args: list[str]) -> None:
    done = run_process(args, preexec_fn=lambda: os.close(0))
    assert done.returncode == 1
    assert done.stderr.startswith("error: standard input is closed"), done.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["run", "caldera", "--moves", ""], "--moves takes a file name"),
    (["run", "x" * 5000], "unknown game 'xxxxx"),
    (["run", "x/" + "x" * 5000], "File name too long"),
    (["play", "--load", str(ROOT)], "is a directory"),
])
def test_odd_arguments_give_one_clear_message(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code in (1, 2)  # 2: Click's usage errors, which main() makes 1
    assert message in result.stderr, result.stderr
    assert len(result.stderr) < 1000


def test_a_runaway_moves_line_is_refused_without_quoting_it(tmp_path: Path) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_text("x" * 1_000_000 + "\n")
    result = invoke("run", "caldera", "--moves", str(moves))
    assert result.exit_code == 1
    assert "line 1: a move of 1,000,000 characters" in result.stderr
    assert len(result.stderr) < 500


def test_a_runaway_line_at_the_play_prompt_is_refused_unread() -> None:
    """Issue 38: a 5 MB line typed at the prompt took 13 s and 544 MB (matched against
    every option); now at most LINE_LIMIT characters of a line are read, the rest is
    skipped a chunk at a time, and the prompt asks again."""
    typed = "x" * 5_000_000 + "\n1\nquit\n"
    began = time.process_time()
    result = invoke("play", "caldera", "--seed", "1", input=typed)
    seconds = time.process_time() - began
    tracemalloc.start()  # measured apart: tracing slows everything down
    try:
        invoke("play", "caldera", "--seed", "1", input=typed)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0, result.output
    assert "That line is too long (more than 10,000 characters)" in result.stdout
    assert "not a legal option" not in result.stdout and "xxxxxxxxxx" not in result.stdout
    assert "Game stopped" in result.stdout
    assert seconds < 2, seconds
    assert peak < 60_000_000, peak  # the input itself is 5 MB, held as text and bytes


def test_lines_just_under_the_limit_are_matched_quickly() -> None:
    """A line of 10,000 characters is read, then matched against every option: that
    costs little (each form of the line is worked out once, a pattern only when some
    option's text is long enough to hold it, no 'did you mean' for a line far longer
    than any notation). These 102 lines took 42 s of CPU time; now under a second."""
    typed = ("a5-se " * 1666 + "\n") * 50 + " ".join(f"w{i}" for i in range(1400)) + "\n"
    invoke("play", "caldera", "--seed", "1", input="quit\n")  # the game loaded once
    began = time.process_time()
    result = invoke("play", "caldera", "--seed", "1", input=typed * 2 + "quit\n")
    seconds = time.process_time() - began
    assert result.exit_code == 0 and "Game stopped" in result.stdout
    assert seconds < 1.5, seconds


def _read(text: str, limit: int = 10) -> tuple[list[str], str]:
    """Every line `line_reader` reads from `text` (until the end of input), and what
    it printed."""
    out = io.StringIO()
    ask = line_reader(Console(file=out, width=100), lambda: source, limit=limit)
    source = io.StringIO(text)
    lines = []
    with pytest.raises(EOFError):
        while True:
            lines.append(ask("> "))
    return lines, out.getvalue()


def test_prompt_lines_are_bounded() -> None:
    assert _read("0123456789\nab\r\nlast")[0] == ["0123456789", "ab", "last"]
    lines, said = _read("0123456789A\nok\n" + "y" * 25 + "\n" + "z" * 1000)
    assert lines == ["ok"]
    assert said.count("That line is too long (more than 10 characters)") == 3
    assert "yyy" not in said and "zzz" not in said


def test_simulate_streams_its_games(tmp_path: Path) -> None:
    """A million games are neither listed nor kept: memory stays flat, and stopping
    (Ctrl-C, here from the progress callback) reports the games played so far."""
    ref = (str(ROOT / "rulesets" / "high-rise.yaml"), {})
    playout.worker_game(ref)  # loading the ruleset is not what is measured
    played = 0

    def progress(k: int) -> None:
        nonlocal played
        played += k
        if played == 3:
            raise KeyboardInterrupt

    tracemalloc.start()
    try:
        report = playout.simulate(ref, 1_000_000, None, 1, progress=progress)
        peak = tracemalloc.get_traced_memory()[1]
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C ended the simulation without a report")
    finally:
        tracemalloc.stop()
    assert report["interrupted"] and report["games"] == 3 and report["requested"] == 10 ** 6
    assert sum(report["wins_by_seat"].values()) + report["draws"] == 3
    assert peak < 5_000_000, peak


def test_simulate_starts_no_more_workers_than_games_or_cores(
        monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    class InlinePool:
        def __init__(self, processes: int, **kwargs: Any) -> None:
            started.append(processes)

        def __enter__(self) -> InlinePool:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def imap_unordered(self, fn: Callable[[Any], Any], work: Any,
                           chunksize: int = 1) -> Any:
            return map(fn, work)

    class Context:
        Pool = InlinePool

    monkeypatch.setattr(playout.multiprocessing, "get_context", lambda kind: Context)
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    ref = (str(ROOT / "rulesets" / "high-rise.yaml"), {})
    assert playout.simulate(ref, 3, None, 1, jobs=64)["games"] == 3
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert playout.simulate(ref, 5, None, 1, jobs=64)["games"] == 5
    assert started == [3, 2]


def _wait_for_workers(pid: int, count: int) -> None:
    """Until the process has started `count` worker processes (and a moment more)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if not children.exists():
            time.sleep(4)  # no /proc: give it time
            return
        if len(children.read_text().split()) >= count:
            break
        time.sleep(0.1)
    time.sleep(0.5)


def test_ctrl_c_stops_a_parallel_simulation_and_reports_it() -> None:
    """SIGINT to the whole process group, as a terminal's Ctrl-C sends it: workers leave
    it to the main process, which stops them and prints the games played so far."""
    proc = subprocess.Popen(
        [*tabletop(), "simulate", "high-rise", "-n", "1000000", "--jobs", "2", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        _wait_for_workers(proc.pid, 2)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    report = json.loads(out)
    assert report["interrupted"] is True and report["requested"] == 1_000_000
    assert report["games"] == sum(report["wins_by_seat"].values()) + report["draws"]


# -- 5. simulate reports how the games ended -------------------------------------------------

def test_simulate_reports_end_reasons() -> None:
    result = invoke("simulate", "high-rise", "-n", "4", "--seed", "2", "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    for key in ("games", "errors", "wins_by_seat", "draws", "mean_turns",
                "games_per_second", "end_reasons"):
        assert key in report
    reasons = report["end_reasons"]
    assert reasons and all(isinstance(k, str) and v > 0 for k, v in reasons.items())
    assert sum(reasons.values()) == report["games"] - report["errors"] == 4
    table = invoke("simulate", "high-rise", "-n", "2")
    assert "How the games ended" in table.stdout
    assert next(iter(reasons))[:20] in table.stdout.replace("\n", " ")


def test_ctrl_c_while_tabletop_starts_ends_quietly(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A Ctrl-C while the engine is still being imported (a second or more on a busy
    machine) ends with exit 130 and a word, not a traceback of the import."""
    import importlib.abc

    from interpreter.cli import entry

    class Interrupted(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, path: Any, target: Any = None) -> None:
            if name == "interpreter.cli.app":
                raise KeyboardInterrupt

    monkeypatch.delitem(sys.modules, "interpreter.cli.app", raising=False)
    monkeypatch.setattr(sys, "meta_path", [Interrupted(), *sys.meta_path])
    with pytest.raises(SystemExit) as exc:
        entry.main()
    assert exc.value.code == 130
    assert capsys.readouterr().err.strip() == "interrupted"
