"""The games a server holds: each one's state, seats, secret links and save file.

A table is saved after every decision, in the save format of `tabletop play --save` (the
ruleset, options, seed and decisions: replaying them rebuilds the game) plus a ``table``
part with its links' tokens and whether it is played hot seat. The file is the
referee's record (the seed decides every hidden piece; the tokens are the seats' keys),
so it is written atomically, readable by its owner only, in a folder only its owner may
open. Games survive a restart, and players reconnect with the links they have.

Only the games being played are kept in memory. On start the server lists the saves in
its folder without reading them (it listens at once however many there are); a game is
read back (replayed) when someone opens it, and a game nobody is connected to and no
computer is thinking in goes back to its file once more recent ones crowd it out. The
compiled rules are shared: every table of one ruleset with the same options plays the
one `Game` (a few megabytes for a large card game), compiled once.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.agents.base import Agent
from interpreter.api import load
from interpreter.assemble.game import compile_game
from interpreter.errors import SaveFileError, UsageError, did_you_mean
from interpreter.load.catalog import bundled_names, shorten
from interpreter.load.loader import LoadedRuleset
from interpreter.play.game import Game, Option
from interpreter.run.state import State
from interpreter.serve.protocol import CreateRequest
from interpreter.simulate.playout import seat_agents
from interpreter.simulate.record import (
    SavedGame,
    check_ruleset,
    replay_with_before,
    save_text,
    write_private,
)

log = logging.getLogger("tabletop.serve")

HUMAN = "human"
TABLE_ID = re.compile(r"[0-9a-f]{16}")
SAVE_LIMIT = 32 * 1024 * 1024
MAX_TABLES = 10_000
"""Games one server holds at most (a page that creates games in a loop fills no disk)."""
KEEP_IDLE = 32
"""Games kept in memory that nobody is playing right now (the most recently used): one
opened again soon is not replayed again."""
COMPILED = 32
"""Compiled games kept (each ruleset with each set of options is compiled once)."""
DIR_MODE = 0o700
SEED_CHOSEN_NOTE = ("This game's seed was chosen by its creator: whoever knows it can "
                    "work out everything the game hides (this server lets creators "
                    "choose seeds, for testing).")


def default_data_dir() -> Path:
    """Where games are kept unless --data says: the user's data folder (XDG on Linux,
    Application Support on macOS, %APPDATA% on Windows), else ./tabletop-games."""
    home = Path.home()
    if os.name == "nt" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "tabletop" / "games"
    if (home / "Library" / "Application Support").is_dir():
        return home / "Library" / "Application Support" / "tabletop" / "games"
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "tabletop" / "games"
    if home.is_dir():
        return home / ".local" / "share" / "tabletop" / "games"
    return Path("tabletop-games")


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class Table:
    """One game being played on the server."""

    id: str
    game: Game
    ruleset: str
    """The name the game was created with (a bundled game, or one the server offers)."""
    state: State
    record: SavedGame
    tokens: dict[int, str]
    """Each human seat's secret (a hot-seat table: the one link's, under seat 0)."""
    spectator: str
    hotseat: bool
    agents: dict[int, Agent] = field(default_factory=dict)
    failure: str | None = None
    """Why the game cannot go on (the rules went wrong), once they did."""
    seed_chosen: bool = False
    """Its creator chose the seed (and so can know every secret): every player is told."""
    before: State | None = None
    """The state just before the last decision, for marking what it moved (None before
    the first decision made here, and after the server restarts: nothing is marked)."""

    @property
    def version(self) -> int:
        return len(self.record.decisions)

    @property
    def seats(self) -> dict[int, str]:
        return self.record.seats

    def humans(self) -> list[int]:
        return sorted(s for s, kind in self.seats.items() if kind == HUMAN)

    def role(self, token: str) -> tuple[str, int | None] | None:
        """What a link's token opens: ("seat", s), ("spectator", None), ("table", None)
        for a hot-seat table's one link, or None. Every token is compared, in constant
        time: a token is a password."""
        given = token.encode()
        found: tuple[str, int | None] | None = None
        if secrets.compare_digest(given, self.spectator.encode()):
            found = ("spectator", None)
        for seat, secret in self.tokens.items():
            if secrets.compare_digest(given, secret.encode()):
                found = ("table", None) if seat == 0 else ("seat", seat)
        return found

    def computer_to_move(self) -> int | None:
        """A computer seat that must decide now (none once a human must decide alone)."""
        if self.state.over or self.failure:
            return None
        for seat in self.game.deciding_seats(self.state):
            if self.seats.get(seat) != HUMAN:
                return seat
        return None

    def with_decision(self, seat: int, option: Option | str) -> tuple[State, str]:
        """The state after `seat`'s choice (this table's state is untouched) and the
        choice's notation."""
        new = self.state.copy()
        self.game.apply_in_place(new, seat, option)
        notation = option.notation if isinstance(option, Option) else option
        return new, notation

    def save_data(self, decisions: list[tuple[int, str]] | None = None) -> str:
        record = self.record
        if decisions is not None:
            record = SavedGame(record.game, record.ruleset_hash, record.options,
                               record.players, record.seed, record.seats, decisions)
        data = json.loads(save_text(record))
        data["table"] = {
            "id": self.id,
            "ruleset": self.ruleset,
            "hotseat": self.hotseat,
            "spectator": self.spectator,
            "tokens": {str(s): t for s, t in sorted(self.tokens.items())},
            "seed_chosen": self.seed_chosen,
        }
        return json.dumps(data, indent=1) + "\n"


class Store:
    """The tables of one server, and the folder they are saved in (None: kept in memory
    only, for tests).

    `live` and `saved` belong to the event loop's thread: the server installs and puts
    away tables there only. The slow work (compiling, replaying a save, writing a new
    game's file) is done in worker threads by `make`, `read` and `write`, which touch
    neither."""

    def __init__(self, folder: Path | None, extra: dict[str, Path] | None = None) -> None:
        self.folder = folder
        self.extra = dict(extra or {})
        """Rulesets from files the server was started with, by game name."""
        self.live: OrderedDict[str, Table] = OrderedDict()
        """The tables in memory, least recently used first."""
        self.saved: set[str] = set()
        """The ids of the games in the folder (read back only when opened)."""
        self.skipped: dict[str, str] = {}
        """Saves that could not be read back, with why."""
        self._compiled: OrderedDict[tuple[str, str, str], Game] = OrderedDict()
        self._compiling = threading.Lock()
        self._compiling_now: dict[tuple[str, str, str], threading.Lock] = {}

    # -- which games ------------------------------------------------------------------------
    def names(self) -> list[str]:
        return sorted({*bundled_names(), *self.extra})

    def load_ruleset(self, name: str) -> LoadedRuleset:
        """A game the server offers, by name: bundled, or a file named at start. Never a
        path from a request (a client cannot make the server read a file)."""
        if name in self.extra:
            return load(self.extra[name])
        if name not in bundled_names():
            names = self.names()
            hint = did_you_mean(name, names)
            raise UsageError(f"unknown game '{shorten(name)}' (games: {', '.join(names)})"
                             + (f"; {hint}" if hint else ""))
        return load(name)

    def game(self, loaded: LoadedRuleset, options: dict[str, Any]) -> Game:
        """The ruleset compiled with these options, once for every table that plays it
        (by the hash of its files: an edited file is compiled again). A game is immutable
        once compiled, so tables and threads share it."""
        key = (loaded.path, loaded.content_hash, json.dumps(options, sort_keys=True))
        with self._compiling:
            game = self._compiled.get(key)
            if game is not None:
                self._compiled.move_to_end(key)
                return game
            once = self._compiling_now.setdefault(key, threading.Lock())
        with once:  # two requests for one slow ruleset: the second waits for the first
            with self._compiling:
                game = self._compiled.get(key)
            if game is None:
                try:
                    game = compile_game(loaded, options)
                finally:
                    with self._compiling:
                        self._compiling_now.pop(key, None)
                with self._compiling:
                    self._compiled[key] = game
                    if len(self._compiled) > COMPILED:
                        self._compiled.popitem(last=False)
        return game

    # -- the tables in memory (the event loop's thread) ------------------------------------------
    def count(self) -> int:
        """Games this server holds, in memory or on disk."""
        return len(self.saved | self.live.keys())

    def full(self) -> str | None:
        """Why no game can be added (None: one can)."""
        if self.count() >= MAX_TABLES:
            return (f"this server already holds {MAX_TABLES:,} games; start another with "
                    "its own --data folder")
        return None

    def known(self, table_id: str) -> bool:
        return table_id in self.live or table_id in self.saved

    def install(self, table: Table) -> None:
        """Keep a table in memory (the most recently used)."""
        self.live[table.id] = table
        self.live.move_to_end(table.id)
        if self.folder is not None:
            self.saved.add(table.id)

    def touch(self, table_id: str) -> Table | None:
        table = self.live.get(table_id)
        if table is not None:
            self.live.move_to_end(table_id)
        return table

    def put_away(self, busy: Any) -> list[str]:
        """Forget the least recently used tables that are not `busy(id)` beyond the
        KEEP_IDLE most recent (their files hold them); the ids forgotten. A store without a
        folder keeps everything."""
        if self.folder is None:
            return []
        idle = [tid for tid in self.live if not busy(tid)]
        gone = idle[:max(0, len(idle) - KEEP_IDLE)]
        for tid in gone:
            del self.live[tid]
        return gone

    # -- creating (a worker thread) ---------------------------------------------------------
    def make(self, request: CreateRequest) -> Table:
        """A new table from a checked request, saved (not yet installed); a UsageError
        says what does not fit the game (option, player count, seat). The server has
        checked that it may hold one more (`full`)."""
        loaded = self.load_ruleset(request.ruleset)
        game = self.game(loaded, request.options)
        players = game.check_players(request.players)
        seats = parse_seats(request.seats, players)
        seed = request.seed if request.seed is not None else secrets.randbits(128)
        state = game.new_state(players, seed)
        record = SavedGame.start(game, players, seed, seats)
        humans = sorted(s for s, kind in seats.items() if kind == HUMAN)
        if request.hotseat:
            if not humans:
                raise UsageError("a hot-seat game needs at least one human seat")
            tokens = {0: new_token()}
        else:
            tokens = {s: new_token() for s in humans}
        table_id = secrets.token_hex(8)
        while self.known(table_id):
            table_id = secrets.token_hex(8)
        table = Table(table_id, game, request.ruleset, state, record, tokens, new_token(),
                      request.hotseat, agents=seat_agents(game, seats, seed, None, HUMAN),
                      seed_chosen=request.seed is not None)
        if self.folder is not None:
            self.write(table, record.decisions)
        return table

    # -- saving and reading back ------------------------------------------------------------
    def path(self, table_id: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{table_id}.json"

    def write(self, table: Table, decisions: list[tuple[int, str]]) -> None:
        """Save atomically (a temporary file renamed over the old one), mode 0600."""
        if self.folder is None:
            return
        try:
            write_private(self.path(table.id), table.save_data(decisions), durable=True)
        except OSError as exc:
            raise SaveFileError(f"cannot save the game: {exc.strerror or exc}") from None

    def open_folder(self) -> None:
        """Make the data folder (owner only) and list the games saved there, reading none
        of them: each is read back when it is opened."""
        if self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
        except OSError as exc:
            raise UsageError(f"cannot use {self.folder} for the games: "
                             f"{exc.strerror or exc}") from None
        if not self.folder.is_dir():
            raise UsageError(f"{self.folder} is not a folder")
        for path in self.folder.glob("*.json"):
            if TABLE_ID.fullmatch(path.stem):
                self.saved.add(path.stem)
            else:
                self.skipped[path.name] = f"{path.name} is not named as a table's save"

    def read(self, table_id: str) -> Table:
        """A saved table, checked like any save file, then replayed (a worker thread)."""
        path = self.path(table_id)
        where = path.name
        try:
            with path.open("rb") as file:
                raw = file.read(SAVE_LIMIT + 1)
        except OSError as exc:
            raise SaveFileError(f"cannot read {where}: {exc.strerror or exc}") from None
        if len(raw) > SAVE_LIMIT:
            raise SaveFileError(f"{where} is too large to be a saved game")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):
            raise SaveFileError(f"{where} is not a saved game (not JSON)") from None
        saved = SavedGame.from_json(data, where)
        info = data.get("table")
        if not (isinstance(info, dict) and info.get("id") == table_id):
            raise SaveFileError(f"{where} is not a table's save (field 'table.id')")
        ruleset = info.get("ruleset")
        tokens = info.get("tokens")
        spectator = info.get("spectator")
        hotseat = info.get("hotseat")
        chosen = info.get("seed_chosen", False)
        if not (isinstance(ruleset, str) and isinstance(hotseat, bool)
                and isinstance(chosen, bool)
                and _token_ok(spectator) and isinstance(tokens, dict)
                and all(isinstance(k, str) and k.isdigit() and _token_ok(v)
                        for k, v in tokens.items())):
            raise SaveFileError(f"{where} is damaged (field 'table')")
        loaded = self.load_ruleset(ruleset)
        check_ruleset(saved, loaded, where)
        game = self.game(loaded, saved.options)
        state, before = replay_with_before(game, saved, where)
        return Table(table_id, game, ruleset, state, saved,
                     {int(k): v for k, v in tokens.items()}, spectator, hotseat,
                     agents=seat_agents(game, saved.seats, saved.seed,
                                         len(saved.decisions), HUMAN),
                     seed_chosen=chosen, before=before)


def _token_ok(value: Any) -> bool:
    return isinstance(value, str) and 16 <= len(value) <= 100



def parse_seats(given: dict[str, str], players: int) -> dict[int, str]:
    """`{"2": "mcts:playouts=200"}` → who sits at every seat (unnamed seats: seat 1 a
    person, the others random), or a UsageError naming the seat."""
    from interpreter.agents import AGENTS, check_agent

    seats = {s: (HUMAN if s == 1 else "random") for s in range(1, players + 1)}
    kinds = [HUMAN, *AGENTS]
    for key, kind in given.items():
        seat = int(key) if key.isascii() and key.isdigit() and len(key) <= 6 else 0
        if not 1 <= seat <= players:
            raise UsageError(f"there is no seat '{shorten(key, 10)}' in a {players}-player "
                             f"game (seats 1 to {players})")
        kind = kind.strip().lower()
        if kind == HUMAN:
            seats[seat] = HUMAN
            continue
        try:
            seats[seat] = check_agent(kind).text
        except UsageError as exc:
            raise UsageError(f"seat {seat}: {exc} (or {', '.join(kinds[:1])})") from None
    return seats

