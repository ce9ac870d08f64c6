"""What one seat may know, as states: drawing positions it cannot tell from the true one.

An `InformationSet` is made once per decision from the true state and the seat, and
keeps of the true state only what the seat's view shows; every `sample` then fills in
the rest at random:

- pieces the seat may not see (in a hand it may not look at, a face-down deck, a
  concealed piece) are dealt anew among the places where pieces with the same back lie
  (the view shows backs: a fish card's back is not an action card's). They are first
  put in an order that depends only on what they are (their attributes), never on
  where they truly lie, and the places in board order, so the true deal is never read;
  a hidden piece's own variables are reset as a new set-up gives them;
- variables the seat may not see (another player's secret colour, bookkeeping seen by
  nobody) take their values from a new set-up of the game, one whose values the seat
  *can* see agree with the true ones when such a set-up is found (so secret colours
  dealt without repeats stay without repeats);
- what other seats have already chosen in secret at the decision being taken is
  forgotten (that they have chosen is not): they choose again, at random, in the
  sample;
- the game's random generator is drawn anew;
- a hidden piece shown to other seats (`show`) is, in the sample, whichever piece is
  dealt where it lies: that it was shown, and to whom, is known, not which piece it is.

What is kept: the visible pieces where they lie, the visible variables, how many
pieces lie in each place (no bundled game hides a count), and the machine's place in
the rules. A visible variable that holds pieces (`holds: pieces`) keeps pointing at the
same places: a hidden piece it names is replaced by the piece dealt where that one lay,
so the true piece is never read through it.
"""

from __future__ import annotations

import weakref
from typing import Any

from interpreter.errors import RuleError
from interpreter.play.game import Game
from interpreter.run.rng import below, derive_seed, next_u64
from interpreter.run.state import EMPTY, State
from interpreter.run.view import _HiddenPieces, _may_see, redacted_log, view

SETUP_TRIES = 64
"""New set-ups tried for one whose visible values agree with the game's."""


class InformationSet:
    """The positions `seat` cannot tell apart from `state`, to draw from."""

    def __init__(self, game: Game, state: State, seat: int) -> None:
        self.game, self.seat = game, seat
        self.template = self._forget(state)
        hidden = _HiddenPieces(game, state, seat)
        backs = game.piece_backs
        slots: dict[str | None, list[tuple[int, int]]] = {}
        pieces: dict[str | None, list[int]] = {}
        for site, stack in sorted(state.sites.items()):
            for index, piece in enumerate(stack):
                if hidden.hidden(piece):
                    slots.setdefault(backs[piece], []).append((site, index))
                    pieces.setdefault(backs[piece], []).append(piece)
        attrs = [game.attributes[a] for a in game.attribute_order]
        self.groups: list[tuple[list[tuple[int, int]], list[int]]] = []
        """Per back: the places (site, height) its hidden pieces lie in, in board order,
        and the pieces, in an order that depends only on what they are."""
        for back in sorted(slots, key=lambda b: (b is not None, b or "")):
            group = sorted(pieces[back],
                           key=lambda p: (tuple(repr(values[p]) for values in attrs), p))
            self.groups.append((slots[back], group))
        self.pieces = [p for _, group in self.groups for p in group]
        self.hidden_set = hidden_here = set(self.pieces)
        self.secret_vars, self.secret_seat_vars = self._secret_variables(state)
        self.held = [var for var in game.variables.values() if var.holds == "pieces"
                     and not var.per_piece and var.visible_to != "nobody"]
        """Variables that hold pieces: a hidden piece they name follows the deal."""
        named = set(_pieces_in([state.seat_vars[v.id] if v.per_seat else state.vars[v.id]
                                for v in self.held]))
        self.held_slots = {p: (site, index) for slots, group in self.groups
                           for p, (site, index) in _where(state, group, slots) if p in named}
        """Hidden pieces those variables name, and where each lies."""
        self.known_seat_values = {
            var: [(s, state.seat_vars[var][s - 1]) for s in range(1, state.players + 1)
                  if (var, s) not in self.secret_seat_vars]
            for var in {v for v, _ in self.secret_seat_vars}}
        self.shown_slots = [(where, seats) for p, seats in state.shown.items()
                            if p in hidden_here for where in _slot_of(state, p)]
        """Hidden pieces shown to other seats (`show`): where each lies, and to whom.
        Which piece that is stays unknown: the piece dealt there is the one shown."""
        self._setups: list[State] | None = None

    def shareable(self, seed: int) -> InformationSet:
        """A copy to send to another process, holding nothing the seat may not know: its
        template is a position drawn from this set (`seed`), the hidden pieces visible
        variables name are the ones dealt there. Every `sample` draws over all that
        the seat may not know, so the copy draws exactly the positions this set draws."""
        for attempt in range(SETUP_TRIES):
            try:
                template = self.sample(derive_seed(seed, "shareable", attempt))
                break
            except RuleError:  # an impossible guess (others' secret choices)
                continue
        else:
            raise RuleError("no position the seat could be in could be drawn")
        out = object.__new__(InformationSet)
        out.__dict__.update(self.__dict__)
        out.template = template
        out.held_slots = {template.sites.get(site, EMPTY)[index]: (site, index)
                          for site, index in self.held_slots.values()}
        out._setups = None
        return out

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the game (the receiver compiles its own: see `attached`), its
        variables by name, without the set-ups (made again, the same, where used)."""
        return {**self.__dict__, "game": None, "_setups": None,
                "held": [v if isinstance(v, str) else v.id for v in self.held]}

    def attached(self, game: Game) -> InformationSet:
        """This set, sent from another process, joined to this process's `game`."""
        if self.game is not game:
            self.game = game
            self.held = [game.variables[v] if isinstance(v, str) else v for v in self.held]
        return self

    # -- reading only what the seat may know -----------------------------------------------
    def _forget(self, state: State) -> State:
        """The true state with what others chose in secret at this decision taken back
        (that they have chosen is known, and stays: `sample` chooses for them anew)."""
        template = state.copy()
        self.rechoose: list[int] = []
        self.slot_name = ""
        if template.frames:
            spec = self.game.choices.get(template.frames[-1][0])
            if spec is not None and spec.simultaneous and spec.secret:
                local = template.frames[-1][1]
                slot = local.get(spec.slot)
                if slot is not None:
                    self.slot_name = spec.slot
                    self.rechoose = sorted(int(s) for s in slot["picked"]
                                           if s != str(self.seat))
                    picked = {s: v for s, v in slot["picked"].items() if s == str(self.seat)}
                    local[spec.slot] = {**slot, "picked": picked}
        template.log = None  # the log is the view's to redact; the search never reads it
        template._log_json = None
        return template

    def _secret_variables(self, state: State) -> tuple[list[str], list[tuple[str, int]]]:
        game, seat, over = self.game, self.seat, state.over
        plain: list[str] = []
        per_seat: list[tuple[str, int]] = []
        for var in game.variables.values():
            if var.per_piece:
                continue
            if var.per_seat:
                per_seat += [(var.id, s) for s in range(1, state.players + 1)
                             if not _may_see(var.visible_to, s, seat, over, var.reveal_at_end)]
            elif not _may_see(var.visible_to, None, seat, over, var.reveal_at_end):
                plain.append(var.id)
        return plain, per_seat

    # -- drawing -----------------------------------------------------------------------------
    def sample(self, seed: int) -> State:
        """One position the seat cannot tell from the true one, drawn with `seed`."""
        rng = seed
        out = self.template.copy()
        sites, loc = out.sites, out.loc
        for slots, group in self.groups:
            pieces = group[:]
            for i in range(len(pieces) - 1, 0, -1):  # Fisher-Yates
                rng, j = below(rng, i + 1)
                pieces[i], pieces[j] = pieces[j], pieces[i]
            for (site, index), piece in zip(slots, pieces, strict=True):
                out.stack(site)[index] = piece  # (the template's lists are shared)
                loc[piece] = site
        if self.held_slots:
            self._follow_the_deal(out, {p: sites.get(site, EMPTY)[index]
                                        for p, (site, index) in self.held_slots.items()})
        if self.shown_slots:
            shown = {p: seats for p, seats in out.shown.items() if p not in self.hidden_set}
            for (site, index), seats in self.shown_slots:
                shown[sites.get(site, EMPTY)[index]] = seats
            out.shown = shown
        if (self.pieces and out.piece_vars) or self.secret_vars or self.secret_seat_vars:
            rng, which = next_u64(rng)
            setup = self._setup(which)
            for var, values in out.piece_vars.items():
                fresh = setup.piece_vars[var]
                for piece in self.pieces:
                    values[piece] = fresh[piece]
            for var in self.secret_vars:
                out.vars[var] = setup.vars[var]
            for var, s in self.secret_seat_vars:
                out.seat_vars[var][s - 1] = setup.seat_vars[var][s - 1]
        if self.rechoose:
            rng = self._choose_again(out, rng)
        rng, out.rng = next_u64(rng)
        out._cache = None
        return out

    def _follow_the_deal(self, out: State, dealt: dict[int, int]) -> None:
        """Visible variables that hold pieces: each hidden piece they name replaced by the
        piece dealt in its place (those the seat may not see are drawn anew after)."""
        def follow(value: Any) -> Any:
            if isinstance(value, list):
                return [follow(v) for v in value]
            return dealt.get(value, value) if type(value) is int else value

        for var in self.held:
            if var.per_seat:
                out.seat_vars[var.id] = [follow(v) for v in out.seat_vars[var.id]]
            else:
                out.vars[var.id] = follow(out.vars[var.id])

    def _choose_again(self, out: State, rng: int) -> int:
        """Secret choices already made by others: chosen again, at random among the
        options they have in this sample."""
        spec = self.game.choices[out.frames[-1][0]]
        local = out.frames[-1][1]
        slot = local[self.slot_name]
        picked = dict(slot["picked"])
        env = self.game.env(out)
        for s in self.rechoose:
            options = spec.list_options(env, s)
            if not options:  # an impossible guess (the searcher drops it)
                raise RuleError(f"seat {s} has no option at its secret choice here")
            rng, i = below(rng, len(options))
            k, values = options[i]
            picked[str(s)] = [k, list(values)]
        local[self.slot_name] = {**slot, "picked": picked}
        return rng

    def _setup(self, draw: int) -> State:
        """A new set-up whose values the seat sees agree with the game's, when one of
        SETUP_TRIES does (else any): drawn once per game and seat, then reused."""
        setups = self._setups
        if setups is None:
            setups = self._setups = _setups_for(self.game, self.template.players)
        agreeing = [s for s in setups if self._agrees(s)]
        if agreeing:
            return agreeing[draw % len(agreeing)]
        return setups[draw % len(setups)]

    def _agrees(self, setup: State) -> bool:
        return all(setup.seat_vars[var][s - 1] == value
                   for var, known in self.known_seat_values.items() for s, value in known)


def draw_position(game: Game, state: State, seat: int, seed: int,
                  known: InformationSet | None = None) -> State:
    """A position `seat` cannot tell from `state`, drawn with `seed` as `ismcts` draws the
    positions it searches (`known`: the seat's information set, if already made).

    A guess the rules cannot go on from at once (others' secret choices no option
    allows, a deciding seat left with no option), or one the seat could tell apart (a
    piece dealt where the rules would show it: where a zone's `conceal` hides a piece
    under a larger one, a smaller or larger one dealt there is hidden or not), is
    drawn again, with the next seed, up to SETUP_TRIES times: `ismcts` drops the
    playouts of a guess the rules cannot go on from, a caller that takes one position
    cannot. The position's log is the log as the seat may read it (`known_log`), so the
    seat's view of it is its view of `state`, and no other seat's view of it tells what
    `seat` may not know."""
    known = known or InformationSet(game, state, seat)
    log = known_log(game, state, seat)
    seen = _unlogged(view(game, state, seat))
    for attempt in range(SETUP_TRIES):
        try:
            out = known.sample(derive_seed(seed, "draw", attempt))
            if (all(game.raw_options(out, s) for s in game.deciding_seats(out))
                    and _unlogged(view(game, out, seat)) == seen):
                out.log = log
                out._log_json = None
                return out
        except RuleError:
            continue
    raise RuleError(f"no position {game.seat_name(seat)} could be in, from which the rules "
                    f"could go on, was found in {SETUP_TRIES} draws")


def _unlogged(seen: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in seen.items() if k != "log"}


def known_log(game: Game, state: State, seat: int) -> tuple | None:
    """The log of `state` as `seat` may read it (`redacted_log`), written back as a
    state's log: a line the seat may not read is left out, a decision it may not read
    keeps only who took it. Each line keeps who it was told to and whether its decision
    was secret, so another seat reads of it only what it both read and `seat` did: a
    state holding it gives `seat` the same view's log and tells nobody more."""
    log: tuple | None = None
    lines = iter(redacted_log(game, state, seat))
    for kept in state.log_entries():
        entry: tuple
        if kept[0] != "decision":
            told = kept[2]
            if not (told is None or seat in told or state.over):
                continue  # (as redacted_log leaves it out)
            entry = ("say", next(lines)["say"], told, ())
        else:
            line = next(lines)
            notation = line["decision"]
            entry = ("decision", line["seat"], notation, bool(kept[3]), ())
            if notation is not None:
                entry += (line.get("words", notation), ())
                if "said" in line:
                    entry += (line["said"], ())
        log = (entry, log)
    assert next(lines, None) is None, "known_log and redacted_log disagree"
    return log


def _slot_of(state: State, piece: int) -> list[tuple[int, int]]:
    """Where a piece lies: its place and its height there (one slot)."""
    site = state.loc[piece]
    return [(site, state.sites.get(site, EMPTY).index(piece))]


def _pieces_in(value: Any) -> list[Any]:
    """The whole numbers in a value (lists inside lists)."""
    if isinstance(value, list):
        return [x for v in value for x in _pieces_in(v)]
    return [value] if type(value) is int else []


def _where(state: State, group: list[int], slots: list[tuple[int, int]]
           ) -> list[tuple[int, tuple[int, int]]]:
    """Each piece of a group of hidden pieces with its place in `state` (its slot)."""
    members = set(group)
    sites = state.sites
    return [(sites.get(site, EMPTY)[index], (site, index)) for site, index in slots
            if sites.get(site, EMPTY)[index] in members]


_SETUPS: weakref.WeakKeyDictionary[Game, dict[int, list[State]]] = weakref.WeakKeyDictionary()


def _setups_for(game: Game, players: int) -> list[State]:
    """SETUP_TRIES new set-ups of `game`, made once per process (seeded from a fixed
    label, so a search is repeatable): a set-up can take a second (a deal redrawn
    until it meets a condition), and only games with secrets need them."""
    by_players = _SETUPS.setdefault(game, {})
    found = by_players.get(players)
    if found is None:
        found = by_players[players] = [
            game.new_state(players, derive_seed(i, "determinization"))
            for i in range(SETUP_TRIES)]
    return found
