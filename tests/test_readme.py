"""Every YAML block of the README is checked, so the README cannot drift from the language.

A block is a complete ruleset or variant, which must load and compile (a variant's
`extends: caldera` names the bundled game), or it is marked as a fragment by an HTML
comment on the line before it, `<!-- fragment: KIND -->`, and is then validated against
the schema of what KIND names: `effects` (a list of effects), `effect`, `cases` (scenario
cases), `ruleset` (some top-level keys of a ruleset), a ruleset's top-level key (`zones`,
`define`, `end` …) or a variant's (`replace`, `change`, `insert` …); `yaml` is only
parsed (an editor's comment line, say).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from interpreter.assemble.game import compile_game
from interpreter.errors import RulesetError
from interpreter.load.loader import load_ruleset_text
from interpreter.load.schema import Ruleset, Variant
from interpreter.load.yaml_source import parse_yaml
from interpreter.primitives import Block, Effect
from interpreter.scenarios.model import Case

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

BLOCK = re.compile(r"^```yaml[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
MARK = re.compile(r"<!--\s*fragment:\s*([\w-]+)\s*-->\s*$")


def yaml_blocks(text: str) -> list[tuple[int, str | None, str]]:
    """(line, fragment kind or None, text) of each ```yaml block."""
    out = []
    for m in BLOCK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        mark = MARK.search(before)
        out.append((line, mark.group(1) if mark else None, m.group(1)))
    return out


def _kind_type(kind: str) -> Any:
    """The type a fragment of this kind must validate as (None: parsed only)."""
    fixed: dict[str, Any] = {"effects": Block, "effect": Effect, "cases": list[Case],
                             "yaml": None}
    if kind in fixed:
        return fixed[kind]
    for model in (Ruleset, Variant):
        for name, info in model.model_fields.items():
            if kind in (name, info.alias):
                return dict[str, Any] if kind == "ruleset" else info.annotation
    if kind == "ruleset":
        return "ruleset"
    raise AssertionError(f"unknown fragment kind '{kind}'")


def check_fragment(kind: str, text: str, where: str) -> None:
    tree, _ = parse_yaml(text, where)
    wanted = _kind_type(kind)
    if wanted is None:
        return
    if wanted == "ruleset":
        assert isinstance(tree, dict), f"{where}: a ruleset fragment is a mapping"
        for key, value in tree.items():
            field = Ruleset.model_fields.get(str(key))
            assert field is not None, f"{where}: a ruleset has no key '{key}'"
            TypeAdapter(field.annotation).validate_python(value)
        return
    # a block of a ruleset's key may be written with its key (`zones:\n  - ...`) or without
    if isinstance(tree, dict) and set(tree) == {kind}:
        tree = tree[kind]
    TypeAdapter(wanted).validate_python(tree)


def check_whole(text: str, where: str) -> None:
    """A complete ruleset or variant loads and compiles."""
    loaded = load_ruleset_text(text, where)
    compile_game(loaded, {})


BLOCKS = yaml_blocks(README.read_text(encoding="utf-8"))


def test_the_readme_has_yaml_blocks_and_complete_variants_among_them() -> None:
    assert len(BLOCKS) >= 3
    assert sum(kind is None for _, kind, _ in BLOCKS) >= 2


@pytest.mark.parametrize("line, kind, text", BLOCKS,
                         ids=[f"README.md:{line}" for line, _, _ in BLOCKS])
def test_every_yaml_block_of_the_readme_is_valid(line: int, kind: str | None,
                                                 text: str) -> None:
    where = str(README.parent / f"README.md:{line}")
    try:
        if kind is None:
            check_whole(text, where)
        else:
            check_fragment(kind, text, where)
    except (RulesetError, ValidationError) as exc:
        hint = "" if kind else (" (a fragment needs `<!-- fragment: KIND -->` on the line "
                                "before it)")
        pytest.fail(f"README.md:{line}: the YAML block does not validate{hint}:\n{exc}")


def test_the_readme_variant_is_the_bundled_file() -> None:
    file = (ROOT / "rulesets" / "caldera-orthogonal-caps.yaml").read_text(encoding="utf-8")
    assert any(text == file for _, _, text in BLOCKS)


def test_an_unmarked_fragment_or_a_wrong_block_fails() -> None:
    """The checks above can fail: a bare list of effects is no ruleset, and a fragment
    of the wrong shape does not validate."""
    with pytest.raises(RulesetError):
        check_whole("- move: top(pile)\n  to: pile\n", "x.yaml")
    with pytest.raises(RulesetError):
        check_whole("tabletop: 1\nextends: caldera\ngame: {name: x, title: X}\n"
                    "change:\n  cap_mvoe: {for: {}}\n", "x.yaml")
    with pytest.raises(ValidationError):
        check_fragment("effects", "- mvoe: top(pile)\n", "x.yaml")
    with pytest.raises(ValidationError):
        check_fragment("zones", "- {id: z, kind: heap}\n", "x.yaml")
    check_fragment("effects", "- move: top(pile)\n  to: pile\n", "x.yaml")
    marked = yaml_blocks("text\n<!-- fragment: effects -->\n```yaml\n- say: hi\n```\n")
    assert marked == [(3, "effects", "- say: hi\n")]
