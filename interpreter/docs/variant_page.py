"""A variant's rulebook page: only its differences from the base, in words.

Each change the variant makes (its `VariantInfo.changes`) becomes one sentence under
Added, Removed or Changed, said with the same English as the rulebooks: a designer's
`text:` where there is one, else the generated sentence of the compiled rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.compile.english import describer_for, humanize
from interpreter.compile.game import Game, compile_game
from interpreter.compile.program import collect_effects
from interpreter.docs.rulebook import RulebookDescriber, markdown_list
from interpreter.load.loader import LoadedRuleset
from interpreter.load.variants import Change

NOUNS = {"options": "option", "attributes": "piece attribute", "sets": "pieces",
         "zones": "place", "variables": "thing to keep track of", "define": "term",
         "procedures": "procedure", "triggers": "trigger", "end": "way the game ends",
         "rulings": "ruling"}


@dataclass
class VariantPage:
    """What a variant's page says (the template's context)."""

    name: str
    title: str
    summary: str
    base_name: str
    base_title: str
    seats: str
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)


def _words(text: Any) -> str:
    return " ".join(str(text).split())


def _cap(text: str) -> str:
    """Upper-case first letter, the rest as written (str.capitalize lowers names)."""
    return text[:1].upper() + text[1:]


def _end(text: str) -> str:
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def _item(game: Game, part: str, ident: str) -> Any:
    rs = game.ruleset
    items = {"options": rs.options, "sets": rs.pieces.sets, "zones": rs.zones,
             "variables": rs.variables, "procedures": rs.procedures,
             "triggers": rs.triggers, "end": rs.end, "rulings": rs.rulings}.get(part, [])
    return next((x for x in items if getattr(x, "id", None) == ident), None)


def _say_item(game: Game, d: RulebookDescriber, part: str, ident: str) -> str:
    """An item of a part, as the rulebook says it."""
    item = _item(game, part, ident)
    name = humanize(ident.replace("-", " "))
    if item is None:
        return f"the {NOUNS[part]} *{name}*"
    if part == "rulings":
        return f"the ruling *{name}*: {_words(item.text)}"
    if part == "end":
        said = _words(item.text) if item.text else "the game ends when " + d.cond(item.when)
        return f"the end of the game *{name}*: {said}"
    if part == "options":
        return f"the option *{item.label}* ({_words(item.description)})"
    if part in ("procedures", "triggers"):
        rules = " ".join(line.strip().removeprefix("- ") for line in d.sentences(item.do))
        return f"the {NOUNS[part]} *{name}*: {_words(item.text) if item.text else rules}"
    if part == "sets":
        count = game.sets_count(ident) if hasattr(game, "sets_count") else None
        return f"the pieces *{item.label or name}*" + (f" ({count})" if count else "")
    return f"the {NOUNS[part]} *{name}*"


def _effects(game: Game, d: RulebookDescriber, ident: str | None, locs: list[Any]
             ) -> str:
    rs = game.ruleset
    blocks = [rs.setup, rs.turn, *(p.do for p in rs.procedures), *(t.do for t in rs.triggers)]
    every = collect_effects(blocks)
    if ident is not None:
        found = [e for e in every if e.id == ident]
    else:
        found = [e for e in every if e.loc in locs]
    lines = d.sentences(found)
    return " ".join(line.strip().removeprefix("- ") for line in lines) or "nothing"


def _where(game: Game, ident: str) -> str:
    rs = game.ruleset
    for label, block in (("the set-up", rs.setup), ("a turn", rs.turn),
                         *((f"*{humanize(p.id)}*", p.do) for p in rs.procedures),
                         *((f"*{humanize(t.id)}*", t.do) for t in rs.triggers)):
        if any(e.id == ident for e in collect_effects([block])):
            return label
    return "the rules"


def _sentence(c: Change, base: Game, game: Game, bd: RulebookDescriber,
              d: RulebookDescriber, base_title: str) -> tuple[str, str] | None:
    """(heading, sentence) for one change."""
    if c.kind == "game":
        return None
    if c.kind == "add":
        return "added", _end(_cap(_say_item(game, d, c.part, c.id)))
    if c.kind == "remove":
        return "removed", _end(_cap(_say_item(base, bd, c.part, c.id)))
    if c.kind in ("replace", "change"):
        if c.part == "options" and c.kind == "change" and isinstance(c.new, dict):
            old, new = _item(base, "options", c.id), _item(game, "options", c.id)
            label = new.label if new is not None else humanize(c.id)
            parts = []
            for key in c.new:
                was, now = getattr(old, key, None), getattr(new, key, None)
                if key == "default" and isinstance(now, bool):
                    parts.append(f"{'on' if now else 'off'} unless chosen otherwise "
                                 f"(in {base_title}: {'on' if was else 'off'})")
                else:
                    parts.append(f"its {key} is {_words(now)} (in {base_title}: "
                                 f"{_words(was)})")
            return "changed", f"The option *{label}*: " + "; ".join(parts) + "."
        now = _say_item(game, d, c.part, c.id)
        was = _say_item(base, bd, c.part, c.id)
        was = was.split(": ", 1)[-1]
        return "changed", (f"{_end(_cap(now))} (In {base_title}: {_end(was)})"
                           if was != now else _end(_cap(now)))
    if c.kind.startswith("effect-"):
        verb = c.kind.removeprefix("effect-")
        old = _effects(base, bd, c.id, [])
        where = _where(base, c.id)
        locs = list(getattr(c.new, "item_locs", []) or [])
        new = _effects(game, d, None, locs) if locs else ""
        if verb == "remove":
            return "removed", _end(f"In {where}: no longer: {old}")
        if verb == "replace":
            return "changed", _end(f"In {where}, instead of “{old}”: {new}")
        return "added", _end(f"In {where}, {verb} “{old}”: {new}")
    heading = "changed"
    return heading, f"The {humanize(c.kind)} of the game differs from {base_title}'s."


def build_variant_page(loaded: LoadedRuleset) -> VariantPage:
    info = loaded.variant
    assert info is not None
    from interpreter.api import load

    game = compile_game(loaded, {})
    base = compile_game(load(info.base_path), {})
    d = describer_for(game, RulebookDescriber, emphasis=True)
    bd = describer_for(base, RulebookDescriber, emphasis=True)
    g = game.ruleset.game
    seats = f"{g.seats.min}" if g.seats.min == g.seats.max else f"{g.seats.min}–{g.seats.max}"
    page = VariantPage(g.name, g.title, _words(g.summary), info.base_name, info.base_title,
                       seats)
    for c in info.changes:
        said = _sentence(c, base, game, bd, d, info.base_title)
        if said is not None:
            getattr(page, said[0]).append(said[1])
    return page


__all__ = ["VariantPage", "build_variant_page", "markdown_list"]
