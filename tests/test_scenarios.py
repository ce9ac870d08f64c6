"""Scenario tests: every bundled ``*.tests.yaml`` case passes, and the format itself
reports mistakes where they were written and failures with useful messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RulesetError, UsageError
from interpreter.load.catalog import rulesets_dir
from interpreter.scenarios.runner import (
    discover,
    load_scenario_file,
    run_case,
    run_scenario_files,
)


def _bundled_cases() -> list:
    params = []
    for path in discover([]):
        try:
            suite = load_scenario_file(path)
        except RulesetError as exc:
            params.append(pytest.param(path, None, str(exc), id=f"{path.name}: load"))
            continue
        for case in suite.cases:
            params.append(pytest.param(suite.path, case, None,
                                       id=f"{path.name[:-len('.tests.yaml')]}: {case.case.name}"))
    return params


@pytest.mark.parametrize(("path", "case", "load_error"), _bundled_cases())
def test_bundled_scenario(path: Path, case: object, load_error: str | None) -> None:
    if load_error is not None:
        pytest.fail(f"{path} does not load:\n{load_error}")
    result = run_case(path, case)  # type: ignore[arg-type]
    assert result.passed, f"{result.location}: {result.name}\n{result.message}"


def test_caldera_has_scenarios_and_discover_finds_them() -> None:
    bundled = discover([])
    caldera = rulesets_dir() / "caldera.tests.yaml"
    assert caldera.resolve() in [p.resolve() for p in bundled]
    assert [p.resolve() for p in discover(["caldera"])] == [caldera.resolve()]
    assert [p.resolve() for p in discover([str(caldera)])] == [caldera.resolve()]
    assert [p.resolve() for p in discover([str(rulesets_dir() / "caldera.yaml")])] == [
        caldera.resolve()]
    results = run_scenario_files([caldera])
    assert len(results) >= 50
    assert all(r.passed for r in results)
    assert all(r.file == caldera for r in results)


def test_discover_unknown_game_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="calderra"):
        discover(["calderra"])


# -- the format -------------------------------------------------------------------------

def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.tests.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _load_error(tmp_path: Path, text: str) -> str:
    path = _write(tmp_path, text)
    with pytest.raises(RulesetError) as info:
        run_scenario_files([path])
    return str(info.value)


def test_unknown_key_is_located_with_a_hint(tmp_path: Path) -> None:
    message = _load_error(tmp_path, """\
ruleset: caldera
cases:
  - name: typo
    postion: {board: {b2: [black small]}}
""")
    assert "mine.tests.yaml:4:5: error: unknown key 'postion'" in message
    assert "did you mean 'position'" in message


def test_unknown_piece_name_is_located_with_a_hint(tmp_path: Path) -> None:
    message = _load_error(tmp_path, """\
ruleset: caldera
cases:
  - name: bad piece
    position:
      board:
        b2: [red small, red lrage]
""")
    assert "mine.tests.yaml:6:25: error: no piece is called 'red lrage'" in message
    assert "did you mean 'red large'" in message


def test_too_many_pieces_of_a_kind_is_an_error(tmp_path: Path) -> None:
    message = _load_error(tmp_path, """\
ruleset: caldera
cases:
  - name: seven red larges
    position:
      board:
        a1: [red large, red large, red large, red large, red large, red large, red large]
""")
    assert "no 'red large' is left: the game has 6" in message


def test_unknown_place_is_located_with_a_hint(tmp_path: Path) -> None:
    message = _load_error(tmp_path, """\
ruleset: caldera
cases:
  - name: bad places
    position:
      board:
        f7: [red small]
      captred:
        1: [red large]
""")
    assert "mine.tests.yaml:6:9: error: zone 'board' has no place 'f7'" in message
    assert "mine.tests.yaml:7:7: error: no zone is called 'captred'" in message
    assert "did you mean 'captured'" in message


def test_unknown_name_in_an_expectation_is_located(tmp_path: Path) -> None:
    message = _load_error(tmp_path, """\
ruleset: caldera
cases:
  - name: bad expectation
    seed: 1
    expect:
      - trio(1) == 0
      - quiet_turn == 0
""")
    assert "mine.tests.yaml:6:9: error: unknown function 'trio'" in message
    assert "did you mean 'trios'" in message
    assert "mine.tests.yaml:7:9: error: unknown name 'quiet_turn'" in message


def test_bad_option_seat_and_start_are_reported(tmp_path: Path) -> None:
    message = _load_error(tmp_path, """\
ruleset: caldera
cases:
  - name: bad option
    options: {power: false}
  - name: bad seats
    seed: 1
    winners: [4]
  - name: both starts
    seed: 1
    position: {board: {a1: [black small]}}
""")
    assert "has no option 'power'; did you mean 'power_play'?" in message
    assert "winners: 4 is not a seat" in message
    assert "either a seed" in message


def test_a_wrong_expectation_fails_with_a_useful_message(tmp_path: Path) -> None:
    path = _write(tmp_path, """\
ruleset: caldera
cases:
  - name: the large does not land 3 away
    position:
      board:
        a1: [red small, red medium, red large, black small]
        d5: [green small]
    moves: [a1-n]
    expect:
      - top('a4').size == 3
      - trios(1) == 0
    deciding: [1]
    legal_includes: [a2-w]
    log_includes: [Volcano]
""")
    [result] = run_scenario_files([path])
    assert not result.passed
    assert result.name == "the large does not land 3 away"
    message = result.message
    assert "expectation failed: `top('a4').size == 3`" in message
    assert "top('a4').size is 2" in message
    assert "trios(1)" not in message  # the true expectation is not reported
    assert "deciding: expected seats [1], found [2]" in message
    assert "legal_includes: not legal: a2-w" in message
    assert "Player 2 decides; legal:" in message
    assert "log_includes: no log line contains 'Volcano'" in message
    assert "board: a2 [kS], a3 [rL], a4 [rM], a5 [rS], d5 [gS]" in message


def test_a_refused_move_fails_the_case_and_lists_the_legal_options(tmp_path: Path) -> None:
    path = _write(tmp_path, """\
ruleset: caldera
cases:
  - name: no cap there
    position:
      board:
        a1: [red small, black small]
    moves: [b2-n]
  - name: wrongly thought illegal
    position:
      board:
        a1: [red small, black small]
    illegal: [a1-n]
""")
    first, second = run_scenario_files([path])
    assert not first.passed
    assert "move 1 'b2-n' (Player 1) was refused" in first.message
    assert "legal: a1-n, a1-ne, a1-e" in first.message
    assert not second.passed
    assert "illegal: 'a1-n' was accepted from Player 1" in second.message


def test_ruleset_is_found_next_to_the_tests_file(tmp_path: Path) -> None:
    source = (rulesets_dir() / "caldera.yaml").read_text(encoding="utf-8")
    (tmp_path / "volcano.yaml").write_text(source, encoding="utf-8")
    path = tmp_path / "volcano.tests.yaml"
    path.write_text("""\
cases:
  - name: the ruleset is the sibling file
    seed: 2
    expect: [count(cap_squares) == 6]
    variables: {quiet_turns: 5}
  - name: variables may be set
    seed: 2
    variables: {quiet_turns: 5}
    expect: [quiet_turns == 5]
""", encoding="utf-8")
    results = run_scenario_files(discover([str(path)]))
    assert [r.passed for r in results] == [True, True], [r.message for r in results]


# -- the README's example ------------------------------------------------------------------

def _readme_example() -> str:
    """The README's complete scenario file (its section `## Scenario tests`)."""
    import re

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Scenario tests\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```yaml\n(.*?)^```$", section, re.S | re.M)
    (example,) = [b for b in blocks if b.startswith("# caldera-example.tests.yaml")]
    return example


def test_the_readme_scenario_example_runs_and_passes(tmp_path: Path) -> None:
    """The format the README teaches is the one the runner reads: its example file, taken
    from the README's text, loads and every case passes against the bundled game."""
    path = tmp_path / "caldera-example.tests.yaml"
    path.write_text(_readme_example(), encoding="utf-8")
    results = run_scenario_files(discover([str(path)]))
    assert len(results) == 3
    failed = [f"{r.name}: {r.message}" for r in results if not r.passed]
    assert not failed, "\n".join(failed)


def test_the_readme_scenario_example_checks_what_it_says(tmp_path: Path) -> None:
    """Its checks can fail: the same file with one expectation turned round fails."""
    text = _readme_example().replace("current == 2", "current == 1", 1)
    path = tmp_path / "caldera-example.tests.yaml"
    path.write_text(text, encoding="utf-8")
    results = run_scenario_files([path])
    assert [r.passed for r in results] == [False, True, True]
    assert "expectation failed: `current == 1`" in results[0].message
