"""The `tabletop` command line: every command, its JSON contracts and its error messages.

Commands run in-process through Typer's CliRunner (stdin is not a terminal there, so
`play` never asks questions and prints without colours).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest
from console import console_script, invoke
from rich.console import Console
from typer.testing import CliRunner

from interpreter.api import load_game
from interpreter.cli.play import PlaySession
from interpreter.cli.play_command import build_agents
from interpreter.run.view import view
from interpreter.simulate.record import SavedGame, read_save, replay
from interpreter.view.render import render_view

ROOT = Path(__file__).resolve().parents[1]

BAD_RULESET = """\
tabletop: 1
game:
  name: bad
  title: Bad
  designer: nobody
  seats: {min: 2, max: 2}
  summary: a ruleset with a mistake
  colour: red
pieces:
  attributes: {a: {values: [1]}}
  sets: [{id: s, each: {a: [1]}, start: box}]
zones: [{id: box, kind: pile}]
turn: []
"""

# High Rise on its default 3×3 board: each player places 25 pieces, then it is over.
HIGH_RISE_MOVES = 25




def first_legal(game_name: str, seed: int) -> str:
    game = load_game(game_name)
    state = game.new_state(None, seed)
    return game.legal_options(state, game.deciding_seats(state)[0])[0].notation


# -- help and version --------------------------------------------------------------------

@pytest.mark.parametrize("command", ["", "list", "validate", "schema", "play", "run",
                                     "simulate", "test"])
def test_help(command: str) -> None:
    result = invoke(*([command] if command else []), "--help")
    assert result.exit_code == 0
    assert "Usage" in result.stdout


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout.startswith("tabletop ")


# -- list, validate, schema ----------------------------------------------------------------

def test_list() -> None:
    result = invoke("list")
    assert result.exit_code == 0
    assert "caldera" in result.stdout
    result = invoke("list", "caldera")
    assert result.exit_code == 0 and "power_play" in result.stdout


def test_list_json() -> None:
    result = invoke("list", "--json")
    assert result.exit_code == 0
    games = {g["name"]: g for g in json.loads(result.stdout)}
    caldera = games["caldera"]
    assert caldera["seats"] == {"min": 2, "max": 3}
    assert caldera["options"][0]["id"] == "power_play"
    assert caldera["options"][0]["default"] is True


def test_validate_ok() -> None:
    result = invoke("validate", "caldera", "rulesets/high-rise.yaml")
    assert result.exit_code == 0
    assert result.stdout.count("ok: ") == 2


def test_validate_bad_ruleset_reports_location(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_RULESET)
    result = invoke("validate", "caldera", str(bad))
    assert result.exit_code == 1
    assert f"{bad}:8:3: error: unknown key 'colour'" in result.stderr
    assert "ok: " in result.stdout  # the good one is still checked and reported


def test_validate_checks_scenario_files_as_such(tmp_path: Path) -> None:
    result = invoke("validate", str(ROOT / "rulesets" / "caldera.tests.yaml"))
    assert result.exit_code == 0, result.stderr
    assert "(scenario tests)" in result.stdout
    bad = tmp_path / "caldera.tests.yaml"
    bad.write_text(f"ruleset: {ROOT / 'rulesets' / 'caldera.yaml'}\ncases:\n"
                   "  - name: x\n    seed: 1\n    expect: [trois(1) == 0]\n")
    result = invoke("validate", str(bad))
    assert result.exit_code == 1
    assert f"{bad}:5:" in result.stderr and "trios" in result.stderr


def test_validate_missing_file() -> None:
    result = invoke("validate", "no/such/file.yaml")
    assert result.exit_code == 1
    assert "no such ruleset file" in result.stderr


def test_schema_is_json(tmp_path: Path) -> None:
    result = invoke("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["title"] == "Tabletop ruleset"
    out = tmp_path / "schema.json"
    assert invoke("schema", "--out", str(out)).exit_code == 0
    assert json.loads(out.read_text()) == schema


# -- run -----------------------------------------------------------------------------------

def test_run_json_is_deterministic() -> None:
    first = invoke("run", "caldera", "--seed", "3", "--json")
    second = invoke("run", "caldera", "--seed", "3", "--json")
    assert first.exit_code == 0
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    for key in ("winners", "scores", "turns", "log", "final_state", "draw", "reason",
                "seed", "players", "options"):
        assert key in data
    assert isinstance(data["winners"], list) and data["log"]
    assert data["final_state"]["ended"]["winners"] == data["winners"]  # a readable position
    assert data["engine_state"]["over"] is True  # the engine's own, for tools
    assert data["draw"] == (len(data["winners"]) != 1)


def test_run_human_summary() -> None:
    result = invoke("run", "high-rise", "--seed", "1", "--option", "rows=4")
    assert result.exit_code == 0
    assert "High Rise, 2 players, seed 1" in result.stdout


def test_run_with_moves_file(tmp_path: Path) -> None:
    move = first_legal("caldera", 1)
    moves = tmp_path / "moves.txt"
    moves.write_text(f"# opening\n\n{move}\n")
    result = invoke("run", "caldera", "--seed", "1", "--moves", str(moves), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["log"][0] == move


def test_run_with_moves_from_stdin() -> None:
    move = first_legal("caldera", 1)
    result = invoke("run", "caldera", "--seed", "1", "--moves", "-", "--json",
                    input=move + "\n")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["log"][0] == move


def test_run_illegal_move_names_its_line(tmp_path: Path) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_text(f"{first_legal('caldera', 1)}\n# then\nzz-nowhere\n")
    result = invoke("run", "caldera", "--seed", "1", "--moves", str(moves), "--json")
    assert result.exit_code == 1
    assert "line 3" in result.stderr and "not a legal option" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(("args", "message"), [
    (["run", "caldra"], "did you mean 'caldera'"),
    (["run", "caldera", "--option", "power=false"], "did you mean 'power_play'"),
    (["run", "caldera", "--option", "power_play=maybe"], "use true or false"),
    (["run", "caldera", "--option", "power_play"], "KEY=VALUE"),
    (["run", "caldera", "--players", "7"], "takes 2 to 3 players"),
    (["run", "caldera", "--moves", "no-such-moves.txt"], "cannot read the moves file"),
    (["run", "caldera", "--agent", "rando"], "did you mean 'random'"),
    (["play", "caldera", "--seat", "3=human"], "no seat 3"),
    (["play", "caldera", "--seat", "2=robot"], "unknown kind 'robot'"),
    (["play", "caldera", "--seat", "two"], "SEAT=KIND"),
    (["play"], "name the game"),
    (["simulate", "caldera", "-n", "0"], "at least 1"),
])
def test_bad_arguments_give_one_clear_message(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 1
    assert message in result.stderr
    assert result.stderr.startswith("error: ")


# -- simulate --------------------------------------------------------------------------------

def test_simulate_json() -> None:
    result = invoke("simulate", "high-rise", "-n", "5", "--seed", "2", "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["games"] == 5 and report["errors"] == 0
    assert sum(report["wins_by_seat"].values()) + report["draws"] == 5
    for key in ("mean_turns", "games_per_second"):
        assert key in report


def test_simulate_table() -> None:
    result = invoke("simulate", "caldera", "-n", "2")
    assert result.exit_code == 0
    assert "Win rate" in result.stdout and "No errors" in result.stdout


# -- play ------------------------------------------------------------------------------------

def test_play_to_the_end_against_random() -> None:
    result = invoke("play", "high-rise", "--seed", "4",
                    input="1\n" * (HIGH_RISE_MOVES + 5))
    assert result.exit_code == 0
    assert "Game over" in result.stdout
    assert "wins!" in result.stdout or "Draw" in result.stdout
    assert "Scores:" in result.stdout


def test_play_board_is_drawn_top_row_first() -> None:
    result = invoke("play", "caldera", "--seed", "1", input="quit\n")
    assert result.exit_code == 0
    out = result.stdout
    assert out.index("│ 5 │") < out.index("│ 1 │")
    assert "kS" in out  # a cap (black small) without colours: colour letter + size
    assert "Player 1: move a cap" in out


def test_play_illegal_input_then_valid() -> None:
    result = invoke("play", "high-rise", "--seed", "4",
                    input="zz\n999\nhelp\n" + "1\n" * (HIGH_RISE_MOVES + 5))
    assert result.exit_code == 0
    assert "'zz' is not a legal option" in result.stdout
    assert "there is no option 999" in result.stdout
    assert "Rulings" in result.stdout
    assert "Game over" in result.stdout


def test_play_accepts_notation_in_any_case(tmp_path: Path) -> None:
    move = first_legal("caldera", 1)
    save = tmp_path / "x.json"
    result = invoke("play", "caldera", "--seed", "1", "--save", str(save),
                    input=f"  {move.upper()} \nquit\n")
    assert result.exit_code == 0
    assert read_save(save).decisions[0] == (1, move)


def test_play_hides_what_the_seat_may_not_see() -> None:
    result = invoke("play", "high-rise", "--seed", "4", input="quit\n")
    assert "?" in result.stdout  # the dice under the covers
    game = load_game("high-rise")
    state = game.new_state(2, 4)
    shown = render_view(game, view(game, state, 1), colour=False)
    text = _text(shown)
    assert "?" in text and "die" not in text


def test_play_end_of_input_exits_1(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    result = invoke("play", "caldera", "--seed", "1", "--save", str(save), input="")
    assert result.exit_code == 1
    assert "End of input" in result.stdout
    assert read_save(save).decisions == []


def test_save_then_load_round_trip(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = invoke("play", "high-rise", "--seed", "6", "--save", str(save),
                   input="1\n1\n1\nquit\n")
    assert first.exit_code == 0
    saved = read_save(save)
    assert [seat for seat, _ in saved.decisions] == [1, 2, 1, 2, 1, 2]
    assert saved.seats == {1: "human", 2: "random"}
    data = json.loads(save.read_text())
    assert data["format"] == "tabletop-save" and data["version"] == 1
    assert data["game"] == "high-rise" and data["seed"] == 6

    game = load_game("high-rise")
    replayed = replay(game, saved)
    assert replayed.decisions == 6

    second = invoke("play", "--load", str(save), input="1\n" * (HIGH_RISE_MOVES + 5))
    assert second.exit_code == 0, second.output
    assert "after 6 decisions" in second.stdout
    assert "Game over" in second.stdout
    finished = read_save(save)
    assert len(finished.decisions) == 2 * HIGH_RISE_MOVES
    assert finished.decisions[:6] == saved.decisions
    assert replay(game, finished).over


def _saved_caldera(tmp_path: Path) -> Path:
    save = tmp_path / "c.json"
    assert invoke("play", "caldera", "--seed", "1", "--save", str(save),
                  input="1\nquit\n").exit_code == 0
    return save


@pytest.mark.parametrize(("tamper", "message"), [
    (lambda d: d.update(ruleset_hash="0" * 64), "the ruleset changed"),
    (lambda d: d.update(game="high-rise"), "not of 'caldera'"),
    (lambda d: d["decisions"].insert(0, [1, "zz-nowhere"]), "decision 1"),
    (lambda d: d.update(format="something"), "not a tabletop saved game"),
    (lambda d: d.pop("seed"), "damaged"),
])
def test_load_refuses_a_tampered_save(tmp_path: Path, tamper, message: str) -> None:
    save = _saved_caldera(tmp_path)
    data = json.loads(save.read_text())
    tamper(data)
    save.write_text(json.dumps(data))
    result = invoke("play", "caldera", "--load", str(save), input="quit\n")
    assert result.exit_code == 1
    assert message in result.stderr


def test_load_refuses_a_file_that_is_not_json(tmp_path: Path) -> None:
    save = tmp_path / "notes.txt"
    save.write_text("hello")
    result = invoke("play", "caldera", "--load", str(save))
    assert result.exit_code == 1
    assert "not JSON" in result.stderr


def test_load_refuses_game_arguments(tmp_path: Path) -> None:
    save = _saved_caldera(tmp_path)
    result = invoke("play", "caldera", "--load", str(save), "--seed", "3")
    assert result.exit_code == 1
    assert "come from the saved game" in result.stderr


def test_ctrl_c_saves_and_exits_1(tmp_path: Path) -> None:
    game = load_game("caldera")
    state = game.new_state(2, 2)  # seed 2: the first option erupts, so Player 2 moves next
    seats = {1: "human", 2: "random"}
    answers = iter(["1"])

    def ask(prompt: str) -> str:
        for answer in answers:
            return answer
        raise KeyboardInterrupt

    out = io.StringIO()
    save = tmp_path / "s.json"
    session = PlaySession(game, state, seats, build_agents(game, seats, 2),
                          SavedGame.start(game, 2, 2, seats), Console(file=out, width=100),
                          ask, save_path=save, interactive=True, colour=False)
    assert session.run() == 1
    assert "Interrupted" in out.getvalue()
    saved = read_save(save)
    assert saved.decisions[0][0] == 1 and len(saved.decisions) > 1
    assert any(seat == 2 for seat, _ in saved.decisions)  # the computer's moves are saved


def test_quit_offers_to_save_when_interactive(tmp_path: Path) -> None:
    game = load_game("caldera")
    seats = {1: "human", 2: "random"}
    target = tmp_path / "later.json"
    answers = iter(["1", "quit", "y", str(target)])
    out = io.StringIO()
    session = PlaySession(game, game.new_state(2, 1), seats, build_agents(game, seats, 1),
                          SavedGame.start(game, 2, 1, seats), Console(file=out, width=100),
                          lambda prompt: next(answers), interactive=True, colour=False)
    assert session.run() == 0
    assert read_save(target).decisions[0][0] == 1
    assert f"--load {target}" in out.getvalue()


def test_console_script_prints_no_traceback() -> None:
    exe = console_script()
    assert exe is not None, "the console script must be installed (pip install -e .)"
    done = subprocess.run([exe, "run", "caldra"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 1
    assert done.stderr.strip().startswith("error: unknown game 'caldra'")
    assert "Traceback" not in done.stderr



@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "caldera", "--bogus"], "No such option: --bogus"),
    (["simulate", "caldera", "-n", "abc"], "Invalid value for '-n'"),
    (["--bogus"], "No such option: --bogus"),
    (["simulate"], "Missing argument"),
])
def test_command_line_mistakes_exit_1_with_a_message(args: list[str], message: str) -> None:
    exe = console_script()
    assert exe is not None
    done = subprocess.run([exe, *args], capture_output=True, text=True, timeout=60,
                          check=False, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 1, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_output_into_a_closed_pipe_is_no_internal_error() -> None:
    """`tabletop simulate --help | head`: when the reader goes away mid-output, the
    command stops quietly (Typer's handling), not with an "internal error"."""
    import typer

    from interpreter.cli.app import _Group

    tiny = typer.Typer(cls=_Group)

    @tiny.command()
    def spill() -> None:
        raise BrokenPipeError(32, "Broken pipe")

    @tiny.command()
    def other() -> None:  # two commands, so `spill` is a subcommand as in tabletop
        pass

    result = CliRunner().invoke(tiny, ["spill"])
    assert result.exit_code == 1
    assert "internal error" not in result.output + result.stderr


# -- test ------------------------------------------------------------------------------------

def test_scenario_tests_command(tmp_path: Path) -> None:
    pytest.importorskip("interpreter.scenarios.runner")
    tests = tmp_path / "caldera.tests.yaml"
    move = first_legal("caldera", 1)
    tests.write_text(f"""\
ruleset: caldera
cases:
  - name: the first cap move is legal
    seed: 1
    legal_includes: [{move}]
  - name: a made-up move is legal
    seed: 1
    legal_includes: [zz-nowhere]
""")
    result = invoke("test", str(tests))
    assert result.exit_code == 1
    assert "✓ the first cap move is legal" in result.stdout
    assert "✗ a made-up move is legal" in result.stdout
    assert "1 passed, 1 failed" in result.stdout


def test_scenario_tests_unknown_game() -> None:
    pytest.importorskip("interpreter.scenarios.runner")
    result = invoke("test", "nope")
    assert result.exit_code == 1
    assert "unknown game 'nope'" in result.stderr


def _text(renderable) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_hot_seat_hides_each_seat_until_it_confirms() -> None:
    """Four people at one keyboard: before a seat's screen, the previous one is cleared
    and the seat must confirm; each screen shows that seat's secret colour only."""
    game = load_game("bottoms-up")
    seats = {s: "human" for s in range(1, 5)}
    state = game.new_state(4, 3)
    secrets = {s: state.seat_vars["secret_colour"][s - 1] for s in seats}
    prompts: list[str] = []
    answers = iter(["", "1", "", "1", "", "1", "", "1", "", "quit"])

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    out = io.StringIO()
    session = PlaySession(game, state, seats, build_agents(game, seats, 3),
                          SavedGame.start(game, 4, 3, seats), Console(file=out, width=100),
                          ask, interactive=False, colour=False)
    assert session.run() == 0
    assert [p for p in prompts if "press Enter" in p][:5] == [
        f"Player {s}, press Enter when you are at the keyboard: " for s in (1, 2, 3, 4, 1)]
    screens = out.getvalue().split("Pass the keyboard to")[1:]
    assert len(screens) >= 4
    for seat, screen in zip((1, 2, 3, 4), screens, strict=False):
        assert f"Your secret colour is {secrets[seat]}" in screen
        others = {secrets[s] for s in seats if s != seat}
        assert not any(f"Your secret colour is {c}" in screen for c in others)
        assert f"Your secret colour: {secrets[seat]}" in screen
        assert not any(f"secret colour: {c}" in screen for c in others)


def test_no_hand_over_without_secrets() -> None:
    game = load_game("caldera")
    seats = {1: "human", 2: "human"}
    prompts: list[str] = []
    answers = iter(["1", "quit"])

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    session = PlaySession(game, game.new_state(2, 1), seats, build_agents(game, seats, 1),
                          SavedGame.start(game, 2, 1, seats), Console(file=io.StringIO()),
                          ask, interactive=False, colour=False)
    session.run()
    assert not any("press Enter" in p for p in prompts)


def test_docs_check_passes_on_the_committed_rulebooks() -> None:
    result = invoke("docs", "--check", "--out", str(ROOT / "generated_docs"))
    assert result.exit_code == 0, result.stdout + result.stderr


def test_docs_check_fails_on_a_stale_folder(tmp_path: Path) -> None:
    result = invoke("docs", "--check", "--out", str(tmp_path / "nothing-here"))
    assert result.exit_code == 1
    assert "run: tabletop docs" in result.stderr
