"""Completion: what may be typed where the cursor is (`complete`).

Keys from the schema (each with its description and type), an effect's keyword where an
effect goes, enum values after a key, the declared names a name field takes, and in an
expression the ruleset's names, the built-in names and functions and the language's
words; in a variant, the base's part addresses and the bundled games after `extends:`.
"""

from __future__ import annotations

import re
from typing import Any

from interpreter.studio.language_known import Declared, Known
from interpreter.studio.language_schema import SchemaIndex
from interpreter.studio.language_shared import (
    KIND_ORDER,
    LANGUAGE_WORDS,
    NAME_KINDS,
    NAMED_KEYS,
    SEAT_WORDS,
    builtin_names,
    clamp,
    finish,
    function_text,
    in_string,
    index_for,
    locate,
    names_of,
    offer,
    root_of,
    signature,
    wants_address,
    where_of,
    yaml_word,
)
from interpreter.studio.language_text import Context, context, part_word


def complete(text: str, path: str, line: Any, col: Any, known: Known | None = None
             ) -> dict[str, Any]:
    """What may be typed at (line, col), 1-based: `{from: {line, col}, options: [...]}`
    with each option's label, type, detail and info (and what to insert, if not the
    label). `known` is what the last good load of the file knew (names, a base's parts)."""
    n, c = clamp(text, line, col)
    ctx = context(text, n, c)
    index = index_for(path)
    root = root_of(index, text)
    start = ctx.word_col
    word = ctx.word
    raw_prefix = text.split("\n")[n][:c]
    options: list[dict[str, Any]]
    if wants_address(ctx):
        word = part_word(raw_prefix)
        start = c - len(word)
        options = _address_options(known)
    elif ctx.kind == "key":
        options, as_value = _key_options(index, root, ctx, known, text)
        if as_value:  # `- ` then a value: an item of a list of expressions
            value = raw_prefix[ctx.word_col:]
            typed = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", value)
            word = typed.group(0) if typed else ""
            start = c - len(word)
            ctx = Context("value", [*ctx.path], word, start, value=value, line=n)
            options = _value_options(index, root, ctx, text, known)
    else:
        options = _value_options(index, root, ctx, text, known)
        if ctx.path == ["extends"] or ctx.path == ["ruleset"]:
            word = part_word(raw_prefix)
            start = c - len(word)
    return {"from": {"line": n + 1, "col": start + 1}, "options": finish(options, word)}


def _address_options(known: Known | None) -> list[dict[str, Any]]:
    if known is None or not known.parts:
        return []
    return [offer(p.address, "property", p.kind, p.english, rank=i)
            for i, p in enumerate(known.parts.values())]


def _key_options(index: SchemaIndex, root: dict[str, Any], ctx: Context,
                 known: Known | None, text: str) -> tuple[list[dict[str, Any]], bool]:
    """The keys a mapping may have here (or an effect's keyword), and whether the place
    takes a value instead (a list of expressions, `- ` then the expression)."""
    node = locate(index, root, ctx.path, known, text, ctx.line)
    chosen = ctx.siblings
    now: dict[str, dict[str, Any]] = {}
    if len(ctx.path) == 2 and ctx.path[0] == "change" and known and known.addresses:
        now = _part_fields(known, str(ctx.path[1]))  # the part's fields, valued as in the base
        if node is None:
            return list(now.values()), False
        chosen = [*chosen, *(k for k in now if k in index.summaries)]  # the base step's effect
    if node is None:
        return [], False
    effects = index.effect_models(node)
    if effects:
        keyword = next((k for k in chosen if k in index.summaries), None)
        if keyword is None:
            return [offer(k, "keyword", "effect", s, f"{k}: ", rank=1)
                    for k, s in index.summaries.items()], False
        model = next((m for m in effects if m.get("x-effect") == keyword),
                     None)
        node = model or node
    props = index.properties(node)
    if not props and (index.is_expression(node) or index.enum(node)):
        return [], True
    if not props and ctx.path and ctx.path[-1] in NAMED_KEYS:  # a mapping keyed by names
        kinds = NAMED_KEYS[str(ctx.path[-1])]
        names = names_of(text, known)
        return [dict(_declared_option(d), apply=f"{d.name}: ") for d in names.names.values()
                if d.kind in kinds and d.name not in ctx.siblings], False
    out = []
    required = set()
    for alt in index.alternatives(node):
        required |= set(alt.get("required", []))
    for key, sub in props.items():
        if key in ctx.siblings:
            continue
        kind, info = index.describe(sub)
        kind = "mapping" if kind == key.replace("_", " ") else kind
        detail = kind + (" (required)" if key in required and not now else "")
        if key in now:
            detail = f"{now[key]['detail']} · {detail}"
        out.append(offer(key, "property", detail, info, f"{key}: ",
                         rank=0 if key in required or key in now else 2))
    return out, False


def _part_fields(known: Known, address: str) -> dict[str, dict[str, Any]]:
    """The fields the base's part has, each with its value there."""
    assert known.addresses is not None
    part = known.addresses.find(address)
    node = part.node if part is not None else None
    if not isinstance(node, dict):
        return {}
    return {str(k): offer(str(k), "property", f"now: {_short_value(yaml_word(v))}", "",
                          f"{k}: ") for k, v in node.items()}


def _short_value(value: Any) -> str:
    said = " ".join(str(value).split())
    return said if len(said) <= 60 else said[:59] + "…"


def _value_options(index: SchemaIndex, root: dict[str, Any], ctx: Context, text: str,
                   known: Known | None) -> list[dict[str, Any]]:
    if ctx.path in (["extends"], ["ruleset"]):
        return _game_options()
    node = locate(index, root, ctx.path, known, text, ctx.line)
    if node is None:
        return []
    out = [offer(yaml_word(v), "enum", "value", "", rank=i / 1000)  # in the schema's order
           for i, v in enumerate(index.enum(node))]
    if index.is_name(node):
        names = names_of(text, known)
        field_key = next((p for p in reversed(ctx.path) if isinstance(p, str)), "")
        kinds = NAME_KINDS.get(field_key)
        pool = names.attributes if kinds == ("attribute",) else names.names
        out += [_declared_option(d) for d in pool.values() if kinds is None or
                d.kind in kinds]
        return out
    expression = index.is_expression(node) or ctx.path[:1] == ["define"]
    if index.is_template(node) and not expression:
        expression = ctx.value.count("{") > ctx.value.count("}")
    if expression and not in_string(ctx.value):
        out += _expression_options(ctx, text, known)
    return out


def _game_options() -> list[dict[str, Any]]:
    from interpreter.load.catalog import bundled_catalog

    return [offer(e["name"], "text", e.get("title", ""), e.get("summary", "") or "",
                  rank=1 if e.get("extends") else 0)
            for e in bundled_catalog() if "error" not in e]


def _declared_option(d: Declared) -> dict[str, Any]:
    kind = {"definition": "function" if "(" in d.detail else "variable",
            "zone": "namespace", "variable": "variable", "option": "constant",
            "value": "enum", "procedure": "method", "attribute": "property",
            "local name": "variable"}.get(d.kind, "variable")
    where = where_of(d)
    info = d.info + (f"\n({d.kind}, {where})" if where else f"\n({d.kind})")
    return offer(d.name, kind, d.detail or d.kind, info.strip(),
                 rank=KIND_ORDER.get(d.kind, 7))


def _expression_options(ctx: Context, text: str, known: Known | None
                        ) -> list[dict[str, Any]]:
    from interpreter.compile.functions import FUNCTIONS

    names = names_of(text, known)
    before = ctx.value[: len(ctx.value) - len(ctx.word)]
    if before.endswith("."):
        return [offer(d.name, "property", "piece attribute", d.info, rank=0)
                for d in names.attributes.values()]
    out = [_declared_option(d) for d in names.names.values()]
    for name, said in builtin_names().items():
        out.append(offer(name, "variable", "built-in name", said, rank=KIND_ORDER["name"]))
    for name, said in SEAT_WORDS.items():
        out.append(offer(name, "variable", "name given here", said,
                         rank=KIND_ORDER["name"]))
    for f in FUNCTIONS.values():
        out.append(offer(f.name, "function", signature(f.doc, f.name), function_text(f),
                         rank=KIND_ORDER["function"]))
    for word, said in LANGUAGE_WORDS.items():
        out.append(offer(word, "keyword", "language word", said, rank=KIND_ORDER["word"]))
    return out


__all__ = ["complete"]
