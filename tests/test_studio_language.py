"""The studio's completion and hover: keys from the JSON Schema, effects, built-ins and the
ruleset's own names in expressions, a variant's base's part addresses, hover docs for
each kind of word, text that does not load yet, and the HTTP routes."""

from __future__ import annotations

import shutil
import statistics
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")  # Starlette's note on its test client

from starlette.testclient import TestClient  # noqa: E402
from studio_support import studio_client  # noqa: E402

from interpreter.api import load  # noqa: E402
from interpreter.assemble.game import compile_game  # noqa: E402
from interpreter.compile.functions import FUNCTIONS  # noqa: E402
from interpreter.load.catalog import rulesets_dir  # noqa: E402
from interpreter.primitives import PRIMITIVES  # noqa: E402
from interpreter.studio.language import KnownCache, complete, hover  # noqa: E402
from interpreter.studio.language_known import Known, known_from, with_base  # noqa: E402
from interpreter.studio.workspace import Workspace  # noqa: E402

CALDERA = (rulesets_dir() / "caldera.yaml").read_text(encoding="utf-8")


def labels(reply: dict[str, Any]) -> list[str]:
    return [o["label"] for o in reply["options"]]


def option(reply: dict[str, Any], label: str) -> dict[str, Any]:
    found = [o for o in reply["options"] if o["label"] == label]
    assert found, f"{label} not offered: {labels(reply)[:40]}"
    return found[0]


def at(text: str, marker: str, offset: int = 0) -> tuple[int, int]:
    """The 1-based line and column just after the first `marker` in `text`."""
    i = text.index(marker) + len(marker) + offset
    line = text[:i].count("\n") + 1
    return line, i - (text.rfind("\n", 0, i) + 1) + 1


@pytest.fixture(scope="module")
def caldera() -> Known:
    loaded = load("caldera")
    return known_from(loaded, compile_game(loaded, {}), str(loaded.path))


@pytest.fixture(scope="module")
def caldera_base() -> Known:
    loaded = load("caldera")
    game = compile_game(loaded, {})
    return with_base(Known(), "caldera", loaded, game)


# -- keys from the schema ---------------------------------------------------------------

def test_a_top_level_key_is_offered_with_its_description() -> None:
    reply = complete("tabletop: 1\nga", "g.yaml", 2, 3)
    assert reply["from"] == {"line": 2, "col": 1}
    game = option(reply, "game")
    assert "Facts about the game" in game["info"] and "required" in game["detail"]
    assert game["apply"] == "game: "
    assert "zones" not in labels(reply)  # filtered by what is typed


def test_types_are_said_in_the_designers_words_not_the_engines_class_names() -> None:
    import re

    reply = complete("tabletop: 1\n", "g.yaml", 2, 1)
    details = {o["label"]: o["detail"] for o in reply["options"]}
    assert details["pieces"].startswith("mapping")  # not "PiecesDecl"
    assert not [d for d in details.values() if re.search(r"[a-z][A-Z]", d)]
    assert hover("tabletop: 1\npieces:\n", "g.yaml", 2, 2)["title"] == "pieces: mapping"


def test_a_nested_key_under_a_zone_leaves_out_the_keys_it_has() -> None:
    text = "zones:\n  - id: board\n    per_seat: false\n    \n    label: Board\n"
    reply = complete(text, "g.yaml", 4, 5)
    got = labels(reply)
    assert "kind" in got and "rows" in got and "conceal" in got
    assert "id" not in got and "per_seat" not in got and "label" not in got
    assert "grid" in option(reply, "kind")["detail"]
    assert "rows × cols" in option(reply, "kind")["info"]


def test_keys_and_values_inside_a_flow_mapping() -> None:
    reply = complete("zones:\n  - {id: board, ki", "g.yaml", 2, 20)
    assert labels(reply) == ["kind"] and reply["from"] == {"line": 2, "col": 17}
    assert labels(complete("zones:\n  - {id: board, kind: p", "g.yaml", 2, 26)) == ["pile"]
    assert labels(complete("game: {na", "g.yaml", 1, 10)) == ["name"]


def test_an_enum_value_after_its_key() -> None:
    text = "zones:\n  - id: board\n    kind: "
    reply = complete(text, "g.yaml", 3, 11)
    assert labels(reply) == ["grid", "hex", "pile", "slots"]
    assert reply["from"] == {"line": 3, "col": 11}
    assert labels(complete("budgets:\n  pieces: 3\nzones:\n  - on_table: ", "g.yaml",
                           4, 15)) == ["true", "false"]


def test_a_primitive_in_an_effects_list_and_the_fields_after_its_keyword() -> None:
    reply = complete("turn:\n  - if: true\n    then:\n      - sh", "g.yaml", 4, 11)
    assert {"shuffle", "show", "shrink"} <= set(labels(reply))
    assert option(reply, "shuffle")["info"] == PRIMITIVES["shuffle"].summary
    assert option(reply, "shuffle")["type"] == "keyword"
    every = labels(complete("turn:\n  - ", "g.yaml", 2, 5))
    assert set(every) == set(PRIMITIVES)
    fields = complete("turn:\n  - move: top(a)\n    ", "g.yaml", 3, 5)
    assert set(labels(fields)) == {"to", "at", "id", "text"}
    assert "required" in option(fields, "to")["detail"]
    assert "expression" in option(fields, "to")["detail"]


def test_a_tests_file_is_read_with_its_own_schema(caldera: Known) -> None:
    text = "ruleset: caldera\ncases:\n  - name: a cap moves\n    "
    got = labels(complete(text, "caldera.tests.yaml", 4, 5, caldera))
    assert {"moves", "expect", "legal", "position", "example"} <= set(got)
    assert "name" not in got and "zones" not in got
    flow = "ruleset: caldera\ncases:\n  - name: x\n    expect: [is_cap(top('c4')), emp"
    reply = complete(flow, "caldera.tests.yaml", *at(flow, "emp"), caldera)
    assert labels(reply) == ["empty"]
    assert reply["from"] == {"line": 4, "col": at(flow, "), ")[1]}
    listed = "ruleset: caldera\ncases:\n  - name: x\n    expect:\n      - tri"
    assert "trios" in labels(complete(listed, "caldera.tests.yaml", 5, 12, caldera))


def test_a_tests_files_positions_options_and_variables_take_the_rulesets_names(
        caldera: Known) -> None:
    text = ("ruleset: caldera\noptions: {power_play: true}\ncases:\n  - name: x\n"
            "    position:\n      board: {c3: [black small]}\n      \n")
    zones = complete(text, "caldera.tests.yaml", 7, 7, caldera)
    assert labels(zones) == ["box", "captured"]  # board is there already
    assert option(zones, "box")["apply"] == "box: "
    assert labels(complete("ruleset: caldera\noptions: {pow", "caldera.tests.yaml", 2, 14,
                           caldera)) == ["power_play"]
    said = hover(text, "caldera.tests.yaml", 6, 8, caldera)
    assert said["title"] == "board — zone · grid"


# -- expressions --------------------------------------------------------------------------

def test_built_ins_and_the_rulesets_definitions_inside_when(caldera: Known) -> None:
    line, col = at(CALDERA, "    when: ")
    text = CALDERA.replace("    when: trios(current) >= 3", "    when: tr", 1)
    reply = complete(text, "caldera.yaml", line, col + 2, caldera)
    assert reply["from"] == {"line": line, "col": col}
    trios = option(reply, "trios")
    assert trios["detail"] == "definition(s)" and "line" in trios["info"]
    assert "true" in labels(reply)  # a word of the language
    top = complete(text.replace("    when: tr", "    when: to", 1), "caldera.yaml", line,
                   col + 2, caldera)
    assert option(top, "top")["type"] == "function"
    assert option(top, "top")["detail"] == "top(place)"
    assert option(top, "top")["info"] == "the top piece, or null\nReads as: the top piece of ‹x›"
    everything = labels(complete("scores: ", "g.yaml", 1, 9))
    assert set(FUNCTIONS) <= set(everything) and {"current", "players", "seats"} <= set(
        everything)


def test_a_definition_being_written_is_offered_before_it_loads() -> None:
    text = ("define:\n  my_score(s): count(captured[s])\n  leader: my_\nend:\n"
            "  - id: e\n    when: 'my_sc'\n")
    reply = complete(text, "g.yaml", 3, 14)
    assert "my_score" in labels(reply)
    quoted = complete(text, "g.yaml", 6, 16)
    assert option(quoted, "my_score")["detail"] == "definition(s)"
    param = complete("define:\n  trios(side): count(si", "g.yaml", 2, 27)
    assert option(param, "side")["detail"] == "parameter of trios"
    loop = ("turn:\n  - choose: Move\n    options:\n      - for: {origin: cells(b), d: [1]}\n"
            "        notation: x\n        do:\n          - move: top(ori")
    assert option(complete(loop, "g.yaml", 7, 25), "origin")["detail"] == "local name"
    attrs = "pieces:\n  attributes:\n    size: {values: [1, 2]}\nrank:\n  - piece.si"
    assert labels(complete(attrs, "g.yaml", 5, 13)) == ["size"]


def test_zones_variables_options_and_values_in_expressions(caldera: Known) -> None:
    text = CALDERA + "\nscores: b\n"
    line = text.count("\n")
    got = labels(complete(text, "caldera.yaml", line, 10, caldera))
    assert {"board", "box", "black", "blue"} <= set(got)
    assert {"current", "players"} & set(got) == set()  # no b in them
    seats = complete(text.replace("scores: b", "scores: cur"), "caldera.yaml", line, 12,
                     caldera)
    assert "current player" in option(seats, "current")["info"]
    opts = complete(text.replace("scores: b", "scores: pow"), "caldera.yaml", line, 12,
                    caldera)
    assert option(opts, "power_play")["detail"] == "option · bool"


def test_a_template_offers_names_inside_braces_only() -> None:
    text = "turn:\n  - say: 'hi {seat_na'\n  - say: 'hi seat_na'\n"
    assert "seat_name" in labels(complete(text, "g.yaml", 2, 22))
    assert complete(text, "g.yaml", 3, 21)["options"] == []


def test_a_name_field_offers_the_declared_names_of_its_kind(caldera: Known) -> None:
    text = "pieces:\n  sets:\n    - id: a\n      start: "
    assert labels(complete(text, "g.yaml", 4, 14, caldera)) == ["board", "box", "captured"]


# -- variants -----------------------------------------------------------------------------

def test_the_bundled_games_after_extends() -> None:
    reply = complete("extends: cald", "v.yaml", 1, 14)
    assert labels(reply)[0] == "caldera" and "caldera-two-trios" in labels(reply)
    assert reply["from"] == {"line": 1, "col": 10}
    assert option(reply, "caldera")["detail"] == "Caldera"


def test_the_bases_addresses_under_change_replace_remove_and_insert(
        caldera_base: Known) -> None:
    text = "extends: caldera\ngame:\n  name: v\n  title: V\nchange:\n  options.po"
    reply = complete(text, "v.yaml", 6, 13, caldera_base)
    assert reply["from"] == {"line": 6, "col": 3}
    power = option(reply, "options.power_play")
    assert power["detail"] == "option" and power["info"].startswith("Power Play:")
    every = labels(complete("extends: caldera\nreplace:\n  ", "v.yaml", 3, 3, caldera_base))
    assert "cap_move" in every and "end.three-trios" in every
    assert every.index("options") < every.index("turn")  # the base's order
    removed = complete("extends: caldera\nremove: [end.thr", "v.yaml", 2, 17, caldera_base)
    assert labels(removed) == ["end.three-trios"]
    inserted = complete("extends: caldera\ninsert:\n  - after: cap_mo", "v.yaml", 3, 18,
                        caldera_base)
    assert "cap_move" in labels(inserted)
    fields = complete(text.replace("options.po", "options.power_play:\n    "), "v.yaml", 7, 5,
                      caldera_base)
    assert option(fields, "default")["detail"].startswith("now: true")
    assert "choices" in labels(fields)  # a field the base's option leaves out, from the schema
    step = complete("extends: caldera\nchange:\n  turn.1:\n    ", "v.yaml", 4, 5,
                    caldera_base)
    assert option(step, "if")["detail"].startswith("now: pieces_left == 0 · expression")
    assert "else" in labels(step) and "move" not in labels(step)
    whole = complete("extends: caldera\nreplace:\n  zones.board:\n    kind: ", "v.yaml", 4,
                     11, caldera_base)
    assert labels(whole) == ["grid", "hex", "pile", "slots"]


def test_insert_items_are_read_as_what_goes_where_they_are_put(caldera_base: Known) -> None:
    zone = ("extends: caldera\ninsert:\n  - items:\n      - id: x\n        ki\n"
            "    into: zones\n  - after: cap_move\n    items: []\n")
    assert labels(complete(zone, "v.yaml", 5, 11, caldera_base)) == ["kind"]
    step = "extends: caldera\ninsert:\n  - after: turn.1\n    items:\n      - "
    assert set(labels(complete(step, "v.yaml", 5, 9, caldera_base))) == set(PRIMITIVES)
    option_of_a_decision = ("extends: caldera\ninsert:\n  - after: cap_move\n    items:\n"
                            "      - id: x\n        notat")
    assert labels(complete(option_of_a_decision, "v.yaml", 6, 14, caldera_base)) == [
        "notation"]


# -- hover --------------------------------------------------------------------------------

def test_hover_on_a_key_an_effect_and_an_enum_value() -> None:
    text = "zones:\n  - id: board\n    kind: grid\nturn:\n  - move: top(a)\n    to: b\n"
    key = hover(text, "g.yaml", 3, 6)
    assert key["title"].startswith("kind:") and "rows × cols" in key["text"]
    assert key["from"] == {"line": 3, "col": 5} and key["to"] == {"line": 3, "col": 9}
    effect = hover(text, "g.yaml", 5, 6)
    assert effect["title"] == "move — effect"
    assert PRIMITIVES["move"].summary in effect["text"] and "- to (" in effect["text"]
    field = hover(text, "g.yaml", 6, 5)
    assert "place" in field["text"] and field["title"].startswith("to:")
    value = hover(text, "g.yaml", 3, 12)
    assert value["title"] == "grid — a value of kind"
    flow = "zones:\n  - {id: board, kind: grid}\n  - id: box\n    label: the board\n"
    assert hover(flow, "g.yaml", 2, 19)["title"].startswith("kind:")
    assert hover(flow, "g.yaml", 3, 10)["title"] == "box — zone"  # where it is declared
    assert hover(flow, "g.yaml", 4, 16) == {}  # a word of a label is only a word


def test_hover_on_a_built_in_and_the_rulesets_names(caldera: Known) -> None:
    def said(marker: str, offset: int = -1) -> dict[str, Any]:
        return hover(CALDERA, "caldera.yaml", *at(CALDERA, marker, offset), caldera)

    top = said("in: without(cells", -2)
    assert top["title"] == "cells(zone) — built-in function"
    trios = said("when: trios", 0)
    assert trios["title"] == "trios — definition(s)"
    assert "definition, declared at line" in trios["text"]
    board = said("in: without(cells(board", -1)
    assert board["title"] == "board — zone · grid" and "volcano" in board["text"]
    current = said("when: trios(current", -2)
    assert current["text"] == "the current player"
    size = said("p.size", -1)
    assert size["title"] == "size — piece attribute"
    assert "small, medium, large" in size["text"]
    assert hover(CALDERA, "caldera.yaml", 1, 1, caldera) == {}  # a comment


def test_hover_on_a_part_address_and_a_bundled_game(caldera_base: Known) -> None:
    text = "extends: caldera\nchange:\n  options.power_play: {default: false}\n"
    part = hover(text, "v.yaml", 3, 10, caldera_base)
    assert part["title"] == "options.power_play — option of Caldera"
    assert "Power Play" in part["text"]
    assert part["from"] == {"line": 3, "col": 3} and part["to"] == {"line": 3, "col": 21}
    game = hover(text, "v.yaml", 1, 12)
    assert game["title"] == "Caldera — bundled game" and "eruption" in game["text"]


# -- text that does not load, odd positions -------------------------------------------------

def test_half_typed_invalid_text_still_completes(caldera: Known) -> None:
    broken = CALDERA.replace("zones:\n", "zones:\n  - id: [\n  bad key here\n", 1)
    broken += "\nscores: count(captured[cur"
    last = broken.count("\n") + 1
    reply = complete(broken, "caldera.yaml", last, len("scores: count(captured[cur") + 1,
                     caldera)
    assert "current" in labels(reply)
    assert "captured" in labels(complete(broken, "caldera.yaml", last, 21, caldera))


@pytest.mark.parametrize("text", ["", "\n\n", "game:\n  title: [", "- - -", "a: b: c: {[",
                                  "'unclosed", "turn:\n  - move: '{x", "\t\tkey:\n"])
@pytest.mark.parametrize("line,col", [(1, 1), (1, 99), (99, 1), (0, 0), (-5, 3), (3, 7)])
def test_any_position_on_odd_text_answers_without_crashing(text: str, line: int,
                                                           col: int) -> None:
    reply = complete(text, "g.yaml", line, col)
    assert reply["from"]["line"] >= 1 and reply["from"]["col"] >= 1
    assert isinstance(reply["options"], list)
    assert isinstance(hover(text, "g.yaml", line, col), dict)


def test_completion_of_the_biggest_bundled_ruleset_is_fast() -> None:
    """Under ~30 ms a keystroke for rulesets/aquarius-rising.yaml (here a loose bound: the
    machine is shared; the report gives the measured numbers)."""
    text = (rulesets_dir() / "aquarius-rising.yaml").read_text(encoding="utf-8")
    loaded = load("aquarius-rising")
    known = known_from(loaded, compile_game(loaded, {}), str(loaded.path))
    lines = text.split("\n")
    spent = []
    for n in range(0, len(lines), len(lines) // 25):
        typed = "\n".join([*lines[:n], lines[n] + "x", *lines[n + 1:]])  # a new text each time
        began = time.perf_counter()
        complete(typed, "aquarius-rising.yaml", n + 1, len(lines[n]) + 2, known)
        hover(typed, "aquarius-rising.yaml", n + 1, max(1, len(lines[n]) // 2), known)
        spent.append(time.perf_counter() - began)
    assert statistics.median(spent) < 0.06, spent


# -- the HTTP routes ------------------------------------------------------------------------

@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    for name in ("caldera.yaml", "caldera.tests.yaml"):
        shutil.copy(rulesets_dir() / name, tmp_path / name)
    ws = Workspace.open(tmp_path)
    return studio_client(ws)


def test_the_routes_complete_and_hover(client: TestClient) -> None:
    text = CALDERA.replace("    when: trios(current) >= 3", "    when: tri", 1)
    line, col = at(text, "    when: tri")
    reply = client.post("/api/complete", json={"path": "caldera.yaml", "text": text,
                                               "line": line, "col": col})
    assert reply.status_code == 200, reply.text
    assert "trios" in labels(reply.json())
    said = client.post("/api/hover", json={"path": "caldera.yaml", "text": CALDERA,
                                           "line": line, "col": col - 1}).json()
    assert said["title"] == "trios — definition(s)"
    assert said["text"].startswith("the trios of {s}\n= sum(")  # its words, then its body


def test_the_routes_keep_the_last_good_names_and_the_bases_parts(client: TestClient) -> None:
    text = "extends: caldera\ngame:\n  name: mine\n  title: Mine\nchange:\n  options.po"
    reply = client.post("/api/complete", json={"path": "mine.yaml", "text": text,
                                               "line": 6, "col": 13})
    assert reply.status_code == 200, reply.text
    assert "options.power_play" in labels(reply.json())
    # a valid variant loads (in the background, once typing pauses): its names, the base's
    # definitions among them, are offered in expressions
    good = text.replace("change:\n  options.po", "scores: 1")
    for _ in range(100):
        names = client.post("/api/complete", json={"path": "mine.yaml", "text": good,
                                                   "line": 5, "col": 9}).json()
        if "is_cap" in labels(names):
            break
        time.sleep(0.1)
    assert "is_cap" in labels(names)
    # a text with an error: the last good load still answers
    broken = good.replace("scores: 1", "scores: is_c\nzones: [") + "\n"
    names = client.post("/api/complete", json={"path": "mine.yaml", "text": broken,
                                               "line": 5, "col": 13}).json()
    assert labels(names) == ["is_cap"]


def test_a_first_request_with_an_error_takes_the_names_of_the_saved_file(
        client: TestClient) -> None:
    broken = CALDERA + "\nscores: count(boa\n"  # `scores` twice: it does not load
    line = broken.count("\n")
    reply = client.post("/api/complete", json={"path": "caldera.yaml", "text": broken,
                                               "line": line, "col": 18})
    assert reply.status_code == 200, reply.text
    assert "volcano" in option(reply.json(), "board")["info"]  # the English of a load


def test_a_tests_file_takes_the_names_of_the_ruleset_beside_it(client: TestClient) -> None:
    text = "cases:\n  - name: x\n    expect: [tri"
    reply = client.post("/api/complete", json={"path": "caldera.tests.yaml", "text": text,
                                               "line": 3, "col": 17})
    assert reply.status_code == 200, reply.text
    trios = option(reply.json(), "trios")
    assert "the trios of" in trios["info"] and "caldera.yaml:" in trios["info"]


def test_a_burst_of_keystrokes_costs_one_load_once_typing_pauses(tmp_path: Path) -> None:
    shutil.copy(rulesets_dir() / "caldera.yaml", tmp_path / "caldera.yaml")
    loads: list[str] = []

    class Counting(KnownCache):
        def build(self, name: str, text: str) -> Known | None:
            loads.append(text)
            return super().build(name, text)

    cache = Counting(Workspace.open(tmp_path), pause=0.2)
    first = cache.get("caldera.yaml", CALDERA)  # nothing loaded yet: at once
    assert "trios" in first.names and len(loads) == 1
    for i in range(10):
        assert cache.get("caldera.yaml", CALDERA + f"\n# {i}") is first  # the last good
        time.sleep(0.02)
    for _ in range(100):
        if not cache.busy:
            break
        time.sleep(0.05)
    assert len(loads) == 2 and loads[-1].endswith("# 9")


def test_the_routes_refuse_bad_requests(client: TestClient) -> None:
    outside = client.post("/api/complete", json={"path": "../x.yaml", "text": "",
                                                 "line": 1, "col": 1})
    assert outside.status_code == 403 and "error" in outside.json()
    for bad in ({"path": "a.yaml", "text": 3, "line": 1, "col": 1},
                {"path": "a.yaml", "text": "", "line": "one", "col": 1},
                {"text": "", "line": 1, "col": 1}):
        reply = client.post("/api/hover", json=bad)
        assert reply.status_code == 400, reply.text
        assert reply.json()["error"]
    nothing = client.post("/api/hover", json={"path": "a.yaml", "text": "", "line": 9,
                                              "col": 9})
    assert nothing.status_code == 200 and nothing.json() == {}
