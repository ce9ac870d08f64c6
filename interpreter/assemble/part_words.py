"""One line of English for each addressable part (`tabletop parts`, a variant's page).

The words are the rulebook's: a step as the Describer says it (its designer's `text:`
first, where it has one), an option by its label, an end rule or a ruling by its text, a
definition by the words of its value. A part the rules have no sentence for (a block, a
budget) is said by what it holds. Parts are matched to the compiled game's items by the
position they were written at, so a variant's parts read in the variant's own words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from interpreter.assemble.describer import describer_for
from interpreter.compile.english import Describer, humanize
from interpreter.compile.functions import DIRECTION_NAMES
from interpreter.errors import Location
from interpreter.load.parts import CASES, CHOICE, CHOICES, STEP, STEPS, Part
from interpreter.load.schema import Definition
from interpreter.located import Expr
from interpreter.play.game import Game
from interpreter.primitives import Choose, Primitive
from interpreter.primitives.decisions import OptionDef

WIDTH = 110
"""Longest line (a longer sentence is cut with an ellipsis)."""

SECTION_WORDS = {
    "options": "the game's options", "pieces": "the components", "attributes":
    "the pieces' attributes", "sets": "the sets of pieces", "zones": "the places",
    "variables": "what the game keeps track of", "define": "the terms",
    "procedures": "the procedures", "triggers": "the rules that fire (“whenever”)",
    "first_seat": "who plays first", "setup": "the set-up", "turn": "a turn",
    "end": "how the game ends", "rank": "the ranking", "scores": "the score",
    "budgets": "the limits on the computer's work", "rulings": "the rulings",
    "rulebook": "how the rulebook presents the game", "computer_players":
    "the computer players' settings",
}


def one_line(text: str) -> str:
    said = " ".join(str(text).split()).removeprefix("- ")
    return said if len(said) <= WIDTH else said[:WIDTH - 1].rstrip() + "…"


class PartWords:
    """The English of a compiled game's parts, found by where they were written."""

    def __init__(self, game: Game, describer: Describer | None = None) -> None:
        self.game = game
        self.d = describer or describer_for(game)
        # As in the rulebook, a bare name is the rules' own (a step's `s` is a player it
        # names, never "south"): directions are said where written as directions.
        self.d.english.bound |= set(DIRECTION_NAMES)
        self.by_loc: dict[Location, Any] = {}
        rs = game.ruleset
        blocks = [rs.setup, rs.turn, *(p.do for p in rs.procedures),
                  *(t.do for t in rs.triggers)]
        for block in blocks:
            for thing in _things(block):
                if thing.loc is not None:
                    self.by_loc.setdefault(thing.loc, thing)

    def model(self, node: Any) -> Any:
        loc = getattr(node, "loc", None)
        return self.by_loc.get(loc) if loc is not None else None

    def say(self, part: Part) -> str:
        """The part in one line."""
        try:
            said = self._say(part)
        except Exception:  # a sentence the describer cannot make: say the YAML
            said = None
        return one_line(said or yaml_words(part.node))

    def lines(self, part: Part) -> list[str]:
        """The part in full (the rulebook's sentences; the YAML where there are none)."""
        found = self.model(part.node)
        if isinstance(found, Primitive):
            return [line.rstrip() for line in self.d.sentences([found])]
        if isinstance(found, OptionDef):
            return [line.rstrip() for line in self.d.sentences([]) + self.d.option(found)]
        if part.kind == STEPS and isinstance(part.node, list):
            effects = [self.model(n) for n in part.node]
            if all(isinstance(e, Primitive) for e in effects):
                return [line.rstrip() for line in self.d.sentences(effects)] or ["no steps"]
        return [self.say(part)]

    def _say(self, part: Part) -> str | None:
        node, kind = part.node, part.kind
        found = self.model(node)
        if kind == STEP and isinstance(found, Primitive):
            lines = self.d.block([found])
            return lines[0] if lines else humanize(found.keyword)
        if kind == CHOICE and isinstance(found, OptionDef):
            return " ".join(found.text.split()) if found.text else self.d.option_head(found)
        if kind in (STEPS, CHOICES, CASES):
            return _count(node, {STEPS: "step", CHOICES: "option", CASES: "case"}[kind])
        if kind == "section":
            what = SECTION_WORDS.get(part.section, humanize(part.section))
            if part.section in ("first_seat", "scores"):
                return f"{what}: {self.d.english.text(str(node))}"
            if isinstance(node, (list, dict)):
                return f"{what} ({_count(node, 'item')})"
            return what
        return self._item(part)

    def _item(self, part: Part) -> str | None:
        node, rs = part.node, self.game.ruleset
        name = part.address.split(".", 1)[1] if "." in part.address else part.address
        if part.kind == "ranking key":
            return f"rank by {self.d.superlative(Expr(str(node)))}"
        if part.kind == "definition":
            body = rs.define.get(str(part.key))
            if isinstance(body, Definition):
                # A parameter marked as the words that change ("a ‹a› card", not "a a card").
                return f"{humanize(name)}: " + re.sub(r"\{(\w+)\}", r"‹\1›", body.says)
            return f"{humanize(name)}: {self.d.english.text(str(node))}"
        if not isinstance(node, dict):
            return None
        if part.kind == "option":
            return f"{node.get('label', name)}: {node.get('description', '')}"
        if part.kind == "attribute":
            values = node.get("values") or []
            names = node.get("names") or {}
            return f"{humanize(name)}: " + ", ".join(str(names.get(v, v)) for v in values)
        if part.kind == "piece set":
            count = self.d.english.text(str(node.get("count", 1)))
            return f"{node.get('label') or humanize(name)}: {count} × ({_each(node)}), " \
                   f"starting in {node.get('start')}"
        if part.kind == "zone":
            label = node.get("label") or humanize(name)
            return f"{label}: {node.get('kind')}" + (
                f" — {node['description']}" if node.get("description") else "")
        if part.kind == "variable":
            return f"{humanize(name)}: " + str(node.get("description") or
                                               f"starts at {node.get('initial', 0)}")
        if part.kind in ("procedure", "trigger"):
            if node.get("text"):
                return f"{humanize(name)}: {node['text']}"
            if part.kind == "trigger":
                return f"whenever a piece enters {node.get('enters')}"
            return f"the procedure {humanize(name)}"
        if part.kind == "end rule":
            return str(node.get("text") or f"the game ends when "
                       f"{self.d.english.text(str(node.get('when', '')))}")
        if part.kind == "ruling":
            return str(node.get("text", ""))
        return None


def _things(block: list[Primitive]) -> Iterator[Any]:
    """Every effect of a block, and every option of its decisions, nested ones too."""
    for e in block:
        yield e
        if isinstance(e, Choose):
            for o in e.options:
                yield o
                yield from _things(o.do)
            yield from _things(e.if_none)
            continue
        for child in e.children():
            yield from _things(child)


def _count(node: Any, noun: str) -> str:
    n = len(node) if isinstance(node, (list, dict)) else 0
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _each(node: dict[str, Any]) -> str:
    each = node.get("each") or {}
    if not isinstance(each, dict) or not each:
        return "1 piece"
    return " × ".join(f"{len(v) if isinstance(v, list) else 1} {k}" for k, v in each.items())


def yaml_words(node: Any) -> str:
    """A short description of a value as written: the YAML on one line."""
    if isinstance(node, dict):
        inner = ", ".join(f"{k}: {yaml_words(v)}" for k, v in node.items())
        return "{" + inner + "}"
    if isinstance(node, list):
        return "[" + ", ".join(yaml_words(v) for v in node) + "]"
    return re.sub(r"\s+", " ", str(node))


__all__ = ["PartWords", "one_line", "yaml_words"]
