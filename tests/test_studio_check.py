"""/api/check: a ruleset's problems located as the CLI prints them, did-you-mean fixes whose
replacement validates, tests files checked as `tabletop test` loads them, the set-up
table for chosen players and options, and results kept for an unchanged request."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")  # Starlette's note on its test client

from starlette.testclient import TestClient  # noqa: E402
from studio_support import studio_client  # noqa: E402

from interpreter.load.catalog import rulesets_dir  # noqa: E402
from interpreter.studio.workspace import Workspace  # noqa: E402

GAMES = ("connect-four", "nim", "hex", "perudo", "high-rise", "high-rise-black-white-covers")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for game in GAMES:
        for suffix in (".yaml", ".tests.yaml"):
            shutil.copy(rulesets_dir() / f"{game}{suffix}", tmp_path / f"{game}{suffix}")
    return tmp_path


@pytest.fixture
def ws(folder: Path) -> Workspace:
    return Workspace.open(folder)


@pytest.fixture
def client(ws: Workspace) -> TestClient:
    return studio_client(ws)


def check(client: TestClient, path: str, text: str, **more: Any) -> dict[str, Any]:
    reply = client.post("/api/check", json={"path": path, "text": text, "version": 7, **more})
    assert reply.status_code == 200, reply.text
    return reply.json()


def apply_fix(text: str, fix: dict[str, Any]) -> str:
    lines = text.split("\n")
    line = lines[fix["line"] - 1]
    assert fix["end_line"] == fix["line"]
    lines[fix["line"] - 1] = line[:fix["col"] - 1] + fix["insert"] + line[fix["end_col"] - 1:]
    return "\n".join(lines)


def test_a_valid_ruleset_has_its_game_and_table(client: TestClient, folder: Path) -> None:
    text = (folder / "connect-four.yaml").read_text()
    out = check(client, "connect-four.yaml", text)
    assert out["version"] == 7 and out["kind"] == "ruleset" and out["diagnostics"] == []
    assert out["game"]["title"] == "Connect Four"
    assert out["game"]["players"] == {"min": 2, "max": 2, "default": 2}
    assert out["table"]["svg"].startswith("<svg") and out["table"]["deciding"] == [1]
    assert out["table"]["players"] == 2 and out["table"]["seed"] == 1
    assert set(out["timing_ms"]) >= {"load", "compile", "setup", "draw"}


@pytest.mark.parametrize(("good", "bad", "word"), [
    ("start: supply\n      seat: 1", "start: suply\n      seat: 1", "suply"),
    ("kind: grid", "kind: gird", "gird"),
    ("value: red if s == 1 else yellow", "value: red if s == 1 else yelow", "yelow"),
])
def test_a_typo_is_located_and_its_fix_validates(client: TestClient, folder: Path, good: str,
                                                 bad: str, word: str) -> None:
    text = (folder / "connect-four.yaml").read_text()
    broken = text.replace(good, bad, 1)
    out = check(client, "connect-four.yaml", broken)
    assert out["game"] is None and out["table"] is None
    [d] = out["diagnostics"]
    line = broken.split("\n")[d["line"] - 1]
    assert line[d["col"] - 1:d["end_col"] - 1] == word
    assert d["severity"] == "error" and word in d["message"]
    assert d["rendered"].startswith(f"connect-four.yaml:{d['line']}:{d['col']}: error: ")
    assert "did you mean" in d["hint"]
    [fix] = d["fixes"]
    fixed = apply_fix(broken, fix)
    assert fixed == text
    again = check(client, "connect-four.yaml", fixed)
    assert again["diagnostics"] == [] and again["table"] is not None


def test_a_misnamed_definition_fix_renames_the_call(client: TestClient, folder: Path) -> None:
    text = (folder / "connect-four.yaml").read_text().replace("colour_of(s):\n",
                                                              "colour_off(s):\n", 1)
    out = check(client, "connect-four.yaml", text)
    d = out["diagnostics"][0]
    assert d["message"] == "unknown function 'colour_of'"
    fixed = apply_fix(text, d["fixes"][0])
    assert check(client, "connect-four.yaml", fixed)["diagnostics"] == []


def test_a_yaml_error_is_located(client: TestClient) -> None:
    out = check(client, "connect-four.yaml", "game:\n  name: [unclosed\n")
    [d] = out["diagnostics"]
    assert d["line"] >= 2 and d["fixes"] == []


def test_a_rule_error_in_the_set_up_is_a_diagnostic(client: TestClient, folder: Path) -> None:
    text = (folder / "nim.yaml").read_text()
    broken = text.replace("for k in range(sizes[i])]", "for k in range(sizes[i] * 3)]", 1)
    assert broken != text
    out = check(client, "nim.yaml", broken)
    assert out["table"] is None and out["game"] is None
    [d] = out["diagnostics"]
    assert d["line"] > 1 and "set-up" in d["rendered"]
    assert broken.split("\n")[d["line"] - 1].strip().startswith("- move:") or \
        "pieces(box)" in broken.split("\n")[d["line"] - 1]


def test_preview_players_options_and_seed(client: TestClient, folder: Path) -> None:
    text = (folder / "hex.yaml").read_text()
    default = check(client, "hex.yaml", text)
    small = check(client, "hex.yaml", text, options={"size": 3}, seed=5)
    assert small["diagnostics"] == [] and small["table"]["seed"] == 5
    assert len(small["table"]["svg"]) < len(default["table"]["svg"])
    [size] = default["game"]["options"]
    assert size["name"] == "size" and size["default"] == 11 and size["kind"] == "int"
    wrong = check(client, "hex.yaml", text, options={"size": 99})
    assert [d["severity"] for d in wrong["diagnostics"]] == ["warning"]
    assert wrong["table"] is not None  # drawn with the default options
    rise = (folder / "perudo.yaml").read_text()
    two = check(client, "perudo.yaml", rise)
    top = two["game"]["players"]["max"]
    assert top > 2
    more = check(client, "perudo.yaml", rise, players=top)
    assert more["table"]["players"] == top and more["table"]["svg"] != two["table"]["svg"]
    too_many = check(client, "perudo.yaml", rise, players=top + 1)
    assert too_many["diagnostics"][0]["severity"] == "warning"
    assert too_many["table"]["players"] == two["table"]["players"]
    bad = client.post("/api/check", json={"path": "hex.yaml", "text": text, "players": "two"})
    assert bad.status_code == 400


def test_a_variant_checks_with_its_base(client: TestClient, folder: Path) -> None:
    text = (folder / "high-rise-black-white-covers.yaml").read_text()
    assert check(client, "high-rise-black-white-covers.yaml", text)["diagnostics"] == []


def test_a_tests_file_is_checked_as_tabletop_test_loads_it(client: TestClient,
                                                           folder: Path) -> None:
    text = (folder / "connect-four.tests.yaml").read_text()
    out = check(client, "connect-four.tests.yaml", text)
    assert out["kind"] == "tests" and out["diagnostics"] == []
    assert out["game"]["name"] == "connect-four" and out["table"]["svg"].startswith("<svg")
    broken = text.replace("    deciding: [2]\n", "    deciding: [9]\n", 1)
    assert broken != text
    bad = check(client, "connect-four.tests.yaml", broken)
    [d] = bad["diagnostics"]
    assert "9" in d["message"] and broken.split("\n")[d["line"] - 1].strip() == "deciding: [9]"
    assert bad["table"] is None
    typo = check(client, "connect-four.tests.yaml", text.replace("expect:", "expcet:", 1))
    assert typo["diagnostics"] and typo["diagnostics"][0]["fixes"][0]["insert"] == "expect"
    # the draft was checked, not the file
    assert (folder / "connect-four.tests.yaml").read_text() == text


def test_the_text_becomes_the_draft_and_results_are_kept(client: TestClient, ws: Workspace,
                                                         folder: Path) -> None:
    text = (folder / "connect-four.yaml").read_text() + "# draft\n"
    first = check(client, "connect-four.yaml", text)
    assert ws.drafts[folder.resolve() / "connect-four.yaml"] == text
    assert ws.text("connect-four.yaml") == text
    second = check(client, "connect-four.yaml", text, version=8)
    assert second["version"] == 8 and second["timing_ms"].get("kept") is True
    assert second["table"] == first["table"]
    other_seed = check(client, "connect-four.yaml", text, seed=2)
    assert "kept" not in other_seed["timing_ms"]


def test_a_tests_file_is_checked_against_the_rulesets_draft(client: TestClient,
                                                            folder: Path) -> None:
    rules = (folder / "connect-four.yaml").read_text()
    renamed = rules.replace("four_in_a_row(s):", "four_in_line(s):", 1)
    renamed = renamed.replace("four_in_a_row(", "four_in_line(")
    assert check(client, "connect-four.yaml", renamed)["diagnostics"] == []
    tests = (folder / "connect-four.tests.yaml").read_text()
    out = check(client, "connect-four.tests.yaml", tests)
    assert out["diagnostics"], "the tests name a definition the draft no longer has"
    assert any("four_in_a_row" in d["message"] for d in out["diagnostics"])
    assert (folder / "connect-four.yaml").read_text() == rules
    check(client, "connect-four.yaml", rules)
    assert check(client, "connect-four.tests.yaml", tests)["diagnostics"] == []
