"""`tabletop analyze`: its JSON contract, its sameness across --jobs, what it shows of a
real difference between variants, its matchups, its HTML page, and its refusals; and
the confidence intervals `simulate --json` gained."""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import pytest
from console import console_script, invoke

from interpreter.analyze.collect import Matchup
from interpreter.analyze.plan import make_plan, option_sets, split_agents
from interpreter.analyze.runner import analyze

ROOT = Path(__file__).resolve().parents[1]

QUIET_RULE = "no-progress"
TRIOS_RULE = "three-trios"

FAILING_RULESET = """\
tabletop: 1
game:
  name: sometimes-fails
  title: Sometimes Fails
  designer: Test Suite
  seats: {min: 2, max: 2}
  summary: Take one or two counters; leaving exactly one breaks a rule.
pieces:
  attributes:
    size: {values: [1, 2, 3]}
  sets:
    - {id: counters, each: {size: [1, 2, 3]}, count: 2, start: pile}
zones:
  - {id: pile, kind: pile}
  - {id: taken, kind: pile, per_seat: true}
variables:
  - {id: check, initial: 0}
define:
  left: count(pieces(pile))
turn:
  - choose: "take"
    options:
      - id: take
        for: {n: "[1, 2]"}
        where: n <= left
        notation: "take{n}"
        do:
          - repeat:
              - move: top(pile)
                to: taken[current]
              - let: {n: n - 1}
            until: n == 0
          - set: check
            value: 1 // (left - 1) if left > 0 else 0
end:
  - id: empty
    when: left == 0
    winners: "[current]"
    text: the pile is empty
"""




def analyze_json(*args: str) -> dict[str, Any]:
    result = invoke("analyze", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def tabletop() -> list[str]:
    exe = console_script()
    return [exe] if exe else [sys.executable, "-m", "interpreter.cli"]


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in ("seconds", "games_per_second")}


# -- the JSON contract ----------------------------------------------------------------------

def test_the_json_report_of_one_game() -> None:
    report = analyze_json("high-rise", "-n", "8", "--seed", "3")
    assert report["game"] == "high-rise" and report["seat_counts"] == [2]
    assert report["games"] == report["requested"] == 8 and report["errors"] == 0
    assert report["agents"] == ["random"] and not report["interrupted"]
    [run] = report["configurations"]
    assert run["players"] == 2 and run["matchup"] == "random" and run["games"] == 8
    wins = run["wins_by_seat"]
    assert sum(w["count"] for w in wins.values()) + run["draws"]["count"] == 8
    for rate in [*wins.values(), run["draws"]]:
        assert 0 <= rate["low"] <= rate["rate"] <= rate["high"] <= 1
    assert run["fair_share"] == 0.5 and 0 <= run["seat_balance_p"] <= 1
    [end] = run["end_reasons"]  # High Rise ends by an end_game effect, not an end rule
    assert end == {"reason": "both players are out of pieces", "end_rule": None,
                   "count": 8, "rate": 1.0, "low": 0.6756, "high": 1.0}
    # High Rise: each player places every piece, one decision a turn
    assert run["turns"]["histogram"] == [[50, 8]] and run["decisions"]["median"] == 50
    assert run["branching"]["count"] == 8 * 50 and run["branching"]["max"] >= 2
    assert [k["kind"] for k in run["option_kinds"]] == ["place"]
    assert run["option_kinds"][0]["share"] == 1.0
    assert run["score_margin"]["count"] == 8 and set(run["mean_scores"]) == {"1", "2"}
    assert run["agents"] is None
    [group] = report["groups"]
    assert group["configurations"] == [0] and group["comparisons"] == []


def test_analyze_plays_the_games_simulate_plays() -> None:
    """Recording every decision changes nothing: the same seeds give the same games."""
    report = analyze_json("caldera", "-p", "2", "-n", "12", "--seed", "7")
    result = invoke("simulate", "caldera", "-n", "12", "--seed", "7", "--json")
    simulated = json.loads(result.stdout)
    [run] = report["configurations"]
    assert {s: w["count"] for s, w in run["wins_by_seat"].items()} == simulated["wins_by_seat"]
    assert run["draws"]["count"] == simulated["draws"]
    assert {e["reason"]: e["count"] for e in run["end_reasons"]} == simulated["end_reasons"]
    assert run["turns"]["mean"] == pytest.approx(simulated["mean_turns"], abs=0.01)
    assert run["decisions"]["mean"] == pytest.approx(simulated["mean_decisions"], abs=0.01)


def test_every_seat_count_by_default_and_those_asked_for() -> None:
    report = analyze_json("caldera", "-n", "2")
    assert report["seat_counts"] == [2, 3]
    assert [c["players"] for c in report["configurations"]] == [2, 3]
    assert [g["label"] for g in report["groups"]] == [
        "2 players · random at every seat", "3 players · random at every seat"]
    assert analyze_json("caldera", "-n", "2", "-p", "3")["seat_counts"] == [3]


def test_the_same_seed_gives_the_same_report_with_any_jobs() -> None:
    args = ["analyze", "high-rise", "high-rise-numbered-slips", "-n", "10", "--seed", "5",
            "--agents", "random,uniform", "--json"]
    reports = []
    for jobs in ("1", "2"):
        done = subprocess.run([*tabletop(), *args, "--jobs", jobs], capture_output=True,
                              text=True, cwd=ROOT, timeout=300)
        assert done.returncode == 0, done.stderr
        reports.append(without_timing(json.loads(done.stdout)))
    assert reports[0] == reports[1]
    assert len(reports[0]["configurations"]) == 2 * 3  # 2 variants × (2 mirrors + mixed)


# -- variants -----------------------------------------------------------------------------

def test_power_play_changes_how_caldera_ends_and_the_report_says_so() -> None:
    """With Power Play on, random games all end by the quiet-turns rule; without it, by
    trios. The comparison marks that difference significant."""
    report = analyze_json("caldera", "-o", "power_play=true", "-o", "power_play=false",
                          "-p", "2", "-n", "25", "--seed", "1")
    a, b = report["variants"]
    assert (a["key"], a["label"], a["options"]) == ("A", "power_play=true",
                                                    {"power_play": True})
    assert (b["key"], b["label"], b["options"]) == ("B", "power_play=false",
                                                    {"power_play": False})
    run_a, run_b = report["configurations"]
    ends_a = {e["end_rule"]: e["rate"] for e in run_a["end_reasons"]}
    ends_b = {e["end_rule"]: e["rate"] for e in run_b["end_reasons"]}
    assert ends_a == {QUIET_RULE: 1.0} and ends_b.get(TRIOS_RULE, 0) > 0.5
    [group] = report["groups"]
    [comparison] = group["comparisons"]
    assert (comparison["baseline"], comparison["variant"]) == ("A", "B")
    tests = {t["measure"]: t for t in comparison["tests"]}
    quiet = next(t for m, t in tests.items() if m.startswith("reason:60 turns"))
    assert quiet["significant"] and quiet["a"] == 1.0 and quiet["p_adjusted"] < 0.001
    assert quiet["p"] <= quiet["p_adjusted"]
    assert tests["draws"]["significant"]
    for t in tests.values():
        assert 0 <= t["p"] <= t["p_adjusted"] <= 1
        assert t["significant"] == (t["p_adjusted"] < 0.05)


def test_a_ruleset_against_its_variant_file() -> None:
    report = analyze_json("caldera", "caldera-two-trios", "-o", "power_play=false", "-p",
                          "2", "-n", "6")
    assert [v["label"] for v in report["variants"]] == ["caldera", "caldera-two-trios"]
    assert [v["options"] for v in report["variants"]] == [{"power_play": False}] * 2
    assert len(report["groups"][0]["comparisons"]) == 1


def test_option_values_make_every_combination() -> None:
    assert option_sets(["a=1", "b=x", "a=2", "b=y", "a=1"]) == [
        {"a": "1", "b": "x"}, {"a": "1", "b": "y"}, {"a": "2", "b": "x"},
        {"a": "2", "b": "y"}]
    assert option_sets([]) == [{}]


# -- matchups -----------------------------------------------------------------------------

def test_agents_are_split_where_a_new_one_begins() -> None:
    assert split_agents(["random,mcts:playouts=5,depth=5", "uniform"]) == [
        "random", "mcts:playouts=5,depth=5", "uniform"]
    assert split_agents(["mcts:playouts=5,depth=5,random"]) == [
        "mcts:playouts=5,depth=5", "random"]


def test_the_focal_agent_plays_every_seat_equally_often() -> None:
    m = Matchup("random", "mcts")
    seats = [next(s for s, a in m.agents(3, i).items() if a == "mcts") for i in range(6)]
    assert seats == [1, 2, 3, 1, 2, 3]
    assert m.agents(3, 4) == {1: "random", 2: "mcts", 3: "random"}
    assert m.label(3) == "mcts vs 2× random" and m.label(2) == "mcts vs random"
    assert Matchup("uniform").agents(2, 5) == {1: "uniform", 2: "uniform"}


def test_mixed_matchups_report_each_agents_wins() -> None:
    report = analyze_json("high-rise", "--agents", "random,mcts:playouts=5,depth=5",
                          "-n", "4", "--seed", "2")
    assert report["agents"] == ["random", "mcts:playouts=5,depth=5"]
    matchups = [c["matchup"] for c in report["configurations"]]
    # with two seats, mcts vs random and random vs mcts are the same games: played once
    assert matchups == ["random", "mcts:playouts=5,depth=5",
                        "mcts:playouts=5,depth=5 vs random"]
    mixed = report["configurations"][2]
    assert mixed["focal_agent"] == "mcts:playouts=5,depth=5"
    assert report["configurations"][0]["focal_agent"] is None
    agents = mixed["agents"]
    assert set(agents) == {"random", "mcts:playouts=5,depth=5"}
    assert all(a["seats"] == 1 and a["fair_share"] == 0.5 for a in agents.values())
    won = sum(a["count"] for a in agents.values())
    assert won + mixed["draws"]["count"] == 4


def test_mcts_in_a_game_with_secrets_comes_with_a_note() -> None:
    result = invoke("analyze", "bottoms-up", "-p", "4", "--agents",
                    "mcts:playouts=2,depth=2", "-n", "1", "--json")
    assert result.exit_code == 0
    assert "mcts sees all that is hidden" in result.stderr and "ismcts" in result.stderr
    assert json.loads(result.stdout)["games"] == 1
    quiet = invoke("analyze", "caldera", "-p", "2", "--agents", "mcts:playouts=2,depth=2",
                   "-n", "1", "--json")
    assert quiet.stderr == ""  # Caldera hides nothing


def test_three_seats_play_both_mixed_matchups() -> None:
    plan = make_plan(["caldera"], [], [3], ["random,uniform"], 1, 0)
    assert [c.matchup.key() for c in plan.configs] == [
        "random", "uniform", "uniform vs random", "random vs uniform"]


# -- stopping early and memory ------------------------------------------------------------

def test_an_analysis_stopped_early_reports_what_was_played_in_flat_memory() -> None:
    plan = make_plan(["high-rise"], [], [], [], 1_000_000, 1)
    played = 0

    def progress(k: int) -> None:
        nonlocal played
        played += k
        if played == 5:
            raise KeyboardInterrupt

    tracemalloc.start()
    try:
        report = analyze(plan, 1, progress)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report["interrupted"] and report["games"] == 5
    assert report["requested"] == 1_000_000
    assert peak < 5_000_000, peak


def test_games_that_fail_are_counted_and_shown(tmp_path: Path) -> None:
    ruleset = tmp_path / "sometimes-fails.yaml"
    ruleset.write_text(FAILING_RULESET)
    result = invoke("analyze", str(ruleset), "-n", "20", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    [run] = report["configurations"]
    assert 0 < run["errors"] < 20 and report["errors"] == run["errors"]
    assert run["error_examples"] and "division by zero" in run["error_examples"][0]["error"]
    finished = run["games"] - run["errors"]
    assert sum(w["count"] for w in run["wins_by_seat"].values()) + run["draws"]["count"] \
        == finished
    assert run["score_margin"] is None and run["mean_scores"] is None
    table = invoke("analyze", str(ruleset), "-n", "20")
    assert table.exit_code == 1 and "division by zero" in table.stdout


# -- the terminal and the HTML page -------------------------------------------------------

def test_the_terminal_summary_shows_variants_side_by_side() -> None:
    result = invoke("analyze", "caldera", "-o", "power_play=true", "-o",
                    "power_play=false", "-p", "2", "-n", "12")
    assert result.exit_code == 0, result.stderr
    out = " ".join(result.stdout.split())
    for text in ("A: power_play=true", "B: power_play=false", "At a glance",
                 "[no-progress]", "Turns per game", "Options per decision",
                 "cap_move", "differs significantly from A", "No errors."):
        assert text in out, text
    assert " *" in out  # a difference marked


def test_headlines_tell_a_single_way_of_ending_once_and_each_matchups_result() -> None:
    result = invoke("analyze", "high-rise", "--agents", "random,uniform", "-n", "6")
    out = " ".join(result.stdout.split())
    assert out.count("Every game ended by [end_game] “both players are out of pieces”") == 1
    assert "of games ended by" not in out
    assert "uniform vs random: uniform wins" in out and "its even share of 50%" in out


class _Checker(HTMLParser):
    """Every element closed in order (HTML's void elements aside)."""

    VOID: ClassVar[set[str]] = {
        "meta", "link", "br", "img", "input", "hr", "col", "area", "base", "source", "wbr",
        "path", "rect", "use", "stop", "circle", "ellipse", "line", "polyline", "polygon"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        assert self.open and self.open[-1] == tag, (tag, self.open[-5:])
        self.open.pop()


def test_the_html_report_is_one_well_formed_page_with_charts(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = invoke("analyze", "caldera", "-o", "power_play=true", "-o",
                    "power_play=false", "-p", "2", "-n", "10", "--html", str(page))
    assert result.exit_code == 0, result.stderr
    assert f"Report written to {page}" in result.stdout.replace("\n", "")
    text = page.read_text(encoding="utf-8")
    checker = _Checker()
    checker.feed(text)
    checker.close()
    assert checker.open == []
    assert checker.tags.count("svg") >= 5 and checker.tags.count("table") >= 2
    # self-contained: no scripts, no style sheets or images fetched from anywhere
    assert "<script" not in text and "<link" not in text and "src=" not in text
    for svg in text.split("<svg")[1:]:
        ET.fromstring("<svg" + svg[:svg.index("</svg>") + len("</svg>")])
    for words in ("Caldera: balance report", "At a glance", "power_play=false",
                  "60 turns in a row", "Win rate per seat", "How games ended",
                  "class=\"value significant\""):
        assert words in text, words
    assert text.count('id="') == len(set(_ids(text)))  # no two elements share an id


def _ids(text: str) -> list[str]:
    return [part.split('"', 1)[0] for part in text.split(' id="')[1:]]


def test_the_html_report_is_the_same_for_the_same_command(tmp_path: Path) -> None:
    pages = []
    for name in ("a.html", "b.html"):
        result = invoke("analyze", "high-rise", "-n", "3", "--html", str(tmp_path / name))
        assert result.exit_code == 0
        text = (tmp_path / name).read_text()
        pages.append(text[text.index("<table class=\"variants\">"):])  # after the timing
    assert pages[0] == pages[1]


# -- refusals -----------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["nosuch"], "unknown game 'nosuch'"),
    (["caldera", "-o", "nosuch=1"], "no option 'nosuch'"),
    (["caldera", "-o", "power_play=maybe"], "use true or false"),
    (["caldera", "-o", "power_play"], "KEY=VALUE"),
    (["caldera", "--agents", "randm"], "did you mean 'random'"),
    (["caldera", "--agents", "random,mcts:bogus=1"], "no setting 'bogus'"),
    (["caldera", "-n", "0"], "-n must be at least 1"),
    (["caldera", "--jobs", "0"], "--jobs must be at least 1"),
    (["caldera", "-p", "9"], "2 to 3 players, not 9"),
    (["caldera", "high-rise"], "different games"),
    (["caldera", "caldera"], "the same ruleset with the same options"),
    (["caldera", "--html", "/nonexistent-folder/report.html"], "does not exist"),
])
def test_bad_input_gives_one_clear_message(args: list[str], message: str) -> None:
    result = invoke("analyze", *args)
    assert result.exit_code == 1
    assert message in result.stderr, result.stderr
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_an_html_path_that_is_a_folder_or_under_a_file_is_refused(tmp_path: Path) -> None:
    result = invoke("analyze", "high-rise", "--html", str(tmp_path))
    assert result.exit_code == 1 and "is a folder" in result.stderr
    afile = tmp_path / "file"
    afile.write_text("")
    result = invoke("analyze", "high-rise", "--html", str(afile / "report.html"))
    assert result.exit_code == 1 and "is not a folder" in result.stderr


def test_help_explains_the_semantics() -> None:
    result = invoke("analyze", "--help")
    assert result.exit_code == 0
    flat = " ".join(result.stdout.split())
    for words in ("power_play=true", "--agents", "Holm", "Wilson", "--html", "--jobs"):
        assert words in flat, words


# -- simulate's intervals -----------------------------------------------------------------

def test_simulate_reports_confidence_intervals() -> None:
    result = invoke("simulate", "high-rise", "-n", "10", "--seed", "4", "--json")
    report = json.loads(result.stdout)
    assert set(report["win_rate_by_seat"]) == set(report["wins_by_seat"]) == {"1", "2"}
    for seat, wins in report["wins_by_seat"].items():
        rate = report["win_rate_by_seat"][seat]
        assert rate["rate"] == wins / 10 and rate["low"] <= rate["rate"] <= rate["high"]
    assert report["draw_rate"] == {"rate": 0.0, "low": 0.0, "high": 0.2775}
    assert "end_reasons" in report and "wins_by_seat" in report  # kept as they were
    table = invoke("simulate", "high-rise", "-n", "10", "--seed", "4")
    assert "95% interval" in table.stdout and "0.0–27.8%" in table.stdout
