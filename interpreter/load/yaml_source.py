"""Read YAML with ruamel.yaml and keep a source position on every node.

The tree handed to pydantic is made of plain dict/list/str subclasses that remember
where they came from, so any later stage (schema, compiler) can report
``file:line:col`` for the exact value at fault.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

from interpreter.errors import Diagnostic, Location, RulesetError


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
        self.lines = text.splitlines()

    def line(self, number: int) -> str | None:
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1]
        return None

    def diagnostic(
        self,
        message: str,
        location: Location | None,
        expected: str | None = None,
        hint: str | None = None,
    ) -> Diagnostic:
        source_line = self.line(location.line) if location is not None else None
        return Diagnostic(message, location, expected, hint, source_line)


def _loc(path: str, line: int, col: int, shift: int = 0) -> Location:
    return Location(path, line + 1, col + 1 + shift)


def _convert(node: Any, path: str, here: Location) -> Any:
    if isinstance(node, CommentedMap):
        out = LocatedDict()
        out.loc = here
        out.key_locs = {}
        for key, value in node.items():
            try:
                kl = node.lc.key(key)
                key_loc = _loc(path, kl[0], kl[1])
            except (KeyError, TypeError, AttributeError):
                key_loc = here
            try:
                vl = node.lc.value(key)
                quoted = isinstance(value, DoubleQuotedScalarString | SingleQuotedScalarString)
                value_loc = _loc(path, vl[0], vl[1], 1 if quoted else 0)
            except (KeyError, TypeError, AttributeError):
                value_loc = key_loc
            plain_key = _convert(key, path, key_loc)
            out.key_locs[plain_key] = key_loc
            out[plain_key] = _convert(value, path, value_loc)
        return out
    if isinstance(node, CommentedSeq):
        seq = LocatedList()
        seq.loc = here
        seq.item_locs = []
        for index, value in enumerate(node):
            try:
                il = node.lc.item(index)
                quoted = isinstance(value, DoubleQuotedScalarString | SingleQuotedScalarString)
                item_loc = _loc(path, il[0], il[1], 1 if quoted else 0)
            except (KeyError, TypeError, AttributeError, IndexError):
                item_loc = here
            seq.item_locs.append(item_loc)
            seq.append(_convert(value, path, item_loc))
        return seq
    if isinstance(node, str):
        s = LocatedStr(str(node))
        s.loc = here
        return s
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node


def parse_yaml(text: str, path: str) -> tuple[Any, Source]:
    """Parse YAML text into a located tree; a syntax error becomes a located diagnostic."""
    source = Source(path, text)
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    try:
        raw = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        location = _loc(path, mark.line, mark.column) if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise RulesetError(
            [source.diagnostic(f"YAML syntax error: {problem}", location,
                               hint="check the indentation and quoting on this line")]
        ) from None
    except YAMLError as exc:
        raise RulesetError([source.diagnostic(f"YAML error: {exc}", None)]) from None
    lc = getattr(raw, "lc", None)
    root = _loc(path, lc.line, lc.col) if lc is not None else Location(path, 1, 1)
    return _convert(raw, path, root), source


def read_yaml(path: str | Path) -> tuple[Any, Source]:
    """Read and parse a YAML file; an unreadable file is a diagnostic, not a traceback."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesetError([Diagnostic(f"no such file: {p}")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesetError([Diagnostic(f"cannot read {p}: {exc}")]) from None
    return parse_yaml(text, str(p))


def locate(tree: Any, loc_path: tuple[Any, ...], key: bool = False) -> Location | None:
    """Follow a pydantic error path through the located tree to the closest node
    (with `key`, to the last key itself rather than its value: for unknown keys)."""
    node = tree
    best: Location | None = getattr(tree, "loc", None)
    for i, step in enumerate(loc_path):
        if isinstance(node, LocatedDict) and step in node:
            best = node.key_locs.get(step, best)
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
