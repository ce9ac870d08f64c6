"""libyaml's C parser reads a ruleset ten times faster than ruamel's own (start-up of
`validate`), and must read exactly what the pure parser reads: every value, every
place (line and column of each key, item and text), and no input the pure parser
refuses. Checked over every YAML file of the project and the hostile inputs of the
robustness tests; skipped, saying why, when ruamel.yaml.clib is not installed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interpreter.errors import RulesetError
from interpreter.load import yaml_source
from interpreter.load.yaml_source import LocatedDict, LocatedList, LocatedStr, parse_yaml

pytestmark = pytest.mark.skipif(yaml_source.CParser is None,
                                reason="ruamel.yaml.clib (libyaml) is not installed")
ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for p in [*ROOT.glob("rulesets/*.yaml"), *ROOT.glob("tests/**/*.yaml"),
                           *ROOT.glob("benchmarks/**/*.yaml")] if ".venv" not in p.parts)


def located(node: Any) -> Any:
    """A tree with every place written out, so that equal means read alike."""
    if isinstance(node, LocatedDict):
        return ("map", node.loc, [(located(k), node.key_locs.get(k), located(v))
                                  for k, v in node.items()])
    if isinstance(node, LocatedList):
        return ("list", node.loc, list(node.item_locs), [located(v) for v in node])
    if isinstance(node, LocatedStr):
        return ("str", str(node), getattr(node, "loc", None))
    return (type(node).__name__, node)


def pure(text: str, path: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as m:
        m.setattr(yaml_source, "CParser", None)
        return parse_yaml(text, path)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_the_fast_reading_is_the_pure_one(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text(encoding="utf-8")
    try:
        expected = located(pure(text, str(path), monkeypatch)[0])
    except RulesetError as exc:
        with pytest.raises(RulesetError) as fast:
            parse_yaml(text, str(path))
        assert str(fast.value) == str(exc)
        return
    assert located(parse_yaml(text, str(path))[0]) == expected


def test_every_bundled_ruleset_takes_the_fast_reading() -> None:
    """The speed is real: no bundled ruleset falls back to the pure parser (two tests
    files do, for a plain `a:b` in brackets that YAML 1.1 refuses)."""
    slow = [p.name for p in ROOT.glob("rulesets/*.yaml") if not p.name.endswith(".tests.yaml")
            and yaml_source._read_fast(p.read_text(encoding="utf-8"), str(p)) is None]
    assert slow == []


HOSTILE = [
    "a: [b:c]\n", "a: 1\na: 2\n", "a:\n\t- b\n", "key: \"\\ud800\"\n", "- &a [*a]\n",
    "a: &x 1\nb: *y\n", "%YAML 1.1\n---\na: 0o17\nb: yes\n", "%YAML 1.2\n---\na: yes\n",
    "? [a]\n: b\n", "a: !!binary aGk=\n", "a: \x07\n", "a: b: c\n", "- a\nb: c\n",
    "a: 'unterminated\n", "{a: 1, a: 2}\n", "<<: {a: 1}\nb: 2\n", "a: |\n  x\n b\n",
    "\ufeffa: 1\n", "a: 1\n...\n---\nb: 2\n", "[" * 200 + "]" * 200 + "\n",
    "a: 0x1F\nb: 1_000\nc: .inf\nd: ~\ne: 2001-12-14\n",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_texts_read_alike(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        expected = located(pure(text, "h.yaml", monkeypatch)[0])
    except RulesetError as exc:
        with pytest.raises(RulesetError) as fast:
            parse_yaml(text, "h.yaml")
        assert str(fast.value) == str(exc)
        return
    assert located(parse_yaml(text, "h.yaml")[0]) == expected
