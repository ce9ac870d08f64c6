"""What one seat may know: the only picture of a game that UIs and agents receive.

Visibility is declared in the ruleset (zones' `contents` and `count`, variables'
`visible_to`, `reveal_at_end`, secret decisions) and applied here. A view names no
piece ids, so nothing hidden can be recovered from it: visible pieces are described by
their attributes, hidden ones not at all. Pieces and places are plain numbers while the
game runs, so a variable that holds them says so (`holds: pieces` or `places`) and its
pieces are shown as the seat sees them, its places by name. Two states that differ
only in what a seat may not see give that seat identical views.
"""

from __future__ import annotations

import json
import re
import weakref
from typing import TYPE_CHECKING, Any

from interpreter.errors import RuleError
from interpreter.run.budget import describe
from interpreter.run.state import EMPTY, State

if TYPE_CHECKING:
    from interpreter.play.game import Game
    from interpreter.run.tables import VariableInfo, ZoneInfo

HIDDEN_PIECE: dict[str, Any] = {"hidden": True}
NO_BACK = "(no back)"
"""How pieces whose set declares no back are counted among pieces that have one."""


def hidden_piece(game: Game, piece: int) -> dict[str, Any]:
    """How a concealed piece appears: there is a piece, and its back when its set
    declares one (as a card's back shows which deck it is from); nothing more."""
    back = game.piece_backs[piece]
    return HIDDEN_PIECE if back is None else {"hidden": True, "back": back}

SPECTATOR = 0
"""A seat number for someone who sits at no seat (sees only what everyone sees)."""


def _may_see(rule: str, owner: int | None, seat: int, over: bool, reveal: bool) -> bool:
    if over and reveal:
        return True
    if rule == "everyone":
        return True
    if rule == "owner":
        return owner is not None and owner == seat
    return False


def describe_piece(game: Game, piece: int, state: State | None = None,
                   hidden: _HiddenPieces | None = None) -> dict[str, Any]:
    """A visible piece: its attributes, and (given the state) its per-piece variables,
    those that hold pieces or places shown as `hidden`'s seat sees them."""
    out = {attr: game.attributes[attr][piece] for attr in game.attribute_order
           if game.attributes[attr][piece] is not None}
    if game.has_data_lists:  # a card's data lists: copies (the game's are never changed)
        out = {attr: _copied(v) for attr, v in out.items()}
    if state is not None and state.piece_vars:
        for var, values in state.piece_vars.items():
            if values[piece] is not None:
                out[var] = held(game, state, game.variables[var], values[piece], hidden)
    return out


def _copied(value: Any) -> Any:
    """A piece's data as a view shows it: lists copied, lists inside lists too."""
    if type(value) is list:
        return [_copied(v) for v in value]
    return value


def held(game: Game, state: State, var: VariableInfo, value: Any,
         hidden: _HiddenPieces | None) -> Any:
    """A variable's value as `hidden`'s seat may see it: when the variable holds pieces,
    each described (or hidden, with its back), when it holds places, each by its name;
    lists and null as they are. A piece held by a piece's own variable is described by
    its attributes alone."""
    if var.holds is None or var.holds == "seats":  # seats are public numbers
        return value
    if isinstance(value, list | tuple):
        return [held(game, state, var, v, hidden) for v in value]
    if value is None:
        return None
    if type(value) is int and var.holds == "places" and 0 <= value < len(game.site_name):
        return game.site_name[value]
    if type(value) is int and var.holds == "pieces" and 0 <= value < game.n_pieces:
        if hidden is not None and hidden.hidden(value):
            return hidden_piece(game, value)
        return describe_piece(game, value, None if var.per_piece else state, hidden)
    what = "piece" if var.holds == "pieces" else "place"
    raise RuleError(f"the variable '{var.id}' holds {var.holds}, but its value has "
                    f"{describe(value)}, which is not a {what}").at(
        var.holds_loc, f"the variable '{var.id}'", game.source_line(var.holds_loc)
    ).during(state.decisions, game.variant)


def _place(game: Game, state: State, zone: ZoneInfo, site: int, seat: int,
           hidden: _HiddenPieces) -> dict[str, Any]:
    owner = game.site_owner[site]
    stack = state.sites.get(site, EMPTY)
    out: dict[str, Any] = {}
    if _may_see(zone.count, owner, seat, state.over, zone.reveal_at_end):
        out["count"] = len(stack)
        if (stack and game.has_backs
                and not _may_see(zone.contents, owner, seat, state.over, zone.reveal_at_end)):
            out["backs"] = backs(game, stack)
    if _may_see(zone.contents, owner, seat, state.over, zone.reveal_at_end):
        out["count"] = len(stack)
        conceal = None if state.over and zone.reveal_at_end else zone.conceal
        if conceal is None:
            out["pieces"] = [describe_piece(game, p, state, hidden) for p in stack]
        else:
            env = game.env(state)
            env.temps["place"], env.temps["viewer"] = site, seat
            shown = []
            for p in stack:
                env.temps["piece"] = p
                shown.append(hidden_piece(game, p) if _concealed(game, zone, conceal, env)
                             and not shown_to(state, p, seat)
                             else describe_piece(game, p, state, hidden))
            out["pieces"] = shown
    elif state.shown and stack:
        mine = [p for p in stack if shown_to(state, p, seat)]
        if mine:  # shown to this seat alone (`show`): which pieces, not where in the pile
            out["shown"] = [describe_piece(game, p, state, hidden) for p in mine]
    return out


def shown_to(state: State, piece: int, seat: int) -> bool:
    """Whether `piece` was shown to `seat` (`show`) and has not moved since."""
    seats = state.shown.get(piece)
    return seats is not None and seat in seats


def backs(game: Game, stack: list[int]) -> dict[str, int]:
    """How many pieces of each back a pile of face-down pieces holds (what a player sees
    of a hand they may not look at), by back in alphabetical order."""
    counts: dict[str, int] = {}
    for p in stack:
        back = game.piece_backs[p] or NO_BACK
        counts[back] = counts.get(back, 0) + 1
    return dict(sorted(counts.items()))


def _concealed(game: Game, zone: ZoneInfo, conceal: Any, env: Any) -> bool:
    try:
        return bool(conceal(env))
    except RuleError as exc:
        loc = zone.conceal_loc
        raise exc.at(loc, f"the 'conceal' condition of zone '{zone.id}'",
                     game.source_line(loc)).during(env.state.decisions, game.variant) from None


def view(game: Game, state: State, seat: int, before: State | None = None
         ) -> dict[str, Any]:
    """Everything `seat` may know about `state`, as JSON-ready data; given `before`, the
    state just before the last decision, also what that decision changed that the seat
    may know (`last_move`, see `last_move`), for a screen to mark on the board."""
    try:
        seen = _view(game, state, seat)
        if before is not None:
            seen["last_move"] = last_move(game, before, state, seat)
        return seen
    except RecursionError:
        raise RuleError("a value in this game is nested too deeply to be shown (a list "
                        "inside a list, hundreds of levels down)") from None


def _view(game: Game, state: State, seat: int) -> dict[str, Any]:
    over = state.over
    hidden = _HiddenPieces(game, state, seat)
    zones: dict[str, Any] = {}
    for zone in game.zones.values():
        if zone.per_seat:
            zones[zone.id] = {
                str(owner): _place_or_places(game, state, zone, owner, seat, hidden)
                for owner in range(1, min(state.players, zone.owners) + 1)}
        elif zone.kind == "pile":
            zones[zone.id] = _place(game, state, zone, zone.first, seat, hidden)
        elif zone.reach is not None:  # an open grid: everyone counts it, so list what is used
            sites = state.sites
            zones[zone.id] = _places(game, state, zone, [
                s for s in range(zone.first, zone.first + zone.per_owner) if sites.get(s)], seat,
                hidden)
            zones[zone.id]["reach"] = zone.reach
        else:
            zones[zone.id] = _places(game, state, zone, zone.sites_in_play(state.players), seat,
                                     hidden)
    variables = {}
    for var in game.variables.values():
        if var.per_piece:
            continue  # shown with each piece the seat may see
        if var.per_seat:
            variables[var.id] = {
                str(s): held(game, state, var, state.seat_vars[var.id][s - 1], hidden)
                for s in range(1, state.players + 1)
                if _may_see(var.visible_to, s, seat, over, var.reveal_at_end)}
        elif _may_see(var.visible_to, None, seat, over, var.reveal_at_end):
            variables[var.id] = held(game, state, var, state.vars[var.id], hidden)
    deciding = game.deciding_seats(state)
    decision = game.decision(state)
    return {
        "game": game.name,
        "seat": seat,
        "players": state.players,
        "current": state.current,
        "turn": state.turn,
        "zones": zones,
        "variables": variables,
        "deciding": deciding,
        "eliminated": list(state.out),
        "prompt": decision.prompt if decision is not None and seat in deciding else None,
        "log": redacted_log(game, state, seat, hidden),
        "over": over,
        "winners": state.winners,
        "reason": state.reason,
        "scores": _scores(game, state),
    }


def _scores(game: Game, state: State) -> dict[str, Any] | None:
    scores = game.scores(state) if state.over else None
    return None if scores is None else {str(k): v for k, v in scores.items()}


def _places(game: Game, state: State, zone: ZoneInfo, sites: list[int],
            seat: int, hidden: _HiddenPieces) -> dict[str, Any]:
    return {
        "kind": zone.kind,
        "rows": zone.rows,
        "cols": zone.cols,
        "places": {game.site_name[s]: _place(game, state, zone, s, seat, hidden)
                   for s in sites},
    }


def _place_or_places(game: Game, state: State, zone: ZoneInfo, owner: int,
                     seat: int, hidden: _HiddenPieces) -> dict[str, Any]:
    first = zone.site_for(owner)
    if zone.per_owner == 1:
        return _place(game, state, zone, first, seat, hidden)
    sites = list(range(first, first + zone.per_owner))
    if zone.reach is None:
        return _places(game, state, zone, sites, seat, hidden)
    out = _places(game, state, zone, [s for s in sites if state.sites.get(s)], seat, hidden)
    out["reach"] = zone.reach
    return out


def redacted_log(game: Game, state: State, seat: int,
                 hidden: _HiddenPieces | None = None) -> list[dict[str, Any]]:
    """The log as `seat` may read it now.

    Others' secret choices stay hidden until the end, lines told to other seats are left
    out, and a line whose text describes a piece that `seat` may not see *now* (a card
    turned face down, a piece covered in memory mode) is hidden too: otherwise the log
    would rebuild what the view conceals. A line on the record stays readable for the
    seats that saw its pieces when it was written, and for a spectator when every seat
    did (the pieces were on the open table, where a spectator sees them too).
    """
    out: list[dict[str, Any]] = []
    hidden = hidden or _HiddenPieces(game, state, seat)
    for entry in state.log_entries():
        if entry[0] == "decision":
            who, notation, secret = entry[1], entry[2], entry[3]
            pieces = entry[4] if len(entry) > 4 else ()
            if (secret and who != seat and not state.over) or hidden.any(pieces):
                out.append({"seat": who, "decision": None})
                continue
            line = {"seat": who, "decision": notation}
            # the option's words, as the options list showed them, unless they name a
            # piece this seat may not see now (the notation alone is then all it reads)
            if len(entry) > 5 and entry[5] != notation and not hidden.any(entry[6]):
                line["words"] = entry[5]
            # and what the option's `said` tells the table, on the same terms
            if len(entry) > 7 and not hidden.any(entry[8]):
                line["said"] = entry[7]
            out.append(line)
        else:
            text, seats = entry[1], entry[2]
            pieces = entry[3] if len(entry) > 3 else ()
            if seats is None or seat in seats or state.over:
                on_record = len(entry) > 4 and (seat in entry[4] or (
                    seat == SPECTATOR and len(entry[4]) == state.players))
                out.append({"say": text if on_record or not hidden.any(pieces) else None})
    return out


def last_move(game: Game, before: State, after: State, seat: int) -> dict[str, Any] | None:
    """What changed on the table from `before` (the state just before the last decision)
    to `after`, as `seat` may know it: each piece that moved, from where to where, and
    each piece turned face up where it lies. A place is named only where the seat saw the
    piece (before the move for where it came from, after it for where it went), and a
    piece only when the seat saw it, so marking the move tells nothing the view hides.
    `marks` gives each place to mark its part: "to", "from" or "revealed". None when
    nothing the seat saw changed."""
    if before.players != after.players or len(before.loc) != len(after.loc):
        return None
    was, now = _HiddenPieces(game, before, seat), _HiddenPieces(game, after, seat)
    moves: list[dict[str, Any]] = []
    revealed: list[str] = []
    marks: dict[str, str] = {}
    for piece, (a, b) in enumerate(zip(before.loc, after.loc, strict=True)):
        if a == b:
            if a >= 0 and was.hidden(piece) and not now.hidden(piece):
                name = game.site_name[a]
                revealed.append(name)
                marks.setdefault(name, "revealed")
            continue
        seen_from = a >= 0 and not was.hidden(piece)
        seen_to = b >= 0 and not now.hidden(piece)
        if not (seen_from or seen_to):
            continue
        move = {"piece": describe_piece(game, piece),
                "from": game.site_name[a] if seen_from else None,
                "to": game.site_name[b] if seen_to else None}
        moves.append(move)
        if move["to"] is not None:
            marks[move["to"]] = "to"
        if move["from"] is not None:
            marks.setdefault(move["from"], "from")
    if not moves and not revealed:
        return None
    decided = [e for e in after.log_entries()[len(before.log_entries()):]
               if e[0] == "decision"]
    # in an order of what the seat sees, never of the pieces' numbers (which tell a
    # shuffled deck's order)
    moves.sort(key=lambda m: (str(m["to"]), str(m["from"]), json.dumps(m["piece"],
                                                                       sort_keys=True)))
    return {"seat": decided[0][1] if decided else None, "moves": moves,
            "revealed": sorted(revealed), "marks": dict(sorted(marks.items()))}


def place_words(game: Game, name: str) -> str:
    """A place as players call it: a board's square by its name, a pile by its zone's
    label (and whose it is)."""
    if name not in game.site_name:
        return name
    site = game.site_name.index(name)
    zone = game.site_zone[site]
    if zone.kind != "pile":
        return name
    label = zone.label
    owner = game.site_owner[site]
    return label if owner is None else f"{label} ({game.seat_name(owner)})"


def last_move_words(game: Game, move: dict[str, Any] | None) -> str | None:
    """A view's `last_move` in words: `Last move (Player 2): yellow large: Pieces left
    (Player 2) → c1` (at most MOVES_SHOWN pieces named); None when there is none."""
    if not move:
        return None
    grouped: dict[tuple[str, str], list[str]] = {}  # alike pieces from one place go together
    for m in move["moves"]:
        same = game.piece_like(m["piece"])
        name = game.piece_names[same] if same is not None else " ".join(
            map(str, m["piece"].values()))
        came = f"{place_words(game, m['from'])} → " if m["from"] else "→ "
        went = place_words(game, m["to"]) if m["to"] else "out of your sight"
        grouped.setdefault((name, came), []).append(went)
    parts = []
    for (name, came), went in grouped.items():
        count = f"{len(went)} × " if len(went) > 1 else ""
        parts.append(f"{count}{name}: {came}{', '.join(dict.fromkeys(went))}")
    parts += [f"turned up on {place_words(game, p)}" for p in move["revealed"]]
    if len(parts) > MOVES_SHOWN:
        parts[MOVES_SHOWN:] = [f"{len(parts) - MOVES_SHOWN} more"]
    who = f" ({game.seat_name(move['seat'])})" if move.get("seat") else ""
    return f"Last move{who}: " + "; ".join(parts)


MOVES_SHOWN = 4
"""The last move's words name at most this many pieces (a deal moves many)."""


def chose_text(who: str, entry: dict[str, Any]) -> tuple[str, str | None]:
    """A decision of a view's log in the game's words, and the notation to type for it
    beside them (None when the words are the notation): the option's `said`
    (`("Player 2 placed a small black on a1", "nS-a1")`), else its label told of the
    chooser (`"Player 2: Put their small black on a1"`: a label speaks to the chooser,
    and the log is read by every seat). What every log (terminal, browser, spectators')
    says, so any ruleset reads the same everywhere."""
    if entry.get("decision") is None:
        return f"{who} decided (secret)", None
    if entry.get("said"):
        return str(entry["said"]), str(entry["decision"])
    words = entry.get("words")
    if not words:
        return f"{who} chose {entry['decision']}", None
    return f"{who}: {told_of(words)}", str(entry["decision"])


def revealed_line(who: str, words: str, notation: str, said: bool = False) -> str:
    """A secret pick revealed, in the option's words (its `said` when `said`, else its
    label told of the chooser) with its notation beside them."""
    if said:
        return f"{words} ({notation})"
    if words == notation:
        return f"{who} revealed {notation}"
    return f"{who} revealed: {told_of(words)} ({notation})"


_SECOND_PERSON = {"you": "they", "your": "their", "yours": "theirs", "yourself": "themselves"}
_YOU = re.compile(r"\b(" + "|".join(_SECOND_PERSON) + r")\b", re.IGNORECASE)


def told_of(label: str) -> str:
    """An option's label (said to the chooser: "Put your small on a1") as the log tells
    it of them ("Put their small on a1"): "you" and "your" in the third person."""
    def third(m: re.Match[str]) -> str:
        word = _SECOND_PERSON[m.group(1).lower()]
        return word.capitalize() if m.group(1)[0].isupper() else word
    return _YOU.sub(third, label)


def is_empty(place: dict[str, Any]) -> bool:
    """Whether a view's pile is known to be empty (its count 0, or no pieces shown)."""
    return place.get("count") == 0 or place.get("pieces") == []


def has_secrets(game: Game) -> bool:
    """Whether some seat may see what another may not: then hot-seat screens are hidden
    from the other players, and a computer player that reads the true state cheats."""
    # What nobody may see (a die under a cover) is no secret between seats; what only
    # its owner may see is.
    return (any("owner" in (z.contents, z.count) for z in game.ruleset.zones)
            or any(v.visible_to == "owner" for v in game.ruleset.variables)
            or any(c.secret for c in game.choices.values()))


def hides_anything(game: Game) -> bool:
    """Whether some seat may not see all there is (a card in a hand or a deck, a die
    under a cover, a secret value or pick): then a computer player that reads the true
    state knows what a person in its seat could not."""
    return (any(z.contents != "everyone" or z.count != "everyone" or z.conceal is not None
                for z in game.ruleset.zones)
            or any(v.visible_to != "everyone" for v in game.ruleset.variables)
            or any(c.secret for c in game.choices.values()))


def witnesses(game: Game, state: State, pieces: tuple[int, ...]) -> tuple[int, ...]:
    """The seats that may see every one of these pieces now (for a line on the record)."""
    return tuple(seat for seat in range(1, state.players + 1)
                 if not _HiddenPieces(game, state, seat).any(pieces))


class _HiddenPieces:
    """Answers 'may this seat not see this piece now?', as the view decides it."""

    def __init__(self, game: Game, state: State, seat: int) -> None:
        self.game, self.state, self.seat = game, state, seat
        self.known: dict[int, bool] = {}
        self.env: Any = None
        self.public = _all_pieces_public(game)

    def any(self, pieces: Any) -> bool:
        return not self.public and any(self.hidden(p) for p in pieces)

    def hidden(self, piece: int) -> bool:
        if self.public:
            return False
        found = self.known.get(piece)
        if found is None:
            found = self.known[piece] = self._decide(piece)
        return found

    def _decide(self, piece: int) -> bool:
        game, state, seat = self.game, self.state, self.seat
        if type(piece) is not int or not 0 <= piece < len(state.loc):
            return False
        if state.shown and shown_to(state, piece, seat):
            return False
        site = state.loc[piece]
        zone = game.site_zone[site]
        if not _may_see(zone.contents, game.site_owner[site], seat, state.over,
                        zone.reveal_at_end):
            return True
        if zone.conceal is None or (state.over and zone.reveal_at_end):
            return False
        if self.env is None:
            self.env = game.env(state)
        env = self.env
        env.temps["piece"], env.temps["place"], env.temps["viewer"] = piece, site, seat
        return _concealed(game, zone, zone.conceal, env)


_PUBLIC: weakref.WeakKeyDictionary[Game, bool] = weakref.WeakKeyDictionary()


def _all_pieces_public(game: Game) -> bool:
    """Whether every seat always sees every piece (no zone hides its contents or conceals
    a piece): then no line of the log is hidden for a piece, and the log is read without
    asking of each piece it names (a long log is read at every view)."""
    found = _PUBLIC.get(game)
    if found is None:
        found = _PUBLIC[game] = all(z.contents == "everyone" and z.conceal is None
                                    for z in game.zones.values())
    return found


def board_cell(name: str) -> tuple[int, int] | None:
    """A board place's (row, column) from 0, from its name as the view gives it (`c3`,
    perhaps `zone:c3[owner]`): what the terminal and the pictures lay a hex board out
    by. None for a name that is not a letter and a number."""
    text = name.split(":")[-1].split("[")[0]
    if len(text) < 2 or not ("a" <= text[0] <= "z") or not text[1:].isdigit():
        return None
    return int(text[1:]) - 1, ord(text[0]) - ord("a")


ROW_OF_SLOTS = 16
"""A slots zone of at most this many places is a row (of pits, of market places): every
place is shown in order, empty ones included; a larger one (a field of free stacks) lists
only the places in use."""
COUNT_ABOVE = 3
"""A place holding more than this many pieces, all alike, shows how many (and one of
them) instead of each piece."""


def alike(pieces: list[dict[str, Any]] | None) -> bool:
    """Whether a place's pieces are all alike and all seen (so a count says it all)."""
    return bool(pieces) and not pieces[0].get("hidden") and all(  # type: ignore[index]
        p == pieces[0] for p in pieces)  # type: ignore[union-attr]


def one_kind(game: Game) -> bool:
    """Whether every piece of the game is alike (a sowing game's seeds): a row of places
    then shows each place's count, its pieces' look telling nothing."""
    return len(set(game.piece_kind_id)) == 1
