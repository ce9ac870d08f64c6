"""Issue 17: play that feels like a game, at the terminal.

Many options come in groups with counts and are narrowed by typing (a notation's start,
a place, a group's key); typed notations ignore case and spaces; a turn's screen fits
the terminal with the board on it; `undo` takes a decision back unless that would let
the player use what came out since; `state` and `log` show what the seat may see; a
game played from a ruleset file is continued by the command its messages name, and a
save of an edited ruleset is replayed as far as it stays legal with --force.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from console import console_script, invoke
from rich.console import Console

from interpreter.agents import make_agent
from interpreter.api import load_game
from interpreter.cli.play import PlaySession
from interpreter.cli.play_command import build_agents
from interpreter.cli.screen import height_of, turn_screen
from interpreter.play.game import Game, Option
from interpreter.run.state import State
from interpreter.run.view import view
from interpreter.simulate.playout import decide
from interpreter.simulate.record import SavedGame, read_save, replay
from interpreter.view.choosing import exact_match, group_options, narrow

ROOT = Path(__file__).resolve().parents[1]




def midgame(name: str, decisions: int, options: dict[str, Any] | None = None,
            players: int | None = None, seed: int = 1) -> tuple[Game, State, int]:
    """A game after some random decisions, and the seat deciding next."""
    game = load_game(name, options)
    state = game.new_state(players, seed)
    agent = make_agent("random", seed)
    for _ in range(decisions):
        decide(game, state, game.deciding_seats(state)[0], agent)
    return game, state, game.deciding_seats(state)[0]


def fake(*notations: str) -> list[Option]:
    return [Option(i, n, f"do {n}", "k", (0, (i,))) for i, n in enumerate(notations)]


# -- grouping, narrowing, matching ------------------------------------------------------

def test_caldera_options_group_by_kind_and_narrow_by_place_and_prefix() -> None:
    game, state, seat = midgame("caldera", 14)
    options = game.legal_options(state, seat)
    groups = group_options(options)
    assert {g.options[0].kind for g in groups} == {"cap_move", "power_play"}
    assert sum(len(g.options) for g in groups) == len(options)
    for g in groups:  # each group's key lists exactly that group
        assert g.key is not None
        assert narrow(options, g.key) == g.options
    power = next(g for g in groups if g.options[0].kind == "power_play")
    assert power.key == "pp" and power.title.startswith("Power Play:")
    c3 = narrow(options, "c3")
    assert 0 < len(c3) < len(options)
    assert all(re.search(r"\bc3\b", o.notation + " " + o.label) for o in c3)
    assert any(o.kind == "cap_move" and not o.notation.startswith("c3") for o in c3), (
        "a cap moving to c3 involves c3 too (its label names it)")
    both = narrow(options, "pp a5")
    assert both and all(o.kind == "power_play" and o.notation.endswith("-a5") for o in both)


def test_high_rise_8x8_groups_its_960_options_by_piece() -> None:
    game, state, seat = midgame("high-rise", 0, {"rows": 8, "cols": 8}, seed=2)
    options = game.legal_options(state, seat)
    assert len(options) == 960
    groups = group_options(options)
    assert len(groups) == 15 and all(len(g.options) == 64 for g in groups)
    for g in groups:
        assert g.key is not None and narrow(options, g.key) == g.options
        assert g.key.lower() == g.options[0].notation.split("-")[0].lower()
    c3 = narrow(options, "C3")
    assert len(c3) == 15 and all(o.notation.endswith("-c3") for o in c3)
    assert narrow(options, "c 3") == c3


def test_bottoms_up_places_match_as_whole_words() -> None:
    game, state, seat = midgame("bottoms-up", 8, players=4)
    options = game.legal_options(state, seat)
    one = narrow(options, "field:1")
    assert one and all(re.search(r"field:1(?!\d)", o.notation) for o in one)
    made_up = fake("rM-field:1", "rM-field:19", "c1-n", "c12-n")
    assert [o.notation for o in narrow(made_up, "field:1")] == ["rM-field:1"]
    assert [o.notation for o in narrow(made_up, "c1")] == ["c1-n"]  # a place, not c12
    assert [o.notation for o in narrow(made_up, "c")] == ["c1-n", "c12-n"]  # a start


def test_typed_notations_ignore_case_and_spaces_when_unambiguous() -> None:
    game, state, seat = midgame("caldera", 0)
    options = game.legal_options(state, seat)
    first = options[0].notation  # e.g. b1-n
    assert exact_match(options, first.upper().replace("-", " - ")) is options[0]
    assert exact_match(options, " ".join(first)) is options[0]
    made_up = fake("c1", "x 1y", "x1 y", "a b", "ab")
    assert exact_match(made_up, "C 1").notation == "c1"
    assert exact_match(made_up, "x1y") is None  # two options read so: not a choice
    assert exact_match(made_up, "A B").notation == "a b"  # spaces as written win


# -- playing with scripted input ----------------------------------------------------------

def session(name: str, seats: dict[int, str], answers: list[str], seed: int = 1,
            options: dict[str, Any] | None = None, width: int = 80, height: int = 24,
            fit: bool = True, save: Path | None = None
            ) -> tuple[PlaySession, io.StringIO, list[str]]:
    game = load_game(name, options)
    players = len(seats)
    script = iter(answers)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(script)

    out = io.StringIO()
    console = Console(file=out, width=width, height=height, color_system=None)
    play = PlaySession(game, game.new_state(players, seed), seats, build_agents(game, seats, seed),
                       SavedGame.start(game, players, seed, seats), console, ask,
                       save_path=save, interactive=False, colour=False, fit=fit)
    return play, out, prompts


def test_a_typed_narrowing_lists_only_those_options_then_a_number_plays() -> None:
    play, out, _ = session("caldera", {1: "human", 2: "random"}, ["a 2", "zz", "?", "quit"],
                           seed=1)
    options = play.game.legal_options(play.state, 1)
    assert play.run() == 0
    text = out.getvalue()
    listed = text.split("options with 'a 2'")[1].split("Player 1>")[0]
    involved = [o for o in options if re.search(r"\ba2\b", o.notation + " " + o.label)]
    assert involved and all(o.notation in listed for o in involved)
    assert all(o.notation not in listed for o in options if o not in involved)
    assert "'zz' is not a legal option" in text
    assert "How to choose" in text and "undo" in text


def test_the_first_screen_fits_80x24_with_the_board_and_the_options() -> None:
    for name, options in (("caldera", None), ("high-rise", {"rows": 8, "cols": 8})):
        game, state, seat = midgame(name, 0, options, seed=2)
        seen = view(game, state, seat)
        console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
        screen = turn_screen(console, game, seen, seen["log"],
                             game.legal_options(state, seat), False, 23, 80)
        assert height_of(console, screen, 80) <= 22  # the rule above, the prompt below
        console.print(screen)
        text = console.file.getvalue()  # type: ignore[attr-defined]
        assert text.count("│ 1 │") == 1 and re.search(r"│\s+│\s+a\s+│", text)
        assert "groups" in text or "options" in text
    wide = turn_screen(console, game, seen, seen["log"], game.legal_options(state, seat),
                       False, None, 80)
    assert height_of(console, wide, 80) > 40  # no height known: everything is printed


def test_on_a_short_screen_your_own_hand_comes_before_the_legends() -> None:
    game, state, seat = midgame("aquarius-rising", 0, seed=4)
    seen = view(game, state, seat)
    console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    screen = turn_screen(console, game, seen, seen["log"], game.legal_options(state, seat),
                         False, 23, 80)
    assert height_of(console, screen, 80) <= 22
    console.print(screen)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Player 1 (you)" in text and "  Hand: " in text
    assert "x runs east" not in text  # the legend gave way (`state` shows it)


def test_a_narrowed_list_too_long_for_80x24_is_paged_with_more() -> None:
    answers = ["rM", "more", "more", "more", "more", "25", "quit"]
    play, out, _ = session("high-rise", {1: "human", 2: "random"}, answers, seed=3,
                           options={"rows": 8, "cols": 8})
    assert play.run() == 0
    screens = out.getvalue().split("─" * 80)[1:]
    for screen in screens[:6]:  # each below its rule, above the prompt: 22 lines
        assert len(screen.strip("\n").splitlines()) <= 22, screen
    pages = [re.search(r"Options with 'rM', (\d+)(?:–(\d+))? of 64: `more` shows the "
                       r"(next ones|first ones again)", s) for s in screens[1:6]]
    assert all(pages), screens[1]
    spans = [(int(m[1]), int(m[2] or m[1])) for m in pages]
    last = next(i for i, (_, end) in enumerate(spans) if end == 64)
    assert last >= 1 and spans[0][0] == 1 and spans[last + 1][0] == 1, spans  # wraps
    assert all(spans[i + 1][0] == spans[i][1] + 1 for i in range(last)), spans
    assert [m[3] for m in pages[:last + 1]] == ["next ones"] * last + ["first ones again"]
    listed = re.findall(r"\d+ (rM-[a-h]\d)", "".join(screens[1:last + 2]))
    squares = {f"rM-{c}{r}" for c in "abcdefgh" for r in range(1, 9)}
    assert len(listed) == 64 and set(listed) == squares  # every one once
    chosen = re.search(r"(?<!\d)25 (rM-\w+)", "".join(screens[1:last + 2]))
    assert chosen and play.record.decisions[1] == (1, chosen[1])  # its number chooses it


def test_undo_takes_back_the_decision_and_the_computer_replies_exactly() -> None:
    answers = ["1", "1", "undo", "1", "quit"]
    play, out, _ = session("caldera", {1: "human", 2: "random"}, answers, seed=2)
    assert play.run() == 0
    text = out.getvalue()
    assert "Took back your decision" in text
    decisions = play.record.decisions
    again, _, _ = session("caldera", {1: "human", 2: "random"}, ["1", "1", "quit"], seed=2)
    again.run()
    assert decisions == again.record.decisions  # same choice, same replies
    assert replay(play.game, play.record).decisions == len(decisions)


def test_choosing_mcts_for_a_game_that_hides_anything_says_it_sees_it_all() -> None:
    note = "mcts sees all that is hidden"
    for game, says in (("high-rise", True), ("bottoms-up", True), ("caldera", False)):
        players = ["--players", "4"] if game == "bottoms-up" else []
        done = invoke("play", game, *players, "--seat", "2=mcts:playouts=5", input="quit\n")
        assert done.exit_code == 0, done.output
        assert (note in done.stdout) is says, game
    fair = invoke("play", "high-rise", "--seat", "2=ismcts:playouts=5", input="quit\n")
    assert note not in fair.stdout


def test_undo_reaches_back_past_a_load(tmp_path: Path) -> None:
    save = tmp_path / "caldera.json"
    first = invoke("play", "caldera", "--seed", "4", "--save", str(save),
                   input="1\n1\n1\nquit\n")
    assert first.exit_code == 0, first.output
    before = read_save(save)
    before_json = json.loads(save.read_text())
    mine = [i for i, (seat, _) in enumerate(before.decisions) if seat == 1]
    game = load_game("caldera")
    again = invoke("play", "--load", str(save), input="undo\nquit\n")
    assert again.exit_code == 0, again.output
    notation = before.decisions[mine[-1]][1]
    # in the option's words, as the log said it (caldera: "Move the cap on ...")
    assert re.search(rf"Took back your decision \w[^\n]* \({re.escape(notation)}\)",
                     again.stdout), again.stdout
    after = read_save(save)
    assert after.decisions == before.decisions[:mine[-1]]  # the save is rewound too
    replayed = replay(game, after)
    assert game.deciding_seats(replayed) == [1]
    # Taking the same option again, the computer replies as after a load of that point.
    taken = before.decisions[mine[-1]][1]
    resumed = tmp_path / "resumed.json"
    resumed.write_text(save.read_text())
    save.write_text(json.dumps(before_json))
    assert invoke("play", "--load", str(save), input=f"undo\n{taken}\nquit\n").exit_code == 0
    assert invoke("play", "--load", str(resumed), input=f"{taken}\nquit\n").exit_code == 0
    redone, loaded = read_save(save), read_save(resumed)
    assert len(redone.decisions) > len(after.decisions) + 1  # the computer replied
    assert redone.decisions == loaded.decisions


def test_undo_is_refused_after_a_secret_decision_of_another_seat() -> None:
    seats = {1: "human", 2: "random", 3: "random", 4: "random"}
    play, out, _ = session("bottoms-up", seats, ["1", "undo", "quit"], seed=1)
    play.run()
    assert "Cannot undo: Player 2 made a secret decision after yours." in out.getvalue()


def test_undo_is_refused_after_chance_or_a_reveal() -> None:
    play, out, _ = session("aquarium", {1: "human", 2: "random"}, ["1", "undo", "quit"])
    before = len(play.record.decisions)
    play.run()
    assert re.search(r"Cannot undo: (chance came into play|something hidden from you was "
                     r"revealed)", out.getvalue())
    assert len(play.record.decisions) > before  # nothing was taken back


def test_undo_never_crosses_another_persons_decision() -> None:
    seats = {1: "human", 2: "human"}
    asked = {1: 0, 2: 0}
    tried = []

    def answer(prompt: str) -> str:
        seat = int(prompt.split()[1].rstrip(">"))
        asked[seat] += 1
        if seat == 2:
            return "undo" if asked[2] == 1 else "1"
        if asked[2] >= 2:  # Player 2 has decided since Player 1's last decision
            if tried:
                return "quit"
            tried.append(True)
            return "undo"
        return "1"

    game = load_game("caldera")
    out = io.StringIO()
    play = PlaySession(game, game.new_state(2, 2), seats, build_agents(game, seats, 2),
                       SavedGame.start(game, 2, 2, seats), Console(file=out, width=80),
                       answer, interactive=False, colour=False)
    play.run()
    text = out.getvalue()
    assert "Nothing to undo" in text  # Player 2 had not decided yet
    assert "Cannot undo: Player 2 (a person) has decided since." in text


def test_state_and_log_show_what_the_seat_may_see() -> None:
    seats = {1: "human", 2: "random", 3: "random", 4: "random"}
    play, out, _ = session("bottoms-up", seats, ["1", "state", "log", "quit"], seed=3)
    secrets = {s: play.state.seat_vars["secret_colour"][s - 1] for s in seats}
    play.run()
    text = out.getvalue()
    shown = text.split("What you may see")[1]
    assert f"Your secret colour: {secrets[1]}" in shown  # under its label, only its own
    assert all(f"secret colour: {secrets[s]}" not in shown for s in (2, 3, 4))
    log = text.split("The game so far")[1]
    assert "Player 2 decided (secret)" in log


# -- a real terminal ----------------------------------------------------------------------

def tabletop() -> list[str]:
    exe = console_script()
    return [exe] if exe else [sys.executable, "-m", "interpreter.cli"]


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (a real terminal)")
@pytest.mark.parametrize(("args", "header", "bottom_row"), [
    (["caldera", "--seed", "1"], "Caldera — turn 1", r"│\s+│\s+a\s+│\s+b"),
    (["high-rise", "--option", "rows=8", "--option", "cols=8", "--seed", "2"],
     "High Rise — turn", r"│\s+│\s+a\s+│.*│\s+h\s+│"),
])
def test_board_and_prompt_share_one_80x24_screen(args: list[str], header: str,
                                                 bottom_row: str) -> None:
    tmux = ["tmux", "-L", f"tabletop-fit-{os.getpid()}-{args[0]}", "-f", "/dev/null"]
    command = shlex.join([*tabletop(), "play", *args]) + "; sleep 60"
    subprocess.run([*tmux, "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
                    "-c", str(ROOT), command], check=True, timeout=30)

    def screen() -> str:  # the visible screen only, no scrollback
        return subprocess.run([*tmux, "capture-pane", "-p", "-t", "t"], capture_output=True,
                              text=True, check=True, timeout=30).stdout

    try:
        deadline = time.monotonic() + 30
        while "Player 1>" not in screen() and time.monotonic() < deadline:
            time.sleep(0.1)
        shown = screen()
        assert "Player 1>" in shown, shown
        assert header in shown, shown
        assert "│ 1 │" in shown and re.search(bottom_row, shown), shown
        assert "options" in shown, shown
        assert len(shown.rstrip("\n").splitlines()) <= 24
    finally:
        subprocess.run([*tmux, "kill-server"], check=False, timeout=30)


# -- saves of ruleset files ---------------------------------------------------------------

@pytest.fixture
def own_rules(tmp_path: Path) -> Path:
    """High Rise as a ruleset file of a game that is not bundled."""
    text = (ROOT / "rulesets" / "high-rise.yaml").read_text()
    rules = tmp_path / "my-rise.yaml"
    rules.write_text(re.sub(r"(?m)^  name: high-rise$", "  name: my-rise", text, count=1))
    return rules


def test_a_game_from_a_ruleset_file_is_continued_by_the_command_it_names(
        own_rules: Path, tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    first = invoke("play", str(own_rules), "--seed", "6", "--save", str(save),
                   input="1\n1\nquit\n")
    assert first.exit_code == 0, first.output
    named = f"tabletop play {shlex.quote(str(own_rules))} --load {shlex.quote(str(save))}"
    assert named in first.stdout
    bare = invoke("play", "--load", str(save), input="quit\n")
    assert bare.exit_code == 1 and "not a bundled game" in bare.stderr
    assert "Traceback" not in bare.stderr
    second = invoke(*shlex.split(named)[1:], input="1\nquit\n")
    assert second.exit_code == 0, second.output
    assert "after 4 decisions" in second.stdout
    assert len(read_save(save).decisions) == 6


def _edit_and_break(rules: Path, save: Path, break_at: int) -> None:
    """Change the ruleset's text (so its hash) and make decision `break_at` illegal."""
    rules.write_text(rules.read_text().replace("Board rows", "Rows of the board", 1))
    data = json.loads(save.read_text())
    data["decisions"][break_at - 1][1] = "zz-nowhere"
    save.write_text(json.dumps(data))


def test_force_replays_an_edited_ruleset_as_far_as_it_stays_legal(
        own_rules: Path, tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    assert invoke("play", str(own_rules), "--seed", "6", "--save", str(save),
                  input="1\n1\n1\nquit\n").exit_code == 0
    _edit_and_break(own_rules, save, 5)
    refused = invoke("play", str(own_rules), "--load", str(save), input="quit\n")
    assert refused.exit_code == 1
    assert "the ruleset changed" in refused.stderr and "--force" in refused.stderr
    forced = invoke("play", str(own_rules), "--load", str(save), "--force", input="quit\n")
    assert forced.exit_code == 0, forced.output
    assert "Decision 5 of 6 (Player" in forced.stdout
    assert "continues after decision 4" in forced.stdout
    kept = json.loads(save.read_text())
    assert len(kept["decisions"]) == 6  # the save itself is untouched
    replayed = read_save(tmp_path / "s.replayed.json")
    assert len(replayed.decisions) == 4
    again = invoke("play", str(own_rules), "--load", str(tmp_path / "s.replayed.json"),
                   input="quit\n")
    assert again.exit_code == 0 and "after 4 decisions" in again.stdout


def test_force_without_load_or_save_is_a_usage_error() -> None:
    result = invoke("play", "caldera", "--force")
    assert result.exit_code == 1
    assert "--force replaces the file of --save FILE, or replays a saved game (--load " \
           "FILE)" in result.stderr

