"""Read YAML with ruamel.yaml and keep a source position on every node.

The tree handed to pydantic is made of plain dict/list/str subclasses that remember
where they came from, so any later stage (schema, compiler) can report
``file:line:col`` for the exact value at fault.

The tree is built here, iteratively, from ruamel's parse *events* (its scanner and
parser are iterative; its composer and constructor are not, and they honour tags).
Building it ourselves in one pass lets the loader refuse, at the exact place and
before anything recursive or costly runs, what no ruleset needs: deep nesting,
aliases that multiply the data ("billion laughs"), tags that construct objects,
enormous files. Whatever the input, the outcome is a tree or a located
:class:`RulesetError`, never another exception.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar, NoReturn

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from ruamel.yaml.main import CParser  # None without ruamel.yaml.clib
from ruamel.yaml.reader import ReaderError

from interpreter.errors import Diagnostic, Location, RulesetError, did_you_mean

MAX_FILE_BYTES = 512_000
"""Largest ruleset (or scenario) file read, checked before reading it: the biggest
bundled file (a card game's scenarios, 40 kB) is a tenth of it, and ruamel's pure-Python
parser takes about 1.5 s for 470 kB of dense YAML, so anything larger is a mistake (a
wrong path, a generated file) that would only seem to hang."""

MAX_DEPTH = 64
"""Deepest nesting of lists and mappings: the bundled rulesets reach 16 (effects inside
effects). Later stages (pydantic, the compiler) recurse on the tree, so a bound keeps
them far from Python's recursion limit."""

MAX_NODES = 100_000
"""Most values (scalars, lists and mappings) a file may hold once its aliases are
expanded: the largest bundled file (a card game's scenarios, every hand written out)
holds 3,041, so this is 33 times that. It
bounds the work and memory of a file whose aliases repeat aliases ("billion laughs"),
which is refused at the alias that goes over, in milliseconds."""

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SURROGATE = re.compile("[\ud800-\udfff]")
_CORE = "tag:yaml.org,2002:"
_CORE_NAMES = frozenset(("str", "int", "float", "bool", "null", "seq", "map"))


class LocatedStr(str):
    """A YAML string scalar that knows where its first character sits."""

    loc: Location | None
    __slots__ = ("loc",)


class LocatedDict(dict):
    """A YAML mapping with the position of the mapping and of each key."""

    loc: Location | None
    key_locs: dict[Any, Location]


class LocatedList(list):
    """A YAML sequence with the position of the sequence and of each item."""

    loc: Location | None
    item_locs: list[Location]


class Source:
    """The text of one file, for quoting the offending line in messages."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        # Lines as YAML counts them (\n, \r\n, \r only), so a mark's line is this line;
        # a leading BOM takes no column in marks, nor here.
        lines = _LINE_BREAK.split(text.removeprefix("\ufeff"))
        if lines and lines[-1] == "":
            lines.pop()
        self.lines = lines
        self.others: dict[str, Source] = {}
        """The other files a ruleset is made of (a variant's bases), by path."""

    def line(self, number: int) -> str | None:
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1]
        return None

    def line_at(self, location: Location | None) -> str | None:
        """The line a location points at, in whichever file of the ruleset it is."""
        if location is None:
            return None
        if location.path == self.path:
            return self.line(location.line)
        other = self.others.get(location.path)
        return other.line(location.line) if other is not None else None

    @property
    def texts(self) -> list[str]:
        """This file's text, then its bases' (what a ruleset's content hash covers)."""
        return [self.text, *(o.text for o in self.others.values())]

    def diagnostic(
        self,
        message: str,
        location: Location | None,
        expected: str | None = None,
        hint: str | None = None,
    ) -> Diagnostic:
        return Diagnostic(message, location, expected, hint, self.line_at(location))


def _line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of ``text[index]``, counting as ruamel's marks do."""
    before = text[:index]
    line = before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    start = max(before.rfind("\n"), before.rfind("\r")) + 1
    return line, index - start - before.count("\ufeff", start) + 1


# -- plain scalars: YAML 1.2 core schema (1.1 under a `%YAML 1.1` directive) ----------------
# The patterns are ruamel's; timestamps and `=` stay text (the language has no dates).

_INT_12 = re.compile(r"[-+]?(?:0b[0-1_]+|0o?[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+)\Z")
_INT_11 = re.compile(r"[-+]?(?:0b[0-1_]+|0?[0-7_]+|(?:0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+"
                     r"|[1-9][0-9_]*(?::[0-5]?[0-9])+)\Z")
_FLOAT_12 = re.compile(r"(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?"
                       r"|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)"
                       r"|[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?"
                       r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z")
_FLOAT_11 = re.compile(r"(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?"
                       r"|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)"
                       r"|\.[0-9_]+(?:[eE][-+][0-9]+)?"
                       r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*"
                       r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z")
_BOOL_12 = {"true": True, "True": True, "TRUE": True,
            "false": False, "False": False, "FALSE": False}
_BOOL_11 = {**_BOOL_12, **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "on", "On", "ON"), True),
            **dict.fromkeys(("n", "N", "no", "No", "NO", "off", "Off", "OFF"), False)}
_NULL = frozenset(("", "~", "null", "Null", "NULL"))
_NUMBER_START = frozenset("-+.0123456789")

_Mark = Any  # ruamel's StringMark: .line, .column (0-based)


class _Problem(Exception):
    """A located problem found while building the tree (carried out of the loop)."""

    def __init__(self, message: str, mark: _Mark, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark
        self.hint = hint


def _show_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE):] if tag.startswith(_CORE) else tag


def _to_int(text: str, v11: bool, mark: _Mark) -> int | None:
    """An int scalar's value (None when it has no digits, e.g. `_`: then it is text)."""
    digits = text.replace("_", "")
    sign = -1 if digits[:1] == "-" else 1
    digits = digits.lstrip("+-")
    base = 10
    if digits[:2] in ("0b", "0o", "0x"):
        base = {"b": 2, "o": 8, "x": 16}[digits[1]]
        digits = digits[2:]
    elif v11 and ":" in digits:
        value = 0
        for part in digits.split(":"):
            value = value * 60 + int(part or "0")
        return sign * value
    elif v11 and len(digits) > 1 and digits[0] == "0":
        base = 8
    if not digits:
        return None
    try:
        return sign * int(digits, base)
    except ValueError:  # only Python's limit of 4,300 decimal digits gets here
        raise _Problem(f"cannot read the number {text[:20]}...: it has {len(digits):,} digits, "
                       "more than Python reads", mark) from None


def _to_float(text: str) -> float | None:
    value = text.replace("_", "").lower()
    if value.lstrip("+-") == ".inf":
        return float("-inf") if value[0] == "-" else float("inf")
    if value == ".nan":
        return float("nan")
    if ":" in value:  # YAML 1.1 sexagesimal
        sign = -1.0 if value[0] == "-" else 1.0
        total = 0.0
        for part in value.lstrip("+-").split(":"):
            total = total * 60 + float(part or "0")
        return sign * total
    try:
        return float(value)
    except ValueError:
        return None


def _plain(text: str, v11: bool, mark: _Mark) -> Any:
    """What an untagged plain scalar stands for: null, a bool, an int, a float or text."""
    if text in _NULL:
        return None
    first = text[0]
    if first in _NUMBER_START:
        if (_FLOAT_11 if v11 else _FLOAT_12).match(text):
            number = _to_float(text)
            if number is not None:
                return number
        elif (_INT_11 if v11 else _INT_12).match(text):
            whole = _to_int(text, v11, mark)
            if whole is not None:
                return whole
        return text
    value = (_BOOL_11 if v11 else _BOOL_12).get(text)
    return text if value is None else value


def _tagged(tag: str, text: str, v11: bool, mark: _Mark) -> Any:
    """A scalar with an explicit core-schema tag; any other tag is refused."""
    name = tag[len(_CORE):] if tag.startswith(_CORE) else None
    if tag == "!" or name == "str":
        return text
    if name == "null" and text in _NULL:
        return None
    if name == "bool":
        value = (_BOOL_11 if v11 else _BOOL_12).get(text)
        if value is not None:
            return value
    if name == "int" and (_INT_11 if v11 else _INT_12).match(text):
        whole = _to_int(text, v11, mark)
        if whole is not None:
            return whole
    if name == "float" and ((_FLOAT_11 if v11 else _FLOAT_12).match(text)
                            or (_INT_11 if v11 else _INT_12).match(text)):
        number = _to_float(text)
        if number is not None:
            return number
    if name in ("null", "bool", "int", "float"):
        raise _Problem(f"'{text[:40]}' is not a valid {name} (it is tagged !!{name})", mark)
    raise _unsupported_tag(tag, mark)


def _unsupported_tag(tag: str, mark: _Mark, kind: str = "") -> _Problem:
    shown = _show_tag(tag)
    if kind:
        return _Problem(f"the tag {shown} does not fit a {kind}", mark,
                        hint="remove the tag")
    return _Problem(
        f"the YAML tag {shown} is not supported: a ruleset holds plain data (text, "
        "numbers, true/false, null, lists and mappings)", mark,
        hint="remove the tag; tabletop never builds objects from tags")


def _copy(node: Any, loc: Location) -> Any:
    """An anchored node as one of its aliases gives it: placed at the alias, its inner
    values shared (nothing mutates the tree), so an alias costs its width, not its size."""
    if isinstance(node, LocatedStr):
        s = LocatedStr(node)
        s.loc = loc
        return s
    if isinstance(node, LocatedDict):
        d = LocatedDict(node)
        d.loc = loc
        d.key_locs = node.key_locs
        return d
    if isinstance(node, LocatedList):
        seq = LocatedList(node)
        seq.loc = loc
        seq.item_locs = node.item_locs
        return seq
    return node


_NO_KEY = object()
_MERGE = object()


class _Open:
    """A list or mapping being built: what has been read of it so far."""

    __slots__ = ("anchor", "count", "height", "key", "key_loc", "merges", "node")

    def __init__(self, node: LocatedDict | LocatedList, anchor: str | None) -> None:
        self.node = node
        self.anchor = anchor
        self.count = 1           # values inside, aliases expanded, itself included
        self.height = 1          # levels of nesting, itself included
        self.key: Any = _NO_KEY  # a mapping's pending key
        self.key_loc: Location | None = None
        self.merges: list[LocatedDict] = []


class _Builder:
    """Builds the located tree from parse events, enforcing the limits as it goes."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.stack: list[_Open] = []
        self.anchors: dict[str, tuple[Any, int, int]] = {}  # node, count, height
        self.open_anchors: set[str] = set()
        self.total = 0
        self.v11 = False
        self.root: Any = None
        self.documents = 0

    # Each event kind has its handler; `feed` dispatches on the exact class.
    def feed(self, event: Event) -> None:
        handler = self._handlers.get(type(event))
        if handler is not None:
            handler(self, event)

    def _document(self, event: DocumentStartEvent) -> None:
        self.documents += 1
        if self.documents > 1:
            raise _Problem("a second YAML document starts here: a ruleset is one document",
                           event.start_mark, hint="remove the '---' line or split the file")
        self.v11 = tuple(event.version or (1, 2)) == (1, 1)

    def _count(self, n: int, event: Event, alias: str | None = None) -> None:
        self.total += n
        if self.total > MAX_NODES:
            if alias is None:
                raise _Problem(f"the YAML holds more than {MAX_NODES:,} values (tabletop's "
                               "limit)", event.start_mark)
            raise _Problem(
                f"the alias *{alias} makes the YAML hold more than {MAX_NODES:,} values once "
                "aliases are expanded (tabletop's limit)", event.start_mark,
                hint="aliases that repeat aliases multiply the data; no ruleset needs this")

    def _depth(self, height: int, event: Event) -> None:
        if len(self.stack) + height > MAX_DEPTH:
            raise _Problem(f"YAML nested deeper than {MAX_DEPTH} levels (tabletop's limit)",
                           event.start_mark,
                           hint="flatten this part, e.g. move inner effects into a procedure")

    def _start(self, event: MappingStartEvent | SequenceStartEvent) -> None:
        is_map = isinstance(event, MappingStartEvent)
        tag = event.tag
        if tag is not None and tag != "!" and tag != _CORE + ("map" if is_map else "seq"):
            core = tag.startswith(_CORE) and tag[len(_CORE):] in _CORE_NAMES
            raise _unsupported_tag(tag, event.start_mark,
                                   ("mapping" if is_map else "list") if core else "")
        self._depth(1, event)
        self._count(1, event)
        node: LocatedDict | LocatedList
        if is_map:
            node = LocatedDict()
            node.key_locs = {}
        else:
            node = LocatedList()
            node.item_locs = []
        frame = _Open(node, event.anchor)
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)
        node.loc = self._place(event, None)
        self.stack.append(frame)

    def _end(self, event: Event) -> None:
        frame = self.stack.pop()
        node = frame.node
        if isinstance(node, LocatedDict):
            self._apply_merges(frame)
        if frame.anchor is not None:
            self.open_anchors.discard(frame.anchor)
            self.anchors[frame.anchor] = (node, frame.count, frame.height)
        self._add(node, node.loc, frame.count, frame.height, event)

    def _scalar(self, event: ScalarEvent) -> None:
        self._count(1, event)
        text = event.value
        mark = event.start_mark
        value: Any
        if event.tag is not None:
            value = _tagged(event.tag, text, self.v11, mark)
        elif event.implicit[0]:
            value = _plain(text, self.v11, mark)
            if text == "<<" and event.anchor is None and self.stack \
                    and isinstance(self.stack[-1].node, LocatedDict) \
                    and self.stack[-1].key is _NO_KEY:
                value = _MERGE  # a merge key: never a value, never anchored
        else:
            value = text
        if event.style == '"' and _SURROGATE.search(text):
            raise _Problem("this text has an escape for half of a UTF-16 pair (\\ud800 to "
                           "\\udfff), which is not a character", mark,
                           hint="write the character itself, or one \\U00XXXXXX escape")
        shift = 1 if event.style in ('"', "'") else 0
        loc = self._place(event, shift)
        if isinstance(value, str):
            value = LocatedStr(value)
            value.loc = loc
        if event.anchor is not None:
            self.anchors[event.anchor] = (value, 1, 0)
        self._add(value, loc, 1, 0, event)

    def _alias(self, event: AliasEvent) -> None:
        name = event.anchor
        if name in self.open_anchors:
            raise _Problem(f"the alias *{name} is inside the node it names (a recursive "
                           "structure, which a ruleset cannot be)", event.start_mark)
        if name not in self.anchors:
            raise _Problem(f"unknown alias *{name}: no anchor &{name} comes before it",
                           event.start_mark, hint=did_you_mean(name, self.anchors))
        node, count, height = self.anchors[name]
        self._count(count, event, name)
        self._depth(height, event)
        loc = self._place(event, 0)
        self._add(_copy(node, loc), loc, count, height, event)

    def _place(self, event: Event, shift: int | None) -> Location:
        mark = event.start_mark
        return Location(self.path, mark.line + 1, mark.column + 1 + (shift or 0))

    def _add(self, value: Any, loc: Location | None, count: int, height: int,
             event: Event) -> None:
        """Put a finished value into the list or mapping being built (or make it the root)."""
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        frame.count += count
        if height + 1 > frame.height:
            frame.height = height + 1
        node = frame.node
        if isinstance(node, LocatedList):
            node.append(value)
            node.item_locs.append(loc)  # type: ignore[arg-type]
            return
        if frame.key is _NO_KEY:
            if isinstance(value, dict | list):
                kind = "mapping" if isinstance(value, dict) else "list"
                raise _Problem(f"a {kind} cannot be a mapping key: a key is a name "
                               "(or a number)", _mark_of(loc, event),
                               hint="write the key as plain text")
            frame.key, frame.key_loc = value, loc
            return
        key, frame.key = frame.key, _NO_KEY
        if key is _MERGE:
            self._merge(frame, value, event)
            return
        if key in node:
            first = node.key_locs.get(key)
            where = f" (first at line {first.line})" if first is not None else ""
            raise _Problem(f"duplicate key '{key}'{where}", _mark_of(frame.key_loc, event),
                           hint="each key may appear once in a mapping")
        node[key] = value
        node.key_locs[key] = frame.key_loc  # type: ignore[assignment]

    def _merge(self, frame: _Open, value: Any, event: Event) -> None:
        """`<<: *defaults` (or a list of them): keys not written here come from there."""
        sources = value if isinstance(value, LocatedList) else [value]
        for source in sources:
            if not isinstance(source, LocatedDict):
                raise _Problem("a merge key '<<' takes a mapping (usually an alias such as "
                               "*defaults) or a list of them", event.start_mark)
            frame.merges.append(source)

    def _apply_merges(self, frame: _Open) -> None:
        node = frame.node
        assert isinstance(node, LocatedDict)
        for source in frame.merges:
            for key, value in source.items():
                if key not in node:
                    node[key] = value
                    node.key_locs[key] = source.key_locs.get(key, node.loc)  # type: ignore

    _handlers: ClassVar[dict[type, Any]] = {
        DocumentStartEvent: _document,
        MappingStartEvent: _start,
        SequenceStartEvent: _start,
        MappingEndEvent: _end,
        SequenceEndEvent: _end,
        ScalarEvent: _scalar,
        AliasEvent: _alias,
    }


class _FakeMark:
    """A mark for a position known only as a Location."""

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column


def _mark_of(loc: Location | None, event: Event) -> _Mark:
    return _FakeMark(loc.line - 1, loc.col - 1) if loc is not None else event.start_mark


def _too_complex(exc: BaseException) -> str:
    what = "memory" if isinstance(exc, MemoryError) else "recursion depth"
    return f"this YAML is too complex to read (Python ran out of {what})"


def parse_yaml(text: str, path: str) -> tuple[Any, Source]:
    """Parse YAML text into a located tree; every problem becomes a located diagnostic."""
    source = Source(path, text)

    def fail(message: str, line: int, col: int, hint: str | None = None) -> NoReturn:
        raise RulesetError([source.diagnostic(message, Location(path, line, col),
                                              hint=hint)]) from None

    if len(text) > MAX_FILE_BYTES:
        fail(f"the YAML text is {len(text):,} characters long, more than tabletop's limit "
             f"of {MAX_FILE_BYTES:,}", *_line_col(text, MAX_FILE_BYTES))
    fast = _read_fast(text, path)
    if fast is not None:
        return fast, source
    builder = _Builder(path)
    yaml = YAML(typ="safe", pure=True)
    events: Iterator[Event] = yaml.parse(text)
    last: Event | None = None
    try:
        while True:
            try:
                event = next(events)
            except StopIteration:
                break
            except MarkedYAMLError as exc:
                mark = exc.problem_mark or exc.context_mark
                problem = exc.problem or exc.context or "invalid YAML"
                if mark is None:
                    line, col = _after(text, last)
                    fail(f"YAML syntax error: {problem}", line, col)
                fail(f"YAML syntax error: {problem}", mark.line + 1, mark.column + 1,
                     hint="check the indentation and quoting on this line")
            except ReaderError as exc:
                line, col = _line_col(text, exc.position)
                char = exc.character
                code = f"U+{char:04X}" if isinstance(char, int) else repr(char)
                fail(f"character {code} is not allowed in YAML ({exc.reason})", line, col,
                     hint="remove it, or write it as an escape inside double quotes")
            except (RecursionError, MemoryError) as exc:
                fail(_too_complex(exc), *_after(text, last))
            except Exception as exc:  # ruamel's parser has bugs of its own
                detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                fail(f"YAML error: {detail}", *_after(text, last),
                     hint="the YAML parser stopped here; check this line and the next")
            last = event
            builder.feed(event)
    except _Problem as problem:
        mark = problem.mark
        fail(problem.message, mark.line + 1, mark.column + 1, problem.hint)
    except (RecursionError, MemoryError) as exc:
        fail(_too_complex(exc), *_after(text, last))
    finally:
        events.close()  # type: ignore[attr-defined]
    return builder.root, source


def _read_fast(text: str, path: str) -> Any | None:
    """The tree read with libyaml's C parser (ruamel.yaml.clib) when it is installed, six
    times faster than ruamel's own on a large ruleset (start-up of `validate`); None when
    it is not installed or finds anything wrong, and then the pure parser reads the text
    again and gives the message with its place, word for word as always. The C parser is
    YAML 1.1 and stricter in places (a plain `a:b` inside brackets), never laxer on the
    bundled rulesets and the hostile-input tests; the same builder checks what both read."""
    if CParser is None:
        return None
    builder = _Builder(path)
    try:
        for event in YAML(typ="safe", pure=False).parse(text):
            builder.feed(event)
    except Exception:  # any doubt: the pure parser decides, and says why
        return None
    return builder.root


_BLANKS = re.compile(r"(?:[ \t\r\n\ufeff]|#[^\r\n]*)*")


def _after(text: str, event: Event | None) -> tuple[int, int]:
    """Where the parser choked when it says nothing of where: at what follows the last
    event it produced (past blanks and comments), i.e. the token it could not read."""
    index = getattr(event.end_mark, "index", None) if event is not None else 0
    if not isinstance(index, int) or not 0 <= index <= len(text):
        mark = event.end_mark  # type: ignore[union-attr]
        return mark.line + 1, mark.column + 1
    match = _BLANKS.match(text, index)
    return _line_col(text, min(match.end() if match else index, len(text)))


def read_yaml(path: str | Path) -> tuple[Any, Source]:
    """Read and parse a YAML file; an unreadable file is a diagnostic, not a traceback."""
    p = Path(path)
    too_big = Diagnostic(f"the file is larger than {MAX_FILE_BYTES:,} bytes, tabletop's limit "
                         "for a ruleset file", Location(str(p), 1, 1))
    try:
        with p.open("rb") as f:
            if os.fstat(f.fileno()).st_size > MAX_FILE_BYTES:
                raise RulesetError([too_big])
            data = f.read(MAX_FILE_BYTES + 1)  # bounded: a device or pipe may never end
    except FileNotFoundError:
        raise RulesetError([Diagnostic(f"no such file: {p}")]) from None
    except IsADirectoryError:
        raise RulesetError([Diagnostic(f"{p} is a directory, not a ruleset file")]) from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise RulesetError([Diagnostic(f"cannot read {p}: {reason}")]) from None
    if len(data) > MAX_FILE_BYTES:
        raise RulesetError([too_big])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = data[:exc.start].decode("utf-8", errors="replace")
        line, col = _line_col(prefix, len(prefix))
        shown = Source(str(p), data.decode("utf-8", errors="replace"))
        hint = ("the file looks like UTF-16: save it as UTF-8"
                if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "save the file as UTF-8")
        raise RulesetError([shown.diagnostic(
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} at {line}:{col}",
            Location(str(p), line, col), hint=hint)]) from None
    return parse_yaml(text, str(p))


def locate(tree: Any, loc_path: tuple[Any, ...], key: bool = False) -> Location | None:
    """Follow a pydantic error path through the located tree to the closest node
    (with `key`, to the last key itself rather than its value: for unknown keys)."""
    node = tree
    best: Location | None = getattr(tree, "loc", None)
    key_loc: Location | None = None
    for i, step in enumerate(loc_path):
        if step == "[key]" and key_loc is not None:
            return key_loc  # pydantic's mark for an error in the key itself
        key_loc = None
        if isinstance(node, LocatedDict) and step not in node:
            # pydantic names a key that is not text (null, true, 1.5) by its str()
            step = next((k for k in node if not isinstance(k, str) and str(k) == step), step)
        if isinstance(node, LocatedDict) and step in node:
            best = key_loc = node.key_locs.get(step, best)
            if key and i == len(loc_path) - 1:
                return best
            child = node[step]
            child_loc = getattr(child, "loc", None)
            if isinstance(child, (LocatedStr, LocatedDict, LocatedList)) and child_loc is not None:
                best = child_loc
            if i < len(loc_path) - 1 and not isinstance(child, (LocatedDict, LocatedList)):
                continue  # an effect's keyword is both its union tag and a key: stay here
            node = child
        elif isinstance(node, LocatedList) and isinstance(step, int) and 0 <= step < len(node):
            best = node.item_locs[step]
            node = node[step]
        # Other steps are pydantic's union tags or model names: skip them.
    return best
