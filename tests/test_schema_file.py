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
