"""Bounded memories of pure compile steps, so recompiling an edited ruleset is quick.

An editor recompiles the ruleset at every keystroke, and almost everything it compiles
is what it compiled a moment ago. The steps remembered here are pure functions of
exact keys: Python's compiler on a generated source text (a code object is immutable,
and each use runs it in a fresh namespace), whether an expression's text nests too
deeply, whether a piece of generated code is a literal, an expression's tree for the
analyses that only read it, and a board's offset and neighbour tables (a function of
the board's shape alone; the generated code only reads them). Nothing here is keyed by,
or holds, a game's name; every memory forgets its least recently used entries beyond a
fixed size.
"""

from __future__ import annotations

import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class Memory(Generic[V]):
    """A least-recently-used map of bounded size, counting its hits and misses.

    Its size is the total weight of its values: one per value, unless `weigh` says more
    (a table weighs its entries, so a large board's tables cannot pile up)."""

    def __init__(self, size: int, weigh: Callable[[V], int] | None = None) -> None:
        self.size = size
        self.weigh = weigh
        self.items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self.weight = 0
        self.hits = 0
        self.misses = 0
        self.lock = threading.Lock()
        """A server compiles in several threads: the map is changed by one at a time."""

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value remembered for `key`, else `make()` remembered (an exception from
        `make` is not remembered: the next call makes it again)."""
        items = self.items
        with self.lock:
            found = items.get(key)
            if found is not None:
                self.hits += 1
                items.move_to_end(key)
                return found[0]
            self.misses += 1
        value = make()  # (outside the lock: two threads may both make it, alike)
        weight = 1 if self.weigh is None else self.weigh(value)
        if weight > self.size:
            return value  # (too heavy to keep: made again when asked again)
        with self.lock:
            if key not in items:
                items[key] = (value, weight)
                self.weight += weight
            while self.weight > self.size:
                self.weight -= items.popitem(last=False)[1][1]
        return value

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.weight = self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self.items)


CODE = Memory[Any](4096)
"""Generated source and its function's name → the code object Python compiled it to."""
SHALLOW = Memory[bool](16384)
"""Expression texts already found to nest within the limit (each maps to True)."""
LITERAL = Memory[bool](16384)
"""Generated code → whether it is a literal."""

TREES = Memory[Any](8192)
"""Expression text → its tree, for the analyses that only read a tree (how big, which
names, what it weighs) and never keep it. A tree that is compiled or written out gets
a parse of its own: code generation keys facts by a node's identity, and a definition
written out in two places must not share its nodes."""


def table_weight(table: dict[Any, Any]) -> int:
    """A board table's entries (a table by direction counts each direction's)."""
    return 1 + sum(len(v) if isinstance(v, dict | list) else 1 for v in table.values())


TABLES = Memory[Any](1_000_000, table_weight)
"""(what, its arguments, the board's shape) → a board table, bounded by entries."""

MEMORIES = (CODE, SHALLOW, LITERAL, TREES, TABLES)


def code_of(source: str, name: str) -> Any:
    """Python's compiler on generated source, quiet about what it can see statically
    (`1[0]`, which the rules may say and the careful path reports when it runs)."""
    def make() -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            return compile(source, f"<tabletop {name}>", "exec")
    return CODE.get((source, name), make)


def forget_all() -> None:
    """Empty every memory (tests, and a process that wants its memory back)."""
    for memory in MEMORIES:
        memory.clear()
