"""YAML file → validated ruleset model, with every problem located and explained."""

from __future__ import annotations

import hashlib
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from interpreter.errors import Diagnostic, Location, RulesetError, did_you_mean
from interpreter.load.schema import Ruleset
from interpreter.load.yaml_source import Source, locate, parse_yaml, read_yaml
from interpreter.primitives import PRIMITIVES


@dataclass
class LoadedRuleset:
    """A validated ruleset with the text it came from (for messages and hashing)."""

    model: Ruleset
    source: Source

    @property
    def path(self) -> str:
        return self.source.path

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.source.text.encode("utf-8")).hexdigest()


def _field_names(model: type[BaseModel]) -> list[str]:
    return [f.alias or name for name, f in model.model_fields.items()]


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """Model classes reachable from a type annotation (through lists, unions, Optional)."""
    found: list[type[BaseModel]] = []
    stack = [annotation]
    while stack:
        t = stack.pop()
        if isinstance(t, type) and issubclass(t, BaseModel):
            found.append(t)
            continue
        origin = typing.get_origin(t)
        if origin is typing.Annotated:
            stack.append(typing.get_args(t)[0])
        elif origin in (list, dict, typing.Union, types.UnionType) or origin is not None:
            stack.extend(typing.get_args(t))
    return found


def _model_at(loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model class whose fields apply at a pydantic error path (best effort)."""
    current: list[type[BaseModel]] = [Ruleset]
    for step in loc:
        if isinstance(step, int):
            continue
        if isinstance(step, str) and step in PRIMITIVES and PRIMITIVES[step] in current:
            current = [PRIMITIVES[step]]
            continue
        nxt: list[type[BaseModel]] = []
        for model in current:
            for name, f in model.model_fields.items():
                if step in (name, f.alias):
                    nxt.extend(_models_in(f.annotation))
        if not nxt:
            return current[0] if len(current) == 1 else None
        current = nxt
    return current[0] if len(current) == 1 else None


MAX_DIAGNOSTICS = 50
"""Most schema problems reported at once: a generated file can hold a hundred thousand
wrong items, and printing each (with its source line) would flood the terminal."""


def _diagnose(exc: ValidationError, tree: Any, source: Source) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    seen: set[tuple[Any, str]] = set()
    errors = exc.errors(include_url=False)
    for n, err in enumerate(errors):
        loc = tuple(err["loc"])
        kind = err["type"]
        where = locate(tree, loc, key=kind in ("extra_forbidden", "invalid_key"))
        key = (str(where), kind)
        if key in seen:
            continue
        if len(out) == MAX_DIAGNOSTICS:
            out.append(source.diagnostic(
                f"... and up to {len(errors) - n:,} more problems, from here on (tabletop "
                f"reports the first {MAX_DIAGNOSTICS})", where))
            break
        seen.add(key)
        last = loc[-1] if loc else None
        hint = expected = None
        if kind == "extra_forbidden":
            parent = _model_at(loc[:-1])
            names = _field_names(parent) if parent else []
            message = f"unknown key '{last}'"
            hint = did_you_mean(str(last), names)
            if names:
                expected = "one of: " + ", ".join(names)
        elif kind == "missing":
            message = f"missing required key '{last}'"
        elif kind == "unknown_effect":
            tag = str(err.get("input", {}) and next(iter(err["input"]), "")) \
                if isinstance(err.get("input"), dict) else ""
            message = f"unknown effect '{tag}'" if tag else "an effect must be a mapping"
            hint = did_you_mean(tag, PRIMITIVES)
            expected = "an effect: " + ", ".join(sorted(PRIMITIVES))
        elif kind == "invalid_key" or (last == "[key]" and kind == "string_type"):
            message = "a key here must be text"
            hint = "write it in quotes (YAML reads 1, true and null as a number, a truth " \
                   "value and nothing)"
        elif kind == "literal_error":
            message = f"'{err.get('input')}' is not allowed here"
            expected = str(err.get("ctx", {}).get("expected", ""))
            hint = did_you_mean(str(err.get("input")),
                                [s.strip(" '") for s in expected.replace(" or ", ",").split(",")])
        else:
            message = err["msg"]
            if err.get("input") is not None and kind not in ("value_error",):
                message += f" (got {str(err['input'])[:60]!r})"
        out.append(source.diagnostic(message, where, expected, hint))
    return out


def validate_tree(tree: Any, source: Source) -> Ruleset:
    """Validate a located YAML tree into the ruleset model."""
    start = getattr(tree, "loc", None) or Location(source.path, 1, 1)
    if not isinstance(tree, dict):
        empty = "the file is empty: " if tree is None else ""
        raise RulesetError([source.diagnostic(
            f"{empty}a ruleset must be a YAML mapping with keys such as game, pieces, zones, "
            "turn", start)])
    try:
        return Ruleset.model_validate(tree)
    except ValidationError as exc:
        raise RulesetError(_diagnose(exc, tree, source)) from None
    except (RecursionError, MemoryError) as exc:  # the YAML limits should make this unreachable
        what = "memory" if isinstance(exc, MemoryError) else "recursion depth"
        raise RulesetError([source.diagnostic(
            f"this ruleset is too complex to check (Python ran out of {what})", start)]) from None


def load_ruleset(path: str | Path) -> LoadedRuleset:
    """Read and validate a ruleset file (not yet compiled)."""
    tree, source = read_yaml(path)
    return LoadedRuleset(validate_tree(tree, source), source)


def load_ruleset_text(text: str, path: str = "<text>") -> LoadedRuleset:
    tree, source = parse_yaml(text, path)
    return LoadedRuleset(validate_tree(tree, source), source)
