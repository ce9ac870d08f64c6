"""The language's JSON Schema, indexed once, for the editor's completion and hover.

`tabletop schema` prints the schema editors read (``json_schema``); the studio walks the
same schema, so what it offers at a key is exactly what the loader accepts there. A
tests file is read through its own models' schema (``ScenarioFile``), as `tabletop test`
reads it. Expressions are found by their JSON type (text, number or true/false, which
only the language's expressions take); templates by the models' field annotations, the
schema giving them no mark of their own.
"""

from __future__ import annotations

import copy
import re
import typing
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from interpreter.located import Expr, Name, Template

ITEM = object()
"""A key path's step into a list's item (a `- ` in the text)."""

EXPRESSION_TYPES = {"string", "number", "boolean"}


@dataclass
class SchemaIndex:
    """One schema with its $defs, and which of its models are effects (primitives)."""

    root: dict[str, Any]
    defs: dict[str, Any]
    effects: dict[str, str] = field(default_factory=dict)
    """An effect's model name → its keyword (``Move`` → ``move``); the model's schema is
    marked with it too (`x-effect`: a field's title may be ``Move`` as well)."""
    summaries: dict[str, str] = field(default_factory=dict)
    """An effect keyword → its one-line summary."""

    def deref(self, node: Any) -> dict[str, Any]:
        seen = 0
        while isinstance(node, dict) and "$ref" in node and seen < 20:
            node = self.defs.get(node["$ref"].rsplit("/", 1)[-1], {})
            seen += 1
        return node if isinstance(node, dict) else {}

    def alternatives(self, node: Any) -> list[dict[str, Any]]:
        """The schemas a value may match here, with $ref, anyOf, oneOf and allOf flattened."""
        out: list[dict[str, Any]] = []
        stack = [node]
        while stack and len(out) < 200:
            n = self.deref(stack.pop(0))
            subs = [*n.get("anyOf", []), *n.get("oneOf", []), *n.get("allOf", [])]
            if subs:
                stack[:0] = subs
                if any(k in n for k in ("properties", "items", "enum", "x-template")):
                    out.append(n)
                continue
            out.append(n)
        return out

    def child(self, node: Any, step: Any) -> dict[str, Any] | None:
        """The schema at `step` (a key, or ITEM) inside `node`; None where nothing may go."""
        found: list[dict[str, Any]] = []
        for alt in self.alternatives(node):
            if step is ITEM:
                if isinstance(alt.get("items"), dict):
                    found.append(alt["items"])
                continue
            props = alt.get("properties") or {}
            if step in props:
                found.append(props[step])
            elif isinstance(alt.get("additionalProperties"), dict):
                found.append(alt["additionalProperties"])
        if not found:
            return None
        return found[0] if len(found) == 1 else {"anyOf": found}

    def at(self, path: list[Any], start: Any = None) -> dict[str, Any] | None:
        node: Any = self.root if start is None else start
        for step in path:
            node = self.child(node, step)
            if node is None:
                return None
        return node

    def properties(self, node: Any) -> dict[str, dict[str, Any]]:
        """The keys a mapping here may have (over every alternative), each with its schema."""
        out: dict[str, dict[str, Any]] = {}
        for alt in self.alternatives(node):
            for key, sub in (alt.get("properties") or {}).items():
                out.setdefault(key, sub)
        return out

    def effect_models(self, node: Any) -> list[dict[str, Any]]:
        """The effect models among the alternatives (an item of a list of effects)."""
        return [alt for alt in self.alternatives(node) if alt.get("x-effect")]

    def is_expression(self, node: Any) -> bool:
        for alt in self.alternatives(node):
            types = alt.get("type")
            if isinstance(types, list | tuple) and set(types) >= EXPRESSION_TYPES:
                return True
        return False

    def is_template(self, node: Any) -> bool:
        return any(alt.get("x-template") for alt in self.alternatives(node))

    def is_name(self, node: Any) -> bool:
        return any(alt.get("x-name") for alt in self.alternatives(node))

    def enum(self, node: Any) -> list[Any]:
        out: list[Any] = []
        for alt in self.alternatives(node):
            for v in alt.get("enum", []):
                if v not in out:
                    out.append(v)
            if "const" in alt and alt["const"] not in out:
                out.append(alt["const"])
            if alt.get("type") == "boolean":
                out += [v for v in (True, False) if v not in out]
        return out

    def describe(self, node: Any) -> tuple[str, str]:
        """(type, description) of a schema, as the editor shows them."""
        node = node or {}
        text = str(self.deref(node).get("description") or node.get("description") or "")
        types: list[str] = []
        for alt in self.alternatives(node):
            word = _type_word(alt, self)
            if word and word not in types:
                types.append(word)
            if not text and alt.get("description"):
                text = str(alt["description"])
        return " | ".join(types[:4]), text


def _title_words(title: str) -> str:
    """A schema model's title in the designer's words: `PiecesDecl` → "pieces",
    `PieceSet` → "piece set" (the classes' names are the engine's, not the language's)."""
    bare = re.sub(r"(Decl|Def)$", "", title)
    return " ".join(w.lower() for w in re.findall(r"[A-Z][a-z0-9]*|[a-z0-9]+", bare))


def _type_word(alt: dict[str, Any], index: SchemaIndex) -> str:
    if alt.get("x-template"):
        return "text template"
    if alt.get("x-effect"):
        return "effect"
    kind = alt.get("type")
    if isinstance(kind, list | tuple) and set(kind) >= EXPRESSION_TYPES:
        return "expression"
    if "enum" in alt:
        return " | ".join(map(str, alt["enum"][:6]))
    if kind == "array":
        items = index.alternatives(alt.get("items") or {})
        if items and all(i.get("x-effect") for i in items):
            return "list of effects"
        inner = _type_word(items[0], index) if len(items) == 1 else ""
        return f"list of {inner}" if inner else "list"
    if kind == "object":
        return _title_words(str(alt.get("title") or "")) or "mapping"
    if kind == "null":
        return ""
    words = {"string": "text", "integer": "whole number", "number": "number",
             "boolean": "true | false"}
    if isinstance(kind, list | tuple):
        return " or ".join(words.get(str(k), str(k)) for k in kind)
    return words.get(str(kind), str(kind or ""))


def _located_kinds(annotation: Any) -> set[type]:
    """Which of Expr, Template and Name a field's annotation holds (through lists,
    mappings, unions and Optional)."""
    found: set[type] = set()
    stack, seen = [annotation], 0
    while stack and seen < 100:
        seen += 1
        t = stack.pop()
        if t in (Expr, Template, Name):
            found.add(t)
        stack.extend(typing.get_args(t))
    return found


def _models(roots: list[type[BaseModel]]) -> dict[str, type[BaseModel]]:
    """Every model reachable from `roots`, by class name (the schema's $defs names)."""
    out: dict[str, type[BaseModel]] = {}
    stack = list(roots)
    while stack:
        cls = stack.pop()
        if cls.__name__ in out:
            continue
        out[cls.__name__] = cls
        for f in cls.model_fields.values():
            inner = [f.annotation]
            while inner:
                t = inner.pop()
                if isinstance(t, type) and issubclass(t, BaseModel):
                    stack.append(t)
                inner.extend(typing.get_args(t))
    return out


def _mark(defs: dict[str, Any], models: dict[str, type[BaseModel]]) -> None:
    """Mark the template and name fields in the schema (`x-template`, `x-name`)."""
    for name, cls in models.items():
        props = (defs.get(name) or {}).get("properties") or {}
        for fname, f in cls.model_fields.items():
            prop = props.get(f.alias or fname)
            if prop is None:
                continue
            kinds = _located_kinds(f.annotation)
            if Template in kinds and Expr not in kinds:
                prop["x-template"] = True
            if Name in kinds:
                prop["x-name"] = True


@lru_cache(maxsize=1)
def ruleset_index() -> SchemaIndex:
    """The ruleset language's schema (a ruleset, or a variant with `extends`)."""
    from interpreter.load.schema import Ruleset, Variant, json_schema
    from interpreter.primitives import PRIMITIVES

    schema = copy.deepcopy(json_schema())
    defs = schema["$defs"]
    _mark(defs, _models([Ruleset, Variant]))
    index = SchemaIndex(schema, defs)
    for keyword, cls in PRIMITIVES.items():
        index.effects[cls.__name__] = keyword
        index.summaries[keyword] = cls.summary
        if cls.__name__ in defs:
            defs[cls.__name__]["x-effect"] = keyword
    return index


@lru_cache(maxsize=1)
def tests_index() -> SchemaIndex:
    """A tests file's schema, from the models `tabletop test` validates it with."""
    from pydantic.json_schema import models_json_schema

    from interpreter.scenarios.model import ScenarioFile

    _, both = models_json_schema([(ScenarioFile, "validation")], by_alias=True,
                                 ref_template="#/$defs/{model}")
    defs = copy.deepcopy(both["$defs"])
    _mark(defs, _models([ScenarioFile]))
    return SchemaIndex({"$ref": "#/$defs/ScenarioFile"}, defs)


def root_for(index: SchemaIndex, variant: bool) -> dict[str, Any]:
    """The document's own schema: a variant's when it has `extends`, else a ruleset's."""
    if "Variant" not in index.defs:
        return index.root
    return {"$ref": "#/$defs/Variant"} if variant else {"$ref": "#/$defs/Ruleset"}


__all__ = ["ITEM", "SchemaIndex", "root_for", "ruleset_index", "tests_index"]
