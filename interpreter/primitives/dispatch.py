"""Choosing effects by value: match (effect tables keyed by a colour, a size, a kind ...)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from interpreter.located import Expr
from interpreter.primitives.base import Primitive

if TYPE_CHECKING:
    from interpreter.compile.english import Describer
    from interpreter.compile.program import ProgramBuilder
    from interpreter.primitives import Block
    from interpreter.run.machine import Machine

_ENDS_WITH_ATTRIBUTE = re.compile(r"\.\s*([A-Za-z_][A-Za-z0-9_]*)\s*$")


class Match(Primitive):
    """Do the block listed under the value of an expression (a table of effects).

    ``cases`` maps values to blocks; a value with no entry runs ``default``. An empty
    block means nothing happens for that value.
    """

    keyword: ClassVar[str] = "match"
    summary: ClassVar[str] = "Do the block listed under the value of an expression."
    match: Expr = Field(description="the value to look up, e.g. upper.colour")
    cases: dict[int | str, Block] = Field(description="value: effects for that value")
    default: Block = Field(default_factory=list,
                           description="effects for any other value (default: nothing)")

    def children(self) -> list[list[Primitive]]:
        return [*self.cases.values(), self.default]

    def compile(self, b: ProgramBuilder) -> None:
        value_of = b.expr(self.match)
        self._check_values(b)
        labels = {key: b.label() for key in self.cases}
        default, end = b.label(), b.label()

        def run(m: Machine) -> int:
            value = value_of(m.env)
            try:
                label = labels.get(value, default)
            except TypeError:  # an unhashable value (a list) matches no case
                label = default
            return label.pc
        b.emit(run)
        for key, block in self.cases.items():
            b.mark(labels[key])
            b.block(block)
            b.emit_jump(end)
        b.mark(default)
        b.block(self.default)
        b.mark(end)

    def _check_values(self, b: ProgramBuilder) -> None:
        """`x.attr` can only give values some piece has: flag cases no piece can match."""
        found = _ENDS_WITH_ATTRIBUTE.search(self.match.text)
        if not found:
            return
        table = b.base_scope.attributes.get(found.group(1))
        if table is None:
            return
        possible = {v for v in table if v is not None}
        for key in self.cases:
            if key not in possible:
                b.error(f"match: no piece has {found.group(1)} '{key}'", self.loc,
                        b.hint(str(key), [str(v) for v in possible]),
                        "one of: " + ", ".join(str(v) for v in sorted(possible, key=str)))

    def english(self, d: Describer) -> list[str]:
        out = [f"Depending on {d.expr(self.match)}:"]
        names = getattr(getattr(d, "english", None), "value_names", {})
        for key, block in self.cases.items():
            empty = "" if block else " nothing happens."
            out.append(f"{d.indent}- {names.get(key, key)}:{empty}")
            out.extend(d.indent + line for line in d.block(block))
        out.append(f"{d.indent}- anything else:" + ("" if self.default else " nothing happens."))
        out.extend(d.indent + line for line in d.block(self.default))
        return out

