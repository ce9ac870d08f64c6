"""A ruleset's `computer_players`: the settings its searching players start from,
checked like `--agent`, replaced whole by a variant; settings given to `--agent` win."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.agents import make_agent, ruleset_settings, ruleset_settings_note
from interpreter.assemble.game import compile_game
from interpreter.errors import RulesetError
from interpreter.load.loader import load_ruleset, load_ruleset_text
from interpreter.play.game import Game
from interpreter.simulate.playout import make_agents, seat_agents

ROOT = Path(__file__).resolve().parents[1]
MINIMAL = (ROOT / "tests" / "rulesets" / "minimal.yaml").read_text(encoding="utf-8")


def _game(extra: str) -> Game:
    return compile_game(load_ruleset_text(MINIMAL + extra, "t.yaml"))


def _problems(extra: str) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        _game(extra)
    return info.value


def test_the_rulesets_settings_are_where_a_searching_player_starts() -> None:
    game = _game("computer_players:\n  mcts: judge=score,lead=2\n  ismcts: playouts=30\n")
    assert game.computer_players == {"mcts": {"judge": "score", "lead": 2.0},
                                     "ismcts": {"playouts": 30}}
    agent = make_agent("mcts", 1, game)
    assert (agent.judge_at_once, agent.lead, agent.playouts) == (True, 2.0, 400)
    agent = make_agent("mcts:lead=5,playouts=50", 1, game)  # the command line's win
    assert (agent.judge_at_once, agent.lead, agent.playouts) == (True, 5.0, 50)
    assert make_agent("ismcts", 1, game).playouts == 30
    assert not make_agent("mcts", 1).judge_at_once  # no game: the player's own defaults
    agents = make_agents(2, 7, "mcts", game)
    assert all(a.judge_at_once for a in agents.values())
    seats = seat_agents(game, {1: "human", 2: "mcts:judge=play"}, 7)
    assert list(seats) == [2] and not seats[2].judge_at_once


def test_a_game_without_them_leaves_the_players_as_they_are() -> None:
    assert _game("").computer_players == {}


@pytest.mark.parametrize(("extra", "words"), [
    ("computer_players:\n  mcts: judge=scores\n", "computer_players.mcts: agent 'mcts': judge "
     "is one of play, score, not 'scores'; did you mean 'score'?"),
    ("computer_players:\n  mcts: plays=4\n", "did you mean 'playouts'"),
    ("computer_players:\n  mcts: playouts=0\n", "at least 1"),
    ("computer_players:\n  ismcts: judge\n", "KEY=VALUE"),
    ("computer_players:\n  mcts: 800\n", "settings are text such as 'playouts=800', not a "
     "bare number"),
    ("computer_players:\n  ismcts: 0.5\n", "such as 'seconds=0.5'"),
])
def test_bad_settings_are_reported_where_they_are_written(extra: str, words: str) -> None:
    err = _problems(extra)
    line = MINIMAL.count("\n") + 2
    assert any(words in d.message and d.location is not None and d.location.line == line
               for d in err.diagnostics), str(err)


def test_only_the_searching_players_take_settings() -> None:
    err = _problems("computer_players:\n  random: playouts=4\n")
    assert "random" in str(err)
    assert any(d.location is not None and d.location.line == MINIMAL.count("\n") + 2
               for d in err.diagnostics), str(err)


def test_a_variant_replaces_them_whole(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(
        MINIMAL + "computer_players:\n  mcts: judge=score\n  ismcts: judge=score\n",
        encoding="utf-8")
    (tmp_path / "v.yaml").write_text(
        "tabletop: 1\nextends: base.yaml\ngame: {name: v, title: V}\n"
        "computer_players:\n  mcts: depth=5\n", encoding="utf-8")
    (tmp_path / "w.yaml").write_text(
        "tabletop: 1\nextends: base.yaml\ngame: {name: w, title: W}\n", encoding="utf-8")
    assert compile_game(load_ruleset(tmp_path / "v.yaml")).computer_players == {
        "mcts": {"depth": 5}}
    assert compile_game(load_ruleset(tmp_path / "w.yaml")).computer_players == {
        "mcts": {"judge": "score"}, "ismcts": {"judge": "score"}}


def test_analyze_says_which_settings_the_ruleset_gave(tmp_path: Path) -> None:
    """A designer reading a report must know its `mcts` is not the default one."""
    import json

    from typer.testing import CliRunner

    from interpreter.cli.app import app

    path = tmp_path / "m.yaml"
    path.write_text(MINIMAL + "computer_players:\n  mcts: judge=score,playouts=20\n",
                    encoding="utf-8")
    runner = CliRunner()
    shown = runner.invoke(app, ["analyze", str(path), "--agents", "random,MCTS", "-n", "4"])
    assert shown.exit_code == 0, shown.output
    assert ("computer players as the ruleset sets them: mcts:judge=score,playouts=20"
            in shown.output)
    result = runner.invoke(app, ["analyze", str(path), "--agents", "random,mcts", "-n", "4",
                                 "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["variants"][0]["computer_players"] == {"mcts": "judge=score,playouts=20"}
    only_random = runner.invoke(app, ["analyze", str(path), "-n", "4", "--json"])
    assert json.loads(only_random.stdout)["variants"][0]["computer_players"] == {}


def test_a_person_and_an_unknown_name_take_no_settings() -> None:
    game = _game("computer_players:\n  mcts: judge=score\n  ismcts: playouts=30\n")
    assert ruleset_settings(game, ["human", "Mcts:playouts=9", "nobody", "random"]) == {
        "mcts": "judge=score"}
    assert ruleset_settings_note(game, ["human", "random"]) is None
    assert ruleset_settings_note(game, ["ismcts"]) == (
        "This game's ruleset sets how its computer players play: ismcts:playouts=30 "
        "(a setting given to a seat wins).")


def test_play_and_the_browser_say_the_ruleset_sets_how_a_player_plays(
        tmp_path: Path) -> None:
    from console import invoke
    from serve_support import serving

    path = tmp_path / "m.yaml"
    path.write_text(MINIMAL + "computer_players:\n  mcts: judge=score,playouts=5\n",
                    encoding="utf-8")
    note = "This game's ruleset sets how its computer players play: mcts:judge=score,playouts=5"
    for seat, says in (("2=mcts", True), ("2=random", False)):
        done = invoke("play", str(path), "--seat", seat, input="quit\n")
        assert done.exit_code == 0, done.output
        assert (note in " ".join(done.stdout.split())) is says, done.stdout
    with serving(tmp_path, extra={"m": path}) as client:
        offered = {g["name"]: g for g in client.get("/api/rulesets").json()}
        assert offered["m"]["computer_players"] == {"mcts": "judge=score,playouts=5"}
        assert offered["caldera"]["computer_players"] == {}
        for seat, says in (("mcts:playouts=7", True), ("random", False)):
            made = client.post("/api/games", json={"ruleset": "m", "seats": {"2": seat}})
            assert made.status_code == 201, made.text
            assert any(note in n for n in made.json()["notes"]) is says
