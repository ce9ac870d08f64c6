"""Issue 38 §4: nothing saved is lost.

`play --save F` never silently replaces an existing F (only with --force, or when
continuing it with --load); one game at a time is saved to a file (a second `play` on it
is refused while the first runs, and free again once it ends, even by a kill); the
"save this game?" offer asks before replacing a file; and the temporary file a killed
writer left behind is removed by the next game that holds the save, while the save
itself stays the old version or the new one, never a broken one.
"""

from __future__ import annotations

import io
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from console import invoke
from rich.console import Console
from test_cli_trust import run_process, tabletop

from interpreter.api import load_game
from interpreter.cli.play import PlaySession
from interpreter.cli.play_command import build_agents
from interpreter.errors import SaveFileError
from interpreter.simulate.record import SavedGame, SaveInUse, SaveLock, read_save, write_save

ROOT = Path(__file__).resolve().parents[1]


def _saved(path: Path, seed: int = 1, moves: str = "1\n") -> bytes:
    result = invoke("play", "caldera", "--seed", str(seed), "--save", str(path),
                    input=moves + "quit\n")
    assert result.exit_code == 0, result.output
    return path.read_bytes()


# -- an existing file is never replaced unasked ---------------------------------------------

def test_an_existing_save_is_refused_unless_force(tmp_path: Path) -> None:
    save = tmp_path / "same.json"
    first = _saved(save, seed=1)
    again = invoke("play", "caldera", "--seed", "2", "--save", str(save), input="quit\n")
    assert again.exit_code == 1
    message = again.stderr
    assert f"{save} already exists" in message, message
    assert f"tabletop play --load {save}" in message and "--force" in message
    assert "Traceback" not in message and len(message) < 600
    assert save.read_bytes() == first  # untouched
    assert not (tmp_path / ".same.json.lock").exists()  # let go on the way out

    forced = invoke("play", "caldera", "--seed", "2", "--save", str(save), "--force",
                    input="quit\n")
    assert forced.exit_code == 0, forced.output
    assert read_save(save).seed == 2


def test_any_existing_file_is_refused_not_only_a_save(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    result = invoke("play", "caldera", "--save", str(notes), input="quit\n")
    assert result.exit_code == 1 and "already exists" in result.stderr
    assert notes.read_text() == "my notes"


def test_continuing_a_save_writes_to_it_without_force(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    _saved(save)
    for extra in ([], ["--save", str(save)]):
        before = len(read_save(save).decisions)
        result = invoke("play", "--load", str(save), *extra, input="1\nquit\n")
        assert result.exit_code == 0, result.output
        assert len(read_save(save).decisions) > before


def test_continuing_into_another_existing_file_needs_force(tmp_path: Path) -> None:
    save, other = tmp_path / "g.json", tmp_path / "other.json"
    _saved(save)
    kept = _saved(other, seed=3)
    refused = invoke("play", "--load", str(save), "--save", str(other), input="quit\n")
    assert refused.exit_code == 1 and f"{other} already exists" in refused.stderr
    assert other.read_bytes() == kept
    forced = invoke("play", "--load", str(save), "--save", str(other), "--force",
                    input="quit\n")
    assert forced.exit_code == 0, forced.output
    assert read_save(other).seed == read_save(save).seed == 1


# -- one game at a time per save file ---------------------------------------------------------

def _start(args: list[str]) -> subprocess.Popen[str]:
    """`tabletop play ARGS` waiting at its first prompt (its stdin kept open)."""
    return subprocess.Popen([*tabletop(), *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)


def _wait_for_save(path: Path, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the first game never saved"
        time.sleep(0.05)


def test_a_second_game_on_the_same_save_is_refused_while_the_first_runs(
        tmp_path: Path) -> None:
    """Two real processes: while the first `play --save same.json` runs, a second one
    (with --force, or continuing it with --load) is refused, saying another game is
    being saved there; once the first has quit, the file is free again."""
    save = tmp_path / "same.json"
    first = _start(["play", "caldera", "--seed", "1", "--save", str(save)])
    try:
        _wait_for_save(save, first)
        for args in (["play", "caldera", "--seed", "2", "--save", str(save), "--force"],
                     ["play", "--load", str(save)]):
            second = run_process(args, input="quit\n")
            assert second.returncode == 1, second.stdout
            assert f"another game is being saved to {save} right now" in second.stderr
            assert "quit that game first" in second.stderr
        assert read_save(save).seed == 1
        out, err = first.communicate("1\nquit\n", timeout=60)
        assert first.returncode == 0, err
        assert "Saved to" in out
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert not (tmp_path / ".same.json.lock").exists()
    later = run_process(["play", "--load", str(save)], input="quit\n")
    assert later.returncode == 0, later.stderr


def test_a_killed_game_lets_go_of_its_save(tmp_path: Path) -> None:
    """The hold is the kernel's (flock): a game killed outright (SIGKILL, no clean-up)
    holds nothing, and its save can be continued at once."""
    save = tmp_path / "g.json"
    first = _start(["play", "caldera", "--seed", "1", "--save", str(save)])
    try:
        _wait_for_save(save, first)
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
    assert (tmp_path / ".g.json.lock").exists()  # left behind, but holding nothing
    later = run_process(["play", "--load", str(save)], input="1\nquit\n")
    assert later.returncode == 0, later.stderr
    assert len(read_save(save).decisions) >= 1
    assert not (tmp_path / ".g.json.lock").exists()


def test_a_lock_file_removed_by_its_holder_is_never_shared(tmp_path: Path) -> None:
    """A game that opened the lock file just before its holder let go (and removed it)
    must not hold that removed file while a third game holds the new one."""
    target = tmp_path / "g.json"
    first = SaveLock.take(target)
    with pytest.raises(SaveInUse):
        SaveLock.take(target)
    first.release()
    second = SaveLock.take(target)
    with pytest.raises(SaveInUse):
        SaveLock.take(target)
    second.release()
    second.release()  # twice is nothing
    assert not (tmp_path / ".g.json.lock").exists()


# -- the offer to save asks before replacing --------------------------------------------------

def _stopping_session(tmp_path: Path, answers: list[str]) -> tuple[PlaySession, io.StringIO]:
    game = load_game("caldera")
    seats = {1: "human", 2: "random"}
    replies: Iterator[str] = iter(["1", "quit", *answers])
    out = io.StringIO()
    session = PlaySession(game, game.new_state(2, 5), seats, build_agents(game, seats, 5),
                          SavedGame.start(game, 2, 5, seats), Console(file=out, width=200),
                          lambda prompt: print(prompt, file=out) or next(replies),
                          interactive=True, colour=False,
                          replay="tabletop play caldera --players 2 --seed 5")
    return session, out


def test_the_offer_to_save_asks_before_replacing_a_file(tmp_path: Path) -> None:
    existing = tmp_path / "kept.json"
    existing.write_text("someone's save")
    session, out = _stopping_session(tmp_path, ["y", str(existing), "n", ""])
    assert session.run() == 0
    text = out.getvalue()
    assert f"{existing} already exists. Replace it? [y/N]" in text
    assert existing.read_text() == "someone's save"
    assert "seed was 5" in text  # nothing saved: the game cannot go on

    session, out = _stopping_session(tmp_path, ["y", str(existing), "y"])
    assert session.run() == 0
    assert read_save(existing).seed == 5
    assert "seed" not in out.getvalue().lower()


def test_the_offer_to_save_takes_another_name_when_told_no(tmp_path: Path) -> None:
    existing, other = tmp_path / "kept.json", tmp_path / "other.json"
    existing.write_text("someone's save")
    session, _ = _stopping_session(tmp_path, ["y", str(existing), "n", str(other)])
    assert session.run() == 0
    assert existing.read_text() == "someone's save" and read_save(other).seed == 5


def test_the_offered_file_name_is_a_free_one(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "caldera-save.json").write_text("an earlier game")
    session, out = _stopping_session(tmp_path, ["y", ""])
    assert session.run() == 0
    assert "File name [caldera-save-2.json]:" in out.getvalue()
    assert read_save(tmp_path / "caldera-save-2.json").seed == 5
    assert (tmp_path / "caldera-save.json").read_text() == "an earlier game"


def test_the_offer_refuses_a_file_another_game_is_saved_to(tmp_path: Path) -> None:
    busy, other = tmp_path / "busy.json", tmp_path / "other.json"
    held = SaveLock.take(busy)
    try:
        session, out = _stopping_session(tmp_path, ["y", str(busy), str(other)])
        assert session.run() == 0
    finally:
        held.release()
    assert f"another game is being saved to {busy} right now" in out.getvalue()
    assert not busy.exists() and read_save(other).seed == 5


# -- a kill mid-write loses nothing, and its leftovers are removed ----------------------------

def test_a_temporary_file_left_by_a_kill_is_removed_by_the_next_game(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    _saved(save)
    stale = [tmp_path / ".g.json.k1ll3d_x.tmp", tmp_path / ".g.json.abcdefgh.tmp"]
    others = [tmp_path / ".other.json.abcdefgh.tmp", tmp_path / ".g.json.x.abcdefgh.tmp",
              tmp_path / "g.json.abcdefgh.tmp"]
    for path in [*stale, *others]:
        path.write_text('{"half a sa')
    result = invoke("play", "--load", str(save), input="quit\n")
    assert result.exit_code == 0, result.output
    assert not any(p.exists() for p in stale)
    assert all(p.exists() for p in others)  # another file's, or not a temporary at all

    new = tmp_path / "new.json"
    leftover = tmp_path / ".new.json.abc123_z.tmp"
    leftover.write_text("x")
    assert invoke("play", "caldera", "--save", str(new), input="quit\n").exit_code == 0
    assert not leftover.exists()


def test_a_save_is_the_old_or_the_new_version_whenever_the_writer_is_killed(
        tmp_path: Path) -> None:
    """A process writing ever longer saves (several MB each) is killed outright at
    moments spread over its writes: each time the save reads back whole (one of the
    versions written), and the next hold on it removes whatever temporary file the kill
    left behind."""
    save = tmp_path / "g.json"
    game = load_game("caldera")
    start = SavedGame.start(game, 2, 1, {1: "human", 2: "random"})
    write_save(save, start)
    writer = textwrap.dedent(f"""
        import sys
        from interpreter.simulate.record import read_save, write_save
        saved = read_save({str(save)!r})
        n = 0
        print("ready", flush=True)
        while True:
            n += 1
            saved.decisions = [(1, "a5-se")] * (20_000 * (n % 7 + 1))
            write_save({str(save)!r}, saved)
    """)
    lengths = {0, *(20_000 * k for k in range(1, 8))}
    leftovers = 0
    for attempt in range(8):
        process = subprocess.Popen([sys.executable, "-c", writer], cwd=ROOT,
                                   stdout=subprocess.PIPE, text=True)
        try:
            assert process.stdout is not None and process.stdout.readline() == "ready\n"
            time.sleep(0.05 + 0.037 * attempt)
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
            if process.stdout is not None:
                process.stdout.close()
        assert len(read_save(save).decisions) in lengths
        leftovers += len(list(tmp_path.glob(".g.json.*.tmp")))
        SaveLock.take(save).release()
        assert not list(tmp_path.glob(".g.json.*.tmp"))
    print(f"kills that left a temporary file behind: {leftovers} of 8")


def test_a_folder_that_cannot_hold_a_save_is_one_message(tmp_path: Path) -> None:
    result = invoke("play", "caldera", "--save", str(tmp_path / "nosuch" / "g.json"),
                    input="quit\n")
    assert result.exit_code == 1
    assert "cannot save the game to" in result.stderr and "nosuch" in result.stderr
    with pytest.raises(SaveFileError, match="cannot save the game"):
        SaveLock.take(tmp_path / "nosuch" / "g.json")
