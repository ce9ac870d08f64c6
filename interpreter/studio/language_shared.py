"""What completion and hover share: where the cursor is in the schema, the names in
reach there, and how an option is written for the editor.

The schema at a key path is the ruleset's (or a tests file's) JSON Schema, except in a
variant where it names the base's parts: under `change:`/`replace: {ADDRESS: ...}` it is
the schema of the part at ADDRESS, and in an `insert:`'s `items`, of what goes where the
insert names. The names in reach are the text's own, as typed, with the words the last
good load gave them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from interpreter.studio.language_known import Declared, Known, extends_of, names_in_text
from interpreter.studio.language_schema import (
    ITEM,
    SchemaIndex,
    root_for,
    ruleset_index,
    tests_index,
)
from interpreter.studio.language_text import Context, outline
from interpreter.studio.workspace import StudioError

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
NAME_KINDS = {"set": ("variable",), "add": ("variable",), "from": ("variable",),
              "call": ("procedure",), "attribute": ("attribute",),
              "facing": ("variable",), "standing_on": ("variable",),
              "start": ("zone",), "enters": ("zone",)}
"""What a name field takes, by its key (`start:` a zone, `call:` a procedure)."""
ADDRESS_VALUES = ("before", "after", "into")
"""The keys of an `insert:` item whose value is a base's part address."""
NAMED_KEYS = {"position": ("zone",), "variables": ("variable",), "options": ("option",)}
"""Mappings (of a tests file's case, or its defaults) whose keys are the ruleset's names."""
KIND_ORDER = {"local name": 0, "definition": 1, "zone": 2, "variable": 3, "option": 4,
              "value": 5, "procedure": 6, "attribute": 6, "name": 7, "function": 8,
              "word": 9}
"""The order completions of an expression are listed in: the ruleset's own names first."""


def clamp(text: str, line: Any, col: Any) -> tuple[int, int]:
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


def index_for(path: str) -> SchemaIndex:
    return tests_index() if str(path).endswith(".tests.yaml") else ruleset_index()


def root_of(index: SchemaIndex, text: str) -> dict[str, Any]:
    return root_for(index, extends_of(text) is not None)


def builtin_names() -> dict[str, str]:
    """The names every expression may use, with the rulebook's words for each."""
    from interpreter.assemble.game import BUILTIN_NAMES
    from interpreter.compile.english import humanize

    words = _english_names()
    return {name: words.get(name, humanize(name)) for name in BUILTIN_NAMES}


def _english_names() -> dict[str, str]:
    from interpreter.compile import english

    return dict(getattr(english, "_NAMES", {}))


def signature(doc: str, name: str) -> str:
    head = doc.split(":", 1)[0].strip()
    return head if head.startswith(name + "(") else f"{name}(…)"


def function_text(f: Any) -> str:
    """A built-in's doc after its signature, and how the rulebook reads a call of it."""
    sign = signature(f.doc, f.name)
    rest = f.doc[len(sign):].lstrip(": ").strip() if f.doc.startswith(sign) else f.doc
    return (rest + "\n" if rest else "") + f"Reads as: {english_pattern(f.english)}"


def matches(label: str, word: str) -> bool:
    """The editor's filter, roughly: the typed letters in order, case ignored."""
    if not word:
        return True
    it = iter(label.lower())
    return all(ch in it for ch in word.lower())


def offer(label: str, kind: str, detail: str = "", info: str = "",
          apply: str | None = None, rank: float = 5) -> dict[str, Any]:
    out: dict[str, Any] = {"label": label, "type": kind, "detail": detail, "info": info,
                           "_rank": rank}
    if apply is not None:
        out["apply"] = apply
    return out


def finish(options: list[dict[str, Any]], word: str) -> list[dict[str, Any]]:
    seen: set[str] = set()
    kept = []
    for o in options:
        if o["label"] in seen or not matches(o["label"], word):
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
class Names:
    """The names in reach: the text's own, with what the last good load knew."""

    names: dict[str, Declared]
    attributes: dict[str, Declared]
    known: Known


def names_of(text: str, known: Known | None) -> Names:
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
    return Names(merged, attrs, known)


def where_of(d: Declared) -> str:
    if d.line is not None:
        return f"line {d.line}"
    return d.where or ""


def locate(index: SchemaIndex, root: dict[str, Any], path: list[Any], known: Known | None,
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


def wants_address(ctx: Context) -> bool:
    """Whether a base's part address goes here (a variant's change, replace, remove and
    insert name parts by address)."""
    path = ctx.path
    if ctx.kind == "key":
        return path in (["change"], ["replace"])
    if not path or path[0] not in ("remove", "insert"):
        return False
    if path[0] == "remove":
        return path in (["remove"], ["remove", ITEM])
    return bool(path) and path[-1] in ADDRESS_VALUES


def yaml_word(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return str(value)


def in_string(value: str) -> bool:
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


def english_pattern(english: str) -> str:
    return re.sub(r"\{(\d+)\}", lambda m: "‹" + "xyzuvw"[int(m.group(1)) % 6] + "›", english)


__all__ = ["ADDRESS_VALUES", "KIND_ORDER", "LANGUAGE_WORDS", "NAMED_KEYS", "NAME_KINDS",
           "SEAT_WORDS", "Names", "builtin_names", "clamp", "english_pattern", "finish",
           "function_text", "in_string", "index_for", "locate", "matches", "names_of", "offer",
           "root_of", "signature", "wants_address", "where_of", "yaml_word"]
