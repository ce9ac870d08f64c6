"""What players see of a game's variables: which ones, under which label, in words.

One answer for every place a player looks: the terminal, the browser's table and the
rulebook's "things to keep track of". A variable is shown when a player would care:
not the rules' own bookkeeping (`on_table: false`), never one no player may see
(`visible_to: nobody`); a piece's own values are shown with the piece.
Views still carry every variable a seat may see, for tools and computer players; this
is only what people are shown of them.
"""

from __future__ import annotations

from typing import Any

from interpreter.play.game import Game, show_value
from interpreter.run.tables import VariableInfo

NONE = "none"
"""How an empty value reads (null, an empty list or text)."""

_ARTICLES = ("the ", "a ", "an ")


def shown_variables(game: Game) -> list[VariableInfo]:
    """The variables players see, in the ruleset's order (a per-piece one is shown with
    each piece, not on a line of its own)."""
    return [v for v in game.variables.values()
            if v.on_table and v.visible_to != "nobody"]


def variable_lines(game: Game, view: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value in words) for each shown variable this view holds, e.g.
    ("Your secret colour", "green") or ("Beads", "15 (you) · Player 2: 12"). A per-seat
    variable whose values this seat may not see at all is left out."""
    out = []
    values = view.get("variables", {})
    for var in shown_variables(game):
        if var.id not in values:
            continue
        if var.per_seat:
            line = _per_seat(game, var, values[var.id], view.get("seat"))
            if line is not None:
                out.append(line)
        else:
            out.append((var.label, value_words(game, var, values[var.id])))
    return out


def value_words(game: Game, var: VariableInfo, value: Any) -> str:
    """A variable's value as players read it: seats by name, pieces and places as the
    view names them, yes/no, and "none" for nothing."""
    if value is None or value == "" or value == []:
        return NONE
    if var.holds == "seats":
        seats = value if isinstance(value, list) else [value]
        return ", ".join(game.seat_name(s) if type(s) is int else show_value(game, s)
                         for s in seats)
    return show_value(game, value)


def _per_seat(game: Game, var: VariableInfo, values: dict[str, Any], seat: int | None
              ) -> tuple[str, str] | None:
    """A per-seat variable: the viewer's own value first, then the others it may see."""
    if not values:
        return None
    mine = values.get(str(seat)) if seat is not None else None
    if str(seat) in values and len(values) == 1:
        return your(var.label), value_words(game, var, mine)
    parts = []
    if str(seat) in values:
        parts.append(f"{value_words(game, var, mine)} (you)")
    parts += [f"{game.seat_name(int(s))}: {value_words(game, var, v)}"
              for s, v in values.items() if s != str(seat)]
    return var.label, " · ".join(parts)


def your(label: str) -> str:
    """'Your secret colour' from 'Secret colour' (and from 'The secret colour')."""
    words = label
    for article in _ARTICLES:
        if words.lower().startswith(article):
            words = words[len(article):]
            break
    if len(words) > 1 and words[0].isupper() and not words[1].isupper():
        words = words[0].lower() + words[1:]
    return f"Your {words}"


__all__ = ["NONE", "shown_variables", "value_words", "variable_lines", "your"]
