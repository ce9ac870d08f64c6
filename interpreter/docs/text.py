"""A ruleset's words in the rulebooks: shown as the words they are, never as markup.

A ruleset is written by anyone, and its texts (a title, a zone's label, a `say`, an
end's text ...) reach pages that people open in a browser: the Markdown of the rules
site, the print HTML, the pictures. Markdown passes HTML through and turns `[x](url)`
into a link, so a text must be escaped for each output it goes into:

- ``md_escape`` makes text Markdown that reads as exactly that text: `<`, `>` and `&` as
  entities, the characters that start links, images, emphasis, code and table cells
  behind a backslash, a leading `#`, `-`, `+` or `1.` kept from starting a heading or a
  list, and line breaks as spaces (a text is one run of words: it never starts a block);
- ``Md`` marks Markdown the rulebook generator wrote itself (a list of rules, a term in
  bold). Anything else put into an ``Md`` (``+``, ``format``, ``join``) is escaped, and
  the Markdown templates escape every value that is not an ``Md`` (see
  ``interpreter.docs.build.environment``), so a template cannot forget;
- ``md_code`` puts text into a code span that no backtick in it can close.

Builders keep their Markdown as plain ``str`` while they assemble it (``str + Md`` would
escape the ``str``) and mark it ``Md`` once it is whole.

Rulebook texts are plain text: a designer's `*` or `[` shows as itself (the README says
so), which keeps the rulebook what the ruleset says, in every output alike.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup

_BREAKS = re.compile(r"\s*[\r\n\u2028\u2029]+\s*")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_ACTIVE = re.compile(r"([\\`*\[\]{}|])")
"""Characters that start Markdown inline syntax (code, emphasis, links and images,
attribute lists) or end a table's cell."""
_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
"""An underscore that could open or close emphasis (one inside a word cannot)."""
_LEADING = re.compile(r"^(\s*)(?:([#+\-])|(\d+)([.)])(?=\s|$)|(=))")
"""What starts a block when it begins a line: a heading, a list item, a setext rule."""


def md_escape(text: Any, start: bool = True) -> str:
    """`text` as Markdown that shows exactly that text, on one line; `start`: it may
    begin a line (False for words that follow others on theirs)."""
    text = _CONTROL.sub("", _BREAKS.sub(" ", str(text)))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _ACTIVE.sub(r"\\\1", text)
    text = _UNDERSCORE.sub(r"\\_", text)
    return _LEADING.sub(_leading, text, count=1) if start else text


def _leading(m: re.Match[str]) -> str:
    space, mark, number, dot, rule = m.groups()
    if mark:
        return f"{space}\\{mark}"
    if number:
        return f"{space}{number}\\{dot}" if dot == "." else f"{space}{number}&#41;"
    return f"{space}&#61;" if rule else m.group(0)


class Md(Markup):
    """Markdown the rulebook generator wrote: it goes into a page as it is. Text joined
    to it (``+``, ``format``, ``join``, ``%``) is escaped with ``md_escape``, so a
    designer's words inside generated Markdown stay words. Like Jinja's ``Markup`` (a
    macro's output, ``| safe``), which a template's author wrote, it is trusted."""

    __slots__ = ()

    @classmethod
    def escape(cls, s: Any, /) -> Md:
        if isinstance(s, Md):
            return s
        if hasattr(s, "__html__"):  # a template's macro, or `| safe`: its author's own
            return cls(s.__html__())
        return cls(md_escape(s))


def md(text: Any) -> Md:
    """Text (or already generated Markdown) as Markdown."""
    return Md.escape(text)


def md_code(text: Any) -> str:
    """`text` in a code span: fenced by more backticks than it holds in a row."""
    text = _CONTROL.sub("", _BREAKS.sub(" ", str(text)))
    runs = [len(r) for r in re.findall(r"`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def as_markdown(value: Any) -> Any:
    """Every text in a structure of lists and dicts marked as generated Markdown (for
    values the generator built with ``md_escape`` around each of the ruleset's words)."""
    if isinstance(value, str):
        return value if isinstance(value, Md) else Md(value)
    if isinstance(value, list):
        return [as_markdown(v) for v in value]
    if isinstance(value, tuple):
        return tuple(as_markdown(v) for v in value)
    if isinstance(value, dict):
        return {k: as_markdown(v) for k, v in value.items()}
    return value


__all__ = ["Md", "as_markdown", "md", "md_code", "md_escape"]
