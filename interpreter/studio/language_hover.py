"""Hover docs: what the word under the pointer is (`hover`).

A key gets its schema description and type (an effect's keyword, the effect's summary and
fields); a built-in its signature and doc; a definition, zone, variable, option, value or
attribute where it is declared and the rulebook's words for it; a variant's part address
its English as `tabletop parts` gives it; a bundled game its title and summary.
"""

from __future__ import annotations

import re
from typing import Any

from interpreter.studio.language_known import Known
from interpreter.studio.language_schema import SchemaIndex
from interpreter.studio.language_shared import (
    LANGUAGE_WORDS,
    SEAT_WORDS,
    Names,
    builtin_names,
    clamp,
    function_text,
    in_string,
    index_for,
    locate,
    names_of,
    root_of,
    signature,
    wants_address,
    where_of,
    yaml_word,
)
from interpreter.studio.language_text import Context, context, entries, outline, word_at


def hover(text: str, path: str, line: Any, col: Any, known: Known | None = None
          ) -> dict[str, Any]:
    """What the word at (line, col), 1-based, is: `{from, to, title, text}`, or `{}` where
    there is nothing to say."""
    n, c = clamp(text, line, col)
    raw = text.split("\n")[n]
    found, _ = entries(raw, n)
    key = next((e for e in found if e.key is not None), None)
    if outline(text).continues[n] is not None:
        key = None  # a line of a long text (`text: >`), whatever colons it has
    index = index_for(path)
    root = root_of(index, text)
    if key is not None:
        key_text = raw[key.col:].split(":", 1)[0].rstrip() if key.key else ""
        if key.col <= c <= key.col + len(key_text) and key_text:
            said = _hover_key(index, root, text, n, context(text, n, key.col), str(key.key),
                              known)
            return _span(said, n, key.col, key.col + len(key_text))
    span = word_at(raw, c, ".-")
    if span is None:
        return {}
    ctx = context(text, n, span[1])
    if wants_address(ctx) or ctx.path in (["extends"], ["ruleset"]):
        word = raw[span[0]:span[1]]
        said = _hover_address(word, known) if wants_address(ctx) else _hover_game(word)
        return _span(said, n, span[0], span[1])
    ident = word_at(raw, c)
    if ident is None:
        return {}
    word = raw[ident[0]:ident[1]]
    if ctx.kind == "key":  # a key of a flow mapping (`{id: board, kind: grid}`)
        said = _hover_key(index, root, text, n, ctx, word, known)
        return _span(said, n, ident[0], ident[1])
    node = locate(index, root, ctx.path, known, text, n)
    if node is None:
        return {}
    if index.is_name(node):
        said = _hover_name(word, names_of(text, known), attribute=False)
        return _span(said, n, ident[0], ident[1])
    if index.is_expression(node) or index.is_template(node) or ctx.path[:1] == ["define"]:
        ctx = context(text, n, ident[1])
        if in_string(ctx.value):
            return {}
        after = raw[ident[1]:].lstrip()
        dotted = raw[:ident[0]].endswith(".")
        said = _hover_expression_word(word, names_of(text, known), call=after.startswith("("),
                                      attribute=dotted)
        return _span(said, n, ident[0], ident[1])
    values = [yaml_word(v) for v in index.enum(node)]
    if word in values:
        kind, info = index.describe(node)
        field = next((p for p in reversed(ctx.path) if isinstance(p, str)), "")
        return _span((f"{word} — a value of {field}", f"{field}: {kind}\n{info}".strip()),
                     n, ident[0], ident[1])
    if ctx.path and ctx.path[-1] == "id":  # a name where it is declared (`- id: board`)
        return _span(_hover_name(word, names_of(text, known), attribute=False), n, ident[0],
                     ident[1])
    return {}


def _span(said: tuple[str, str] | None, n: int, start: int, end: int) -> dict[str, Any]:
    if not said:
        return {}
    return {"from": {"line": n + 1, "col": start + 1}, "to": {"line": n + 1, "col": end + 1},
            "title": said[0], "text": said[1]}


def _hover_key(index: SchemaIndex, root: dict[str, Any], text: str, n: int, ctx: Context,
               key: str, known: Known | None) -> tuple[str, str] | None:
    """A key of the mapping at `ctx.path`: its schema description and type (an effect's
    keyword: the effect; a variant's address: the base's part; a name: what it names)."""
    if ctx.path in (["change"], ["replace"]):
        return _hover_address(key, known)
    if ctx.path == ["define"]:  # a definition's own key: what it is, in the rulebook's words
        name = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", key)
        said = _hover_name(name.group(1), names_of(text, known), attribute=False) if name \
            else None
        if said is not None:
            return said
    node = locate(index, root, ctx.path, known, text, n)
    if node is None:
        return None
    effects = index.effect_models(node)
    if effects:
        keyword = next((k for k in [*ctx.siblings, key] if k in index.summaries), None)
        if keyword == key:
            return _hover_effect(index, key)
        model = next((m for m in effects if m.get("x-effect") == keyword),
                     None)
        node = model or node
    if key not in index.properties(node):  # a key that is a name (a zone in a position)
        said = _hover_name(key, names_of(text, known), attribute=False)
        if said is not None:
            return said
    sub = index.child(node, key)
    if sub is None:
        return None
    kind, info = index.describe(sub)
    kind = "mapping" if kind == key.replace("_", " ") else kind  # `pieces: pieces` says nothing
    return (f"{key}: {kind}" if kind else key, info or "(no description)")


def _hover_effect(index: SchemaIndex, keyword: str) -> tuple[str, str]:
    from interpreter.primitives import PRIMITIVES

    cls = PRIMITIVES[keyword]
    model = index.defs.get(cls.__name__, {})
    required = set(model.get("required", []))
    lines = [cls.summary, "", " ".join((cls.__doc__ or "").split()), "", "Fields:"]
    for name, sub in (model.get("properties") or {}).items():
        if name in ("id", "text"):
            continue
        kind, info = index.describe(sub)
        need = "required" if name in required else "optional"
        lines.append(f"- {name} ({kind}, {need})" + (f": {info}" if info else ""))
    lines.append("- id, text (optional): a name for variants; the rulebook's own words")
    return f"{keyword} — effect", "\n".join(lines).strip()


def _hover_address(address: str, known: Known | None) -> tuple[str, str] | None:
    if known is None or known.addresses is None or known.words is None:
        return None
    part = known.addresses.find(address)
    if part is None:
        return None
    try:
        lines = known.words.lines(part)
    except Exception:  # a part the describer cannot say in full: its one line
        lines = [known.words.say(part)]
    base = known.base_title or known.base or "the base"
    return (f"{part.address} — {part.kind} of {base}", "\n".join(lines))


def _hover_game(name: str) -> tuple[str, str] | None:
    from interpreter.load.catalog import bundled_catalog

    for e in bundled_catalog():
        if e.get("name") == name and "error" not in e:
            base = f"\nA variant of {e['extends']}." if e.get("extends") else ""
            return f"{e.get('title', name)} — bundled game", (e.get("summary") or "") + base
    return None


def _hover_name(word: str, names: Names, attribute: bool) -> tuple[str, str] | None:
    pool = names.attributes if attribute else names.names
    d = pool.get(word) or (names.attributes.get(word) if not attribute else None)
    if d is None:
        return None
    where = where_of(d)
    return (f"{d.name} — {d.detail or d.kind}",
            (d.info + "\n" if d.info else "") + f"{d.kind}" + (f", declared at {where}"
                                                               if where else ""))


def _hover_expression_word(word: str, names: Names, call: bool, attribute: bool
                           ) -> tuple[str, str] | None:
    from interpreter.compile.functions import FUNCTIONS

    if attribute:
        return _hover_name(word, names, attribute=True)
    if call and word in FUNCTIONS and word not in names.names:
        f = FUNCTIONS[word]
        return f"{signature(f.doc, f.name)} — built-in function", function_text(f)
    said = _hover_name(word, names, attribute=False)
    if said is not None:
        return said
    builtins = builtin_names()
    if word in builtins:
        return f"{word} — built-in name", builtins[word]
    if word in SEAT_WORDS:
        return f"{word} — name given here", SEAT_WORDS[word]
    if word in LANGUAGE_WORDS:
        return f"{word} — language word", LANGUAGE_WORDS[word]
    if word in FUNCTIONS:
        f = FUNCTIONS[word]
        return f"{signature(f.doc, f.name)} — built-in function", function_text(f)
    return None


__all__ = ["hover"]
