"""Variant files: `extends` a base, change named parts; merge rules, located errors, and
every command taking a variant like any game."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interpreter.api import load, load_game
from interpreter.assemble.game import compile_game
from interpreter.cli.app import app
from interpreter.errors import RulesetError, SaveFileError, UsageError
from interpreter.load.loader import load_ruleset
from interpreter.scenarios.base_cases import compare_with_base
from interpreter.simulate.playout import make_agents, play_game
from interpreter.simulate.record import SavedGame, check_ruleset

ROOT = Path(__file__).resolve().parents[1]
MINIMAL = ROOT / "tests" / "rulesets" / "minimal.yaml"
runner = CliRunner()

# The minimal ruleset with ids on its effects, for the effect edits.
BASE_WITH_IDS = MINIMAL.read_text(encoding="utf-8").replace(
    "      - move: top(pile)\n", "      - id: take-top\n        move: top(pile)\n").replace(
    "          - set: last_taker\n", "          - id: note-taker\n            set: last_taker\n")


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    (tmp_path / "base.yaml").write_text(BASE_WITH_IDS, encoding="utf-8")
    return tmp_path


def variant(folder: Path, body: str, name: str = "v") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(f"tabletop: 1\nextends: base.yaml\ngame: {{name: {name}, title: V}}\n"
                    + body, encoding="utf-8")
    return path


def problems(path: Path) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        compile_game(load_ruleset(path))
    return info.value


def line_of(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if text in line)


# -- the merge rules -----------------------------------------------------------------------

def test_the_bundled_variant_changes_only_what_it_names() -> None:
    base, two = load("caldera").model, load("caldera-two-trios").model
    assert two.game.name == "caldera-two-trios" and two.game.designer == base.game.designer
    assert [o.default for o in two.options if o.id == "power_play"] == [False]
    assert [o.default for o in base.options if o.id == "power_play"] == [True]
    assert [e.when.text for e in two.end if e.id == "three-trios"] == ["trios(current) >= 2"]
    assert two.setup == base.setup and two.turn == base.turn
    assert [r.id for r in two.rulings] == [r.id for r in base.rulings]


def test_change_remove_add_replace_named_parts(folder: Path) -> None:
    path = variant(folder, """\
change:
  variables: {takes: {initial: 5}}
remove:
  triggers: [count_big]
add:
  rulings: [{id: new, text: A new ruling.}]
  define: {small(p): p.size == 1}
replace:
  define.left: count(pieces(pile)) + 0
""")
    rs = load_ruleset(path).model
    assert [v.initial.text for v in rs.variables if v.id == "takes"] == ["5"]
    assert rs.triggers == []
    assert [r.id for r in rs.rulings] == ["new"]
    assert set(rs.define) == {"big(p)", "left", "small(p)"}
    assert rs.define["left"].text == "count(pieces(pile)) + 0"
    game = compile_game(load_ruleset(path))
    assert game.new_state(2, 1).seat_vars["takes"] == [5, 5]


def test_effect_edits_by_id(folder: Path) -> None:
    path = variant(folder, """\
effects:
  - before: take-top
    insert: [{say: before the take}]
  - after: take-top
    insert: [{say: after the take}]
  - remove: note-taker
""")
    rs = load_ruleset(path).model
    take = rs.procedures[0].do
    assert [type(e).__name__ for e in take][:3] == ["Say", "Move", "Say"]
    option_do = rs.turn[0].options[0].do
    assert all(getattr(e, "id", None) != "note-taker" for e in option_do)
    replaced = variant(folder, "effects:\n  - {replace: take-top, with: [{move: top(pile), "
                               "to: pile}]}\n", name="w")
    move = load_ruleset(replaced).model.procedures[0].do[0]
    assert move.to.text == "pile"


def test_budgets_merge_field_by_field_and_whole_keys_replace(folder: Path) -> None:
    path = variant(folder, "budgets: {turns_per_game: 7}\nfirst_seat: '2'\n")
    rs = load_ruleset(path).model
    assert rs.budgets.turns_per_game == 7
    assert rs.budgets.steps_per_decision == 1_000_000
    assert rs.first_seat.text == "2"


def test_variant_of_a_variant(folder: Path) -> None:
    variant(folder, "add:\n  rulings: [{id: one, text: First.}]\n", name="first")
    second = folder / "second.yaml"
    second.write_text("extends: first.yaml\ngame: {name: second, title: Second}\n"
                      "add:\n  rulings: [{id: two, text: Second.}]\n", encoding="utf-8")
    loaded = load_ruleset(second)
    assert [r.id for r in loaded.model.rulings] == ["one", "two"]
    assert loaded.variant is not None and loaded.variant.base_name == "first"


# -- errors, located in the variant ----------------------------------------------------------

def test_an_unknown_id_is_located_in_the_variant_with_a_did_you_mean(folder: Path) -> None:
    path = variant(folder, "remove:\n  triggers: [count_bog]\n")
    text = str(problems(path))
    assert f"{path}:{line_of(path, 'count_bog')}:" in text
    assert "the base has no trigger 'count_bog'" in text and "did you mean 'count_big'" in text


def test_an_unknown_effect_id_suggests_the_base_ids(folder: Path) -> None:
    path = variant(folder, "effects:\n  - {remove: take-tap}\n")
    text = str(problems(path))
    assert f"{path}:{line_of(path, 'take-tap')}:" in text
    assert "did you mean 'take-top'" in text


def test_add_needs_a_new_id_and_change_needs_an_old_one(folder: Path) -> None:
    path = variant(folder, "add:\n  end: [{id: empty, when: 'true'}]\n"
                           "change:\n  options: {speed: {default: 1}}\n")
    text = str(problems(path))
    assert "already has a end rule 'empty'" in text or "already has a" in text
    assert "the base has no option 'speed'" in text


def test_unknown_keys_and_a_missing_name(folder: Path) -> None:
    path = folder / "v.yaml"
    path.write_text("extends: base.yaml\ngame: {title: V}\nchnage: {}\n", encoding="utf-8")
    text = str(problems(path))
    assert "a variant has no key 'chnage'" in text and "did you mean 'change'" in text
    assert "a variant needs a new game name" in text


def test_a_problem_made_by_the_merge_is_reported_at_the_change_with_the_base_place(
        folder: Path) -> None:
    path = variant(folder, "remove:\n  define: [left]\n")
    error = problems(path)
    first = error.diagnostics[0]
    assert first.location is not None and first.location.path == str(path)
    assert first.location.line == line_of(path, "[left]")
    assert "unknown name 'left'" in first.message and "remove define 'left'" in first.message
    base = folder / "base.yaml"
    assert f"in the base at {base}:{line_of(base, 'where: n <= left')}:" in (first.hint or "")
    assert "where: n <= left" in (first.hint or "")


def test_a_duplicate_effect_id_is_an_error(folder: Path) -> None:
    path = variant(folder, "effects:\n  - after: take-top\n    insert: "
                           "[{id: take-top, say: again}]\n")
    assert "two effects have the id 'take-top'" in str(problems(path))


def test_extends_in_a_circle_stops_with_a_message(folder: Path) -> None:
    a, b = folder / "a.yaml", folder / "b.yaml"
    a.write_text("extends: b.yaml\ngame: {name: a, title: A}\n", encoding="utf-8")
    b.write_text("extends: a.yaml\ngame: {name: b, title: B}\n", encoding="utf-8")
    text = str(problems(a))
    assert "the variants extend each other in a circle: a.yaml → b.yaml → a.yaml" in text


def test_a_variant_that_extends_itself_is_told_so_at_once(folder: Path) -> None:
    """It used to read itself eight times over and blame the depth."""
    a = folder / "a.yaml"
    a.write_text("extends: ./a.yaml\ngame: {name: a, title: A}\n", encoding="utf-8")
    text = str(problems(a))
    assert f"{a}:1:10: error: 'a.yaml' extends itself" in text
    assert "deep" not in text


def test_a_budget_a_variant_lowers_is_named_in_its_words(tmp_path: Path) -> None:
    """A budget too small to name the pieces was blamed on the names' template, and the
    change was called "budgets budgets 'budgets'"."""
    from tests.probes.catalogue import ruleset

    (tmp_path / "base.yaml").write_text(ruleset(), encoding="utf-8")  # names: "{colour} {size}"
    path = variant(tmp_path, "budgets: {steps_per_decision: 3}\n")
    text = str(problems(path))
    assert "(after this change: its budgets)" in text, text
    assert "budgets budgets" not in text and "can only use its attributes" not in text


def test_a_missing_base_is_located_at_extends(folder: Path) -> None:
    path = folder / "v.yaml"
    path.write_text("extends: calderra\ngame: {name: v, title: V}\n", encoding="utf-8")
    text = str(problems(path))
    assert f"{path}:1:" in text and "does not load" in text and "caldera" in text


# -- the variant follows its base --------------------------------------------------------------

def test_a_change_to_the_base_reaches_the_variant_and_its_saves(folder: Path) -> None:
    path = variant(folder, "add:\n  rulings: [{id: one, text: First.}]\n")
    game = load_game(path)
    saved = SavedGame.start(game, 2, 5, {1: 'human', 2: 'human'})
    check_ruleset(saved, load(path))
    base = folder / "base.yaml"
    base.write_text(BASE_WITH_IDS.replace("take one or two", "take one or two counters"),
                    encoding="utf-8")
    os.utime(base, (time.time() + 5, time.time() + 5))
    assert load(path).model.game.title == "V"  # the variant's own, reloaded
    assert load(path).content_hash != saved.ruleset_hash
    with pytest.raises(SaveFileError, match="ruleset changed"):
        check_ruleset(saved, load(path))


def test_random_games_of_every_bundled_variant_play_to_the_end() -> None:
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        if path.name.endswith(".tests.yaml") or "extends:" not in path.read_text("utf-8"):
            continue
        game = load_game(path)
        for seed in range(3):
            result = play_game(game, game.min_seats, seed, make_agents(game.min_seats, seed))
            assert result.final_state is not None and result.final_state.over, path.name


# -- commands -----------------------------------------------------------------------------------

def invoke(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_list_shows_each_variant_after_its_base() -> None:
    result = invoke("list")
    assert result.exit_code == 0
    assert result.stdout.index("caldera-two-trios") > result.stdout.index("caldera")
    games = {g["name"]: g for g in json.loads(invoke("list", "--json").stdout)}
    assert games["caldera-two-trios"]["extends"] == "caldera"
    assert "caldera-two-trios" in games["caldera"]["variants"]


def test_run_simulate_and_test_take_a_variant() -> None:
    assert invoke("run", "caldera-two-trios", "--seed", "3").exit_code == 0
    result = invoke("simulate", "caldera-two-trios", "-n", "4", "--seed", "1", "--json")
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout)["games"] == 4
    result = invoke("test", "caldera-two-trios")
    assert result.exit_code == 0 and "0 failed" in result.stdout


def test_base_cases_on_the_variant_show_which_rulings_moved() -> None:
    comparison = compare_with_base(ROOT / "rulesets" / "caldera-two-trios.yaml")
    changed = {c.name for c in comparison.cases if not c.holds}
    assert changed == {"three monochrome trios win at once, and trios may share a colour",
                       "two trios and extra pieces are not a win yet"}
    assert comparison.held == len(comparison.cases) - 2
    result = invoke("test", "caldera-two-trios", "--base")
    assert result.exit_code == 0
    assert "≠ two trios and extra pieces are not a win yet" in result.stdout
    assert f"{comparison.held} of {len(comparison.cases)} base cases still hold" in \
        result.stdout


def test_base_cases_that_no_longer_apply_are_reported_not_fatal(folder: Path) -> None:
    (folder / "base.tests.yaml").write_text("""\
cases:
  - name: takes starts at zero
    expect: ["takes[1] == 0"]
  - name: the last taker starts at zero
    expect: ["last_taker == 0"]
""", encoding="utf-8")
    path = variant(folder, "remove:\n  variables: [takes]\nchange:\n  procedures:\n"
                           "    take: {do: [{move: top(pile), to: 'taken[who]'}]}\n")
    comparison = compare_with_base(path)
    outcome = {c.name: c for c in comparison.cases}
    assert outcome["the last taker starts at zero"].holds
    gone = outcome["takes starts at zero"]
    assert not gone.holds and not gone.applies and "takes" in gone.why


def test_base_on_a_plain_game_is_a_clear_error() -> None:
    with pytest.raises(UsageError, match="not a variant"):
        compare_with_base(ROOT / "rulesets" / "caldera.yaml")
    result = runner.invoke(app, ["test", "caldera", "--base"])
    assert result.exit_code == 1 and "not a variant" in result.output


def test_every_bundled_variant_passes_the_schema_and_typos_are_caught() -> None:
    import jsonschema
    from ruamel.yaml import YAML

    from interpreter.load.schema import json_schema

    validator = jsonschema.Draft202012Validator(json_schema())
    found = 0
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "extends" in data:
            found += 1
            assert not list(validator.iter_errors(data)), path.name
    assert found >= 1
    bad = {"extends": "caldera", "game": {"name": "x", "title": "X"},
           "chnage": {"options.power_play": {"default": False}}}
    assert any("chnage" in e.message for e in validator.iter_errors(bad))


def test_a_variant_with_a_new_base_folder_resolves_relative_paths(tmp_path: Path) -> None:
    (tmp_path / "deep").mkdir()
    shutil.copy(MINIMAL, tmp_path / "deep" / "minimal.yaml")
    v = tmp_path / "v.yaml"
    v.write_text("extends: deep/minimal.yaml\ngame: {name: v, title: V}\n", encoding="utf-8")
    assert load_ruleset(v).model.game.name == "v"


def test_the_rulebook_page_of_a_variant_states_only_its_differences(folder: Path) -> None:
    from interpreter.docs.build import build_docs
    from interpreter.docs.variant_page import build_variant_page

    files = build_docs()
    page = files["caldera-two-trios/index.md"]
    assert "[Caldera](../caldera/index.md)" in page
    assert "- The option **Power Play** is off unless chosen (in Caldera: on)." in page
    assert "- The end of the game: The first player to hold two monochrome trios wins at once." \
        in page
    assert "    - In Caldera: The first player to hold three monochrome trios" in page
    assert "Playing a turn" not in page and "## Set-up" not in page
    assert "caldera-two-trios/index.md" in files["index.md"]
    assert "[Caldera: Two Trios](../caldera-two-trios/index.md)" in \
        files["caldera/index.md"]
    assert "caldera-two-trios" not in files["print/caldera.html"]
    path = variant(folder, """\
remove:
  triggers: [count_big]
add:
  rulings: [{id: new-rule, text: Counters are counted twice.}]
effects:
  - {replace: note-taker, with: [{say: nobody is noted, text: Nobody is noted.}]}
""")
    said = build_variant_page(load_ruleset(path))
    assert said.added == ["The ruling **New rule**: Counters are counted twice."]
    assert len(said.removed) == 1 and "count big" in said.removed[0]
    assert len(said.changed) == 1
    assert "    - Now: Nobody is noted." in said.changed[0]
    assert "    - In Minimal: Set the last taker to the current player." in said.changed[0]


def test_a_run_time_error_in_the_base_rules_also_points_at_the_variant(tmp_path: Path) -> None:
    """The failing effect is the base's, but the variant's changes led to it: the message
    names both files, so the designer knows where to look."""
    path = tmp_path / "few-covers.yaml"
    path.write_text("tabletop: 1\nextends: high-rise\n"
                    "game: {name: few-covers, title: Few covers}\n"
                    "change:\n  sets:\n    covers:\n      count: 1\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path), "--seed", "1"])
    assert result.exit_code == 1
    text = result.output
    assert "high-rise.yaml:" in text and "gave no piece to move" in text
    assert f"in the variant of high-rise at {path}:2:10: its changes may be the cause" in text
    assert "Traceback" not in text
