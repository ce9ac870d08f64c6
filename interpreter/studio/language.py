"""The studio editor's language services: completion and hover docs.

Everything offered comes from what the engine itself accepts and says: keys and their
descriptions from the JSON Schema `tabletop schema` prints, effects from the primitives
(each with its summary), built-in functions with their signatures and docs, the
ruleset's own names (definitions, zones, variables, options, attribute values) with the
rulebook's English for them, and a variant's base's parts as `tabletop parts` lists
them. `complete` and `hover` are pure functions of the text (and of what the last good
load knew); `routes` serves them over HTTP (POST /api/complete, /api/hover).
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from interpreter.studio.language_known import (
    Declared,
    Known,
    extends_of,
    known_from,
    names_in_text,
    with_base,
)
from interpreter.studio.language_schema import (
    ITEM,
    SchemaIndex,
    root_for,
    ruleset_index,
    tests_index,
)
from interpreter.studio.language_text import Context, context, entries, outline, part_word, word_at
from interpreter.studio.workspace import StudioError, Workspace

MAX_OPTIONS = 300
"""Completions sent at most (the editor filters them further as the designer types)."""
SEAT_WORDS = {
    "piece": "the piece (in a trigger's `where`, a zone's `conceal`, pieces.height, a "
             "card face's `icons`, a per-piece variable's `initial`)",
    "place": "the place a piece is in or enters (a trigger's `where`, a zone's `conceal`)",
    "seat": "the seat being counted or ranked (in `rank`, `scores`, a per-seat "
            "variable's `initial`)",
    "viewer": "the seat looking (in a zone's `conceal`)",
    "chooser": "the deciding player (in a decision's options)",
}
"""Names the language gives in some places only, with where."""
LANGUAGE_WORDS = {"and": "both hold", "or": "either holds", "not": "the opposite",
                  "in": "is one of / for each item in", "if": "a value if a condition holds "
                  "(x if c else y), or a filter in a list (… for p in ps if c)",
                  "else": "the value otherwise (x if c else y)",
                  "for": "a list made item by item: [p for p in ps if c]",
                  "true": "yes", "false": "no", "null": "nothing"}
_NAME_KINDS = {"set": ("variable",), "add": ("variable",), "from": ("variable",),
               "call": ("procedure",), "attribute": ("attribute",),
               "facing": ("variable",), "standing_on": ("variable",),
               "start": ("zone",), "enters": ("zone",)}
_ADDRESS_VALUES = ("before", "after", "into")
_NAMED_KEYS = {"position": ("zone",), "variables": ("variable",), "options": ("option",)}
"""Mappings (of a tests file's case, or its defaults) whose keys are the ruleset's names."""
_KIND_ORDER = {"local name": 0, "definition": 1, "zone": 2, "variable": 3, "option": 4,
               "value": 5, "procedure": 6, "attribute": 6, "name": 7, "function": 8,
               "word": 9}


# ---------------------------------------------------------------------------------------
# shared pieces
# ---------------------------------------------------------------------------------------

def _clamp(text: str, line: Any, col: Any) -> tuple[int, int]:
    """1-based (line, col) from a client → 0-based, inside the text (past the end: the
    end; before the start: the start)."""
    lines = text.split("\n")
    try:
        n = int(line) - 1
        c = int(col) - 1
    except (TypeError, ValueError):
        raise StudioError("'line' and 'col' must be numbers (1-based)") from None
    n = min(max(n, 0), len(lines) - 1)
    c = min(max(c, 0), len(lines[n]))
    return n, c


def _index(path: str) -> SchemaIndex:
    return tests_index() if str(path).endswith(".tests.yaml") else ruleset_index()


def _root(index: SchemaIndex, text: str) -> dict[str, Any]:
    return root_for(index, extends_of(text) is not None)


def _builtin_names() -> dict[str, str]:
    """The names every expression may use, with the rulebook's words for each."""
    from interpreter.assemble.game import BUILTIN_NAMES
    from interpreter.compile.english import humanize

    words = _english_names()
    return {name: words.get(name, humanize(name)) for name in BUILTIN_NAMES}


def _english_names() -> dict[str, str]:
    from interpreter.compile import english

    return dict(getattr(english, "_NAMES", {}))


def _signature(doc: str, name: str) -> str:
    head = doc.split(":", 1)[0].strip()
    return head if head.startswith(name + "(") else f"{name}(…)"


def _function_text(f: Any) -> str:
    """A built-in's doc after its signature, and how the rulebook reads a call of it."""
    sign = _signature(f.doc, f.name)
    rest = f.doc[len(sign):].lstrip(": ").strip() if f.doc.startswith(sign) else f.doc
    return (rest + "\n" if rest else "") + f"Reads as: {_english_pattern(f.english)}"


def _matches(label: str, word: str) -> bool:
    """The editor's filter, roughly: the typed letters in order, case ignored."""
    if not word:
        return True
    it = iter(label.lower())
    return all(ch in it for ch in word.lower())


def _option(label: str, kind: str, detail: str = "", info: str = "",
            apply: str | None = None, rank: float = 5) -> dict[str, Any]:
    out: dict[str, Any] = {"label": label, "type": kind, "detail": detail, "info": info,
                           "_rank": rank}
    if apply is not None:
        out["apply"] = apply
    return out


def _finish(options: list[dict[str, Any]], word: str) -> list[dict[str, Any]]:
    seen: set[str] = set()
    kept = []
    for o in options:
        if o["label"] in seen or not _matches(o["label"], word):
            continue
        seen.add(o["label"])
        kept.append(o)
    low = word.lower()
    kept.sort(key=lambda o: (not o["label"].lower().startswith(low), o["_rank"],
                             o["label"].lower()))
    for o in kept:
        del o["_rank"]
    return kept[:MAX_OPTIONS]


@dataclass
class _Names:
    """The names in reach: the text's own, with what the last good load knew."""

    names: dict[str, Declared]
    attributes: dict[str, Declared]
    known: Known


def _names(text: str, known: Known | None) -> _Names:
    known = known or Known()
    names, attributes = names_in_text(outline(text))
    merged = dict(known.names)
    for name, d in names.items():
        had = merged.get(name)
        if had is not None and had.kind == d.kind:
            merged[name] = Declared(name, d.kind, had.detail or d.detail,
                                    had.info or d.info, d.line, None)
        else:
            merged[name] = d
    attrs = dict(known.attributes)
    for name, d in attributes.items():
        had = attrs.get(name)
        attrs[name] = Declared(name, d.kind, d.detail, had.info if had else d.info, d.line)
    return _Names(merged, attrs, known)


def _where(d: Declared) -> str:
    if d.line is not None:
        return f"line {d.line}"
    return d.where or ""


# ---------------------------------------------------------------------------------------
# completion
# ---------------------------------------------------------------------------------------

def complete(text: str, path: str, line: Any, col: Any, known: Known | None = None
             ) -> dict[str, Any]:
    """What may be typed at (line, col), 1-based: `{from: {line, col}, options: [...]}`
    with each option's label, type, detail and info (and what to insert, if not the
    label). `known` is what the last good load of the file knew (names, a base's parts)."""
    n, c = _clamp(text, line, col)
    ctx = context(text, n, c)
    index = _index(path)
    root = _root(index, text)
    start = ctx.word_col
    word = ctx.word
    raw_prefix = text.split("\n")[n][:c]
    options: list[dict[str, Any]]
    if _wants_address(ctx):
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
    return {"from": {"line": n + 1, "col": start + 1}, "options": _finish(options, word)}


def _locate(index: SchemaIndex, root: dict[str, Any], path: list[Any], known: Known | None,
            text: str = "", line: int = 0) -> dict[str, Any] | None:
    """The schema at `path`; under a variant's `change: {ADDRESS: ...}` or `replace:`, the
    schema of the base's part at ADDRESS (written as in a ruleset); in an `insert:`'s
    `items`, the schema of what goes where it names."""
    if known is None or known.addresses is None or not path:
        return index.at(path, root)
    if len(path) >= 2 and path[0] in ("change", "replace") and isinstance(path[1], str):
        part = known.addresses.find(path[1])
        start = _part_schema(index, part.path) if part is not None else None
        return index.at(path[2:], start) if start is not None else None
    if path[0] == "insert" and "items" in path:
        rest = path[path.index("items") + 1:]
        anchor = _insert_anchor(text, line)
        part = known.addresses.find(anchor[1]) if anchor else None
        start = _part_schema(index, part.path) if part is not None and anchor else None
        if start is None or anchor is None:
            return None
        if anchor[0] != "into":  # before or after an item: a list of such items
            start = {"type": "array", "items": start}
        return index.at(rest, start)
    return index.at(path, root)


def _insert_anchor(text: str, line: int) -> tuple[str, str] | None:
    """The `into:`/`before:`/`after:` of the `insert:` item holding `line`."""
    from interpreter.studio.language_text import path_of, unquote

    out = outline(text)
    count = len(out.entries)

    def read(n: int) -> tuple[tuple[str, str] | None, bool]:
        """The line's anchor, and whether it starts an item of `insert` (or ends it)."""
        chain, starts = list(out.parents[n]), False
        for e in out.entries[n]:
            path = path_of(chain)
            if (e.key is None and path == ["insert"]) or not path:
                starts = True
            if e.key in ("into", "before", "after") and path in (["insert", ITEM],
                                                                 ["insert"]):
                return (str(e.key), unquote(e.value)), starts
            chain.append(e)
        return None, starts

    for n in range(min(line, count - 1), -1, -1):  # up to the item's dash
        found, starts = read(n)
        if found is not None:
            return found
        if starts:
            break
    for n in range(line + 1, count):  # an anchor written after the items
        found, starts = read(n)
        if starts:
            break
        if found is not None:
            return found
    return None


def _part_schema(index: SchemaIndex, full_path: str) -> dict[str, Any] | None:
    """A part's schema from its full path (`turn.3.repeat.1.options.cap_move`): a number,
    or an id inside a list, steps into the list's item."""
    node: Any = {"$ref": "#/$defs/Ruleset"}
    for segment in full_path.split("."):
        keyed = index.child(node, segment)
        node = keyed if keyed is not None else index.child(node, ITEM)
        if node is None:
            return None
    return node


def _wants_address(ctx: Context) -> bool:
    """Whether a base's part address goes here (a variant's change, replace, remove and
    insert name parts by address)."""
    path = ctx.path
    if ctx.kind == "key":
        return path in (["change"], ["replace"])
    if not path or path[0] not in ("remove", "insert"):
        return False
    if path[0] == "remove":
        return path in (["remove"], ["remove", ITEM])
    return bool(path) and path[-1] in _ADDRESS_VALUES


def _address_options(known: Known | None) -> list[dict[str, Any]]:
    if known is None or not known.parts:
        return []
    return [_option(p.address, "property", p.kind, p.english, rank=i)
            for i, p in enumerate(known.parts.values())]


def _key_options(index: SchemaIndex, root: dict[str, Any], ctx: Context,
                 known: Known | None, text: str) -> tuple[list[dict[str, Any]], bool]:
    """The keys a mapping may have here (or an effect's keyword), and whether the place
    takes a value instead (a list of expressions, `- ` then the expression)."""
    node = _locate(index, root, ctx.path, known, text, ctx.line)
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
            return [_option(k, "keyword", "effect", s, f"{k}: ", rank=1)
                    for k, s in index.summaries.items()], False
        model = next((m for m in effects if m.get("x-effect") == keyword),
                     None)
        node = model or node
    props = index.properties(node)
    if not props and (index.is_expression(node) or index.enum(node)):
        return [], True
    if not props and ctx.path and ctx.path[-1] in _NAMED_KEYS:  # a mapping keyed by names
        kinds = _NAMED_KEYS[str(ctx.path[-1])]
        names = _names(text, known)
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
        detail = kind + (" (required)" if key in required and not now else "")
        if key in now:
            detail = f"{now[key]['detail']} · {detail}"
        out.append(_option(key, "property", detail, info, f"{key}: ",
                           rank=0 if key in required or key in now else 2))
    return out, False


def _part_fields(known: Known, address: str) -> dict[str, dict[str, Any]]:
    """The fields the base's part has, each with its value there."""
    assert known.addresses is not None
    part = known.addresses.find(address)
    node = part.node if part is not None else None
    if not isinstance(node, dict):
        return {}
    return {str(k): _option(str(k), "property", f"now: {_short_value(_yaml_word(v))}", "",
                            f"{k}: ") for k, v in node.items()}


def _short_value(value: Any) -> str:
    said = " ".join(str(value).split())
    return said if len(said) <= 60 else said[:59] + "…"


def _value_options(index: SchemaIndex, root: dict[str, Any], ctx: Context, text: str,
                   known: Known | None) -> list[dict[str, Any]]:
    if ctx.path in (["extends"], ["ruleset"]):
        return _game_options()
    node = _locate(index, root, ctx.path, known, text, ctx.line)
    if node is None:
        return []
    out = [_option(_yaml_word(v), "enum", "value", "", rank=i / 1000)  # in the schema's order
           for i, v in enumerate(index.enum(node))]
    if index.is_name(node):
        names = _names(text, known)
        field_key = next((p for p in reversed(ctx.path) if isinstance(p, str)), "")
        kinds = _NAME_KINDS.get(field_key)
        pool = names.attributes if kinds == ("attribute",) else names.names
        out += [_declared_option(d) for d in pool.values() if kinds is None or
                d.kind in kinds]
        return out
    expression = index.is_expression(node) or ctx.path[:1] == ["define"]
    if index.is_template(node) and not expression:
        expression = ctx.value.count("{") > ctx.value.count("}")
    if expression and not _in_string(ctx.value):
        out += _expression_options(ctx, text, known)
    return out


def _yaml_word(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return str(value)


def _in_string(value: str) -> bool:
    """Whether the cursor is inside a quoted text of an expression (`top('c|`)."""
    body = value.strip()
    if len(body) >= 1 and body[0] in "'\"" and body.count(body[0]) == 1:
        body = body[1:]  # the YAML's own quotes around the whole expression
    quote = None
    for ch in body:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
    return quote is not None


def _game_options() -> list[dict[str, Any]]:
    from interpreter.load.catalog import bundled_catalog

    return [_option(e["name"], "text", e.get("title", ""), e.get("summary", "") or "",
                    rank=1 if e.get("extends") else 0)
            for e in bundled_catalog() if "error" not in e]


def _declared_option(d: Declared) -> dict[str, Any]:
    kind = {"definition": "function" if "(" in d.detail else "variable",
            "zone": "namespace", "variable": "variable", "option": "constant",
            "value": "enum", "procedure": "method", "attribute": "property",
            "local name": "variable"}.get(d.kind, "variable")
    where = _where(d)
    info = d.info + (f"\n({d.kind}, {where})" if where else f"\n({d.kind})")
    return _option(d.name, kind, d.detail or d.kind, info.strip(),
                   rank=_KIND_ORDER.get(d.kind, 7))


def _expression_options(ctx: Context, text: str, known: Known | None
                        ) -> list[dict[str, Any]]:
    from interpreter.compile.functions import FUNCTIONS

    names = _names(text, known)
    before = ctx.value[: len(ctx.value) - len(ctx.word)]
    if before.endswith("."):
        return [_option(d.name, "property", "piece attribute", d.info, rank=0)
                for d in names.attributes.values()]
    out = [_declared_option(d) for d in names.names.values()]
    for name, said in _builtin_names().items():
        out.append(_option(name, "variable", "built-in name", said, rank=_KIND_ORDER["name"]))
    for name, said in SEAT_WORDS.items():
        out.append(_option(name, "variable", "name given here", said,
                           rank=_KIND_ORDER["name"]))
    for f in FUNCTIONS.values():
        out.append(_option(f.name, "function", _signature(f.doc, f.name),
                           _function_text(f),
                           rank=_KIND_ORDER["function"]))
    for word, said in LANGUAGE_WORDS.items():
        out.append(_option(word, "keyword", "language word", said, rank=_KIND_ORDER["word"]))
    return out


def _english_pattern(english: str) -> str:
    return re.sub(r"\{(\d+)\}", lambda m: "‹" + "xyzuvw"[int(m.group(1)) % 6] + "›", english)


# ---------------------------------------------------------------------------------------
# hover
# ---------------------------------------------------------------------------------------

def hover(text: str, path: str, line: Any, col: Any, known: Known | None = None
          ) -> dict[str, Any]:
    """What the word at (line, col), 1-based, is: `{from, to, title, text}`, or `{}` where
    there is nothing to say."""
    n, c = _clamp(text, line, col)
    raw = text.split("\n")[n]
    found, _ = entries(raw, n)
    key = next((e for e in found if e.key is not None), None)
    if outline(text).continues[n] is not None:
        key = None  # a line of a long text (`text: >`), whatever colons it has
    index = _index(path)
    root = _root(index, text)
    if key is not None:
        key_text = raw[key.col:].split(":", 1)[0].rstrip() if key.key else ""
        if key.col <= c <= key.col + len(key_text) and key_text:
            said = _hover_key(index, root, text, n, key.col, str(key.key), known)
            return _span(said, n, key.col, key.col + len(key_text))
    span = word_at(raw, c, ".-")
    if span is None:
        return {}
    ctx = context(text, n, span[1])
    if _wants_address(ctx) or ctx.path in (["extends"], ["ruleset"]):
        word = raw[span[0]:span[1]]
        said = _hover_address(word, known) if _wants_address(ctx) else _hover_game(word)
        return _span(said, n, span[0], span[1])
    ident = word_at(raw, c)
    if ident is None:
        return {}
    word = raw[ident[0]:ident[1]]
    node = _locate(index, root, ctx.path, known, text, n)
    if node is None:
        return {}
    if index.is_name(node):
        said = _hover_name(word, _names(text, known), attribute=False)
        return _span(said, n, ident[0], ident[1])
    if index.is_expression(node) or index.is_template(node) or ctx.path[:1] == ["define"]:
        ctx = context(text, n, ident[1])
        if _in_string(ctx.value):
            return {}
        after = raw[ident[1]:].lstrip()
        dotted = raw[:ident[0]].endswith(".")
        said = _hover_expression_word(word, _names(text, known), call=after.startswith("("),
                                      attribute=dotted)
        return _span(said, n, ident[0], ident[1])
    values = [_yaml_word(v) for v in index.enum(node)]
    if word in values:
        kind, info = index.describe(node)
        field = next((p for p in reversed(ctx.path) if isinstance(p, str)), "")
        return _span((f"{word} — a value of {field}", f"{field}: {kind}\n{info}".strip()),
                     n, ident[0], ident[1])
    # an id where it is declared (`- id: board`), or a name in a plain text field
    return _span(_hover_name(word, _names(text, known), attribute=False), n, ident[0],
                 ident[1])


def _span(said: tuple[str, str] | None, n: int, start: int, end: int) -> dict[str, Any]:
    if not said:
        return {}
    return {"from": {"line": n + 1, "col": start + 1}, "to": {"line": n + 1, "col": end + 1},
            "title": said[0], "text": said[1]}


def _hover_key(index: SchemaIndex, root: dict[str, Any], text: str, n: int, col: int,
               key: str, known: Known | None) -> tuple[str, str] | None:
    ctx = context(text, n, col)
    if ctx.path in (["change"], ["replace"]):
        return _hover_address(key, known)
    if ctx.path == ["define"]:  # a definition's own key: what it is, in the rulebook's words
        name = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", key)
        said = _hover_name(name.group(1), _names(text, known), attribute=False) if name \
            else None
        if said is not None:
            return said
    node = _locate(index, root, ctx.path, known, text, n)
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
        said = _hover_name(key, _names(text, known), attribute=False)
        if said is not None:
            return said
    sub = index.child(node, key)
    if sub is None:
        return None
    kind, info = index.describe(sub)
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


def _hover_name(word: str, names: _Names, attribute: bool) -> tuple[str, str] | None:
    pool = names.attributes if attribute else names.names
    d = pool.get(word) or (names.attributes.get(word) if not attribute else None)
    if d is None:
        return None
    where = _where(d)
    return (f"{d.name} — {d.detail or d.kind}",
            (d.info + "\n" if d.info else "") + f"{d.kind}" + (f", declared at {where}"
                                                               if where else ""))


def _hover_expression_word(word: str, names: _Names, call: bool, attribute: bool
                           ) -> tuple[str, str] | None:
    from interpreter.compile.functions import FUNCTIONS

    if attribute:
        return _hover_name(word, names, attribute=True)
    if call and word in FUNCTIONS and word not in names.names:
        f = FUNCTIONS[word]
        return f"{_signature(f.doc, f.name)} — built-in function", _function_text(f)
    said = _hover_name(word, names, attribute=False)
    if said is not None:
        return said
    builtins = _builtin_names()
    if word in builtins:
        return f"{word} — built-in name", builtins[word]
    if word in SEAT_WORDS:
        return f"{word} — name given here", SEAT_WORDS[word]
    if word in LANGUAGE_WORDS:
        return f"{word} — language word", LANGUAGE_WORDS[word]
    if word in FUNCTIONS:
        f = FUNCTIONS[word]
        return f"{_signature(f.doc, f.name)} — built-in function", _function_text(f)
    return None


# ---------------------------------------------------------------------------------------
# HTTP
# ---------------------------------------------------------------------------------------

class KnownCache:
    """What the last good load of each file knew, refreshed as its text changes.

    The first request for a file loads it at once; later edits are loaded in the
    background while completion answers from the last good load (a keystroke's answer
    must not wait for a compile, and a text with an error keeps the names it had)."""

    def __init__(self, ws: Workspace, pause: float = 0.3) -> None:
        self.ws = ws
        self.pause = pause
        """Seconds of no new text before a file is loaded again in the background (a burst
        of keystrokes costs one load, not one each)."""
        self.lock = threading.Lock()
        self.files: dict[str, tuple[str, Known]] = {}
        self.bases: dict[tuple[str, str], Known] = {}
        self.pending: dict[str, tuple[str, str, float]] = {}
        """The latest text of a file not loaded yet: (text, its digest, when it came)."""
        self.busy: set[str] = set()

    def get(self, name: str, text: str) -> Known:
        digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
        with self.lock:
            hit = self.files.get(name)
            if hit is not None and hit[0] == digest:
                return hit[1]
            # answer from the last good load, unless none ever loaded (then wait for this one)
            if hit is not None and (hit[1].game is not None or hit[1].parts):
                waiting = self.pending.get(name)
                if waiting is None or waiting[1] != digest:  # the same text asked again waits on
                    self.pending[name] = (text, digest, time.monotonic())
                if name not in self.busy:
                    self.busy.add(name)
                    threading.Thread(target=self._worker, args=(name,), daemon=True).start()
                return hit[1]
        return self._store(name, text, digest)

    def _worker(self, name: str) -> None:
        """Load the latest text of `name` once typing pauses (no newer text for `pause`
        seconds), until no text waits."""
        try:
            while True:
                time.sleep(self.pause)
                with self.lock:
                    job = self.pending.get(name)
                    if job is None:
                        self.busy.discard(name)
                        return
                    if time.monotonic() - job[2] < self.pause:
                        continue  # still typing
                    del self.pending[name]
                self._store(name, job[0], job[1])
        except BaseException:
            with self.lock:
                self.busy.discard(name)
            raise

    def _store(self, name: str, text: str, digest: str) -> Known:
        known = self.build(name, text)
        with self.lock:
            old = self.files.get(name)
            if known is None:  # the text has an error: keep the last good names
                known = old[1] if old else Known()
            self.files[name] = (digest, known)
        return known

    def build(self, name: str, text: str) -> Known | None:
        """The names of `text` (a tests file: of its ruleset), with its base's parts; None
        when it does not load."""
        from interpreter.assemble.game import compile_game
        from interpreter.errors import TabletopError
        from interpreter.load.loader import load_ruleset_text

        path = self.ws.resolve(name)
        with self.lock:
            had = self.files.get(name)
        texts = [text]
        if had is None or had[1].game is None:  # nothing loaded yet: the saved file will do
            texts.append("")
        known = None
        for each in texts:
            try:
                if name.endswith(".tests.yaml"):
                    loaded = self._tests_ruleset(name, text)
                    if loaded is None:
                        break
                else:
                    loaded = load_ruleset_text(each or self.ws.read_disk(path), str(path))
                known = known_from(loaded, compile_game(loaded, {}), str(path))
                break
            except (TabletopError, StudioError, OSError, ValueError):
                continue
        ref = extends_of(text)
        if ref is not None:
            based = self.base(ref, path)
            if based is not None:
                known = known or Known()
                known.base, known.base_title = based.base, based.base_title
                known.parts, known.addresses = based.parts, based.addresses
                known.words = based.words
        return known

    def _tests_ruleset(self, name: str, text: str) -> Any:
        """The ruleset a tests file tests: the one beside it, else its `ruleset:`."""
        from interpreter.api import load

        beside = name[: -len(".tests.yaml")] + ".yaml"
        if self.ws.resolve(beside).is_file():
            return self.ws.loaded(beside)
        m = re.search(r"^ruleset\s*:\s*([A-Za-z0-9_-]+)\s*$", text, re.MULTILINE)
        return load(m.group(1)) if m else None

    def base(self, ref: str, path: Path) -> Known | None:
        """A variant's base's parts (by name: a bundled game; a path: a file of the
        workspace), cached while the base is unchanged."""
        from interpreter.api import load
        from interpreter.assemble.game import compile_game
        from interpreter.errors import TabletopError

        try:
            if ref.endswith((".yaml", ".yml")) or "/" in ref:
                near = path.parent / ref
                loaded = self.ws.loaded(self.ws.shown(near.resolve()))
            else:
                loaded = load(ref)
            stamp = (ref, loaded.content_hash)
            with self.lock:
                hit = self.bases.get(stamp)
            if hit is not None:
                return hit
            done = with_base(Known(), ref, loaded, compile_game(loaded, {}))
        except (TabletopError, StudioError, OSError, ValueError):
            return None
        with self.lock:
            if len(self.bases) > 16:
                self.bases.pop(next(iter(self.bases)))
            self.bases[stamp] = done
        return done


def _request(data: dict[str, Any]) -> tuple[str, str, Any, Any]:
    name, text = data.get("path"), data.get("text")
    if not isinstance(name, str):
        raise StudioError("name the file ('path')")
    if not isinstance(text, str):
        raise StudioError("'text' must be the editor's text (a string)")
    line, col = data.get("line"), data.get("col")
    for what, v in (("line", line), ("col", col)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise StudioError(f"'{what}' must be a whole number (1-based)")
    return name, text, line, col


def routes(ws: Workspace) -> list[BaseRoute]:
    """POST /api/complete and /api/hover, `{path, text, line, col}` each."""
    from interpreter.studio.app import body, threaded

    cache = KnownCache(ws)
    # the schema indexes are built while the page loads, not on the first keystroke
    threading.Thread(target=warm, daemon=True).start()

    def answer(fn: Any, name: str, text: str, line: int, col: int) -> dict[str, Any]:
        known = cache.get(name, text)
        return dict(fn(text, name, line, col, known))

    async def complete_route(request: Request) -> Response:
        name, text, line, col = _request(await body(request))
        ws.resolve(name)
        return await threaded(answer, complete, name, text, line, col)

    async def hover_route(request: Request) -> Response:
        name, text, line, col = _request(await body(request))
        ws.resolve(name)
        return await threaded(answer, hover, name, text, line, col)

    return [Route("/api/complete", complete_route, methods=["POST"]),
            Route("/api/hover", hover_route, methods=["POST"])]


def warm() -> float:
    """Build the schema indexes now (the first completion then answers at once);
    the seconds it took."""
    began = time.perf_counter()
    ruleset_index()
    tests_index()
    _builtin_names()
    return time.perf_counter() - began


__all__ = ["KnownCache", "complete", "hover", "routes", "warm"]
