"""The studio's new-game templates: each, under the designer's name and title, is a valid
ruleset (as `tabletop validate` checks it), plays 200 random games to their end, and comes
with a tests file whose cases pass (as `tabletop test` runs them)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from console import invoke

from interpreter.api import load_game
from interpreter.errors import UsageError
from interpreter.load.catalog import bundled_catalog
from interpreter.scenarios.runner import run_scenario_files
from interpreter.simulate.playout import make_agents, play_game
from interpreter.studio.templates import TEMPLATES, default_title, template

TEMPLATE_DIR = Path(__file__).resolve().parents[1] / "interpreter" / "studio" / "templates"

NAMES = [
    ("my-game", "My Game"),
    ("x2", 'The "Quoted": a title # with {braces}, a colon and \'quotes\''),
]
TITLES = ["2048", "No", "null", "- dash", "Tab\u00e9 – «ok»", "a: b", "[list]", "&anchor",
          "*star", "x #y", "'single'", "trailing:", "%percent", "@at", "`tick`", "Won't Stop!"]


def write_game(folder: Path, template_id: str, name: str, title: str) -> Path:
    """The game as the studio writes a new one: NAME.yaml with NAME.tests.yaml beside it."""
    t = template(template_id)
    path = folder / f"{name}.yaml"
    path.write_text(t.ruleset_text(name, title), encoding="utf-8")
    (folder / f"{name}.tests.yaml").write_text(t.tests_text(name), encoding="utf-8")
    return path


@pytest.mark.parametrize("name,title", NAMES)
@pytest.mark.parametrize("template_id", [t.id for t in TEMPLATES])
def test_a_new_game_validates_with_the_designers_name_and_title(
        tmp_path: Path, template_id: str, name: str, title: str) -> None:
    path = write_game(tmp_path, template_id, name, title)
    result = invoke("validate", str(path), str(path.with_name(f"{name}.tests.yaml")))
    assert result.exit_code == 0, result.output + result.stderr
    game = yaml.safe_load(path.read_text(encoding="utf-8"))["game"]
    assert game["name"] == name
    assert game["title"] == title
    assert load_game(path).ruleset.game.title == title


@pytest.mark.parametrize("title", TITLES)
def test_any_one_line_title_reads_back_as_written(title: str) -> None:
    text = TEMPLATES[0].ruleset_text("t", title)
    assert yaml.safe_load(text)["game"]["title"] == title


@pytest.mark.parametrize("template_id", [t.id for t in TEMPLATES])
def test_its_tests_file_passes(tmp_path: Path, template_id: str) -> None:
    path = write_game(tmp_path, template_id, "new-game", "New Game")
    results = run_scenario_files([path.with_name("new-game.tests.yaml")])
    assert len(results) >= 4
    assert [r.name for r in results if not r.passed] == [], [r.message for r in results]
    result = invoke("test", str(path.with_name("new-game.tests.yaml")))
    assert result.exit_code == 0 and "0 failed" in result.output, result.output


@pytest.mark.parametrize("template_id", [t.id for t in TEMPLATES])
def test_200_random_games_play_to_the_end(tmp_path: Path, template_id: str) -> None:
    game = load_game(write_game(tmp_path, template_id, "fuzz", "Fuzz"))
    seats = game.ruleset.game.seats
    ends: set[str] = set()
    for seed in range(200):
        players = seats.min + seed % (seats.max - seats.min + 1)
        result = play_game(game, players, seed, make_agents(players, seed), keep_state=True)
        assert result.final_state is not None and result.final_state.over
        ends.add(str(result.final_state.reason))
    # every end rule the template teaches is reached by random play
    assert len(ends) == len(game.ruleset.end), ends


def test_the_templates_are_valid_in_place_and_listed_with_words_to_choose_by() -> None:
    assert [t.id for t in TEMPLATES] == ["grid", "cards", "stacking"]
    for t in TEMPLATES:
        assert t.title and len(t.summary) > 40
        assert invoke("validate", str(TEMPLATE_DIR / f"{t.id}.yaml")).exit_code == 0
        assert t.ruleset_text(t.name, t.game_title) == (
            TEMPLATE_DIR / f"{t.id}.yaml").read_text(encoding="utf-8")


def test_no_template_names_a_bundled_game() -> None:
    words = {e["name"] for e in bundled_catalog()} | {e["title"] for e in bundled_catalog()}
    words |= {w.replace("-", " ") for w in words}
    own = "\n".join(p.read_text(encoding="utf-8") for p in TEMPLATE_DIR.glob("*.yaml"))
    own += "\n".join(f"{t.title} {t.summary} {t.name} {t.game_title}" for t in TEMPLATES)
    for word in words:
        if word.lower() == "hex":  # the name of a kind of board, too (`kind: hex`)
            continue
        assert not re.search(rf"\b{re.escape(word)}\b", own, re.IGNORECASE), word


@pytest.mark.parametrize("name", ["", "My-Game", "-game", "my game", "../up", "a" * 61,
                                  "my_game", "game.yaml"])
def test_a_name_that_cannot_be_a_file_id_is_refused_with_a_clear_message(name: str) -> None:
    with pytest.raises(UsageError, match="name"):
        TEMPLATES[0].ruleset_text(name, "Title")
    with pytest.raises(UsageError, match="name"):
        TEMPLATES[0].tests_text(name)


@pytest.mark.parametrize("title", ["", "   ", "two\nlines", "x" * 101])
def test_a_title_that_is_no_one_line_of_text_is_refused(title: str) -> None:
    with pytest.raises(UsageError, match="title"):
        TEMPLATES[1].ruleset_text("game", title)


def test_an_unknown_template_names_the_others() -> None:
    with pytest.raises(UsageError, match="grid, cards, stacking"):
        template("chess")


def test_the_title_defaults_to_the_name_in_words() -> None:
    assert default_title("my-first-game") == "My First Game"
    assert yaml.safe_load(TEMPLATES[2].ruleset_text("my-first-game"))["game"]["title"] == (
        "My First Game")


def test_the_tests_file_names_the_new_ruleset_only() -> None:
    for t in TEMPLATES:
        text = t.tests_text("brand-new")
        assert yaml.safe_load(text)["ruleset"] == "brand-new.yaml"
        assert t.name not in text


# -- benchmarks/studio.py: a benchmark, not a test; only its arguments are checked here ---

def _benchmark() -> Any:
    spec = importlib.util.spec_from_file_location(
        "studio_benchmark", Path(__file__).resolve().parents[1] / "benchmarks" / "studio.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_keystroke_benchmarks_arguments(tmp_path: Path) -> None:
    bench = _benchmark()
    args = bench.parse_args(["--games", "nim", "--games", "pig", "-n", "2", "--json"])
    assert (args.games, args.n, args.json) == (["nim", "pig"], 2, True)
    assert bench.bundled(args.games) == ["nim", "pig"]
    every = bench.bundled(None)
    assert "caldera-two-trios" in every and not any(n.endswith(".tests") for n in every)
    with pytest.raises(SystemExit, match="unknown game chess"):
        bench.bundled(["chess"])
    with pytest.raises(SystemExit):
        bench.parse_args(["-n", "0"])
    bench.copy_games(["tic-tac-toe"], tmp_path)
    assert yaml.safe_load((tmp_path / "tic-tac-toe.tests.yaml").read_text())["ruleset"] == (
        "tic-tac-toe.yaml")
