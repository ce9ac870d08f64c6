"""Drawing a seat's view with Rich: boards, piles, variables, the log, options, results.

Everything here is drawn from `interpreter.run.view.view(...)` plus static game
metadata (zone labels and kinds, attribute names, short names and styles), never from
a raw state, so a player's screen cannot show what their seat may not know. User text
(labels, notations, log lines) is always wrapped in `Text`, never parsed as markup.
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from interpreter.play.game import Game, Option, show_value
from interpreter.run.view import (
    COUNT_ABOVE,
    ROW_OF_SLOTS,
    alike,
    chose_text,
    is_empty,
    last_move_words,
    one_kind,
    place_words,
)
from interpreter.view.shown import shown_variables, value_words, variable_lines

EMPTY = "·"
HIDDEN = "?"
LOG_LINES = 16
"""How many log lines at most to show between two of a person's decisions."""

MANY_OPTIONS = 30
"""Above this many options, list them compactly (notations only) in columns."""


# -- pieces ----------------------------------------------------------------------------

def _short(game: Game, attr: str, value: Any) -> str:
    decl = game.ruleset.pieces.attributes.get(attr)
    if decl is not None and value in decl.short:
        return str(decl.short[value])
    return str(value)


def _style(game: Game, piece: dict[str, Any]) -> str | None:
    attr = game.ruleset.pieces.style
    if attr is None or attr not in piece:
        return None
    return game.value_styles.get(attr, {}).get(piece[attr])


def piece_letter(game: Game, piece: dict[str, Any], colour: bool = True) -> str:
    """A piece's letter: its glyph attribute's short name (S, M, L). Without colours the
    style attribute's short name goes in front (rS), so pieces stay distinguishable."""
    if piece.get("hidden"):
        return HIDDEN
    decl = game.ruleset.pieces
    if decl.glyph is not None and decl.glyph in piece:
        letter = _short(game, decl.glyph, piece[decl.glyph])
    else:
        others = [a for a in game.attribute_order if a in piece and a != decl.style]
        first = others[0] if others else next(iter(piece), None)
        letter = _short(game, first, piece[first]) if first is not None else HIDDEN
    if not colour and decl.style is not None and decl.style in piece and letter != _short(
            game, decl.style, piece[decl.style]):
        letter = _short(game, decl.style, piece[decl.style]) + letter
    return letter


def piece_text(game: Game, piece: dict[str, Any], colour: bool = True) -> Text:
    """One piece as a coloured glyph; hidden pieces as a dim question mark."""
    if piece.get("hidden"):
        return Text(HIDDEN, style="dim")
    return Text(piece_letter(game, piece, colour), style=(_style(game, piece) or "") if colour
                else "")


def stack_text(game: Game, place: dict[str, Any], colour: bool = True) -> Text:
    """A stack bottom → top, as it stands on the table; `?` when the seat may not look.
    A place the last move changed is marked (see `marked`)."""
    pieces = place.get("pieces")
    if pieces is None:
        count = place.get("count")
        text = Text(f"{count}{HIDDEN}" if count else HIDDEN, style="dim")
    elif not pieces:
        text = Text(EMPTY, style="dim")
    else:
        sep = "" if colour else " "
        text = Text(sep).join(piece_text(game, p, colour) for p in pieces)
    return marked(text, place)


MARK_STYLES = {"to": "reverse", "revealed": "reverse", "from": "underline"}
"""How a place the last move changed is drawn: where pieces went (or were turned up) in
reverse video, where they came from underlined; the legend line says which is which."""


def marked(text: Text, place: dict[str, Any]) -> Text:
    """`text` drawn as its place's part in the last move (unchanged when it had none)."""
    style = MARK_STYLES.get(place.get("mark", ""))
    if style is not None:
        text.stylize(style)
    return text


def _order_key(game: Game, attr: str | None, value: Any) -> tuple[int, str]:
    decl = game.ruleset.pieces.attributes.get(attr) if attr else None
    if decl is not None and value in decl.values:
        return (decl.values.index(value), "")
    return (len(decl.values) if decl else 0, str(value))


def list_pieces(game: Game, pieces: Sequence[dict[str, Any]], colour: bool = True) -> Text:
    """Pieces by name, identical ones counted (`2 × red fish size 1 · fern plant`): for
    games whose pieces have no glyph (cards)."""
    hidden = sum(1 for p in pieces if p.get("hidden"))
    counted: dict[str, tuple[int, dict[str, Any]]] = {}
    for p in pieces:
        if not p.get("hidden"):
            same = game.piece_like(p)
            name = game.piece_names[same] if same is not None else " ".join(map(str, p.values()))
            face = card_words(game, p)
            if face:
                name = f"{name} ({face})"
            n, _ = counted.get(name, (0, p))
            counted[name] = (n + 1, p)
    parts = [Text(f"{n} × {name}" if n > 1 else name,
                  style=(_style(game, sample) or "") if colour else "")
             for name, (n, sample) in counted.items()]
    if hidden:
        parts.append(Text(hidden_pieces(pieces), style="dim"))
    return Text(" · ").join(parts) if parts else Text("nothing", style="dim")


def card_words(game: Game, piece: dict[str, Any]) -> str:
    """What a card shows besides its name, as its face draws it: its corner and its
    icons repeated (`$3 ★★`); else its `face` attributes (`$3 2★`)."""
    card = game.piece_card(piece)
    if card is not None and (card.corner or card.icons):
        return " ".join(part for part in (card.corner, card.icons) if part)
    return game.piece_face(piece)


def hidden_pieces(pieces: Sequence[dict[str, Any]]) -> str:
    """`3 hidden`, or by back where the game declares them: `2 hidden (Goal card)`."""
    backs = Counter(p.get("back") for p in pieces if p.get("hidden"))
    if list(backs) == [None]:
        return f"{backs[None]} hidden"
    return ", ".join(f"{n} hidden" + (f" ({back})" if back else "")
                     for back, n in sorted(backs.items(), key=lambda b: str(b[0])))


def summarise_pieces(game: Game, pieces: Sequence[dict[str, Any]],
                     colour: bool = True) -> Text:
    """Pieces grouped by colour (the style attribute), e.g. `red S 2M L · blue S`; pieces
    without a glyph (cards) by name."""
    glyph_attr = game.ruleset.pieces.glyph
    if glyph_attr is None:
        return list_pieces(game, pieces, colour)
    named = [p for p in pieces if not p.get("hidden") and glyph_attr not in p]
    if named:  # pieces without a glyph (cards in a game of pyramids) go by name
        rest = [p for p in pieces if p.get("hidden") or glyph_attr in p]
        listed = list_pieces(game, named, colour)
        return Text(" · ").join([listed, summarise_pieces(game, rest, colour)]) if rest \
            else listed
    style_attr = game.ruleset.pieces.style
    hidden = sum(1 for p in pieces if p.get("hidden"))
    groups: dict[Any, Counter[str]] = {}
    samples: dict[tuple[Any, str], dict[str, Any]] = {}
    for p in pieces:
        if p.get("hidden"):
            continue
        key = p.get(style_attr) if style_attr else None
        letter = piece_letter(game, p, colour=True)
        groups.setdefault(key, Counter())[letter] += 1
        samples.setdefault((key, letter), p)
    parts: list[Text] = []
    for key in sorted(groups, key=lambda k: _order_key(game, style_attr, k)):
        part = Text()
        if key is not None:
            part.append(show_name(game, key), style=(game.value_styles.get(style_attr or "", {})
                                                      .get(key) or "") if colour else "")
            part.append(" ")

        def letter_key(letter: str, key: Any = key) -> tuple[int, str]:
            sample = samples[(key, letter)]
            return _order_key(game, glyph_attr, sample.get(glyph_attr)) if glyph_attr else (
                0, letter)
        letters = []
        for letter in sorted(groups[key], key=letter_key):
            n = groups[key][letter]
            sample = samples[(key, letter)]
            count = (f"{n}×" if letter[:1].isdigit() else f"{n}") if n > 1 else ""
            letters.append(Text(count + letter,
                                style=(_style(game, sample) or "") if colour else ""))
        part.append(Text(" ").join(letters))
        parts.append(part)
    if hidden:
        parts.append(Text(hidden_pieces(pieces), style="dim"))
    if not parts:
        return Text("nothing", style="dim")
    return Text(" · ").join(parts)


def show_name(game: Game, value: Any) -> str:
    """An attribute value's display name (3 → large) where the ruleset gives one."""
    return game.value_names.get(value, str(value)) if isinstance(value, int) else str(value)


# -- zones -----------------------------------------------------------------------------

def grid_table(game: Game, title: str, places: dict[str, Any], rows: int, cols: int,
               colour: bool = True, compact: bool = False) -> RenderableType:
    """A grid drawn as a board: top row = highest row number, column letters below.
    `compact` leaves out the lines between rows, so a board fits a small terminal."""
    table = Table(box=box.SQUARE, show_header=False, show_footer=True,
                  show_lines=not compact, padding=(0, 1))
    table.add_column(footer="", justify="right", style="dim", no_wrap=True,
                     min_width=len(str(rows)))
    for c in range(cols):
        table.add_column(footer=Text(string.ascii_lowercase[c], style="dim"),
                         justify="center", overflow="fold", min_width=1)
    cells = list(places.values())
    for r in reversed(range(rows)):
        row = [stack_text(game, cells[r * cols + c], colour) if r * cols + c < len(cells)
               else Text("") for c in range(cols)]
        table.add_row(Text(str(r + 1)), *row)
    if compact:  # the legend goes with the piles (zones_split), so the board stays narrow
        return Group(Text(title, style="bold"), table)
    key = legend(game, stacked(places.values()), colour)
    return Group(Text(title, style="bold"), table, *([key] if key.plain else []))


def stacked(places: Iterable[dict[str, Any]]) -> bool:
    """Whether some place holds more than one piece (then its stack needs reading)."""
    return any(len(place.get("pieces") or ()) > 1 or (place.get("count") or 0) > 1
               for place in places)


def legend(game: Game, stacks: bool = True, colour: bool = True) -> Text:
    """How to read the pieces: the glyph letters, what a letter's colour (or, without
    colours, its first letter) says, and, only when some place holds a stack (`stacks`),
    that stacks read bottom to top."""
    pieces = game.ruleset.pieces
    said = ["Stacks read bottom to top"] if stacks else []
    for attr in dict.fromkeys([pieces.glyph] + ([pieces.style] if not colour else [])):
        decl = attr and pieces.attributes.get(attr)
        keys = [(decl.short[v], str(decl.names.get(v, v))) for v in decl.values
                if v in decl.short] if decl and decl.short else []
        if any(short.lower() != name.lower() for short, name in keys):  # not `X = X`
            said.append(", ".join(f"{short} = {name}" for short, name in keys))
    lettered = pieces.glyph or next((a for a in game.attribute_order if a != pieces.style),
                                    pieces.style)
    if colour and pieces.style and lettered != pieces.style:  # else the letter says it
        said.append(f"the letters' colour shows the piece's {pieces.style}")
    text = "; ".join(said)
    return Text(text[:1].upper() + text[1:] + ("." if text else ""), style="dim")


def slots_table(game: Game, title: str, places: dict[str, Any],
                colour: bool = True) -> RenderableType:
    """Numbered places without geometry: a row (of pits, of market places: see
    ROW_OF_SLOTS) in order, else (a field) the places that hold something, one per line,
    and how many are empty."""
    if len(places) <= ROW_OF_SLOTS:
        return slots_row(game, title, places, colour)
    used = {name: place for name, place in places.items()
            if place.get("pieces") or place.get("count", 1)}
    empty = len(places) - len(used)
    heading = Text(title, style="bold")
    if empty:
        heading.append(f"  ({empty} of {len(places)} places empty)", style="dim")
    if not used:
        return heading
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(style="dim", no_wrap=True)
    table.add_column(overflow="fold")
    for name, place in used.items():
        table.add_row(Text(name), stack_text(game, place, colour))
    return Group(heading, table)


def slots_row(game: Game, title: str, places: dict[str, Any],
              colour: bool = True) -> RenderableType:
    """A row of places, every one in order under its number, empty ones included. In a
    game whose pieces are all alike (a sowing game's seeds) each place shows its count,
    `[4] [0] [5]`; else its pieces, a place holding more than COUNT_ABOVE alike pieces
    counted (`[7×o]`)."""
    counts = one_kind(game)
    table = Table(box=None, show_header=True, header_style="dim", padding=(0, 1, 0, 0))
    cells = []
    for name, place in places.items():
        table.add_column(Text(name.split(":")[-1].split("[")[0]), justify="center",
                         overflow="fold")
        pieces = place.get("pieces")
        if counts and pieces is not None:
            inner = Text(str(len(pieces)))
        elif pieces and len(pieces) > COUNT_ABOVE and alike(pieces):
            inner = Text(f"{len(pieces)}×").append_text(piece_text(game, pieces[0], colour))
        else:
            inner = stack_text(game, place, colour)
        cells.append(Text.assemble(("[", "dim"), inner, ("]", "dim")))
    table.add_row(*cells)
    return Group(Text(title, style="bold"), table)


def _places(game: Game, title: str, data: dict[str, Any], colour: bool,
            compact: bool = False, legends: list[RenderableType] | None = None
            ) -> RenderableType:
    """A zone's places drawn; `compact` draws them in fewer lines, and an open grid's
    legends then go into `legends`, to go with the piles."""
    if data.get("reach") is not None:  # an open grid: only its used squares are listed
        from interpreter.view.open_grid import open_grid_renderable  # it draws with these
        board, apart = open_grid_renderable(game, title, data, colour, legends=not compact)
        if apart is not None and legends is not None:
            legends.append(apart)
        return board
    if data.get("kind") == "grid":
        return grid_table(game, title, data["places"], data["rows"], data["cols"], colour,
                          compact)
    if data.get("kind") == "hex":
        from interpreter.view.hex_board import hex_board  # it draws with these
        return hex_board(game, title, data, colour, compact)
    return slots_table(game, title, data["places"], colour)


def pile_count(place: dict[str, Any], game: Game | None = None, colour: bool = True) -> Text:
    """A pile the seat may not look into: how many, of which backs, and (given the game)
    the pieces shown to this seat alone (`show`)."""
    count = place.get("count")
    backs = place.get("backs")
    if count is None:
        out = Text("? pieces", style="dim")
    elif backs:  # face down, each showing its back
        out = Text(" · ".join(f"{n} × {back}" for back, n in backs.items()))
    else:
        out = Text(f"{count} piece{'s' if count != 1 else ''}")
    shown = place.get("shown")
    if shown and game is not None:
        out.append_text(Text.assemble(" — shown to you: ",
                                      list_pieces(game, shown, colour)))
    return out


def zones_renderables(game: Game, view: dict[str, Any], colour: bool = True
                      ) -> list[RenderableType]:
    """The zones on the table: boards first, then shared piles, then each seat's own
    piles under its name (empty ones left out; the viewer's own marked 'you')."""
    boards, lines = zones_split(game, view, colour)
    return [*boards, *lines]


def zones_split(game: Game, view: dict[str, Any], colour: bool = True, compact: bool = False,
                everything: bool = False
                ) -> tuple[list[RenderableType], list[RenderableType]]:
    """The zones' boards, and the lines for piles and hands (see zones_renderables);
    `everything` adds the zones kept off the table (for the `state` command).
    `compact` (a screen short of lines, which keeps the first lines that fit): boards
    drawn smaller, the viewer's own piles first and the boards' legends last."""
    boards: list[RenderableType] = []
    lines: list[Text] = []
    legends: list[RenderableType] = []
    by_seat: dict[int, list[Text]] = {}
    marks = (view.get("last_move") or {}).get("marks") or {}
    for zone_id, data in _marked_zones(game, view["zones"], marks).items():
        info = game.zones[zone_id]
        if not info.on_table and not everything:
            continue
        if info.per_seat:
            for owner, part in data.items():
                who = game.seat_name(int(owner))
                if "places" in part:
                    boards.append(_places(game, f"{info.label} — {who}", part, colour,
                                          compact, legends))
                    continue
                mine = by_seat.setdefault(int(owner), [])
                if is_empty(part):
                    continue
                line = Text.assemble("  ", marked(Text(f"{info.label}:", "bold"), part), " ")
                if "pieces" in part:
                    line.append_text(summarise_pieces(game, part["pieces"], colour))
                else:
                    line.append_text(pile_count(part, game, colour))
                mine.append(line)
        elif "places" in data:
            boards.append(_places(game, info.label, data, colour, compact, legends))
        elif "pieces" in data:  # face up: its pieces (by glyph, or cards by name)
            lines.append(Text.assemble(marked(Text(f"{info.label}:", "bold"), data), " ",
                                       summarise_pieces(game, data["pieces"], colour)))
        else:
            lines.append(Text.assemble(marked(Text(f"{info.label}:", "bold"), data), " ",
                                       pile_count(data, game, colour)))
    mine: list[Text] = []
    for seat, seat_lines in by_seat.items():
        title = game.seat_name(seat) + (" (you)" if seat == view.get("seat") else "")
        if seat in view.get("eliminated", ()):
            title += " — out of the game"
        block = [Text(title + ("" if seat_lines else ": nothing"), style="bold underline"),
                 *seat_lines]
        if compact and seat == view.get("seat"):
            mine = block  # short of room, what is yours comes first (lines are cut last)
        else:
            lines.extend(block)
    lines[:0] = mine
    drawn = [data for data in _boards_data(game, view)
             if data.get("kind") in ("grid", "hex") and data.get("reach") is None]
    if compact and drawn:
        key = legend(game, any(stacked(d["places"].values()) for d in drawn), colour)
        lines += [key] if key.plain else []
    return boards, [*lines, *legends]


def _marked_zones(game: Game, zones: dict[str, Any], marks: dict[str, str]
                  ) -> dict[str, Any]:
    """The view's zones with each place the last move changed carrying its part
    (`"mark": "to"`), copied where marked (the view itself is left as it is)."""
    if not marks:
        return zones
    out: dict[str, Any] = {}
    for zone_id, data in zones.items():
        info = game.zones[zone_id]
        if info.per_seat:
            out[zone_id] = {owner: _mark_part(game, info, part, marks, int(owner))
                            for owner, part in data.items()}
        else:
            out[zone_id] = _mark_part(game, info, data, marks, None)
    return out


def _mark_part(game: Game, info: Any, data: dict[str, Any], marks: dict[str, str],
               owner: int | None) -> dict[str, Any]:
    if "places" in data:
        places = {name: {**place, "mark": marks[name]} if name in marks else place
                  for name, place in data["places"].items()}
        return {**data, "places": places}
    site = info.site_for(owner) if owner is not None else info.first
    name = game.site_name[site]
    return {**data, "mark": marks[name]} if name in marks else data


def last_move_text(game: Game, view: dict[str, Any]) -> Text | None:
    """The legend of the last move marked on the board, its places drawn as the board
    marks them (so it needs no key): `Last move (Player 2): yellow large: Pieces left
    (Player 2) → c1`; None when the seat saw nothing of it."""
    move = view.get("last_move")
    said = last_move_words(game, move)
    if said is None:
        return None
    head, _, rest = said.partition(": ")
    text = Text(rest)
    assert move is not None
    for part in ("from", "to"):  # where pieces went wins over where they came from
        names = {place_words(game, m[part]) for m in move["moves"] if m[part]}
        if part == "to":
            names |= {place_words(game, p) for p in move["revealed"]}
        text.highlight_words(sorted(names), MARK_STYLES[part])
    return Text.assemble((f"{head}: ", "bold"), text)


def _boards_data(game: Game, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The views of the zones drawn as boards (places with a layout)."""
    out = []
    for zone_id, data in view["zones"].items():
        if not game.zones[zone_id].on_table:
            continue
        parts = data.values() if game.zones[zone_id].per_seat else [data]
        out += [p for p in parts if isinstance(p, dict) and "places" in p]
    return out


def variables_text(game: Game, view: dict[str, Any], everything: bool = False
                   ) -> Text | None:
    """The variables players see (`interpreter.view.shown`), one line each under its
    label, e.g. `Your secret colour: green` or `Beads: 15 (you) · Player 2: 12`;
    `everything` (the `state` command) adds the rules' bookkeeping, by its id."""
    lines = [Text.assemble((f"{label}: ", "bold"), text)
             for label, text in variable_lines(game, view)]
    if everything:
        shown = {v.id for v in shown_variables(game)}
        for var_id, value in view["variables"].items():
            if var_id in shown:
                continue
            var = game.variables[var_id]
            text = (" · ".join(f"{game.seat_name(int(s))}: {value_words(game, var, v)}"
                               for s, v in value.items())
                    if var.per_seat else value_words(game, var, value))
            lines.append(Text.assemble((f"{var.label}: ", "bold"), text,
                                       (" (the rules' bookkeeping)", "dim")))
    return Text("\n").join(lines) if lines else None


# -- log, options, results -----------------------------------------------------------------

def log_lines(game: Game, entries: Sequence[dict[str, Any]]) -> list[Text]:
    """Log entries from a view as lines: decisions by seat, and what the rules said."""
    out = []
    for entry in entries:
        if "say" in entry and entry["say"] is None:  # names a card this seat cannot see now
            out.append(Text("  (a message about something hidden from you)", style="dim"))
        elif "say" in entry:
            out.append(Text("  " + str(entry["say"]), style="italic"))
        else:
            out.append(decision_text(game, entry))
    return out


def decision_text(game: Game, entry: dict[str, Any]) -> Text:
    """A decision in the option's words, the notation to type for it dim beside them."""
    said, notation = chose_text(game.seat_name(entry["seat"]), entry)
    line = Text(said)
    if notation is not None:
        line.append(f"  {notation}", style="dim")
    return line


def log_panel(game: Game, entries: Sequence[dict[str, Any]], limit: int = LOG_LINES,
              title: str = "Since your last move:") -> RenderableType | None:
    """The last `limit` log lines, saying how many earlier ones were left out."""
    lines = log_lines(game, entries)
    if not lines:
        return None
    shown = lines[-limit:]
    if len(lines) > limit:
        shown.insert(0, Text(f"… {len(lines) - limit} earlier", style="dim"))
    return Group(Text(title, style="bold"), *shown)


def header(game: Game, view: dict[str, Any]) -> Text:
    who = ", ".join(game.seat_name(s) for s in view["deciding"]) or "nobody"
    if view["over"]:
        return Text(f"{game.title} — game over after turn {view['turn']}", style="bold")
    out = view.get("eliminated")
    return Text.assemble((game.title, "bold"), f" — turn {view['turn']} — ",
                         (f"{who} to decide", "bold cyan"),
                         f" (you are {game.seat_name(view['seat'])})",
                         (" — out: " + ", ".join(game.seat_name(s) for s in out), "dim")
                         if out else "")


def render_view(game: Game, view: dict[str, Any], log: Sequence[dict[str, Any]] = (),
                colour: bool = True, log_title: str = "Since your last move:"
                ) -> RenderableType:
    """A seat's whole screen: header, zones, variables, recent log, prompt."""
    parts: list[RenderableType] = [header(game, view), *zones_renderables(game, view, colour)]
    variables = variables_text(game, view)
    if variables is not None:
        parts.append(variables)
    moved = last_move_text(game, view)
    if moved is not None:
        parts.append(moved)
    recent = log_panel(game, log, title=log_title)
    if recent is not None:
        parts.append(recent)
    if view.get("prompt"):
        parts.append(Text(str(view["prompt"]), style="bold cyan"))
    return Group(*parts)


def options_renderable(options: Sequence[Option], full: bool = False) -> RenderableType:
    """The legal options numbered from 1: notation and label, or only notations in
    columns when there are many (`full` lists every label anyway)."""
    if len(options) > MANY_OPTIONS and not full:
        cells = [Text.assemble((f"{i:>3} ", "dim"), (o.notation, "bold"))
                 for i, o in enumerate(options, start=1)]
        return Group(Columns(cells, padding=(0, 2)),
                     Text("(type 'options' to see what each one does)", style="dim"))
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(justify="right", style="dim", no_wrap=True)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for i, o in enumerate(options, start=1):
        table.add_row(str(i), Text(o.notation), Text(o.label))
    return table


def result_renderable(game: Game, view: dict[str, Any]) -> RenderableType:
    """Winners (or a draw), the reason and the scores of a finished game."""
    winners = view.get("winners") or []
    if len(winners) == 1:
        line = Text(f"{game.seat_name(winners[0])} wins!", style="bold green")
    elif winners:
        line = Text("Draw between " + ", ".join(game.seat_name(s) for s in winners) + ".",
                    style="bold yellow")
    else:
        line = Text("Nobody wins.", style="bold yellow")
    parts: list[RenderableType] = [line]
    if view.get("reason"):
        parts.append(Text(str(view["reason"])))
    scores = view.get("scores")
    if scores:
        parts.append(Text("Scores: " + ", ".join(
            f"{game.seat_name(int(s))} {show_value(game, v)}" for s, v in scores.items())))
    return Group(*parts)


def rulings_renderable(game: Game) -> RenderableType:
    """The ruleset's rulings, for `help` during play."""
    rulings = game.ruleset.rulings
    if not rulings:
        return Text("This game lists no rulings.", style="dim")
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for r in rulings:
        table.add_row(Text(r.id), Text(" ".join(r.text.split())))
    return Group(Text("Rulings:", style="bold"), table)
