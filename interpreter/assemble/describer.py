"""A Describer for a compiled game: its zones, options, variables and definitions
read as the designer's words (the compiler's describer knows no game of its own)."""

from __future__ import annotations

from typing import Any

from interpreter.assemble.game import _DEF_KEY
from interpreter.compile.english import Describer, humanize, numbered_phrase, zone_phrase
from interpreter.load.schema import Definition
from interpreter.play.game import Game


def describer_for(game: Game, cls: type[Describer] = Describer, **options: Any) -> Describer:
    """A Describer that knows a compiled game's zones, options, variables and definitions."""
    rs = game.ruleset
    glossary: dict[str, str] = {}
    seat_indexed: set[str] = set()
    for z in game.zones.values():
        if z.per_seat:
            seat_indexed.add(z.id)
        glossary[z.id] = zone_phrase(z.label, z.kind)
    for o in rs.options:
        glossary[o.id] = (f"{o.label} is on" if o.type == "bool"
                          else f"the {o.label[0].lower() + o.label[1:]}")
    for v in rs.variables:
        glossary[v.id] = f"the {humanize(v.id)}"
        if v.per_seat or v.per_piece:
            seat_indexed.add(v.id)  # read as "the facing of the card" like a seat's own
    definitions: dict[str, list[str]] = {}
    for key, written in rs.define.items():
        m = _DEF_KEY.match(key)
        if m:
            params = m.group(2)
            plist = [p.strip() for p in params.split(",") if p.strip()] if params else []
            definitions[m.group(1)] = plist
            if isinstance(written, Definition):
                # The designer's words, as a phrase the expression English fills in.
                glossary[m.group(1)] = numbered_phrase(written.says, plist)
    value_names: dict[Any, str] = {}
    for a in rs.pieces.attributes.values():
        for v in a.values:
            if isinstance(v, str):
                value_names[v] = humanize(str(a.names.get(v, v)))
    attribute_names = {attr: dict(a.names) for attr, a in rs.pieces.attributes.items()}
    return cls(glossary, value_names, attribute_names=attribute_names,
               definitions=definitions, seat_indexed=seat_indexed, **options)
