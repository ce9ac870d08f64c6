"""Describer: turns primitives and expressions into rulebook English.

Primitives call back into a Describer for the parts they contain, so each primitive
owns its sentence while expressions and nested blocks are rendered in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.load.located import Expr, Name, Template

if TYPE_CHECKING:
    from interpreter.primitives.base import Primitive
    from interpreter.primitives.decisions import OptionDef


class Describer:
    """Plain-text rendering; the rulebook generator may subclass it for richer output."""

    indent = "  "

    def expr(self, e: Expr | None) -> str:
        return "nothing" if e is None else f"`{e.text}`"

    def cond(self, e: Expr, negate: bool = False) -> str:
        return f"not `{e.text}`" if negate else f"`{e.text}`"

    def text(self, t: Template) -> str:
        return t.text

    def var(self, n: Name) -> str:
        return f"*{n.text}*"

    def proc(self, n: Name) -> str:
        return n.text.replace("_", " ")

    def block(self, effects: list[Primitive]) -> list[str]:
        out: list[str] = []
        for e in effects:
            out.extend(self.indent + line for line in e.english(self))
        return out

    def option(self, o: OptionDef) -> list[str]:
        if o.text:
            return [f"{self.indent}- {o.text}"]
        head = f"{self.indent}- **{o.id.replace('_', ' ')}**"
        if o.for_:
            head += " for each " + ", ".join(f"*{k}* in {self.expr(v)}" for k, v in o.for_.items())
        if o.where is not None:
            head += f" where {self.cond(o.where)}"
        return [head + ":", *(self.indent + line for line in self.block(o.do))]
