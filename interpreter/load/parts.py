"""Addresses: a name for every part of a ruleset, whether or not its author gave it an id.

A variant changes its base by address (`replace: {ADDRESS: ...}`, `remove: [ADDRESS]`,
`insert`, `change`), and `tabletop parts GAME` lists them. Addresses are computed from the
located YAML tree, before validation, so the merge and the command see the same names.

The scheme, from the outside in:

- A top-level block is its key: `turn`, `setup`, `end`, `define`, `rank`, `budgets` …;
  a ruleset's `pieces.attributes` and `pieces.sets` are `attributes` and `sets`.
- An item of a block of named items is the block and its id: `options.power_play`,
  `zones.board`, `sets.rainbow`, `end.three-trios`, `rulings.win`, `procedures.erupt`;
  a definition by its name without parameters, `define.is_cap`; an attribute by its
  name, `attributes.colour`; a ranking key by its position, `rank.1`.
- A step (an effect) is the address of its block and its position, counted from 1:
  `turn.2`, `setup.1`, `procedures.erupt.do.3`. The blocks inside a step are the step's
  address and the key that holds them: `turn.4.then`, `turn.4.else`, `turn.3.repeat`,
  `setup.2.do`, `turn.1.cases.red`; the options of a decision are `….options`, and each
  option is that and its id.
- A step or a decision's option that has an id is named by its id alone, when no other
  step or option has it and it is not a top-level key: `cap_move`, `roll-die`; the parts
  inside it follow from there: `cap_move.do.1`, `cap_move.do.3.then`. An id that repeats
  is qualified by its container instead (`turn.1.options.pass`).

So an address only changes when the part itself moves: adding a ruling, a zone or a step
elsewhere leaves it alone, and a part with an id keeps its address wherever it moves.
Every part can also be reached by its full path (`turn.3.repeat.1.options.cap_move`,
`pieces.sets.rainbow`), which is accepted wherever an address is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

NAMED: dict[str, str] = {
    "options": "option", "attributes": "attribute", "sets": "piece set", "zones": "zone",
    "variables": "variable", "define": "definition", "procedures": "procedure",
    "triggers": "trigger", "end": "end rule", "rulings": "ruling",
}
"""The blocks made of named items, and what one item is called."""

SECTIONS = ("options", "pieces", "attributes", "sets", "zones", "variables", "define",
            "procedures", "triggers", "first_seat", "setup", "turn", "end", "rank",
            "scores", "most_decisions", "budgets", "rulings", "rulebook", "computer_players")
"""The top-level addresses, in a ruleset's order (`game` is a variant's own key)."""

STEP_BLOCKS = ("then", "else", "do", "repeat", "retry", "if_none", "default")
"""Keys of a step (or a decision's option) that hold a block of steps."""

STEPS = "steps"
STEP = "step"
CHOICES = "options of a decision"
CHOICE = "option of a decision"
CASES = "cases"


@dataclass
class Part:
    """One addressable part: where it lies in the tree, and what it is."""

    address: str
    path: str
    """Its full path from the top (also accepted as an address)."""
    kind: str
    """section, a named item's kind (option, zone …), step, steps, option of a decision,
    options of a decision, cases, ranking key."""
    parent: Any
    """The mapping or list that holds it (the tree itself for a section)."""
    key: Any
    """Its key (mapping) or index (list) in the parent."""
    section: str
    """The top-level block it belongs to."""

    @property
    def node(self) -> Any:
        return self.parent[self.key]

    @property
    def in_list(self) -> bool:
        return isinstance(self.parent, list)


@dataclass
class _Raw:
    path: str
    ident: str | None
    """A step's or a decision option's own id (may name it alone)."""
    up: int
    """The index of the enclosing entry (-1 at the top)."""
    tail: str
    """What it adds to its container's address."""
    kind: str
    parent: Any
    key: Any
    section: str


def definition_name(key: Any) -> str:
    """A definition's name, without its parameter list."""
    return str(key).split("(", 1)[0].strip()


class _Walker:
    """Every part of a tree, outside in (a container before what it holds)."""

    def __init__(self) -> None:
        self.out: list[_Raw] = []

    def add(self, path: str, ident: str | None, up: int, tail: str, kind: str, parent: Any,
            key: Any, section: str) -> int:
        self.out.append(_Raw(path, ident, up, tail, kind, parent, key, section))
        return len(self.out) - 1

    def tree(self, tree: Any) -> list[_Raw]:
        if isinstance(tree, dict):
            for section in SECTIONS:
                self.section(tree, section)
        return self.out

    def section(self, tree: Any, section: str) -> None:
        holder, path = tree, section
        if section in ("attributes", "sets"):
            holder, path = tree.get("pieces"), f"pieces.{section}"
        if not isinstance(holder, dict) or section not in holder:
            return
        value = holder[section]
        top = self.add(path, None, -1, section, "section", holder, section, section)
        if section in ("setup", "turn"):
            self.steps(value, section, top, section)
        elif section == "rank" and isinstance(value, list):
            for i in range(len(value)):
                self.add(f"rank.{i + 1}", None, top, str(i + 1), "ranking key", value, i,
                         section)
        elif section in NAMED and isinstance(value, dict):
            names = definition_name if section == "define" else str
            seen: Counter[str] = Counter()
            for k in value:
                name = names(k)
                seen[name] += 1
                tail = name if seen[name] == 1 else f"{name}~{seen[name]}"
                self.item(value, k, f"{path}.{tail}", top, tail, section)
        elif section in NAMED and isinstance(value, list):
            for i, tail in _item_names(value):
                self.item(value, i, f"{path}.{tail}", top, tail, section)

    def item(self, holder: Any, key: Any, path: str, up: int, tail: str, section: str) -> None:
        at = self.add(path, None, up, tail, NAMED[section], holder, key, section)
        item = holder[key]
        if section in ("procedures", "triggers") and isinstance(item, dict) and \
                isinstance(item.get("do"), list):
            block = self.add(f"{path}.do", None, at, "do", STEPS, item, "do", section)
            self.steps(item["do"], f"{path}.do", block, section)

    def steps(self, block: Any, path: str, up: int, section: str) -> None:
        if not isinstance(block, list):
            return
        for i, step in enumerate(block, start=1):
            here = self.add(f"{path}.{i}", _own_id(step), up, str(i), STEP, block, i - 1,
                            section)
            self.inside(step, f"{path}.{i}", here, section)

    def inside(self, step: Any, path: str, up: int, section: str) -> None:
        """The blocks of a step or of a decision's option."""
        if not isinstance(step, dict):
            return
        for key, value in step.items():
            if key in STEP_BLOCKS and isinstance(value, list):
                at = self.add(f"{path}.{key}", None, up, str(key), STEPS, step, key, section)
                self.steps(value, f"{path}.{key}", at, section)
            elif key == "options" and "choose" in step and isinstance(value, list):
                at = self.add(f"{path}.options", None, up, "options", CHOICES, step, key,
                              section)
                for i, tail in _item_names(value):
                    here = self.add(f"{path}.options.{tail}", _own_id(value[i]), at, tail,
                                    CHOICE, value, i, section)
                    self.inside(value[i], f"{path}.options.{tail}", here, section)
            elif key == "cases" and "match" in step and isinstance(value, dict):
                at = self.add(f"{path}.cases", None, up, "cases", CASES, step, key, section)
                for case, block in value.items():
                    if isinstance(block, list):
                        c = self.add(f"{path}.cases.{case}", None, at, str(case), STEPS,
                                     value, case, section)
                        self.steps(block, f"{path}.cases.{case}", c, section)


def _own_id(node: Any) -> str | None:
    ident = node.get("id") if isinstance(node, dict) else None
    return ident if isinstance(ident, str) and ident else None


def _item_names(items: list[Any]) -> Iterator[tuple[int, str]]:
    """(index, name in the path) for each item of a list: its id, or its position when it
    has none, repeats an earlier one or is a number."""
    seen: set[str] = set()
    for i, item in enumerate(items):
        name = item.get("id") if isinstance(item, dict) else None
        name = str(name) if isinstance(name, (str, int)) and not isinstance(name, bool) \
            else None
        if name is None or name in seen or name.isdigit() or not name:
            yield i, str(i + 1)
        else:
            seen.add(name)
            yield i, name


def parts(tree: Any) -> list[Part]:
    """Every addressable part of a ruleset tree, in the order of the file."""
    raw = _Walker().tree(tree)
    counts = Counter(r.ident for r in raw if r.ident is not None)
    taken: set[str] = {r.path for r in raw if r.up == -1}
    out: list[Part] = []
    for r in raw:
        if r.up == -1:
            address = r.tail
        elif r.ident is not None and counts[r.ident] == 1 and r.ident not in taken \
                and r.ident not in SECTIONS:
            address = r.ident
        else:
            address = f"{out[r.up].address}.{r.tail}"
        if address in taken and r.up != -1:
            address = r.path if r.path not in taken else f"{r.path}~{len(out)}"
        taken.add(address)
        out.append(Part(address, r.path, r.kind, r.parent, r.key, r.section))
    return out


class Addresses:
    """The parts of one tree, found by address (or by full path)."""

    def __init__(self, tree: Any) -> None:
        self.parts = parts(tree)
        self.by_address: dict[str, Part] = {p.address: p for p in self.parts}
        for p in self.parts:
            self.by_address.setdefault(p.path, p)

    def find(self, address: str) -> Part | None:
        return self.by_address.get(address)

    def names(self) -> list[str]:
        return [p.address for p in self.parts]


__all__ = ["CASES", "CHOICE", "CHOICES", "NAMED", "SECTIONS", "STEP", "STEPS", "Addresses",
           "Part", "definition_name", "parts"]
