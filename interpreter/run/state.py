"""The game state as plain data.

Everything that changes during a game is here and nothing else: where every piece is,
variables, the machine's frames (so a game can pause inside an effect), the seeded
random generator, the decision log. ``to_json``/``from_json`` round-trip exactly and
``copy`` is cheap, because agents copy states many thousands of times.

A copy shares the piece lists of its places with the state it was copied from
(copy-on-write): it copies the mapping of places to their lists, not the lists.
Whoever changes a place's pieces takes them with ``State.stack(place)``, which makes
the list the state's own first. A game of at most `DENSE_PLACES` places keeps every
place in the mapping (a read is a plain look-up); a larger one (an open table) keeps
only the places that hold or have held pieces, so a copy costs the pieces in play, not
the squares, and a place it lacks holds `EMPTY`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from interpreter.errors import RuleError

EMPTY: list[int] = []
"""The pieces of a place that holds none, one list shared by every such place (and
every state): never changed in place (`State.stack` copies it first)."""

DENSE_PLACES = 512
"""Games with at most this many places keep every place in `State.sites` (generated
code reads a place by a plain look-up); a larger game keeps only the places that hold
or have held pieces (its reads say `.get(place, EMPTY)`)."""


def dense(places: int) -> bool:
    """Whether a game of `places` places keeps every place in `State.sites`."""
    return places <= DENSE_PLACES


def sites_of(stacks: Iterable[list[int]], places: int) -> dict[int, list[int]]:
    """The `State.sites` of every place's pieces, in place order (the empty places
    sharing `EMPTY`; left out when the game is not `dense`)."""
    if dense(places):
        return {i: stack or EMPTY for i, stack in enumerate(stacks)}
    return {i: stack for i, stack in enumerate(stacks) if stack}

LogEntry = tuple
"""("decision", seat, notation, secret, pieces[, label, pieces the label names[, said,
pieces the said names]]) (the words only where people read the log: a playout nobody
reads keeps none) or ("say", text, seats-or-None, pieces
[, witnesses: the seats that saw the pieces, for a line on the record]):
`pieces` are the pieces the text describes, so a view can hide the line from a seat
that may not know one of them."""



class State:
    """One moment of one game. Mutated only by the machine; everyone else copies."""

    __slots__ = (
        "_cache",
        "_log_json",
        "current",
        "decisions",
        "frames",
        "loc",
        "log",
        "out",
        "over",
        "owned",
        "piece_vars",
        "places",
        "players",
        "reason",
        "rng",
        "seat_vars",
        "shown",
        "sites",
        "steps",
        "triggers",
        "turn",
        "vars",
        "winners",
    )

    players: int
    sites: dict[int, list[int]]
    """Place → its pieces, bottom first. Read with `sites.get(place, EMPTY)` (a large
    game leaves out the places that never held a piece); change a place's list only
    through `stack` (it may be shared with copies)."""
    places: int
    """How many places the game has (not `len(sites)`)."""
    owned: set[int]
    """The places whose lists are this state's alone (changed in place); any other may
    be shared with a copy. Empty is always safe: the next change copies the list."""
    loc: list[int]
    vars: dict[str, Any]
    seat_vars: dict[str, list[Any]]
    piece_vars: dict[str, list[Any]]
    """Per-piece variables: id → one value per piece (which way up a card lies)."""
    frames: list[list[Any]]
    triggers: list[list[Any]]
    rng: int
    current: int
    turn: int
    decisions: int
    log: tuple | None
    over: bool
    winners: list[int] | None
    reason: str | None
    steps: int
    """Steps the rules have taken in this game so far (budgets.steps_per_game)."""
    out: tuple[int, ...]
    """The seats knocked out of the game (`eliminate`), in the order they went out: they
    take no more turns and make no more decisions. A tuple, replaced (never changed) when
    a seat goes out, so copies share it."""
    shown: dict[int, tuple[int, ...]]
    """Pieces shown to some seats besides those the zones let see them (`show`): piece →
    seats, until the piece moves. Replaced, never changed in place, so copies share it."""
    _cache: dict[int, Any] | None
    _log_json: tuple[Any, list] | None
    """The log as JSON lists up to a node of it: the log only grows at its head (and
    its nodes are shared by copies), so writing the state again converts only what is
    new (a game saved after every decision is not quadratic)."""

    def copy(self) -> State:
        s = object.__new__(State)
        s.players = self.players
        s.sites = self.sites.copy()  # the places' lists are shared from now: copy-on-write
        s.places = self.places
        s.owned = set()
        self.owned.clear()
        s.loc = self.loc[:]
        s.vars = self.vars.copy()
        s.seat_vars = {k: v[:] for k, v in self.seat_vars.items()}
        s.piece_vars = {k: v[:] for k, v in self.piece_vars.items()}
        s.frames = [[f[0], f[1].copy()] for f in self.frames]
        s.triggers = list(map(list.copy, self.triggers))
        s.rng = self.rng
        s.current = self.current
        s.turn = self.turn
        s.decisions = self.decisions
        s.log = self.log
        s.over = self.over
        s.winners = self.winners
        s.reason = self.reason
        s.steps = self.steps
        s.out = self.out
        s.shown = self.shown
        s._cache = None
        s._log_json = self._log_json
        return s

    def stack(self, site: int) -> list[int]:
        """The pieces of `site`, to change in place: this state's own list (a shared one
        is copied first, so no copy of the state sees the change)."""
        owned = self.owned
        if site in owned:
            return self.sites[site]
        stack = self.sites[site] = self.sites.get(site, EMPTY)[:]
        owned.add(site)
        return stack

    def lists(self) -> list[list[int]]:
        """Every place's pieces, in place order (the empty ones sharing `EMPTY`)."""
        get = self.sites.get
        return [get(i, EMPTY) for i in range(self.places)]

    def log_entries(self) -> list[LogEntry]:
        out: list[LogEntry] = []
        node = self.log
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def append_log(self, entry: LogEntry) -> None:
        self.log = (entry, self.log)

    def to_json(self) -> dict[str, Any]:
        try:
            return self._to_json()
        except RecursionError:
            raise RuleError("a value in this game is nested too deeply to be saved (a list "
                            "inside a list, hundreds of levels down)") from None

    def _to_json(self) -> dict[str, Any]:
        data = {
            "players": self.players,
            "sites": [x[:] for x in self.lists()],
            "vars": _plain(self.vars),
            "seat_vars": _plain(self.seat_vars),
            "piece_vars": _plain(self.piece_vars),
            "frames": [[f[0], _plain(f[1])] for f in self.frames],
            "triggers": [t[:] for t in self.triggers],
            "rng": self.rng,
            "current": self.current,
            "turn": self.turn,
            "decisions": self.decisions,
            "log": self._json_log(),
            "over": self.over,
            "winners": None if self.winners is None else list(self.winners),
            "reason": self.reason,
            "steps": self.steps,
        }
        if self.out:  # (only when used: saves of games without them read as before)
            data["out"] = list(self.out)
        if self.shown:
            data["shown"] = {str(p): list(seats) for p, seats in self.shown.items()}
        return data

    def _json_log(self) -> list[list[Any]]:
        cached = self._log_json
        node, new = self.log, []
        while node is not None and (cached is None or node is not cached[0]):
            new.append(node[0])
            node = node[1]
        done = [] if node is None or cached is None else cached[1]
        out = done + [[list(x) if type(x) is tuple else x for x in e] for e in reversed(new)]
        self._log_json = (self.log, out)
        return list(out)

    @classmethod
    def from_json(cls, data: dict[str, Any], n_pieces: int) -> State:
        s = object.__new__(State)
        s.players = int(data["players"])
        s.places = len(data["sites"])
        s.sites = sites_of([list(x) for x in data["sites"]], s.places)
        s.owned = set()
        s.vars = dict(data["vars"])
        s.seat_vars = {k: list(v) for k, v in data["seat_vars"].items()}
        s.piece_vars = {k: list(v) for k, v in data.get("piece_vars", {}).items()}
        s.frames = [[int(f[0]), dict(f[1])] for f in data["frames"]]
        s.triggers = [list(t) for t in data["triggers"]]
        s.rng = int(data["rng"])
        s.current = int(data["current"])
        s.turn = int(data["turn"])
        s.decisions = int(data["decisions"])
        log = None
        for e in data["log"]:
            log = (tuple([tuple(x) if type(x) is list else x for x in e]), log)
        s.log = log
        s.over = bool(data["over"])
        s.winners = None if data["winners"] is None else list(data["winners"])
        s.reason = data["reason"]
        s.steps = int(data.get("steps", 0))
        s.out = tuple(int(x) for x in data.get("out", ()))
        s.shown = {int(p): tuple(int(x) for x in seats)
                   for p, seats in data.get("shown", {}).items()}
        s._cache = None
        # the log as JSON is what was read: writing the state again converts nothing (its
        # entries are shared with `data`, as to_json shares them with its cache: JSON data
        # is read and written, not edited in place)
        s._log_json = (log, [e if type(e) is list else list(e) for e in data["log"]])
        s.loc = locate_pieces(s.sites, n_pieces)
        return s


def locate_pieces(sites: dict[int, list[int]], n_pieces: int) -> list[int]:
    """Rebuild the piece → place index from the places (derived, not saved)."""
    loc = [-1] * n_pieces
    for i, stack in sites.items():
        for p in stack:
            loc[p] = i
    return loc


def _plain(value: Any) -> Any:
    """JSON-ready copy: tuples become lists, keys become text."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
