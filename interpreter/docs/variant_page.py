"""A variant's rulebook page: only its differences from the base, in words.

Each change a variant makes (its `VariantInfo.changes`) becomes one entry under Added,
Removed or Changed, said with the same English as the rulebooks: both the variant and
its base are compiled, and each item is described from the game it belongs to (the old
item from the base, the new one from the variant), so a count reads as a number of
pieces, an end rule as its text and its exact condition, an effect as its designer's
`text:` with the generated rule under it. A changed item lists only what reads
differently, each with what the base says (“in My Game: …”).

Entries are Describer lines (nesting by the describer's indent), turned into a nested
Markdown list by `markdown_list`; within each heading they follow the order of the
rulebook (components, places, set-up, turn, …, options), then the variant's own order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from interpreter.assemble.describer import describer_for
from interpreter.assemble.game import _DEF_KEY, compile_game_once
from interpreter.compile.english import Describer, humanize, join_words
from interpreter.docs.rulebook import (
    RulebookDescriber,
    _components,
    _end_rules,
    _first_player,
    _glossary_line,
    _in_sentence,
    _option_values,
    _ranking,
    _ruling,
    _variables,
    _zones,
    markdown_list,
    sentence,
)
from interpreter.docs.text import as_markdown, md_escape
from interpreter.load.loader import LoadedRuleset
from interpreter.load.schema import definition_bodies
from interpreter.load.variants import Change
from interpreter.play.game import Game
from interpreter.primitives import Choose, Primitive
from interpreter.primitives.decisions import OptionDef

Lines = list[str]
"""Describer lines: one sentence each, nested by the describer's indent."""

SHORT = 70
"""An old value this short is said in brackets after the new one (longer: a line)."""

ORDER = ["game", "options", "attributes", "sets", "pieces", "zones", "variables", "define",
         "setup", "first_seat", "turn", "procedures", "triggers", "rulings", "end",
         "scores", "rank", "rulebook", "budgets"]
"""Where each part stands in the rulebook (the order of the entries under a heading)."""


@dataclass
class VariantPage:
    """What a variant's page says (the template's context): its own and its base's
    titles and summary as the ruleset writes them (the templates escape them), and its
    differences as Markdown (`Md`), the rulesets' words escaped in them."""

    name: str
    title: str
    summary: str
    base_name: str
    base_title: str
    seats: str
    added: list[str] = field(default_factory=list)
    """Markdown list items (each may hold a nested list)."""
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    base_link: str | None = None
    """The base's page relative to this one (None when the base has no page here)."""
    variants: list[tuple[str, str]] = field(default_factory=list)
    """(name, title) of the variants of this variant."""

    @property
    def same_as_base(self) -> bool:
        return not (self.added or self.removed or self.changed)


@dataclass
class _Entry:
    heading: str
    order: int
    lines: Lines


# -- what a part's item says --------------------------------------------------------------

@dataclass
class _Item:
    """An item as the rulebook says it: `what` names it ("The ruling **Win**"), `facts`
    are (aspect, words) in order, the first being what it is; words are a sentence or
    Describer lines."""

    what: str
    facts: list[tuple[str, str | Lines]]
    labels: dict[str, str] = field(default_factory=dict)
    """Words for an aspect, where its new words alone would not say what changed."""


class _Side:
    """One of the two games (the base or the variant), with its describer and the parts
    of its rulebook the page needs (computed once)."""

    def __init__(self, game: Game, title: str) -> None:
        self.game = game
        self.title = title
        self.d = describer_for(game, RulebookDescriber, emphasis=True)
        self._components: dict[str, dict[str, Any]] | None = None
        self._total = 0

    def components(self) -> dict[str, dict[str, Any]]:
        if self._components is None:
            rows, self._total, _ = _components(self.game, self.d)
            self._components = {ps.id: row for ps, row in
                                zip(self.game.ruleset.pieces.sets, rows, strict=True)}
        return self._components

    def total(self) -> int:
        self.components()
        return self._total

    def find(self, part: str, ident: str) -> Any:
        rs = self.game.ruleset
        items: list[Any] = {"options": rs.options, "sets": rs.pieces.sets,
                            "zones": rs.zones, "variables": rs.variables,
                            "procedures": rs.procedures, "triggers": rs.triggers,
                            "end": rs.end, "rulings": rs.rulings}.get(part, [])
        return next((x for x in items if getattr(x, "id", None) == ident), None)

    def item(self, part: str, ident: str) -> _Item | None:
        """An item of a named part, as this game's rulebook says it."""
        say = getattr(self, f"_say_{part}")
        return say(ident)  # type: ignore[no-any-return]

    def _say_options(self, ident: str) -> _Item | None:
        o = self.find("options", ident)
        if o is None:
            return None
        kind, default, _ = _option_values(o)
        return _Item(f"The option **{md_escape(o.label)}**",
                     [("description", sentence(md_escape(o.description))),
                      ("values", kind), ("default", default)])

    def _say_attributes(self, ident: str) -> _Item | None:
        a = self.game.ruleset.pieces.attributes.get(ident)
        if a is None:
            return None
        values = [md_escape(a.names.get(v, v)) for v in a.values]
        facts: list[tuple[str, str | Lines]] = [("names", join_words(values, "or"))]
        if a.short:
            facts.append(("written", "written " + ", ".join(
                f"{md_escape(s)} for {md_escape(a.names.get(v, v))}"
                for v, s in a.short.items())))
        if a.styles:
            facts.append(("drawn", "drawn " + ", ".join(
                f"{md_escape(s)} for {md_escape(a.names.get(v, v))}"
                for v, s in a.styles.items())))
        return _Item(f"The **{humanize(ident)}** of the pieces", facts)

    def _say_sets(self, ident: str) -> _Item | None:
        row = self.components().get(ident)
        if row is None:
            return None
        summary = re.sub(r"— (\d+ pieces?)", r"— **\1**", row["summary"])
        facts: list[tuple[str, str | Lines]] = [
            ("pieces", f"{summary}, starting in *{row['start']}*." if row["start"]
             else f"{summary}.")]
        if row["count_rule"]:
            facts.append(("count", row["count_rule"]))
        return _Item("Components", facts)

    def _say_zones(self, ident: str) -> _Item | None:
        z = next((z for z in _zones(self.game, self.d) if z["id"] == ident), None)
        if z is None:
            return None
        facts: list[tuple[str, str | Lines]] = [("shape", sentence(z["shape"]))]
        for key in ("description", "visibility", "concealed"):
            if z[key]:
                facts.append((key, z[key]))
        return _Item(f"The place **{_in_sentence(z['label'])}**", facts)

    def _say_variables(self, ident: str) -> _Item | None:
        v = self.find("variables", ident)
        if v is None:
            return None
        index = self.game.ruleset.variables.index(v)
        said = _variables(self.game, self.d)[index]
        facts: list[tuple[str, str | Lines]] = []
        if said["description"]:
            facts.append(("description", said["description"]))
        facts.append(("facts", said["facts"]))
        return _Item(f"Something to keep track of: **{said['name']}**", facts)

    def _say_define(self, ident: str) -> _Item | None:
        for key, body in definition_bodies(self.game.ruleset).items():
            m = _DEF_KEY.match(key)
            if m and m.group(1) == ident:
                line = _glossary_line(self.game, self.d, key, body)
                return _Item(f"The term **{humanize(ident)}**", [("meaning", line)])
        return None

    def _say_procedures(self, ident: str) -> _Item | None:
        p = self.find("procedures", ident)
        if p is None:
            return None
        facts: list[tuple[str, str | Lines]] = []
        if p.text:
            facts.append(("text", sentence(md_escape(p.text))))
        if p.params:
            facts.append(("given", "Given " + join_words([self.d.name(x) for x in p.params])
                          + "."))
        facts.append(("rules", self.d.sentences(p.do)))
        return _Item(f"The procedure **{humanize(ident).capitalize()}**", facts)

    def _say_triggers(self, ident: str) -> _Item | None:
        t = self.find("triggers", ident)
        if t is None:
            return None
        zone = md_escape(self.game.zones[t.enters.text].label)
        when = sentence(f"whenever a piece enters {_in_sentence(zone)}"
                        + (f" and {self.d.cond(t.where)}" if t.where is not None else ""))
        facts: list[tuple[str, str | Lines]] = []
        if t.text:
            facts.append(("text", sentence(md_escape(t.text))))
        facts += [("when", when), ("rules", self.d.sentences(t.do))]
        return _Item(f"**Whenever: {md_escape(humanize(ident))}**", facts)

    def _say_end(self, ident: str) -> _Item | None:
        rule = self.find("end", ident)
        if rule is None:
            return None
        said = _end_rules(self.game, self.d)[self.game.ruleset.end.index(rule)]
        return _Item("The end of the game", [("rule", f"{said['text']} *{said['exact']}*")])

    def _say_rulings(self, ident: str) -> _Item | None:
        r = self.find("rulings", ident)
        if r is None:
            return None
        said = _ruling(ident, r.text)
        return _Item(f"The ruling **{said['title']}**", [("text", said["text"])])

    # the keys a variant replaces whole

    def _say_first_seat(self, ident: str) -> _Item | None:
        return _Item("**The first player**", [("rule", _first_player(self.game, self.d))])

    def _say_rank(self, ident: str) -> _Item | None:
        ranking, _ = _ranking(self.game, self.d)
        return _Item("**The ranking**", [("rule", ranking or "There is no ranking: the "
                                          "game ends only with named winners.")])

    def _say_scores(self, ident: str) -> _Item | None:
        _, scoring = _ranking(self.game, self.d)
        return _Item("**The score**", [("rule", scoring or "Players have no score.")])

    def _say_rulebook(self, ident: str) -> _Item | None:
        seed = self.game.ruleset.rulebook.example_seed
        return _Item("**The set-up picture**", [("seed", f"set up with seed {seed}.")])

    def _say_budgets(self, ident: str) -> _Item | None:
        b = self.game.ruleset.budgets
        names = list(type(b).model_fields)
        return _Item("**The limits on the computer's work**",
                     [(name, f"{getattr(b, name):,}") for name in names],
                     {name: humanize(name) for name in names})


# -- effects ------------------------------------------------------------------------------

@dataclass
class _Place:
    """Where an effect stands: its section and the steps it is inside of."""

    section: str
    """"the set-up", "a turn", "the procedure *erupt*" …"""
    part: str
    inside: list[str]
    """Each step it is nested in, outermost first: “within “For each …””."""


def _head(d: Describer, e: Primitive) -> str:
    """A step named by its first words: the designer's text, else its first sentence."""
    lines = d.block([e])
    first = lines[0].strip().removeprefix("- ") if lines else humanize(e.keyword)
    return first.rstrip(":. ")


def _sections(game: Game) -> list[tuple[str, str, list[Primitive]]]:
    rs = game.ruleset
    out = [("the set-up", "setup", rs.setup), ("a turn", "turn", rs.turn)]
    out += [(f"the procedure *{humanize(p.id)}*", "procedures", p.do) for p in rs.procedures]
    out += [(f"“Whenever: {md_escape(humanize(t.id))}”", "triggers", t.do)
            for t in rs.triggers]
    return out


def _walk(d: Describer, block: list[Primitive], inside: list[str]
          ) -> Iterator[tuple[Primitive, list[str]]]:
    """(effect, where it is nested) for every effect of a block, nested ones too."""
    for e in block:
        yield e, inside
        if isinstance(e, Choose):
            asked = md_escape(e.text) if e.text else d.text(e.choose)
            within = [*inside, f"within the decision “{asked.rstrip(':. ')}”"]
            for o in e.options:
                yield from _walk(d, o.do, [*within,
                                           "in the option "
                                           f"“{md_escape(humanize(o.id).capitalize())}”"])
            yield from _walk(d, e.if_none, [*within, "if there is no option"])
            continue
        within = [*inside, f"within “{_head(d, e)}”"]
        for child in e.children():
            yield from _walk(d, child, within)


def _effects(side: _Side) -> Iterator[tuple[Primitive, _Place]]:
    for label, part, block in _sections(side.game):
        for e, inside in _walk(side.d, block, []):
            yield e, _Place(label, part, inside)


def _find_effect(side: _Side, ident: str) -> tuple[Primitive, _Place] | None:
    return next(((e, p) for e, p in _effects(side) if e.id == ident), None)


def _effect_at(side: _Side, node: Any) -> tuple[Primitive, _Place] | None:
    """The effect written where a tree node was (a step named by its address)."""
    loc = getattr(node, "loc", None)
    if loc is None:
        return None
    return next(((e, p) for e, p in _effects(side) if e.loc == loc), None)


def _options(side: _Side) -> Iterator[tuple[OptionDef, _Place]]:
    """Every option of every decision, with where its decision stands."""
    for label, part, block in _sections(side.game):
        for e, inside in _walk(side.d, block, []):
            if isinstance(e, Choose):
                asked = md_escape(e.text) if e.text else side.d.text(e.choose)
                within = [*inside, f"within the decision “{asked.rstrip(':. ')}”"]
                for o in e.options:
                    yield o, _Place(label, part, within)


def _option_at(side: _Side, node: Any) -> tuple[OptionDef, _Place] | None:
    loc = getattr(node, "loc", None)
    return next(((o, p) for o, p in _options(side) if loc is not None and o.loc == loc),
                None)


def _option_lines(d: Describer, o: OptionDef) -> Lines:
    """An option as the rulebook says it, with its exact rule under the designer's words."""
    head = f"The option “{md_escape(humanize(o.id).capitalize())}”"
    exact = d.option_head(o)
    if o.text:
        return [f"{head}: {md_escape(' '.join(o.text.split()))}",
                f"{d.indent}Exactly: {exact[:1].lower()}{exact[1:]}."]
    return [f"{head}: {exact}:", *[line for line in d.block(o.do)]]


def _place_phrase(place: _Place) -> str:
    return ", ".join([f"In {place.section}", *place.inside])


# -- the entries --------------------------------------------------------------------------

def _nest(lines: Lines, indent: str, depth: int = 1) -> Lines:
    return [indent * depth + line for line in lines]


def _one_sentence(words: str | Lines, indent: str) -> bool:
    """A sentence, or lines of which only the first is at the top (its details under it)."""
    return isinstance(words, str) or (
        bool(words) and all(line.startswith(indent) for line in words[1:]))


def _said(head: str, words: str | Lines, indent: str) -> Lines:
    """`head: words` as lines: a sentence, or lines of which only the first is at the top
    (its details under it), follow the head; several sentences go under it."""
    if isinstance(words, str):
        return [f"{head}: {words}" if head else words]
    if not head:
        return list(words)
    if _one_sentence(words, indent):
        return [f"{head}: {words[0]}", *words[1:]]
    return [f"{head}:", *_nest(words, indent)]


def _end(text: str) -> str:
    """A sentence ends with its stop (a designer's text usually has one already)."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", ":", "”", "*")) else text + "."


def _bare(text: str) -> str:
    """A sentence without its stop, to say it inside another one."""
    return text.rstrip().removesuffix(".")


ASPECTS = {"values": "values", "default": "default", "rules": "rules"}
"""Words for what changed in an item, where its new words alone would not say it (a
changed ruling's text, a place's description, a term's meaning speak for themselves)."""

MISSING = {"description": "not described", "text": "no text of its own",
           "count": "a fixed number", "given": "given nothing",
           "visibility": "everyone sees its pieces"}
"""How an aspect reads on the side that does not have it."""


def _label(item: _Item, aspect: str) -> str:
    return item.labels.get(aspect) or ASPECTS.get(aspect, "")


def _whole(item: _Item, indent: str) -> Lines:
    """An item added or removed: what it is, then each of its facts."""
    (_, first), rest = item.facts[0], item.facts[1:]
    lines = _said(item.what, _end(first) if isinstance(first, str) else first, indent)
    for aspect, words in rest:
        label = _label(item, aspect)
        if isinstance(words, str):
            words = _end(words[:1].upper() + words[1:]) if not label else _end(words)
        said = _said(label[:1].upper() + label[1:], words, indent)
        lines += _nest(said, indent)
    return lines


def _differences(old: _Item, new: _Item, base: str, indent: str) -> Lines:
    """An item changed: only what reads differently, each with what the base says."""
    was, now = dict(old.facts), dict(new.facts)
    aspects = [a for a, _ in new.facts] + [a for a, _ in old.facts if a not in now]
    diffs = [(a, now.get(a), was.get(a)) for a in aspects if now.get(a) != was.get(a)]
    if not diffs:
        return [f"{new.what}: the same words as in {base} (how the interpreter plays it "
                "changes)."]
    single = len(diffs) == 1
    lines: Lines = [] if single else [f"{new.what}:"]
    for aspect, words, before in diffs:
        label = _label(new, aspect)
        if single:
            head = f"{new.what}, {label}" if label else new.what
        else:
            head = label[:1].upper() + label[1:]
        if words is None:
            words = _end(MISSING.get(aspect, "no longer said").capitalize())
        old_words = was.get(aspect)
        if isinstance(words, str) and (old_words is None or (
                isinstance(old_words, str) and len(old_words) <= SHORT)):
            if old_words is None and aspect not in MISSING:
                before = f"not in {base}"
            else:
                before = f"in {base}: {_bare(old_words or MISSING[aspect])}"
            said = _said(head, f"{_bare(words)} ({before}).", indent)
        else:
            old_said = _said(f"In {base}", old_words if old_words is not None
                             else MISSING.get(aspect, "not said"), indent)
            if _one_sentence(words, indent):
                said = [*_said(head, words, indent), *_nest(old_said, indent)]
            else:  # several sentences: “Now” and “In My Game” side by side under the head
                said = [f"{head}:" if head else "Now and before:",
                        *_nest(_said("Now", words, indent), indent), *_nest(old_said, indent)]
        lines += said if single else _nest(said, indent)
    return lines


def _option_default(old: Any, new: Any, base: str) -> str | None:
    """`The option **Power Play** is off unless chosen (in My Game: on).`"""
    if old is None or new is None or old.type != new.type:
        return None
    same = all(getattr(old, k) == getattr(new, k)
               for k in ("label", "description", "type", "choices", "min", "max"))
    if not same or old.default == new.default:
        return None
    _, was, _ = _option_values(old)
    _, now, _ = _option_values(new)
    return f"The option **{md_escape(new.label)}** is {now} unless chosen (in {base}: {was})."


NOUNS = {"options": "option", "attributes": "piece attribute", "sets": "pieces",
         "zones": "place", "variables": "thing to keep track of", "define": "term",
         "procedures": "procedure", "triggers": "rule “Whenever”", "end": "end of the game",
         "rulings": "ruling"}


def _part_entry(c: Change, base: _Side, side: _Side) -> _Entry:
    indent = side.d.indent
    order = ORDER.index(c.part) if c.part in ORDER else len(ORDER)
    heading = {"add": "added", "remove": "removed"}.get(c.kind, "changed")
    old = base.item(c.part, c.id) if c.kind != "add" else None
    new = side.item(c.part, c.id) if c.kind != "remove" else None
    if c.kind == "add" and new is not None:
        return _Entry(heading, order, _whole(new, indent))
    if c.kind == "remove" and old is not None:
        return _Entry(heading, order, _whole(old, indent))
    if old is not None and new is not None:
        if c.part == "options":
            said = _option_default(base.find("options", c.id), side.find("options", c.id),
                                   base.title)
            if said:
                return _Entry(heading, order, [said])
        return _Entry(heading, order, _differences(old, new, base.title, indent))
    # not found in a compiled game (it always should be): still say what it is
    return _Entry(heading, order, [f"The {NOUNS.get(c.part, c.part)} "
                                   f"**{md_escape(humanize(c.id.replace('-', ' ')))}**."])


def _effect_entry(c: Change, base: _Side, side: _Side) -> _Entry | None:
    """An effect edit: where it stands (set-up, a turn, a procedure, within which steps),
    the new effects as the variant says them, the old as the base does."""
    verb = c.kind.removeprefix("effect-")
    indent = side.d.indent
    locs = [getattr(x, "loc", None) for x in (c.new or [])]
    placed = [(e, p) for e, p in _effects(side) if e.loc is not None and e.loc in locs]
    new = [e for e, _ in placed]
    new_lines = side.d.sentences(new)
    found = _find_effect(base, c.id)
    if found is None and c.address is not None:
        found = _effect_at(base, c.old)
    if found is None and verb in ("before", "after"):
        found = _find_effect(side, c.id)  # an effect this variant put in itself
    if found is None:
        # an effect this variant put in itself, and then replaced: say what stands now
        if not placed:
            return None
        where = _place_phrase(placed[0][1])
        steps = "new steps" if len(new) > 1 else "a new step"
        return _Entry("added", ORDER.index(placed[0][1].part),
                      _said(f"{where}, {steps}", new_lines, indent))
    old, place = found
    order = ORDER.index(place.part)
    where = _place_phrase(place)
    if verb in ("before", "after"):
        if not new:  # replaced by a later edit of this variant, which says it
            return None
        steps = "new steps" if len(new) > 1 else "a new step"
        return _Entry("added", order,
                      _said(f"{where}, {verb} “{_head(base.d, old)}”, {steps}", new_lines,
                            indent))
    old_lines = base.d.sentences([old])
    if verb == "replace" and old.text and new and [e.text for e in new] != [old.text]:
        # the designer's words say the old rule (its exact rule is in the base's rulebook)
        old_lines = [md_escape(old.text)]
    if verb == "remove" or not new:
        return _Entry("removed", order, _said(where, old_lines, indent))
    lines = [f"{where}:"]
    lines += _nest(_said("Now", new_lines, indent), indent)
    lines += _nest(_said(f"In {base.title}", old_lines, indent), indent)
    return _Entry("changed", order, lines)


def _address_entry(c: Change, base: _Side, side: _Side) -> _Entry:
    """A part named by its address that is neither a named item nor a step: an option of
    a decision, a block of steps, a whole section. Said where it stands, now and before."""
    verb = c.kind.removeprefix("part-")
    indent = side.d.indent
    if c.what == "option of a decision":
        was = _option_at(base, c.old) if c.old is not None else None
        now = None if verb == "remove" else _option_at(side, c.new if verb == "replace"
                                                      else c.old)
        place = (now or was)[1] if (now or was) else None
        where = _place_phrase(place) if place else f"In {md_escape(c.address or c.part)}"
        order = ORDER.index(place.part) if place else len(ORDER)
        if now is None and was is not None:
            return _Entry("removed", order, [f"{where}:",
                                             *_nest(_option_lines(base.d, was[0]), indent)])
        if now is not None and was is None:
            return _Entry("added", order, [f"{where}:",
                                           *_nest(_option_lines(side.d, now[0]), indent)])
        if now is not None and was is not None:
            return _Entry("changed", order, [
                f"{where}:", *_nest(_said("Now", _option_lines(side.d, now[0]), indent),
                                    indent),
                *_nest(_said(f"In {base.title}", _option_lines(base.d, was[0]), indent),
                       indent)])
    if verb == "insert" and isinstance(c.new, list):
        locs = [getattr(x, "loc", None) for x in c.new]
        new = [(e, p) for e, p in _effects(side) if e.loc is not None and e.loc in locs]
        options = [(o, p) for o, p in _options(side) if o.loc is not None and o.loc in locs]
        lines = side.d.sentences([e for e, _ in new]) + [
            x for o, _ in options for x in _option_lines(side.d, o)]
        placed = [p for _, p in new + options]
        if lines and placed:
            what = ("new options" if len(options) > 1 else "a new option") if options else (
                "new steps" if len(new) > 1 else "a new step")
            return _Entry("added", ORDER.index(placed[0].part),
                          _said(f"{_place_phrase(placed[0])}, {what}", lines, indent))
    old_effects = [x for x in (_effect_at(base, n) for n in (c.old or [])
                               if isinstance(c.old, list)) if x is not None]
    new_effects = [x for x in (_effect_at(side, n) for n in (c.new or [])
                               if isinstance(c.new, list)) if x is not None]
    if old_effects or new_effects:
        place = (old_effects or new_effects)[0][1]
        lines = [f"{_place_phrase(place)}:"]
        lines += _nest(_said("Now", side.d.sentences([e for e, _ in new_effects])
                             or ["nothing"], indent), indent)
        lines += _nest(_said(f"In {base.title}", base.d.sentences(
            [e for e, _ in old_effects]) or ["nothing"], indent), indent)
        return _Entry("changed", ORDER.index(place.part), lines)
    return _Entry("changed", len(ORDER), [
        f"The part `{md_escape(c.address or c.part)}` ({c.what or c.part}) differs from "
        f"{base.title}."])


def _game_entries(base: _Side, side: _Side) -> list[_Entry]:
    """What the game's own description changes that a player needs (not its title)."""
    old, new = base.game.ruleset.game, side.game.ruleset.game

    def seats(g: Any) -> str:
        return (f"{g.seats.min}" if g.seats.min == g.seats.max
                else f"{g.seats.min}–{g.seats.max}")

    said: list[tuple[str, Callable[[Any], Any]]] = [
        ("Players", seats), ("Playing time", lambda g: g.playing_time or "not given"),
        ("Designer", lambda g: (g.designer or "not given") + (f" ({g.year})" if g.year else "")),
        ("Status", lambda g: g.status)]
    out = []
    for label, get in said:
        if get(old) != get(new):
            out.append(_Entry("changed", 0, [
                f"**{label}**: {md_escape(get(new), start=False)} "
                f"(in {base.title}: {md_escape(get(old), start=False)})."]))
    return out


def _total_entry(base: _Side, side: _Side) -> _Entry | None:
    if base.total() == side.total():
        return None
    return _Entry("changed", ORDER.index("pieces"),
                  [f"Components in all: {side.total()} pieces (in {base.title}: "
                   f"{base.total()}), with the default options and the fewest players."])


def differences(loaded: LoadedRuleset, base_loaded: LoadedRuleset
                ) -> tuple[list[str], list[str], list[str]]:
    """(added, removed, changed): each a list of Markdown list items."""
    info = loaded.variant
    assert info is not None
    side = _Side(compile_game_once(loaded, {}), md_escape(loaded.model.game.title))
    base = _Side(compile_game_once(base_loaded, {}), md_escape(info.base_title))
    entries: list[_Entry] = []
    for c in info.changes:
        entry: _Entry | None
        if c.kind == "game":
            entries += _game_entries(base, side)
            continue
        if c.kind.startswith("effect-"):
            entry = _effect_entry(c, base, side)
        elif c.kind.startswith("part-"):
            entry = _address_entry(c, base, side)
        elif c.kind in ("add", "remove", "replace", "change"):
            entry = _part_entry(c, base, side)
        else:
            entry = _whole_entry(c, base, side)
        if entry is not None:
            entries.append(entry)
    total = _total_entry(base, side)
    if total is not None:
        entries.append(total)
    entries.sort(key=lambda e: e.order)  # stable: the variant's own order within a part
    indent = side.d.indent
    out: dict[str, list[str]] = {"added": [], "removed": [], "changed": []}
    for e in entries:
        out[e.heading].append(markdown_list(e.lines, indent).removeprefix("- "))
    return out["added"], out["removed"], out["changed"]


def _whole_entry(c: Change, base: _Side, side: _Side) -> _Entry | None:
    """first_seat, rank, scores, rulebook, budgets: replaced whole (budgets field by
    field)."""
    if not hasattr(side, f"_say_{c.part}"):
        return _Entry("changed", len(ORDER), [f"**{humanize(c.part).capitalize()}** differs "
                                              f"from {base.title}."])
    old, new = base.item(c.part, c.id), side.item(c.part, c.id)
    if old is None or new is None:
        return None
    order = ORDER.index(c.part)
    if old.facts == new.facts:
        return _Entry("changed", order, [f"{new.what}: as in {base.title} (the variant "
                                         "says it again)."])
    return _Entry("changed", order, _differences(old, new, base.title, side.d.indent))


def build_variant_page(loaded: LoadedRuleset, base_loaded: LoadedRuleset | None = None
                       ) -> VariantPage:
    """The page of a variant: its title, summary, base, and its differences in words."""
    info = loaded.variant
    assert info is not None
    if base_loaded is None:
        from interpreter.load.loader import load_ruleset

        base_loaded = load_ruleset(info.base_path)
    g = loaded.model.game
    seats = f"{g.seats.min}" if g.seats.min == g.seats.max else f"{g.seats.min}–{g.seats.max}"
    added, removed, changed = differences(loaded, base_loaded)
    return VariantPage(g.name, g.title, " ".join(g.summary.split()), info.base_name,
                       info.base_title, seats, as_markdown(added), as_markdown(removed),
                       as_markdown(changed))


__all__ = ["VariantPage", "build_variant_page", "differences", "markdown_list"]
