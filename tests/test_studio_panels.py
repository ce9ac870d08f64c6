"""The studio's tests, balance and rulebook panels, through the studio's own app: they run
what `tabletop test`, `tabletop analyze` and `tabletop docs` run, on the editor's drafts."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from studio_support import studio_client

from interpreter import api
from interpreter.load.catalog import find_ruleset
from interpreter.studio.app import create_app
from interpreter.studio.workspace import Workspace

TOKEN = "panels-test-token"
PORT = 8899

TESTS = """\
ruleset: my-game.yaml
players: 2
cases:
  - name: X starts
    deciding: [1]

  - name: O wins the first row, as this case wrongly says
    moves: [a1, a2, b1, b2, c1]
    winners: [2]
"""

VARIANT = """\
tabletop: 1
extends: tic-tac-toe
game:
  name: tic-tac-toe-blitz
  title: Tic-tac-toe Blitz
  summary: Tic-tac-toe where a full grid is a win for O.
change:
  end.full-board:
    text: A full grid without three in a row is a win for O.
    winners: "[2]"
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "my-game.yaml").write_text(
        find_ruleset("tic-tac-toe").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "my-game.tests.yaml").write_text(TESTS, encoding="utf-8")
    (tmp_path / "blitz.yaml").write_text(VARIANT, encoding="utf-8")
    return tmp_path


@pytest.fixture
def ws(folder: Path) -> Workspace:
    return Workspace.open(folder)


@pytest.fixture
def client(ws: Workspace) -> TestClient:
    return studio_client(ws)


def draft(ws: Workspace, name: str, text: str) -> None:
    """What /api/check does with the editor's text: it becomes the file's draft."""
    ws.drafts[ws.resolve(name)] = text


def wait(client: TestClient, job: str, timeout: float = 60.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        reply = client.get(f"/api/balance/{job}").json()
        if reply["status"] != "running" or time.monotonic() > end:
            return reply
        time.sleep(0.05)


# -- tests panel -----------------------------------------------------------------------


def test_the_tests_run_in_a_worker_process_and_say_the_same(client: TestClient,
                                                           ws: Workspace) -> None:
    import os

    from interpreter.studio.panels import worker
    from interpreter.studio.panels.tests import run_tests

    draft(ws, "my-game.tests.yaml", TESTS.replace("    winners: [2]\n", "    winners: [1]\n"))
    there = client.post("/api/tests", json={"path": "my-game.yaml"}).json()
    assert there == run_tests(ws, "my-game.yaml")  # the same cases, from the same draft
    assert (there["passed"], there["failed"]) == (2, 0)
    pids = list(worker.pool()._processes)
    assert pids and os.getpid() not in pids


def test_a_passing_and_a_failing_case(client: TestClient) -> None:
    reply = client.post("/api/tests", json={"path": "my-game.yaml"}).json()
    assert reply["tests_path"] == "my-game.tests.yaml"
    assert (reply["passed"], reply["failed"]) == (1, 1)
    passing, failing = reply["cases"]
    assert passing["passed"] and passing["line"] == 4 and passing["report"] == ""
    assert passing["deciding"] == [1]
    assert passing["legal"] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert "svg" not in passing
    assert not failing["passed"] and failing["line"] == 7
    # the report says what was found instead, and where the game stands, as the CLI does
    assert "winners: expected [2], found [1]" in failing["report"]
    assert "the game is over" in failing["report"]
    assert failing["deciding"] == [] and failing["legal"] == []
    assert failing["svg"].startswith("<svg") and "</svg>" in failing["svg"]


def test_the_tests_file_itself_may_be_named(client: TestClient) -> None:
    reply = client.post("/api/tests", json={"path": "my-game.tests.yaml"}).json()
    assert [c["passed"] for c in reply["cases"]] == [True, False]


def test_the_drafts_run_not_the_files(client: TestClient, ws: Workspace) -> None:
    fixed = TESTS.replace("winners: [2]", "winners: [1]")
    draft(ws, "my-game.tests.yaml", fixed)
    reply = client.post("/api/tests", json={"path": "my-game.yaml"}).json()
    assert (reply["passed"], reply["failed"]) == (2, 0)
    # a ruleset draft where three in a row wins nothing: the case fails (not on disk)
    rules = ws.text("my-game.yaml")
    assert 'winners: "[current]"' in rules
    draft(ws, "my-game.yaml", rules.replace('winners: "[current]"', 'winners: "[]"'))
    reply = client.post("/api/tests", json={"path": "my-game.yaml"}).json()
    second = reply["cases"][1]
    assert not second["passed"], reply
    assert "winners: expected [1], found []" in second["report"]
    # nothing of the draft stays behind: `tabletop`'s loader reads the disk again
    path = str(ws.resolve("my-game.yaml"))
    assert api.carried(path) is None
    assert 'winners: "[current]"' in api.load(path).source.texts[0]


def test_a_tests_file_that_does_not_load_gives_its_diagnostics(client: TestClient,
                                                                ws: Workspace) -> None:
    draft(ws, "my-game.tests.yaml", TESTS.replace("deciding: [1]", "decidng: [1]"))
    reply = client.post("/api/tests", json={"path": "my-game.yaml"})
    assert reply.status_code == 200
    data = reply.json()
    assert data["cases"] == []
    [d] = data["error"]["diagnostics"]
    assert d["line"] == 5 and "unknown key 'decidng'" in d["message"]
    assert d["rendered"].startswith("my-game.tests.yaml:5:")
    assert d["fixes"] and d["fixes"][0]["insert"] == "deciding"


def test_a_broken_ruleset_draft_gives_its_diagnostics(client: TestClient,
                                                       ws: Workspace) -> None:
    draft(ws, "my-game.yaml", ws.text("my-game.yaml").replace("kind: grid", "kind: gird"))
    data = client.post("/api/tests", json={"path": "my-game.tests.yaml"}).json()
    assert data["cases"] == [] and data["error"]["diagnostics"]
    assert any("gird" in d["rendered"] for d in data["error"]["diagnostics"])


def test_bad_requests_are_refused_with_a_message(client: TestClient) -> None:
    missing = client.post("/api/tests", json={})
    assert missing.status_code == 400 and "name a file" in missing.json()["error"]
    outside = client.post("/api/tests", json={"path": "../secret.yaml"})
    assert outside.status_code == 403
    none = client.post("/api/tests", json={"path": "blitz.yaml"})
    assert none.status_code == 404 and "no tests file" in none.json()["error"]
    bad = client.post("/api/tests/open", json={"tests_path": "my-game.tests.yaml",
                                               "index": 7})
    assert bad.status_code == 400 and "has 2 cases" in bad.json()["error"]


def test_open_a_case_at_its_position(client: TestClient) -> None:
    reply = client.post("/api/tests/open", json={"tests_path": "my-game.tests.yaml",
                                                 "index": 1})
    assert reply.status_code == 200, reply.text
    view = reply.json()
    assert view["over"] and view["winners"] == [1]
    assert view["svg"].startswith("<svg")
    first = client.post("/api/tests/open", json={"tests_path": "my-game.tests.yaml",
                                                 "index": 0}).json()
    assert first["deciding"] == [1] and len(first["options"]) == 9


# -- balance panel ---------------------------------------------------------------------


def test_a_balance_run_to_the_end(client: TestClient) -> None:
    job = client.post("/api/balance", json={"path": "my-game.yaml", "games": 20}).json()["job"]
    reply = wait(client, job)
    assert reply["status"] == "done", reply
    assert reply["played"] == reply["total"] == 20
    report = reply["report"]
    [group] = report["groups"]
    assert group["players"] == 2 and group["games"] == 20 and group["errors"] == 0
    seats = report["seats"]
    assert [s["label"] for s in seats] == ["Player 1", "Player 2"]
    for seat in seats:
        assert 0 <= seat["low"] <= seat["rate"] <= seat["high"] <= 1
        assert seat["total"] == 20 and seat["fair_share"] == 0.5
    assert sum(s["count"] for s in seats) + group["draws"]["count"] == 20
    assert group["end_reasons"] and group["turns"]["median"] >= 5
    assert report["headlines"] and not report["interrupted"]
    titles = [c["title"] for c in report["charts"]]
    assert "Win rate per seat" in titles and "How games ended" in titles
    assert all(c["svg"].lstrip().startswith(("<?xml", "<svg")) for c in report["charts"])
    assert "base" not in report


def test_a_balance_run_plays_the_draft(client: TestClient, ws: Workspace) -> None:
    # in the draft a row wins nothing: every game is won by nobody (on disk, X often wins)
    draft(ws, "my-game.yaml", ws.text("my-game.yaml").replace('winners: "[current]"',
                                                               'winners: "[]"'))
    job = client.post("/api/balance", json={"path": "my-game.yaml", "games": 10}).json()["job"]
    reply = wait(client, job)
    assert reply["status"] == "done", reply
    assert [s["count"] for s in reply["report"]["seats"]] == [0, 0]


def test_a_stopped_run_reports_the_games_so_far(client: TestClient) -> None:
    job = client.post("/api/balance", json={"path": "my-game.yaml", "games": 5000}
                      ).json()["job"]
    while client.get(f"/api/balance/{job}").json()["played"] < 3:
        time.sleep(0.02)
    stopped = client.post(f"/api/balance/{job}/stop").json()
    assert stopped["status"] == "stopped", stopped
    assert 3 <= stopped["played"] < stopped["total"] == 5000
    report = stopped["report"]
    assert report["interrupted"] and report["games"] == stopped["played"]
    assert report["groups"][0]["games"] == stopped["played"]


def test_a_variant_compared_with_its_base(client: TestClient) -> None:
    job = client.post("/api/balance", json={"path": "blitz.yaml", "games": 30,
                                            "compare_base": True}).json()["job"]
    reply = wait(client, job)
    assert reply["status"] == "done", reply
    assert reply["total"] == 60
    report = reply["report"]
    assert report["title"] == "Tic-tac-toe Blitz" and report["key"] == "B"
    assert report["base"]["title"] == "Tic-tac-toe" and report["base"]["key"] == "A"
    # the same seeds: games that filled the grid are O's in the variant, draws in the base
    variant_draws = report["groups"][0]["draws"]["count"]
    base_draws = report["base"]["groups"][0]["draws"]["count"]
    assert variant_draws == 0 and base_draws > 0
    assert any(h.startswith("B vs A") for h in report["headlines"])


def test_balance_requests_are_checked(client: TestClient, ws: Workspace) -> None:
    games = client.post("/api/balance", json={"path": "my-game.yaml", "games": "many"})
    assert games.status_code == 400 and "'games' must be a whole number" in games.json()["error"]
    players = client.post("/api/balance", json={"path": "my-game.yaml", "players": 3})
    assert players.status_code == 400 and "3" in players.json()["error"]
    base = client.post("/api/balance", json={"path": "my-game.yaml", "compare_base": True})
    assert base.status_code == 400 and "not a variant" in base.json()["error"]
    unknown = client.get("/api/balance/b999")
    assert unknown.status_code == 404
    draft(ws, "my-game.yaml", ws.text("my-game.yaml").replace("kind: grid", "kind: gird"))
    broken = client.post("/api/balance", json={"path": "my-game.yaml"})
    assert broken.status_code == 422 and broken.json()["diagnostics"]


# -- rulebook panel --------------------------------------------------------------------


def test_the_rulebook_of_a_game(client: TestClient, ws: Workspace) -> None:
    # its worked examples come from the tests file: the draft's
    draft(ws, "my-game.tests.yaml", TESTS.replace(
        "    winners: [2]\n", "    winners: [1]\n    example: {caption: X fills the first row}\n"))
    reply = client.get("/rulebook", params={"path": "my-game.yaml"})
    assert reply.status_code == 200
    page = reply.text
    assert "<script" not in page.lower()
    assert "Playing a turn" in page            # the players' layer
    assert "The exact rules" in page and "A turn, exactly" in page  # and the exact rules
    assert "X fills the first row" in page     # the example of the tests file
    csp = reply.headers["content-security-policy"]
    assert "script-src 'none'" in csp and "frame-ancestors 'self'" in csp
    assert reply.headers["x-frame-options"] == "SAMEORIGIN"


def test_the_rulebook_is_made_from_the_draft(client: TestClient, ws: Workspace) -> None:
    before = client.get("/rulebook", params={"path": "my-game.yaml"}).text
    assert "Noughts and Crosses Deluxe" not in before
    draft(ws, "my-game.yaml", ws.text("my-game.yaml").replace(
        "title: Tic-tac-toe", "title: Noughts and Crosses Deluxe"))
    assert "Noughts and Crosses Deluxe" in client.get(
        "/rulebook", params={"path": "my-game.yaml"}).text
    draft(ws, "my-game.yaml", ws.text("my-game.yaml").replace("kind: grid", "kind: gird"))
    broken = client.get("/rulebook", params={"path": "my-game.yaml"})
    assert broken.status_code == 422 and "gird" in broken.text
    assert "<script" not in broken.text.lower()


def test_the_rulebook_of_a_variant_shows_its_difference(client: TestClient) -> None:
    reply = client.get("/rulebook", params={"path": "blitz.yaml"})
    assert reply.status_code == 200
    assert "Tic-tac-toe Blitz" in reply.text
    assert "Changed" in reply.text
    assert "A full grid without three in a row is a win for O." in reply.text


def test_the_rulebook_needs_the_token(ws: Workspace) -> None:
    app = create_app(ws, TOKEN, PORT)
    anonymous = TestClient(app, base_url=f"http://127.0.0.1:{PORT}")
    assert anonymous.get("/rulebook", params={"path": "my-game.yaml"}).status_code == 403
    assert anonymous.get("/rulebook", params={"path": "my-game.yaml",
                                              "token": TOKEN}).status_code == 200
