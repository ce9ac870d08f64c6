"""The rulebook's Describer: the rules' English as Markdown, the ruleset's words escaped.

The Describer (``interpreter.compile.english``) writes plain English, and with
``emphasis`` puts local names in italics. Into that English it puts the ruleset's own
words: zone and option labels, value names, a definition's `says`, the literal parts of
a template (a `say`, a prompt, an end's reason), text constants, a designer's `text`.
Here each of them is escaped as it goes in (``md_escape``), so what comes out is
Markdown whose only markup is the Describer's own, and can be marked ``Md``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Any

from interpreter.compile.english import (
    Describer,
    ExpressionEnglish,
    Phrase,
    humanize,
    humanize_text,
)
from interpreter.compile.expressions import ExpressionError, parse, split_template
from interpreter.compile.functions import DIRECTION_NAMES
from interpreter.docs.text import md_escape
from interpreter.located import Expr, Template
from interpreter.primitives import Primitive
from interpreter.primitives.decisions import OptionDef


def _escaped_phrase(phrase: str) -> str:
    """A glossary phrase escaped; a definition's `says` keeps its parameters' places."""
    if not isinstance(phrase, Phrase):
        return md_escape(phrase)
    out = Phrase(md_escape(phrase))
    out.parts = tuple(md_escape(p) if isinstance(p, str) else p for p in phrase.parts)
    return out


class MarkdownEnglish(ExpressionEnglish):
    """Expression English whose every word from the ruleset is escaped Markdown."""

    def __init__(self, glossary: Mapping[str, str] | None = None,
                 value_names: Mapping[Any, str] | None = None, *,
                 attribute_names: Mapping[str, Mapping[Any, str]] | None = None,
                 **options: Any) -> None:
        super().__init__(
            {k: _escaped_phrase(v) for k, v in (glossary or {}).items()},
            {k: md_escape(v) for k, v in (value_names or {}).items()},
            attribute_names={a: {k: md_escape(v) for k, v in names.items()}
                             for a, names in (attribute_names or {}).items()},
            **options)

    def text(self, source: str) -> str:
        try:
            return self.node(parse(source))
        except ExpressionError:
            return md_escape(humanize(source))

    def value(self, v: Any, attribute: str | None = None) -> str:
        named = ((attribute is not None and v in self.attribute_names.get(attribute, {}))
                 or v in self.value_names or v in DIRECTION_NAMES)
        if isinstance(v, str) and not named:
            return v if re.fullmatch(r"[A-Za-z0-9]+", v) else f"“{md_escape(humanize(v))}”"
        return super().value(v, attribute)

    def n_Call(self, n: ast.Call) -> str:
        if (isinstance(n.func, ast.Name) and n.func.id == "place" and n.args
                and isinstance(n.args[0], ast.Constant)):
            return md_escape(n.args[0].value)  # a place named by a text constant
        return super().n_Call(n)


class MarkdownDescriber(Describer):
    """The Describer for Markdown pages: the ruleset's words escaped, local names in
    italics."""

    def __init__(self, glossary: Mapping[str, str] | None = None,
                 value_names: Mapping[Any, str] | None = None, **options: Any) -> None:
        super().__init__(glossary, value_names, **options)
        self.english = MarkdownEnglish(glossary, value_names, **options)

    def cond(self, e: Expr, negate: bool = False) -> str:
        if not negate:
            return self.english.text(e.text)
        try:
            return self.english.negate(parse(e.text))
        except ExpressionError:
            return f"not {md_escape(humanize(e.text))}"

    def text(self, t: Template | str, placeholders: bool = False) -> str:
        """As `Describer.text`, with the template's own words escaped."""
        source = t.text if isinstance(t, Template) else t
        out = []
        try:
            for is_expr, part, _ in split_template(source):
                if not is_expr:
                    out.append(md_escape(part, start=not out))
                    continue
                said = self.english.text(part)
                out.append(f"‹{said}›" if placeholders else said)
        except ExpressionError:
            return md_escape(humanize_text(source))
        said = re.sub(r"\b([Tt]he) the\b", r"\1", " ".join("".join(out).split()))
        return re.sub(r"\b([Tt]he) ‹the\b", r"‹\1", said)

    def block(self, effects: list[Primitive]) -> list[str]:
        out: list[str] = []
        for e in effects:
            lines = [humanize_text(line) for line in e.english(self)]
            if e.text:
                # The designer's words first; the exact rule stays right under them.
                lines = [md_escape(" ".join(e.text.split())),
                         *(self.indent + line for line in self.exactly(lines))]
            out.extend(self.indent + line for line in lines)
        return out

    def option_head(self, o: OptionDef) -> str:
        head = super().option_head(o)
        words = humanize(o.id).capitalize()  # an option's id may be any text
        return md_escape(words) + head[len(words):]

    def option(self, o: OptionDef) -> list[str]:
        if o.text:
            return [f"{self.indent}- {md_escape(' '.join(o.text.split()))}"]
        return super().option(o)


__all__ = ["MarkdownDescriber", "MarkdownEnglish"]
