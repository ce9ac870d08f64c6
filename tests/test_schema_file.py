"""The committed JSON Schema (for editors) must match the language."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.load.schema import json_schema, json_schema_text

ROOT = Path(__file__).resolve().parents[1]


def test_committed_schema_is_fresh() -> None:
    committed = (ROOT / "tabletop.schema.json").read_text(encoding="utf-8")
    assert committed == json_schema_text(), "run: tabletop schema > tabletop.schema.json"


def test_schema_lists_every_primitive() -> None:
    from interpreter.primitives import PRIMITIVES

    text = json.dumps(json_schema())
    for keyword in PRIMITIVES:
        assert f'"{keyword}"' in text, keyword


def test_bundled_rulesets_pass_the_schema_as_an_editor_sees_them() -> None:
    """What yaml-language-server checks while a designer types: no false alarms."""
    import jsonschema
    from ruamel.yaml import YAML

    validator = jsonschema.Draft202012Validator(json_schema())
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        if path.name.endswith(".tests.yaml"):
            continue
        data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]
        assert not errors, f"{path.name}: {errors[:3]}"


def test_the_schema_catches_an_unknown_key() -> None:
    import jsonschema

    validator = jsonschema.Draft202012Validator(json_schema())
    bad = {"game": {"name": "x", "title": "X", "seats": {"min": 2, "max": 2}},
           "pieces": {"attributes": {}, "sets": []}, "zones": [], "turn": [],
           "trun": []}
    assert any("trun" in e.message for e in validator.iter_errors(bad))
