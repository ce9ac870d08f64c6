"""Describer: turns primitives and expressions into rulebook English.

Primitives call back into a Describer for the parts they contain, so each primitive
owns its sentence while expressions and nested blocks are rendered in one place.
Expressions are translated from their syntax tree: each built-in function carries its
own English pattern, definitions read as their names, and operators as words.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from interpreter.compile.expressions import ExpressionError, parse, split_template
from interpreter.compile.functions import DIRECTION_NAMES, FUNCTIONS
from interpreter.load.located import Expr, Name, Template

if TYPE_CHECKING:
    from interpreter.primitives.base import Primitive
    from interpreter.primitives.decisions import OptionDef

_COMPARE = {ast.Eq: "is", ast.NotEq: "is not", ast.Lt: "is less than",
            ast.LtE: "is at most", ast.Gt: "is more than", ast.GtE: "is at least",
            ast.In: "is one of", ast.NotIn: "is not one of"}
_ARITH = {ast.Add: "plus", ast.Sub: "minus", ast.Mult: "times", ast.FloorDiv: "divided by",
          ast.Div: "divided by", ast.Mod: "modulo"}
_NAMES = {"current": "the current player", "players": "the number of players",
          "seats": "the players", "turn": "the turn number", "directions":
          "the eight directions", "orthogonal": "the four orthogonal directions",
          "diagonal": "the four diagonal directions", "chooser": "the deciding player",
          "seat": "the player", "null": "nothing", "none": "nothing", "true": "yes",
          "false": "no"}


def humanize(identifier: str) -> str:
    """`power_played` → `power played` (how a designer's name reads in a sentence)."""
    return identifier.replace("_", " ").strip()


def join_words(items: list[str], last: str = "and") -> str:
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


class ExpressionEnglish:
    """English for one expression tree; names are looked up in a glossary first."""

    def __init__(self, glossary: Mapping[str, str] | None = None,
                 value_names: Mapping[Any, str] | None = None) -> None:
        self.glossary = dict(glossary or {})
        self.value_names = dict(value_names or {})

    def text(self, source: str) -> str:
        try:
            return self.node(parse(source))
        except ExpressionError:
            return humanize(source)

    def node(self, n: ast.AST) -> str:
        method = getattr(self, "n_" + type(n).__name__, None)
        if method is None:
            return "(an unsupported expression)"
        return method(n)

    def n_Constant(self, n: ast.Constant) -> str:
        v = n.value
        if v is None:
            return "nothing"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, str):
            return self.value_names.get(v, DIRECTION_NAMES.get(v, v))
        return self.value_names.get(v, str(v))

    def n_Name(self, n: ast.Name) -> str:
        if n.id in self.glossary:
            return self.glossary[n.id]
        if n.id in _NAMES:
            return _NAMES[n.id]
        return self.value_names.get(n.id, humanize(n.id))

    def n_BoolOp(self, n: ast.BoolOp) -> str:
        word = "and" if isinstance(n.op, ast.And) else "or"
        return join_words([self.node(v) for v in n.values], word)

    def n_UnaryOp(self, n: ast.UnaryOp) -> str:
        inner = self.node(n.operand)
        if isinstance(n.op, ast.Not):
            return f"not ({inner})" if " " in inner else f"not {inner}"
        if isinstance(n.op, ast.USub):
            return f"minus {inner}"
        return inner

    def n_BinOp(self, n: ast.BinOp) -> str:
        word = _ARITH.get(type(n.op), "combined with")
        return f"{self.node(n.left)} {word} {self.node(n.right)}"

    def n_Compare(self, n: ast.Compare) -> str:
        parts = [self.node(n.left)]
        for op, right in zip(n.ops, n.comparators, strict=True):
            if isinstance(right, ast.Constant) and right.value is None:
                parts.append("is nothing" if isinstance(op, ast.Eq) else "is something")
                continue
            parts.append(f"{_COMPARE.get(type(op), 'compares to')} {self.node(right)}")
        return " ".join(parts)

    def n_IfExp(self, n: ast.IfExp) -> str:
        return f"{self.node(n.body)} if {self.node(n.test)}, otherwise {self.node(n.orelse)}"

    def n_List(self, n: ast.List | ast.Tuple) -> str:
        return join_words([self.node(e) for e in n.elts])

    n_Tuple = n_List

    def n_Attribute(self, n: ast.Attribute) -> str:
        return f"the {humanize(n.attr)} of {self.node(n.value)}"

    def n_Subscript(self, n: ast.Subscript) -> str:
        return f"{self.node(n.value)} of {self.node(n.slice)}"

    def n_Call(self, n: ast.Call) -> str:
        name = n.func.id if isinstance(n.func, ast.Name) else "?"
        args = [self.node(a) for a in n.args]
        if name in self.glossary:
            pattern = self.glossary[name]
            try:
                return pattern.format(*args)
            except (IndexError, KeyError):
                return f"{pattern} ({', '.join(args)})"
        fn = FUNCTIONS.get(name)
        if fn is None:
            return f"{humanize(name)} of {join_words(args)}" if args else humanize(name)
        if isinstance(n.args[0] if n.args else None, ast.Constant) and name == "place":
            return str(n.args[0].value)  # type: ignore[union-attr]
        padded = args + [""] * (3 - len(args))
        if name == "offset" and len(args) == 2:
            padded[2] = "1"
        return fn.english.format(*padded).replace("  ", " ").strip()

    def _comprehension(self, n: ast.GeneratorExp | ast.ListComp) -> str:
        loops = []
        for g in n.generators:
            target = self.node(g.target)
            clause = f"each {target} in {self.node(g.iter)}"
            if g.ifs:
                clause += " such that " + join_words([self.node(c) for c in g.ifs])
            loops.append(clause)
        return f"{self.node(n.elt)}, for {', and '.join(loops)}"

    def n_GeneratorExp(self, n: ast.GeneratorExp) -> str:
        return self._comprehension(n)

    def n_ListComp(self, n: ast.ListComp) -> str:
        return f"[{self._comprehension(n)}]"


class Describer:
    """Plain-text rendering; the rulebook generator may subclass it for richer output."""

    indent = "  "

    def __init__(self, glossary: Mapping[str, str] | None = None,
                 value_names: Mapping[Any, str] | None = None) -> None:
        self.english = ExpressionEnglish(glossary, value_names)

    def expr(self, e: Expr | None) -> str:
        return "nothing" if e is None else self.english.text(e.text)

    def cond(self, e: Expr, negate: bool = False) -> str:
        said = self.english.text(e.text)
        return f"not ({said})" if negate else said

    def text(self, t: Template) -> str:
        out = []
        try:
            for is_expr, part, _ in split_template(t.text):
                out.append(self.english.text(part) if is_expr else part)
        except ExpressionError:
            return t.text
        return "".join(out)

    def var(self, n: Name) -> str:
        return humanize(n.text)

    def proc(self, n: Name) -> str:
        return humanize(n.text)

    def block(self, effects: list[Primitive]) -> list[str]:
        out: list[str] = []
        for e in effects:
            out.extend(self.indent + line for line in e.english(self))
        return out

    def option(self, o: OptionDef) -> list[str]:
        if o.text:
            return [f"{self.indent}- {o.text}"]
        head = f"{self.indent}- {humanize(o.id).capitalize()}"
        if o.for_:
            head += ", for each " + ", ".join(
                f"{humanize(k)} in {self.expr(v)}" for k, v in o.for_.items())
        if o.where is not None:
            head += f", where {self.cond(o.where)}"
        return [head + ":", *(self.indent + line for line in self.block(o.do))]
