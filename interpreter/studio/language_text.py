"""Where the cursor is in a ruleset's YAML as typed: the key path, and what is being typed.

The editor asks on every keystroke, when the text is often not valid YAML (a key half
written, a list item with nothing after its dash), so nothing here parses the document:
each line is read for its list dashes and its `key:`, and the lines above the cursor
give the path by their indentation, as a reader sees it. Flow collections on one line
(`expect: [is_cap(top('c4')), emp`) are followed bracket by bracket; lines under a key
that has a value on its own line (`when: >`, a long plain text) continue that value.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from interpreter.studio.language_schema import ITEM

_KEY = re.compile(r"""("[^"]*"|'[^']*'|[^\s#'"\[\]{},:!&*|>-][^#]*?|-[^\s#]*?)\s*:(?=\s|$)""")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORD_END = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_PART_END = re.compile(r"[A-Za-z0-9_.\-]*$")


@dataclass(slots=True)
class Entry:
    """A list dash or a key written on a line (columns 0-based)."""

    col: int
    line: int
    key: str | None = None
    """None for a list dash."""
    value: str = ""
    """For a key: what follows its colon on the line (comments left out)."""
    value_col: int = 0
    children: list[tuple[str, int]] = field(default_factory=list)
    """The keys seen directly under it (for the mapping it holds), with their lines."""


def strip_comment(text: str) -> str:
    """A line without its `# comment` (a # inside quotes, or glued to a word, stays)."""
    if "#" not in text:
        return text.rstrip()
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"" and (i == 0 or text[i - 1] in " \t[{,:"):
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
    return text.rstrip()


def unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def entries(text: str, line: int) -> tuple[list[Entry], int]:
    """The dashes and the key of a line, and the column where its own content starts."""
    out: list[Entry] = []
    i = len(text) - len(text.lstrip(" "))
    while text.startswith("-", i) and (i + 1 == len(text) or text[i + 1] in " \t"):
        out.append(Entry(i, line))
        i += 1
        while i < len(text) and text[i] in " \t":
            i += 1
    m = _KEY.match(text, i)
    if m:
        rest = text[m.end():]
        value = strip_comment(rest).strip()
        value_col = m.end() + len(rest) - len(rest.lstrip())
        out.append(Entry(i, line, unquote(m.group(1)), value, value_col))
    return out, i


def _opens_block(value: str) -> bool:
    """A value that is not the whole value: a block scalar, an unclosed flow, or a text
    that may go on over the next lines."""
    return bool(value) and not value.startswith(("&", "!"))


@dataclass
class Outline:
    """The text read line by line: for each line its entries and the open ancestors."""

    lines: list[str]
    entries: list[list[Entry]]
    parents: list[list[Entry]]
    """The entries each line sits under (outermost first)."""
    continues: list[Entry | None]
    """For a line that continues a key's value (a block scalar, a long text), that key."""
    root: Entry
    derived: dict[str, Any] = field(default_factory=dict)
    """What other modules compute from the outline once (the names it declares)."""


_OUTLINES: dict[str, Outline] = {}
_OUTLINES_LOCK = threading.Lock()


def outline(text: str) -> Outline:
    """`text` read into entries and ancestors (the last few texts are kept: completion
    and hover of one keystroke read the same text several times)."""
    with _OUTLINES_LOCK:
        hit = _OUTLINES.get(text)
    if hit is not None:
        return hit
    made = _outline(text)
    with _OUTLINES_LOCK:
        if len(_OUTLINES) >= 8:
            _OUTLINES.pop(next(iter(_OUTLINES)))
        _OUTLINES[text] = made
    return made


def _outline(text: str) -> Outline:
    lines = text.split("\n")
    count = len(lines)
    root = Entry(-1, -1, "")
    stack: list[Entry] = [root]
    cont: Entry | None = None
    all_entries: list[list[Entry]] = []
    parents: list[list[Entry]] = []
    continues: list[Entry | None] = []
    for n in range(count):
        raw = lines[n]
        stripped = raw.strip()
        indent = len(raw) - len(raw.lstrip(" "))
        if cont is not None and (not stripped or indent > cont.col):
            all_entries.append([])
            parents.append(list(stack))
            continues.append(cont)
            continue
        cont = None
        if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
            all_entries.append([])
            parents.append(list(stack))
            continues.append(None)
            continue
        while len(stack) > 1 and stack[-1].col >= indent:
            stack.pop()
        found, _ = entries(raw, n)
        parents.append(list(stack))
        for e in found:
            if e.key is not None:
                stack[-1].children.append((e.key, n))
            stack.append(e)
        all_entries.append(found)
        continues.append(None)
        last = found[-1] if found else None
        if last is not None and last.key is not None and _opens_block(last.value):
            cont = last
        elif last is not None and last.key is None:
            cont = last  # `- text` may go on over the next lines, as a plain text does
    return Outline(lines, all_entries, parents, continues, root)


def path_of(stack: list[Entry]) -> list[Any]:
    """The key path (keys and ITEM steps) down to the last entry of `stack`."""
    return [ITEM if e.key is None else e.key for e in stack[1:]]


@dataclass
class Context:
    """What the cursor is on: a key being typed, or a value (with the flow path in it)."""

    kind: str
    """"key" (typing a key of the mapping at `path`) or "value" (the value at `path`)."""
    path: list[Any]
    word: str
    """The part of a word before the cursor (what a completion replaces)."""
    word_col: int
    """Its 0-based column."""
    value: str = ""
    """For a value: its text up to the cursor (the current scalar of a flow)."""
    siblings: list[str] = field(default_factory=list)
    """For a key: the keys the mapping has already."""
    line: int = 0


def _siblings(out: Outline, parent: Entry, col: int, line: int) -> list[str]:
    """The keys the mapping at `parent` has, on its lines above the cursor and below it."""
    found = [key for key, at in parent.children if at != line]
    lines = out.lines
    for n in range(line + 1, min(len(lines), line + 400)):
        raw = lines[n]
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        if indent < col:
            break
        if indent == col:
            got, _ = entries(raw, n)
            if not got or got[0].key is None:
                break
            found.append(str(got[0].key))
    return found


def _flow(value: str) -> tuple[list[Any], bool, str]:
    """Inside a one-line flow value up to the cursor: the path within it, whether a key
    of a flow mapping is being typed, and the current scalar's text."""
    path: list[Any] = []
    frames: list[tuple[str, str | None]] = []
    start = 0
    depth = 0  # parentheses of an expression, where commas do not end the scalar
    quote = None
    key_typed = False
    i = 0
    while i < len(value):
        ch = value[i]
        scalar = value[start:i].strip()
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif depth == 0 and ch in "[{" and not scalar:
            frames.append((ch, None))
            path.append(ITEM if ch == "[" else None)
            start = i + 1
        elif depth == 0 and ch in "]}" and frames:
            frames.pop()
            path.pop()
            start = i + 1
        elif depth == 0 and ch == "," and frames:
            if frames[-1][0] == "{":
                path[-1] = None
            start = i + 1
        elif depth == 0 and ch == ":" and frames and frames[-1][0] == "{" and (
                i + 1 == len(value) or value[i + 1] in " \t,}") and path[-1] is None:
            path[-1] = unquote(scalar)
            start = i + 1
        i += 1
    scalar = value[start:].lstrip()
    if frames and frames[-1][0] == "{" and path[-1] is None:
        key_typed = True
        path.pop()
    return path, key_typed, scalar


def context(text: str, line: int, col: int) -> Context:
    """The cursor at (line, col), both 0-based and already within the text."""
    out = outline(text)
    raw = out.lines[line] if line < len(out.lines) else ""
    prefix = raw[:col]
    stack = [*out.parents[line - 1], *out.entries[line - 1]] if line > 0 else [out.root]
    # the value a key above holds on its own lines (a block scalar, a long text)
    cont = _open_value(out, line)
    indent = len(prefix) - len(prefix.lstrip(" "))
    if not prefix.strip():
        indent = len(prefix)
    if cont is not None and indent > cont.col:
        chain = stack[: stack.index(cont) + 1] if cont in stack else [*stack, cont]
        if cont.value.startswith(("[", "{")):  # a flow over several lines: read it all
            between = [out.lines[cont.line][cont.value_col:],
                       *out.lines[cont.line + 1:line], prefix]
            return _value(path_of(chain), " ".join(between), col, line)
        return _value(path_of(chain), prefix.strip(), col, line, flow=False)
    while len(stack) > 1 and stack[-1].col >= indent:
        stack.pop()
    found, start = entries(prefix, line)
    if found and found[-1].key is not None and found[-1].value_col <= col and (
            prefix[:found[-1].value_col].rstrip().endswith(":")):
        key = found[-1]
        path = path_of([*stack, *found])
        return _value(path, prefix[key.value_col:], col, line)
    dashes = [e for e in found if e.key is None]
    parent = dashes[-1] if dashes else stack[-1]
    path = path_of([*stack, *dashes])
    word = prefix[start:]
    if word.startswith(("[", "{")):  # a flow item (`- {id: board, kind: `), read inside
        return _value(path, word, col, line)
    siblings = _siblings(out, parent, start, line) if not dashes else []
    if dashes:
        siblings = _siblings(out, Entry(start, line), start, line)
    return Context("key", path, word.strip(), start, siblings=siblings, line=line)


def _open_value(out: Outline, line: int) -> Entry | None:
    """The key whose value line `line` may continue."""
    if line == 0:
        return None
    if out.continues[line - 1] is not None and not out.entries[line - 1]:
        return out.continues[line - 1]
    last = out.entries[line - 1][-1] if out.entries[line - 1] else None
    if last is not None and last.key is not None and _opens_block(last.value):
        return last
    return None


def _value(path: list[Any], value: str, col: int, line: int, flow: bool = True) -> Context:
    inner, key_typed, scalar = _flow(value) if flow else ([], False, value)
    word = _WORD_END.search(scalar)
    typed = word.group(0) if word else ""
    if key_typed:
        return Context("key", [*path, *inner], scalar.strip(), col - len(scalar.strip()),
                       value=scalar, line=line)
    return Context("value", [*path, *inner], typed, col - len(typed), value=scalar, line=line)


def part_word(prefix: str) -> str:
    """An address being typed (`turn.2`, `options.power_play`, `cap-move`)."""
    m = _PART_END.search(prefix)
    return m.group(0) if m else ""


def word_at(line_text: str, col: int, chars: str = "") -> tuple[int, int] | None:
    """The span (0-based, end excluded) of the word under column `col` (identifier
    characters, and `chars` too), or None."""
    def ok(ch: str) -> bool:
        return ch.isalnum() or ch == "_" or ch in chars
    start = col
    while start > 0 and ok(line_text[start - 1]):
        start -= 1
    end = col
    while end < len(line_text) and ok(line_text[end]):
        end += 1
    if start == end:
        return None
    return start, end


def identifiers(text: str) -> list[str]:
    return _IDENT.findall(text)


__all__ = ["Context", "Entry", "Outline", "context", "entries", "identifiers", "outline",
           "part_word", "path_of", "strip_comment", "unquote", "word_at"]
