"""Addresses: every part of a ruleset can be named, listed (`tabletop parts`) and changed
by a variant; replacing a part with its own YAML gives the same game."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interpreter.api import load
from interpreter.cli.app import app
from interpreter.cli.parts_command import part_yaml
from interpreter.errors import RulesetError
from interpreter.load.catalog import bundled_names, find_ruleset
from interpreter.load.loader import load_ruleset, validate_tree
from interpreter.load.parts import Part, parts
from interpreter.load.variants import merge_variant
from interpreter.load.yaml_source import parse_yaml, read_yaml
from interpreter.scenarios.base_cases import compare_with_base

ROOT = Path(__file__).resolve().parents[1]
MINIMAL = ROOT / "tests" / "rulesets" / "minimal.yaml"
runner = CliRunner()

GAMES = ["aquarium", "aquarius-rising", "bottoms-up", "caldera", "high-rise"]
"""The bundled games that are not variants (their scenario cases run in the sample)."""


def _same(loaded: Any) -> dict[str, Any]:
    return loaded.model_dump(mode="json", exclude={"game"})


def replacing(base: str, replaced: list[Part], name: str = "same") -> str:
    """A variant that replaces each of these parts with its own `parts --yaml`."""
    body = "".join(f"  {p.address}:\n" + textwrap.indent(part_yaml(p), "    ")
                   for p in replaced)
    return (f"tabletop: 1\nextends: {base}\ngame: {{name: {name}, title: Same}}\n"
            f"replace:\n{body}")


# -- the identity proof ----------------------------------------------------------------------

@pytest.mark.parametrize("game", bundled_names())
def test_replacing_any_part_with_its_own_yaml_gives_the_same_game(game: str) -> None:
    """Every address of every bundled game and variant, one variant each: the validated
    model is the base's (the base is read once, as `extends` would read it)."""
    base = load(game)
    want = _same(base.model)
    path = str(find_ruleset(game))
    read_once: dict[str, Any] = {}

    def read(ref: str, near: Path) -> tuple[Any, Any, str]:
        if ref not in read_once:
            file = Path(ref) if "/" in ref else find_ruleset(ref)
            tree, source = read_yaml(file)
            read_once[ref] = (tree, source, str(file))
        return read_once[ref]  # type: ignore[no-any-return]

    every = parts(base.tree)
    assert len(every) >= 20  # (tic-tac-toe, the smallest, has 24)
    for part in every:
        tree, source = parse_yaml(replacing(path, [part]), "/same.yaml")
        merged, info = merge_variant(tree, source, "/same.yaml", read)
        assert info.changes, part.address
        assert _same(validate_tree(merged, source)) == want, part.address


@pytest.mark.parametrize("game", GAMES)
def test_the_base_cases_hold_on_a_game_whose_parts_are_replaced_by_themselves(
        game: str, tmp_path: Path) -> None:
    """One part of each kind (a step, an option of a decision, a block, an end rule …)
    replaced at once by its own YAML: every scenario case of the game still holds."""
    one_of_each: dict[str, Part] = {}
    for part in parts(load(game).tree):
        one_of_each.setdefault(part.kind, part)
    assert {"step", "steps", "section"} <= set(one_of_each)
    variant = tmp_path / f"{game}-same.yaml"
    variant.write_text(replacing(str(find_ruleset(game)), list(one_of_each.values()),
                                 f"{game}-same"), encoding="utf-8")
    comparison = compare_with_base(variant)
    assert comparison.cases
    assert [c.name for c in comparison.cases if not c.holds] == []


# -- the scheme ------------------------------------------------------------------------------

def addresses(game: str) -> dict[str, Part]:
    return {p.address: p for p in parts(load(game).tree)}


def test_addresses_name_parts_by_id_or_by_place() -> None:
    found = addresses("caldera")
    assert found["cap_move"].kind == "option of a decision"
    assert found["cap_move"].path == "turn.3.repeat.1.options.cap_move"
    assert found["cap_move.do.1"].node["move"] == "top(origin)"
    assert found["turn.4.then"].kind == "steps" and found["turn.4.else.1"].kind == "step"
    assert found["end.three-trios"].kind == "end rule"
    assert found["define.key_after"].key == "key_after(a, b)"
    assert found["sets.rainbow"].path == "pieces.sets.rainbow"
    assert {"turn", "setup", "end", "rank.1", "scores", "options.power_play"} <= set(found)
    high_rise = addresses("high-rise")
    assert high_rise["roll-die"].path == "setup.1.do.1"  # an effect's id names it alone


def test_addresses_are_unique_and_an_id_that_repeats_is_qualified() -> None:
    tree, _ = parse_yaml(MINIMAL.read_text(encoding="utf-8").replace(
        "turn:\n", "turn:\n  - {id: twice, say: one}\n  - {id: twice, say: two}\n", 1),
        "m.yaml")
    found = [p.address for p in parts(tree)]
    assert len(found) == len(set(found))
    assert "twice" not in found and {"turn.1", "turn.2"} <= set(found)


def test_an_address_stays_when_an_unrelated_part_changes() -> None:
    text = (ROOT / "rulesets" / "caldera.yaml").read_text(encoding="utf-8")
    before = {p.address: p.path for p in parts(parse_yaml(text, "c.yaml")[0])}
    more = text.replace("rulings:\n", "rulings:\n  - {id: first, text: A new ruling.}\n", 1)
    more = more.replace("zones:\n", "zones:\n  - {id: spare, kind: pile}\n", 1)
    after = {p.address: p.path for p in parts(parse_yaml(more, "c.yaml")[0])}
    assert {a: p for a, p in after.items() if a in before} == before


# -- a variant by address --------------------------------------------------------------------

@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    (tmp_path / "base.yaml").write_text(MINIMAL.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def variant(folder: Path, body: str) -> Path:
    path = folder / "v.yaml"
    path.write_text("tabletop: 1\nextends: base.yaml\ngame: {name: v, title: V}\n" + body,
                    encoding="utf-8")
    return path


def test_replace_remove_insert_and_change_by_address(folder: Path) -> None:
    base = {p.address: p for p in parts(load_ruleset(folder / "base.yaml").tree)}
    assert base["take"].kind == "option of a decision" and "procedures.take" in base
    path = variant(folder, """\
replace:
  procedures.take.do.1: {move: top(pile), to: pile}
remove: [triggers.count_big]
insert:
  - before: procedures.take.do.1
    items: [{say: before the take}]
  - into: define
    items: {small(p): p.size == 1}
  - into: rulings
    items: [{id: new, text: A new ruling.}]
change:
  variables.takes: {initial: 5}
""")
    loaded = load_ruleset(path)
    rs = loaded.model
    take = rs.procedures[0].do
    assert [type(e).__name__ for e in take][:2] == ["Say", "Move"]
    assert take[1].to.text == "pile"
    assert rs.triggers == [] and [r.id for r in rs.rulings] == ["new"]
    assert "small(p)" in rs.define
    assert [v.initial.text for v in rs.variables if v.id == "takes"] == ["5"]
    kinds = [(c.kind, c.address) for c in loaded.variant.changes if c.kind != "game"]
    assert ("effect-replace", "procedures.take.do.1") in kinds
    assert ("remove", "triggers.count_big") in kinds
    assert ("change", "variables.takes") in kinds


def test_a_wrong_address_is_located_with_a_did_you_mean(folder: Path) -> None:
    path = variant(folder, "change:\n  variables.tikes: {initial: 5}\nremove: [turn.9]\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    text = str(info.value)
    assert f"{path}:5:3: error: `change`: the base has no part 'variables.tikes'" in text
    assert "did you mean 'variables.takes'" in text
    assert f"{path}:6:10: error: `remove`: the base has no part 'turn.9'" in text
    assert "tabletop parts base.yaml" in text


def test_a_whole_block_replace_that_leaves_items_out_says_the_address_form(
        folder: Path) -> None:
    """Before addresses, `replace: {PART: [items]}` replaced only the items named."""
    path = variant(folder, "replace:\n  define: {left: count(pieces(pile)) + 0}\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    text = str(info.value)
    assert f"{path}:5:3:" in text and "leaves out the base's big" in text
    assert "replace: {define.left: ...}" in text


def test_the_older_forms_still_work(folder: Path) -> None:
    path = variant(folder, "remove:\n  triggers: [count_big]\n"
                           "change:\n  variables: {takes: {initial: 5}}\n"
                           "add:\n  rulings: [{id: new, text: A new ruling.}]\n")
    rs = load_ruleset(path).model
    assert rs.triggers == [] and [r.id for r in rs.rulings] == ["new"]
    assert [v.initial.text for v in rs.variables if v.id == "takes"] == ["5"]


# -- `tabletop parts` -------------------------------------------------------------------------

def test_parts_lists_every_address_with_its_english() -> None:
    result = runner.invoke(app, ["parts", "caldera"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == len(parts(load("caldera").tree))
    by_address = {line.split()[0]: line for line in lines}
    assert "Move a cap one square in any of the eight directions" in by_address["cap_move"]
    assert "three monochrome trios wins" in by_address["end.three-trios"]
    assert "Add 1 to the quiet turns" in by_address["turn.4.else.1"]


def test_parts_yaml_prints_what_a_variant_writes() -> None:
    result = runner.invoke(app, ["parts", "caldera", "turn.4.else", "--yaml"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "- add: quiet_turns\n  amount: 1\n"
    one = runner.invoke(app, ["parts", "caldera", "cap_move"])
    assert one.exit_code == 0 and "option of a decision" in one.stdout


def test_parts_of_a_variant_are_its_own() -> None:
    result = runner.invoke(app, ["parts", "caldera-orthogonal-caps", "cap_move", "--yaml"])
    assert result.exit_code == 0 and "dir: orthogonal" in result.stdout


@pytest.mark.parametrize("args, words", [
    (["parts", "caldra"], "did you mean 'caldera'"),
    (["parts", "caldera", "cap_mvoe"], "did you mean 'cap_move'"),
    (["parts", "caldera", "--yaml"], "give its ADDRESS"),
])
def test_parts_of_an_unknown_game_or_address_is_a_clear_error(args: list[str],
                                                              words: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert words in result.output and "Traceback" not in result.output


# -- the orthogonal caps variant ---------------------------------------------------------------

def test_the_orthogonal_caps_variant_is_ten_lines_and_changes_only_cap_moves() -> None:
    path = ROOT / "rulesets" / "caldera-orthogonal-caps.yaml"
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 10
    comparison = compare_with_base(path)
    assert comparison.declared and comparison.surprises == []
    assert 0 < comparison.changed < len(comparison.cases)
    result = runner.invoke(app, ["test", str(path), "--base"])
    assert result.exit_code == 0, result.output


def test_base_changes_fail_the_comparison_when_they_do_not_match(tmp_path: Path) -> None:
    """A base case the variant changes without naming it fails `test --base`."""
    variant = tmp_path / "orthogonal.yaml"
    variant.write_text((ROOT / "rulesets" / "caldera-orthogonal-caps.yaml").read_text(
        encoding="utf-8"), encoding="utf-8")
    tests = (ROOT / "rulesets" / "caldera-orthogonal-caps.tests.yaml").read_text(
        encoding="utf-8")
    (tmp_path / "orthogonal.tests.yaml").write_text(tests.replace(
        "  - a cap never moves onto another cap\n", "", 1), encoding="utf-8")
    result = runner.invoke(app, ["test", str(variant), "--base"])
    assert result.exit_code == 1
    said = " ".join(result.output.split())
    assert "≠ a cap never moves onto another cap changed — not among the variant's " \
        "base_changes" in said
    assert "1 base case came out otherwise than the variants' base_changes say" in said


def test_the_variant_page_says_each_change_by_address_where_it_stands(folder: Path) -> None:
    """Steps without ids, options of a decision and blocks a variant changes by address
    are said in the rulebook's words, where they stand, now and before."""
    from interpreter.docs.variant_page import build_variant_page

    path = variant(folder, """\
change:
  procedures.take.do.2: {amount: 2}
remove: [take.do.2]
insert:
  - after: take
    items: [{id: pass, notation: pass, do: [{say: passes}]}]
  - into: turn.1.if_none
    items: [{say: nobody}]
""")
    page = build_variant_page(load_ruleset(path))
    assert page.changed == ["In the procedure *take*:\n    - Now: Add 2 to the takes of *who*."
                            "\n    - In Minimal: Add 1 to the takes of *who*."]
    assert page.removed == ["In a turn, within the decision “the current player: take one or "
                            "two”, in the option “Take”: Set the last taker to the current "
                            "player."]
    assert page.added == [
        "In a turn, within the decision “the current player: take one or two”, a new "
        "option: The option “Pass”: Pass:\n    - Announce: “passes”.",
        "In a turn, within the decision “the current player: take one or two”, if there is "
        "no option, a new step: Announce: “nobody”."]
