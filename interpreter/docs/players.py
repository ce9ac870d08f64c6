"""The player-facing layer of a rulebook: the rules as a player reads them.

The exact rules (every effect in generated English) stay in the rulebook's reference
section. This layer says each effect in the designer's own words (`text`) where they
wrote them, and in generated English only where that reads as a player would say it:
it never names the engine's bookkeeping (local values, variables no player can see,
log messages). An effect that cannot be said without them is left to the exact rules,
and the section says so, so nothing is silently lost.
"""

from __future__ import annotations

import re
from typing import Any

from interpreter.compile.english import humanize, humanize_text
from interpreter.compile.expressions import ExpressionError, names_used, split_template
from interpreter.docs.figure import sentence
from interpreter.docs.text import md_escape
from interpreter.located import Expr, Name, Template
from interpreter.play.game import Game
from interpreter.primitives import Choose, Primitive
from interpreter.primitives.decisions import OptionDef
from interpreter.primitives.ending import Say
from interpreter.primitives.flow import Add, Call, ForEach, Let, Set
from interpreter.view.shown import shown_variables

_LOCAL = re.compile(r"(?<![\w*])\*[^*\s][^*]*\*(?!\*)")
"""A local value as the rulebook's describer writes it: in italics (`*origin*`)."""

LEFT_OUT = ("Some steps are given only in “The exact rules” at the end of this "
            "rulebook.")


def bookkeeping_variables(game: Game) -> set[str]:
    """The rules' own bookkeeping: every variable players are not shown (one answer for
    the rulebook, the terminal and the browser: `interpreter.view.shown`), that is,
    those no player ever sees and those the ruleset keeps off the table (`on_table:
    false`: public, but not something players track)."""
    shown = {v.id for v in shown_variables(game)}
    return {v.id for v in game.ruleset.variables if v.id not in shown}


def off_table_zones(game: Game) -> set[str]:
    """Places the players never see on the table (`on_table: false`: the box, a pile
    used only while setting up): the players' layer names none of them."""
    return {z.id for z in game.ruleset.zones if not z.on_table}


def unseen_names(game: Game) -> set[str]:
    """Every name the players' layer leaves to the exact rules: bookkeeping variables
    (as `bookkeeping_variables` decides) and places off the table."""
    return bookkeeping_variables(game) | off_table_zones(game)


def mentions(value: Any, names: set[str]) -> bool:
    """Whether an expression, template or name (or a list/dict of them) uses any name."""
    if not names or value is None:
        return False
    if isinstance(value, Name):
        return value.text in names
    if isinstance(value, Template):
        return any(names_used(part) & names for part in template_exprs(value.text))
    if isinstance(value, Expr):
        return bool(names_used(value.text) & names)
    if isinstance(value, dict):
        return any(mentions(k, names) or mentions(v, names) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(mentions(v, names) for v in value)
    return False


def template_exprs(text: str) -> list[str]:
    """The expressions inside a template's `{…}` parts."""
    try:
        return [part for is_expr, part, _ in split_template(text) if is_expr]
    except ExpressionError:
        return []


def own_fields(node: Any) -> list[Any]:
    """An effect's or option's own values: not its nested blocks, options or cases, nor
    the designer's words."""
    out = []
    for name in type(node).model_fields:
        value = getattr(node, name)
        if name == "text":
            continue
        if isinstance(value, list) and value and all(
                isinstance(v, Primitive | OptionDef) for v in value):
            continue
        if isinstance(value, dict) and value and all(
                isinstance(v, list) for v in value.values()):
            continue
        out.append(value)
    return out


def reads_poorly(line: str) -> bool:
    """A generated line that names a local value."""
    return bool(_LOCAL.search(line))


class PlayerRules:
    """Says blocks of effects for players, in Markdown with the ruleset's words escaped
    (the describer must be a MarkdownDescriber). `left_out` counts what was left to the
    exact rules, so a section can point there."""

    def __init__(self, game: Game, describer: Any) -> None:
        self.game = game
        self.d = describer
        self.hidden = unseen_names(game)
        self.off_table = off_table_zones(game)
        self.on_table = {z.id for z in game.ruleset.zones} - self.off_table
        self.left_out = 0
        self.called: list[str] = []
        """Procedures this layer points to ("see … below"), in order."""

    # -- blocks ------------------------------------------------------------------------

    def lines(self, effects: list[Primitive], depth: int = 0) -> list[str]:
        """Describer-style lines ("- text", nested by indent) for a block."""
        out: list[str] = []
        for e in effects:
            out.extend(self.effect(e, depth))
        return out

    def effect(self, e: Primitive, depth: int) -> list[str]:
        pad = self.d.indent * depth
        if isinstance(e, Let | Say) or (isinstance(e, Set | Add) and self._is_hidden(e)):
            return []  # bookkeeping, even where the designer put it in words
        if e.text:
            return [f"{pad}- {md_escape(e.text)}", *self._decisions_under(e, depth + 1)]
        if isinstance(e, Call):
            if e.call.text not in self.called:
                self.called.append(e.call.text)
            name = humanize(e.call.text).capitalize()
            return [f"{pad}- {name} (see “{name}” below)."]
        if isinstance(e, Choose):
            return self._choose(e, depth)
        children = e.children()
        if children and any(children):
            return self._compound(e, depth)
        fields = own_fields(e)
        if mentions(fields, self.off_table) and not mentions(fields, self.on_table):
            return []  # done off the table only (a pile used while setting up)
        said = [humanize_text(line) for line in e.english(self.d)]
        if any(reads_poorly(line) for line in said) or mentions(fields, self.hidden):
            self.left_out += 1
            return []
        return [f"{pad}- {said[0]}", *(pad + self.d.indent + "- " + s for s in said[1:])]

    def _is_hidden(self, e: Set | Add) -> bool:
        target = e.set if isinstance(e, Set) else e.add
        return target.text in self.hidden

    def _compound(self, e: Primitive, depth: int) -> list[str]:
        """An effect with nested blocks (if, repeat, for each …): said with its nested
        blocks in player words, unless its own words need bookkeeping."""
        if mentions(own_fields(e), self.hidden):
            return []  # the engine's bookkeeping: nothing a player keeps track of
        probe = _Probe(self.d)
        heads = [humanize_text(line) for line in e.english(probe)]
        if any(reads_poorly(h) for h in heads if h != _Probe.MARK):
            if not isinstance(e, ForEach):  # a loop's texts say whom it is for
                self.left_out += 1
            return self._worded(e.children(), depth)
        blocks = iter(e.children())
        out: list[str] = []
        pad = self.d.indent * depth
        for head in heads:
            if head == _Probe.MARK:
                out.extend(self.lines(next(blocks), depth + 1))
            else:
                out.append(f"{pad}- {head}")
        if not any(line.startswith(pad + self.d.indent) for line in out):
            return []  # nothing a player does or sees is left inside
        return out

    def _worded(self, blocks: list[list[Primitive]], depth: int) -> list[str]:
        """What the designer put in words inside an effect that reads poorly itself (a
        loop over local values): their sentences stand on their own."""
        out: list[str] = []
        for block in blocks:
            for child in block:
                if child.text:
                    out.extend(self.effect(child, depth))
                elif child.children():
                    out.extend(self._worded(child.children(), depth))
                elif not (isinstance(child, Let | Say)
                          or (isinstance(child, Set | Add) and self._is_hidden(child))):
                    self.left_out += 1
        return out

    def _choose(self, e: Choose, depth: int) -> list[str]:
        pad = self.d.indent * depth
        who = (self.d.expr(e.seats) if e.seats is not None else
               self.d.expr(e.seat) if e.seat is not None else "the current player")
        if reads_poorly(who):
            who = "the deciding player"
        head = (f"{who} choose, each in secret, one of these:" if e.seats is not None
                else f"{who} chooses one of these:")
        out = [f"{pad}- {head[:1].upper()}{head[1:]}"]
        out += [f"{pad}{self.d.indent}- {self.option(o)}" for o in e.options]
        if e.if_none:
            inner = self.lines(e.if_none, depth + 2)
            if inner:
                out += [f"{pad}{self.d.indent}- If none of them is possible:", *inner]
        return out

    def option(self, o: OptionDef) -> str:
        """An option in a player's words: the designer's text, else its name."""
        if o.text:
            return md_escape(" ".join(o.text.split()))
        return sentence(md_escape(humanize(o.id).capitalize()))

    def _decisions_under(self, e: Primitive, depth: int) -> list[str]:
        """The options of the decisions inside an effect the designer summed up in words:
        a player still needs the list of what they may choose, where the designer said
        what each option does (an option's bare name, "Keep.", adds nothing to the
        summary)."""
        out: list[str] = []
        pad = self.d.indent * depth
        for block in e.children():
            for child in block:
                if isinstance(child, Choose) and not child.text:
                    out += [f"{pad}- {self.option(o)}" for o in child.options if o.text]
                elif not child.text:
                    out += self._decisions_under(child, depth)
        return out


class _Probe:
    """A describer stand-in that says a nested block as one marker line, so a compound
    effect's own lines (its condition, its loop) can be read apart from its blocks."""

    MARK = "\0block"

    def __init__(self, d: Any) -> None:
        self._d = d

    def block(self, effects: list[Primitive]) -> list[str]:
        return [self.MARK]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._d, name)


__all__ = ["LEFT_OUT", "PlayerRules", "bookkeeping_variables", "mentions", "off_table_zones",
           "own_fields", "reads_poorly", "template_exprs", "unseen_names"]
