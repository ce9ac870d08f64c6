"""YAML file → validated ruleset model, with every problem located and explained."""

from __future__ import annotations

import hashlib
import re
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from interpreter.errors import Diagnostic, Location, RulesetError, did_you_mean
from interpreter.load.catalog import read_base
from interpreter.load.schema import Ruleset
from interpreter.load.variants import Change, VariantInfo, is_variant, merge_variant
from interpreter.load.yaml_source import Source, locate, parse_yaml, read_yaml
from interpreter.primitives import PRIMITIVES


@dataclass
class LoadedRuleset:
    """A validated ruleset with the text it came from (for messages and hashing); for a
    variant, also its base and the changes it makes."""

    model: Ruleset
    source: Source
    variant: VariantInfo | None = None
    tree: Any = None
    """The located YAML tree the model was validated from (a variant's merged into its
    base's): what `tabletop parts` names. Not carried to other processes."""

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "tree": None}

    @property
    def path(self) -> str:
        return self.source.path

    @property
    def content_hash(self) -> str:
        """Of every file the ruleset is made of (a variant changes when its base does)."""
        texts = self.source.texts
        data = texts[0] if len(texts) == 1 else "\0".join(texts)
        return hashlib.sha256(data.encode("utf-8")).hexdigest()


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
        elif kind == "value_error":
            message = str(err.get("ctx", {}).get("error", err["msg"]))
        else:
            message = err["msg"]
            if err.get("input") is not None:
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
    """Read and validate a ruleset file (not yet compiled); a variant is merged into its
    base first."""
    tree, source = read_yaml(path)
    return _loaded(tree, source, str(path))


def load_ruleset_text(text: str, path: str = "<text>") -> LoadedRuleset:
    tree, source = parse_yaml(text, path)
    return _loaded(tree, source, path)


def _loaded(tree: Any, source: Source, path: str) -> LoadedRuleset:
    if not is_variant(tree):
        return LoadedRuleset(validate_tree(tree, source), source, tree=tree)
    merged, info = merge_variant(tree, source, path, read_base)
    try:
        return LoadedRuleset(validate_tree(merged, source), source, info, merged)
    except RulesetError as exc:
        raise RulesetError(explain_variant(exc.diagnostics, source, info)) from None


def _change_words(change: Change) -> str:
    """A variant's change as the message names it: `remove zones 'pile'`, `replace
    cap_move`; a part replaced whole (budgets, scores ...) by the part alone."""
    if change.address is not None and change.kind != change.part:
        verb = change.kind.removeprefix("effect-").removeprefix("part-")
        return f"{verb} {change.address}"
    if change.kind == change.part:
        return f"its {change.part}"
    return f"{change.kind} {change.part} '{change.id}'"


def explain_variant(diagnostics: list[Diagnostic], source: Source,
                    info: VariantInfo | None) -> list[Diagnostic]:
    """A problem found in a base's text after a variant was merged into it is the
    variant's doing (the base loads on its own): report it at the variant's change that
    names what went wrong, with the base's place too; when no one change names it, at
    the base's place, listing the variant's changes."""
    if info is None:
        return diagnostics
    out = []
    for d in diagnostics:
        if d.location is None or d.location.path == source.path:
            out.append(d)
            continue
        culprit = next((c for c in info.changes if c.loc is not None and c.id
                        and re.search(rf"(?<![\w-]){re.escape(c.id)}(?![\w-])", d.message)),
                       None)
        base_line = (d.source_line or "").strip()
        if culprit is not None:
            note = (f"in the base at {d.location}, which is fine on its own: {base_line}"
                    if base_line else f"in the base at {d.location}, fine on its own")
            out.append(Diagnostic(
                f"{d.message} (after this change: {_change_words(culprit)})", culprit.loc,
                d.expected,
                f"{d.hint}\n  {note}" if d.hint else note, source.line_at(culprit.loc)))
            continue
        places = ", ".join(f"{c.loc} ({_change_words(c)})" for c in info.changes
                           if c.loc is not None and c.kind != "game")
        note = ("the base is fine on its own: this comes from the variant's changes"
                + (f" at {places}" if places else ""))
        out.append(Diagnostic(d.message, d.location, d.expected,
                              f"{d.hint}\n  {note}" if d.hint else note, d.source_line))
    return out
