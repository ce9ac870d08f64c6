"""A turn's screen that fits the terminal: the board first, then as much of the rest as
the terminal's height leaves room for.

On an 80×24 terminal a board, the piles and a few hundred options do not fit, and what
scrolls off first is the board. So the screen is measured before it is printed: boards
lose the lines between their rows if that is needed, piles and hands go beside the board
when there is width for it, the log since the person's last move keeps its newest lines,
and the options take the richest form that still fits (every option with what it does,
only their notations, their groups one a line, or the groups on a line or two).
Without a known height (output to a file or a pipe) everything is printed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from interpreter.play.game import Game, Option
from interpreter.view.choosing import OptionGroup, distinct_titles, group_options, key_legend
from interpreter.view.render import (
    LOG_LINES,
    MANY_OPTIONS,
    header,
    last_move_text,
    log_lines,
    variables_text,
    zones_split,
)

NARROW_HINT = "type a [key] or a place to list them, ? for help"
MORE_WORDS = frozenset({"more"})
"""What a person types for the next page of a list too long for the screen."""


def height_of(console: Console, renderable: RenderableType, width: int) -> int:
    """How many lines `renderable` takes printed `width` columns wide."""
    return len(console.render_lines(renderable, console.options.update_width(width),
                                    pad=False))


def _number(option: Option) -> str:
    return str(option.index + 1)


# -- the options -----------------------------------------------------------------------

def option_table(options: Sequence[Option], wrap: bool = True) -> Table:
    """Each option a line: its number (in the full list), notation and label."""
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(justify="right", style="dim", no_wrap=True)
    table.add_column(style="bold", no_wrap=True)
    table.add_column(no_wrap=not wrap, overflow="fold" if wrap else "ellipsis")
    for o in options:
        table.add_row(_number(o), Text(o.notation), Text(o.label))
    return table


def option_columns(options: Sequence[Option]) -> Columns:
    return Columns([Text.assemble((f"{_number(o):>3} ", "dim"), (o.notation, "bold"))
                    for o in options], padding=(0, 2))


def _key(group: OptionGroup) -> Text:
    if len(group.options) == 1:
        return Text.assemble((f"{_number(group.options[0])} ", "dim"),
                             (group.options[0].notation, "bold"))
    return Text(f"[{group.key}]" if group.key else "[?]", style="bold")


def groups_lines(groups: Sequence[OptionGroup]) -> Table:
    """One group a line: `[pp] Power Play: put your … (38)`."""
    table = Table(box=None, show_header=False, padding=(0, 1))
    keys = [_key(g) for g in groups]  # what to type is never cut short; the words may be
    table.add_column(no_wrap=True, min_width=max(len(k.plain) for k in keys))
    table.add_column(overflow="ellipsis", no_wrap=True)
    for g in groups:
        count = f" ({len(g.options)})" if len(g.options) > 1 else ""
        table.add_row(_key(g), Text(g.title + count))
    return table


def groups_inline(groups: Sequence[OptionGroup], words: bool = True) -> Text:
    """The groups run together: `Put your … on …: [pS] purple small (64) · [pM] …`;
    without `words`, only their keys and counts, with what the keys' letters stand for
    on a line of its own (`Keys: p=purple o=orange · S=small M=medium`): a group whose
    key spells nothing keeps its words, so that every key says what to type it for."""
    shared, own = distinct_titles(groups)
    letters = [] if words else key_legend(groups, own)
    sizes = {len(g.options) for g in groups}
    each = len(sizes) == 1 and sizes != {1}  # the same count for all: said once
    if each:
        shared = f"{shared} ({sizes.pop()} each)".lstrip()
    line = Text(f"{shared}: " if shared else "")
    if each and letters and _every_key(groups, letters):
        line.append("".join("[" + "|".join(place) + "]" for place in letters), style="bold")
        line.append(f", e.g. [{groups[0].key}]")  # a letter from each, as one key
    else:
        for i, (g, title) in enumerate(zip(groups, own, strict=True)):
            if i:
                line.append(" · ", style="dim")
            line.append_text(_key(g))
            said = [title] if words or (not letters and len(g.options) > 1) else []
            if len(g.options) > 1 and not each:
                said.append(f"({len(g.options)})")
            line.append("".join(f" {w}" for w in said))
    if letters:
        line.append("\nKeys: " + " · ".join(
            " ".join(f"{letter}={word}" for letter, word in place.items())
            for place in letters), style="dim")
    return line


def _every_key(groups: Sequence[OptionGroup], letters: Sequence[dict[str, str]]) -> bool:
    """Whether the groups' keys are every way of taking one letter of each place
    (`[r|y|g][S|M|L]` then says them all, in one line)."""
    keys = {g.key for g in groups}
    return len(keys) == len(groups) == math.prod(len(place) for place in letters)


def options_forms(options: Sequence[Option], what: str = "options"
                  ) -> list[RenderableType]:
    """Ways to show `options`, most helpful first: each with its label, notations only,
    groups a line each, groups run together, only the groups' keys."""
    count = (f"{len(options)} {what}" if len(options) != 1
             else "1 " + what.replace("options", "option", 1))
    forms: list[RenderableType] = [
        Group(Text(f"{count}:", style="dim"), option_table(options, wrap=False))]
    if len(options) > 1:
        forms.append(Group(Text(f"{count} (type `options` to see what each does):",
                                style="dim"), option_columns(options)))
    groups = group_options(options)
    if 1 < len(groups) < len(options):
        intro = Text(f"{count} in {len(groups)} groups: {NARROW_HINT}", style="dim")
        forms.append(Group(intro, groups_lines(groups)))
        forms.append(Group(intro, groups_inline(groups)))
        if all(g.key for g in groups if len(g.options) > 1):
            forms.append(Group(intro, groups_inline(groups, words=False)))
    return forms


def options_unfitted(options: Sequence[Option], what: str = "options") -> RenderableType:
    """The options when the terminal's height is unknown: all of them with labels when
    there are few, their groups when there are many (else their notations)."""
    forms = options_forms(options, what)
    if len(options) <= MANY_OPTIONS:
        return forms[0]
    return forms[2] if len(forms) > 2 else forms[-1]


def option_page(console: Console, options: Sequence[Option], start: int, room: int,
                width: int, what: str = "options") -> tuple[RenderableType, range]:
    """As many of `options` from `start` as fit in `room` lines (a line of them is
    always shown), their notations in columns under a line that says which they are
    and how to see the rest; and which options the page shows."""
    cells = [Text.assemble((f"{_number(o):>3} ", "dim"), (o.notation, "bold"))
             for o in options]
    cell = max(c.cell_len for c in cells)
    per_row = max(1, (width + 2) // (cell + 2))
    start = start if 0 <= start < len(options) else 0

    def intro(stop: int) -> Text:
        then = "the next ones" if stop < len(options) else "the first ones again"
        span = f"{start + 1}–{stop}" if stop > start + 1 else f"{stop}"
        return Text(f"{what[:1].upper()}{what[1:]}, {span} of {len(options)}: "
                    f"`more` shows {then}, ? how to list fewer", style="dim")

    said = max(height_of(console, intro(stop), width)  # the longest it can be
               for stop in (len(options) - 1, len(options)))
    rows = max(1, room - said)
    stop = min(len(options), start + rows * per_row)
    grid = Table.grid(padding=(0, 2))
    for _ in range(min(per_row, stop - start)):
        grid.add_column(width=cell, no_wrap=True)
    for first in range(start, stop, per_row):
        grid.add_row(*cells[first:min(first + per_row, stop)])
    return Group(intro(stop), grid), range(start, stop)


def fit_options(console: Console, options: Sequence[Option], room: int, width: int,
                what: str = "options", start: int = 0
                ) -> tuple[RenderableType, int, range]:
    """The richest form of the options that takes at most `room` lines; when none does,
    a page of them from `start`. With its height and which options it shows."""
    if start == 0:
        for form in options_forms(options, what):
            h = height_of(console, form, width)
            if h <= room:
                return form, h, range(len(options))
    page, shown = option_page(console, options, start, room, width, what)
    return page, height_of(console, page, width), shown


# -- the whole screen ------------------------------------------------------------------

@dataclass
class TurnScreen:
    """A turn's screen, and how far into its options it got (a page of a long list)."""

    parts: Group
    shown: range
    """The options shown (their positions in the list given), all of them unless the
    list was too long for the screen and was paged."""

    def __rich__(self) -> Group:
        return self.parts


def _beside(console: Console, boards: list[RenderableType], lines: list[RenderableType],
            width: int) -> RenderableType | None:
    """The piles and hands to the right of the board, if both fit side by side."""
    if len(boards) != 1 or not lines:
        return None
    options = console.options.update_width(width)
    board_width = Measurement.get(console, options, boards[0]).maximum
    side = width - board_width - 2
    if side < 30:
        return None
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(width=side)
    grid.add_row(boards[0], Group(*lines))
    return grid


def turn_screen(console: Console, game: Game, view: dict[str, Any],
                log: Sequence[dict[str, Any]], options: Sequence[Option], colour: bool,
                height: int | None, width: int, what: str = "options",
                log_title: str = "Since your last move:", start: int = 0) -> TurnScreen:
    """A person's screen at a decision: header, board, piles, variables, the log since
    their last move, the decision's question and the options, in `height` lines (a
    line is left for the prompt), or everything when the height is unknown. Options
    that do not fit even grouped are paged: the page from `start`."""
    prompt = Text(str(view["prompt"]), style="bold cyan") if view.get("prompt") else None
    entries = log_lines(game, log)
    moved = last_move_text(game, view)
    if height is None:
        boards, lines = zones_split(game, view, colour)
        variables = variables_text(game, view)
        parts: list[RenderableType] = [header(game, view), *boards, *lines]
        parts += [p for p in (variables, moved, _log_part(entries, LOG_LINES, log_title),
                              prompt) if p is not None]
        if options:
            parts.append(options_unfitted(options, what))
        return TurnScreen(Group(*parts), range(len(options)))
    room = height - 1  # the prompt's line
    fixed = 1 + (height_of(console, prompt, width) if prompt else 0)
    if moved is not None:  # the legend of the marks on the board: kept with the board
        fixed += height_of(console, moved, width)
    smallest = min((height_of(console, f, width) for f in options_forms(options, what)),
                   default=0)
    log_least = min(len(entries), 2) + (1 if entries else 0)
    boards, lines = zones_split(game, view, colour)
    variables = variables_text(game, view)
    side: list[RenderableType] = [*lines, *([variables] if variables else [])]
    table: RenderableType = Group(*boards, *side)
    if fixed + height_of(console, table, width) + smallest + log_least > room:
        boards, lines = zones_split(game, view, colour, compact=True)
        side = [*([variables] if variables else []), *lines]
        table = _arranged(console, boards, side, width,
                          room - fixed - smallest - log_least)
    left = room - fixed - height_of(console, table, width)
    parts = [header(game, view), table, *([moved] if moved is not None else [])]
    if entries:
        most = max(min(len(entries), 2), min(LOG_LINES, left - smallest - 1))
        shown_log = _log_part(entries, most, log_title)
        if shown_log is not None:
            parts.append(shown_log)
            left -= height_of(console, shown_log, width)
    if prompt is not None:
        parts.append(prompt)
    shown = range(len(options))
    if options:
        form, _, shown = fit_options(console, options, left, width, what, start)
        parts.append(form)
    return TurnScreen(Group(*parts), shown)


def _arranged(console: Console, boards: list[RenderableType], side: list[RenderableType],
              width: int, room: int) -> RenderableType:
    """Boards with the piles, hands and variables in at most `room` lines if it can be
    done: beside the board when that fits, else below it, as many lines as there is
    room for and a note that `state` shows the rest."""
    beside = _beside(console, boards, side, width)
    if beside is not None and height_of(console, beside, width) <= room:
        return beside
    stacked = Group(*boards, *side)
    if height_of(console, stacked, width) <= room:
        return stacked
    used = height_of(console, Group(*boards), width) + 1  # the note's line
    kept: list[RenderableType] = []
    for item in side:
        h = height_of(console, item, width)
        if used + h > room:
            break
        kept.append(item)
        used += h
    note = Text(f"({len(side) - len(kept)} more lines: type `state` to see them)",
                style="dim")
    return Group(*boards, *kept, note)


def _log_part(entries: list[Text], limit: int, title: str) -> RenderableType | None:
    """The title and the newest `limit` lines of the log, saying how many were left
    out and that `log` shows them."""
    if not entries or limit <= 0:
        return None
    if len(entries) <= limit:
        return Group(Text(title, style="bold"), *entries)
    return Group(Text(f"{title} (… {len(entries) - limit} earlier: type `log`)",
                      style="bold"), *entries[-limit:])
