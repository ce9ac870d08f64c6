"""The table panel's play mode through the studio's HTTP API: choose, undo, computer seats,
saving the position as a scenario case that `tabletop test` passes, and new files from a
template or as a variant of a bundled game."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")  # Starlette's note on its test client

from starlette.testclient import TestClient  # noqa: E402
from studio_support import studio_client  # noqa: E402

from interpreter.assemble.game import compile_game  # noqa: E402
from interpreter.load.catalog import rulesets_dir  # noqa: E402
from interpreter.scenarios.runner import run_scenario_files  # noqa: E402
from interpreter.studio import play  # noqa: E402
from interpreter.studio.workspace import Workspace  # noqa: E402


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in ("connect-four.yaml", "connect-four.tests.yaml", "perudo.yaml", "hex.yaml"):
        shutil.copy(rulesets_dir() / name, tmp_path / name)
    return tmp_path


@pytest.fixture
def ws(folder: Path) -> Workspace:
    return Workspace.open(folder)


@pytest.fixture
def client(ws: Workspace) -> TestClient:
    return studio_client(ws)


def post(client: TestClient, url: str, body: dict[str, Any] | None = None,
         status: int = 200) -> dict[str, Any]:
    reply = client.post(url, json=body or {})
    assert reply.status_code == status, reply.text
    return reply.json()


def pick(view: dict[str, Any], notation: str) -> int:
    return next(o["index"] for o in view["options"] if o["notation"] == notation)


def choose(client: TestClient, view: dict[str, Any], notation: str) -> dict[str, Any]:
    return post(client, f"/api/play/{view['session']}/choose",
                {"index": pick(view, notation), "version": view["version"]})


def test_the_designer_plays_every_seat_and_undoes(client: TestClient) -> None:
    view = post(client, "/api/play", {"path": "connect-four.yaml"})
    assert view["seat"] == 1 and view["deciding"] == [1] and not view["can_undo"]
    assert view["svg"].startswith("<svg") and len(view["options"]) == 7
    view = choose(client, view, "d1")
    assert view["seat"] == 2 and view["moves"] == ["d1"] and view["can_undo"]
    assert any("d1" in line for line in view["log"])
    view = choose(client, view, "d2")
    assert view["moves"] == ["d1", "d2"]
    view = post(client, f"/api/play/{view['session']}/undo")
    assert view["moves"] == ["d1"] and view["seat"] == 2
    stale = client.post(f"/api/play/{view['session']}/choose",
                        json={"index": 0, "version": view["version"] - 1})
    assert stale.status_code == 409
    wrong = client.post(f"/api/play/{view['session']}/choose",
                        json={"index": 99, "version": view["version"]})
    assert wrong.status_code == 400 and "no option 99" in wrong.json()["error"]
    post(client, f"/api/play/{view['session']}/undo")
    again = post(client, f"/api/play/{view['session']}/undo", status=400)
    assert "nothing" in again["error"] or "no decision" in again["error"]


def test_the_games_variables_are_shown_in_its_words(client: TestClient, folder: Path
                                                    ) -> None:
    shutil.copy(rulesets_dir() / "pig.yaml", folder / "pig.yaml")
    preview = post(client, "/api/check", {"path": "pig.yaml",
                                          "text": (folder / "pig.yaml").read_text()})
    assert {"label": "Score", "text": "Player 1: 0 · Player 2: 0"} in \
        preview["table"]["variables"]
    view = post(client, "/api/play", {"path": "pig.yaml"})
    assert [v["label"] for v in view["variables"]] == ["Score", "This turn's total"]
    assert post(client, "/api/play", {"path": "connect-four.yaml"})["variables"] == []


def test_a_computer_seat_answers_and_undo_takes_its_move_back(client: TestClient) -> None:
    view = post(client, "/api/play", {"path": "connect-four.yaml", "seats": {"2": "random"}})
    view = choose(client, view, "d1")
    assert len(view["moves"]) == 2 and view["moves"][0] == "d1"  # seat 2 answered
    assert view["seat"] == 1 and view["deciding"] == [1]
    view = choose(client, view, "a1")
    assert len(view["moves"]) == 4
    view = post(client, f"/api/play/{view['session']}/undo")
    assert len(view["moves"]) == 2 and view["seat"] == 1


def test_the_computer_opens_when_it_has_the_first_seat(client: TestClient) -> None:
    view = post(client, "/api/play", {"path": "connect-four.yaml", "seats": {"1": "random"}})
    assert len(view["moves"]) == 1 and view["seat"] == 2


def test_bad_play_requests_are_clear(client: TestClient) -> None:
    assert "seat 3" in post(client, "/api/play", {"path": "connect-four.yaml",
                                                   "seats": {"3": "random"}}, 400)["error"]
    assert "seat 2" in post(client, "/api/play", {"path": "connect-four.yaml",
                                                   "seats": {"2": "genius"}}, 400)["error"]
    assert post(client, "/api/play", {"path": "connect-four.yaml", "players": 5},
                400)["error"].startswith("the game cannot start")
    assert post(client, "/api/play/nosuch/undo", {}, 404)["error"]
    assert post(client, "/api/play", {"path": "../x.yaml"}, 403)["error"]


def test_hidden_dice_are_seen_from_the_deciding_seat(client: TestClient) -> None:
    view = post(client, "/api/play", {"path": "perudo.yaml", "players": 3, "seed": 4,
                                      "seats": {"2": "random", "3": "random"}})
    assert view["seat"] == 1 and view["options"]
    assert "(a message about something hidden from you)" not in view["log"][:1]


def test_save_case_creates_a_tests_file_that_passes(client: TestClient, folder: Path) -> None:
    view = post(client, "/api/play", {"path": "perudo.yaml", "players": 3, "seed": 4,
                                      "seats": {"3": "random"}})
    view = post(client, f"/api/play/{view['session']}/choose",
                {"index": 0, "version": view["version"]})
    saved = post(client, f"/api/play/{view['session']}/save-case", {"name": "opening bids"})
    tests = folder / "perudo.tests.yaml"
    assert saved["tests_path"] == "perudo.tests.yaml" and tests.read_text() == saved["text"]
    text = saved["text"]
    assert "ruleset: perudo.yaml\nplayers: 3\n" in text and "seed: 4" in text
    assert text.split("\n")[saved["line"] - 1].strip() == '- name: "opening bids"'
    [result] = run_scenario_files([tests])
    assert result.passed, result.message
    dup = post(client, f"/api/play/{view['session']}/save-case", {"name": "opening bids"}, 409)
    assert "already has a case" in dup["error"]


def test_save_case_appends_and_keeps_the_file(client: TestClient, folder: Path) -> None:
    tests = folder / "connect-four.tests.yaml"
    before = tests.read_text()
    view = post(client, "/api/play", {"path": "connect-four.yaml"})
    for move in ("a1", "b1", "a2", "b2", "a3", "b3", "a4"):
        view = choose(client, view, move)
    assert view["over"] and view["winners"] == [1]
    saved = post(client, f"/api/play/{view['session']}/save-case",
                 {"name": "four up the side"})
    after = tests.read_text()
    assert after.startswith(before)  # every comment and case as it was
    added = after[len(before):]
    assert "over: true" in added and "winners: [1]" in added and "seed" not in added
    assert "options" not in added  # the default options are not written
    results = run_scenario_files([tests])
    assert all(r.passed for r in results), [r.message for r in results if not r.passed]
    assert [r.name for r in results][-1] == "four up the side"
    assert saved["line"] == after.count("\n") - added.count("\n") + 2


def test_save_case_writes_options_that_are_not_the_default(client: TestClient,
                                                           folder: Path) -> None:
    view = post(client, "/api/play", {"path": "hex.yaml", "options": {"size": 3}})
    view = post(client, f"/api/play/{view['session']}/choose",
                {"index": 0, "version": view["version"]})
    saved = post(client, f"/api/play/{view['session']}/save-case", {"name": "small board"})
    assert 'options: {"size": 3}' in saved["text"]
    [result] = run_scenario_files([folder / "hex.tests.yaml"])
    assert result.passed, result.message


def test_open_session_starts_from_a_given_position(ws: Workspace, folder: Path) -> None:
    game = compile_game(ws.loaded("connect-four.yaml"), {})
    state = game.new_state(2, 0)
    for move in ("d1", "d2"):
        game.apply_in_place(state, game.deciding_seats(state)[0], move)
    view = play.open_session(ws, "connect-four.yaml", game, state, players=2, options={},
                             seed=None, moves=["d1", "d2"])
    assert view["moves"] == ["d1", "d2"] and view["seat"] == 1 and not view["can_undo"]
    assert "d3" in [o["notation"] for o in view["options"]]


def test_sessions_are_bounded(client: TestClient) -> None:
    first = post(client, "/api/play", {"path": "connect-four.yaml"})
    for _ in range(play.MAX_SESSIONS):
        post(client, "/api/play", {"path": "connect-four.yaml"})
    gone = post(client, f"/api/play/{first['session']}/undo", {}, 404)
    assert "no longer" in gone["error"]


def test_a_new_game_from_a_template_and_a_variant(client: TestClient, folder: Path) -> None:
    listing = client.get("/api/workspace").json()
    template = listing["templates"][0]["id"]
    made = post(client, "/api/new", {"template": template, "name": "my-game"})
    assert made == {"path": "my-game.yaml", "tests_path": "my-game.tests.yaml"}
    checked = post(client, "/api/check", {"path": "my-game.yaml",
                                          "text": (folder / "my-game.yaml").read_text()})
    assert checked["diagnostics"] == [] and checked["game"]["name"] == "my-game"
    assert post(client, "/api/new", {"template": template, "name": "my-game"}, 409)
    assert post(client, "/api/new", {"template": "nope", "name": "other"}, 400)
    assert post(client, "/api/new", {"template": template, "name": "../up"}, 400)
    variant = post(client, "/api/variant", {"base": "connect-four", "name": "my-four"})
    text = (folder / variant["path"]).read_text()
    assert "extends: connect-four" in text
    checked = post(client, "/api/check", {"path": "my-four.yaml", "text": text})
    assert checked["diagnostics"] == [] and checked["game"]["name"] == "my-four"
    tests = post(client, "/api/check", {"path": "my-four.tests.yaml",
                                        "text": (folder / "my-four.tests.yaml").read_text()})
    assert tests["diagnostics"] == []
    assert "did you mean 'connect-four'" in post(client, "/api/variant",
                                                 {"base": "conect-four", "name": "x"},
                                                 400)["error"]
    # the variant's position saved as a case passes too
    view = post(client, "/api/play", {"path": "my-four.yaml"})
    view = choose(client, view, "c1")
    post(client, f"/api/play/{view['session']}/save-case", {"name": "first disc"})
    results = run_scenario_files([folder / "my-four.tests.yaml"])
    assert [r.passed for r in results] == [True]


def test_a_position_the_moves_do_not_reach_is_not_saved(client: TestClient, ws: Workspace,
                                                         folder: Path) -> None:
    game = compile_game(ws.loaded("connect-four.yaml"), {})
    state = game.new_state(2, 0)
    for move in ("d1", "d2"):
        game.apply_in_place(state, game.deciding_seats(state)[0], move)
    view = play.open_session(ws, "connect-four.yaml", game, state, players=2, options={},
                             seed=None, moves=["d1"])  # d2 left out: not the same position
    tests = folder / "connect-four.tests.yaml"
    before = tests.read_text()
    refused = post(client, f"/api/play/{view['session']}/save-case", {"name": "wrong"}, 409)
    assert "cannot be saved" in refused["error"]
    assert tests.read_text() == before


def test_a_case_is_saved_beside_a_broken_older_case(client: TestClient, folder: Path) -> None:
    tests = folder / "connect-four.tests.yaml"
    tests.write_text(tests.read_text().replace("legal: [a1, b1, c1, d1, e1, f1, g1]",
                                               "legal: [a1, b1, c1, d1, e1, f1, zz]", 1))
    view = post(client, "/api/play", {"path": "connect-four.yaml"})
    view = choose(client, view, "g1")
    post(client, f"/api/play/{view['session']}/save-case", {"name": "g first"})
    results = {r.name: r.passed for r in run_scenario_files([tests])}
    assert results["g first"] is True
    assert list(results.values()).count(False) == 1
