"""The browser table's web application (Starlette): pages, the game API and the sockets.

Every client holds a link with a secret token that opens one seat (or the spectators'
view, or a hot-seat table's device). What a client is sent is drawn from *its* seat's
view only (`interpreter.run.view.view`, the one function that redacts), so a socket
never carries what its seat may not see. Decisions on a game are made one at a time
(a lock per game) and checked against the version the client saw; computer seats think
in a worker thread so the server keeps answering meanwhile. See `protocol` for the
messages, `guard` for the headers, origins and limits, and `tables` for which games are
kept in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from interpreter.agents import (
    AGENTS,
    SEES_HIDDEN_NOTE,
    close_agents,
    ruleset_settings,
    ruleset_settings_note,
    sees_hidden,
)
from interpreter.docs.diagrams import table_pictures
from interpreter.errors import IllegalMove, TabletopError, did_you_mean
from interpreter.load.catalog import shorten
from interpreter.load.loader import LoadedRuleset
from interpreter.play.game import Game, Option, normalize_notation
from interpreter.run.view import (
    SPECTATOR,
    chose_text,
    hides_anything,
    last_move_words,
    view,
)
from interpreter.serve import protocol
from interpreter.serve.guard import CreateLimiter, SecurityHeaders, origin_allowed
from interpreter.serve.protocol import Choose, ProtocolError, Ready, Resync
from interpreter.serve.tables import HUMAN, SEED_CHOSEN_NOTE, Store, Table
from interpreter.simulate.playout import decide
from interpreter.view.choosing import group_options
from interpreter.view.involvement import involvement, places_of
from interpreter.view.shown import variable_lines

log = logging.getLogger("tabletop.serve")

STATIC = Path(__file__).resolve().parent / "static"
STALE = "the position changed; choose again"
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_POLICY = 1008
NO_SUCH_GAME = "there is no such game on this server"
CANNOT_RESUME = "this game cannot be resumed on this server (its log says why)"
FOREIGN_ORIGIN = ("this server does not take requests from pages of another site (start "
                  "it with --allow-origin to name one it should)")


@dataclass(frozen=True)
class Policy:
    """How a server treats its clients (the command's flags)."""

    pace: float = 0.0
    """Seconds a computer player waits before it moves, so people can follow."""
    chosen_seeds: bool = False
    """A game's creator may choose its seed (for testing: whoever knows the seed can
    work out every secret, so each such game's notes say it was chosen)."""
    origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may open sockets and create games."""
    games_per_minute: int = 30
    """Games one client address may create in any minute."""
    games_in_play: int = 200
    """Games being played at once (someone connected, or a computer thinking) beyond
    which no new game is started."""
    warm: bool = False
    """Compile the games on offer in the background once listening, so the first page
    load does not wait for them (the command does; tests need not)."""


class JSON(JSONResponse):
    """A JSON response whose text holds no markup: <, > and & are written as \\u
    escapes (the same data once parsed), so a ruleset's text never reaches any reader
    as a tag."""

    def render(self, content: Any) -> bytes:
        return protocol.dumps(content).encode("utf-8")


@dataclass(eq=False)
class Client:
    """One open socket: whose view it gets."""

    socket: WebSocket
    table: Table
    role: str
    """"seat", "spectator" or "table" (a hot-seat game's one device)."""
    seat: int | None = None
    """The seat it plays; on a hot-seat device, the seat that confirmed it holds it."""
    waiting: int | None = None
    """Hot seat: the seat the device was last passed to (its `ready` is expected)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Server:
    """The tables, who is connected to each, and the computer players at work."""

    def __init__(self, store: Store, policy: Policy | None = None) -> None:
        self.store = store
        self.policy = policy or Policy()
        self.pace = self.policy.pace
        self.clients: dict[str, set[Client]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.runners: dict[str, asyncio.Task[None]] = {}
        self.opening: dict[str, asyncio.Lock] = {}
        self.rulebooks: dict[str, tuple[str, str]] = {}
        """Each game's rulebook page, with the hash of the files it was made from."""
        self.offered: dict[str, tuple[str, dict[str, Any]]] = {}
        """The new-game form's entry of each game, by the hash of its files."""
        self.limiter = CreateLimiter(self.policy.games_per_minute)

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    # -- which tables are in memory -------------------------------------------------------------
    async def table(self, table_id: str) -> Table | None:
        """The game with this id, read back from its file when it is not in memory (None:
        no such game, or its save cannot be resumed; the log says why)."""
        table = self.store.touch(table_id)
        if table is not None or not self.store.known(table_id):
            return table
        opening = self.opening.setdefault(table_id, asyncio.Lock())
        try:
            async with opening:  # two clients opening one game: it is read once
                table = self.store.touch(table_id)
                if table is None:
                    table = await asyncio.to_thread(self.store.read, table_id)
                    self.store.install(table)
                    self.start_computers(table)
        except TabletopError as exc:
            self.store.skipped[f"{table_id}.json"] = str(exc)
            log.warning("game %s cannot be resumed: %s", table_id, exc)
            return None
        finally:
            if not opening.locked():
                self.opening.pop(table_id, None)
        self.tidy()
        return table

    def busy(self, table_id: str) -> bool:
        """Someone is playing it: a client connected, a computer thinking, a decision
        being made (it must stay in memory)."""
        runner = self.runners.get(table_id)
        lock = self.locks.get(table_id)
        return (bool(self.clients.get(table_id)) or (runner is not None and not runner.done())
                or (lock is not None and lock.locked()) or table_id in self.opening)

    def in_play(self) -> int:
        return sum(self.busy(table_id) for table_id in self.store.live)

    def tidy(self) -> None:
        """Put away the tables nobody plays beyond the most recent few (their files
        keep them), with what the server kept for each."""
        for table_id in self.store.put_away(self.busy):
            self.locks.pop(table_id, None)
            self.runners.pop(table_id, None)
            self.clients.pop(table_id, None)

    def notes(self, table: Table) -> list[str]:
        """What every player is told about the game: a chosen seed, a computer player
        that sees what the game hides, the ruleset's own settings for its players."""
        out = [SEED_CHOSEN_NOTE] if table.seed_chosen else []
        if hides_anything(table.game) and any(map(sees_hidden, table.seats.values())):
            out.append(SEES_HIDDEN_NOTE)  # it starts with the player's name, mcts, as typed
        settings_note = ruleset_settings_note(table.game, table.seats.values())
        if settings_note is not None:
            out.append(settings_note)
        return out

    # -- what a client is sent ---------------------------------------------------------
    def state_message(self, table: Table, seat: int | None, choosing: bool) -> dict[str, Any]:
        """The position as `seat` may see it (None: a spectator), with its options when
        `choosing` and it must decide now."""
        game, state = table.game, table.state
        seen = view(game, state, SPECTATOR if seat is None else seat, before=table.before)
        options: list[Option] = []
        if seat is not None and choosing and seat in seen["deciding"] and not table.failure:
            options = game.legal_options(state, seat)
        # what each option involves, for click targets (only pieces this seat may see)
        involved = involvement(game, state, seat, options) if seat is not None else []
        # the table as one picture and laid out as areas (opponents, centre, mine)
        svg, areas = table_pictures(game, seen, seat, game.title)
        return {
            "type": "state",
            "version": table.version,
            "seat": seat,
            "title": game.title,
            "svg": svg,
            "areas": areas,
            "view": seen,
            "table": [{"label": label, "text": text}
                      for label, text in variable_lines(game, seen)],
            "log": log_lines(table, seen["log"]),
            "last_move": last_move_words(game, seen.get("last_move")),
            "deciding": seen["deciding"],
            "prompt": seen["prompt"],
            "options": [{"index": o.index, "notation": o.notation, "label": o.label,
                         "kind": o.kind, "involves": items, "places": places_of(items),
                         "group": group}
                        for o, items, group in zip(options, involved, option_groups(options),
                                                   strict=True)],
            "over": seen["over"],
            "winners": list(seen["winners"] or []),
            "hotseat": table.hotseat,
            "stopped": table.failure,
            "notes": self.notes(table),
        }

    def message_for(self, client: Client, cache: dict[tuple, str]) -> str:
        """The message `client` gets now, as text (`cache`: per push, so a position is
        drawn once per seat however many sockets show it)."""
        table = client.table
        if client.role == "spectator":
            key: tuple = (None, False)
        elif client.role == "seat":
            key = (client.seat, True)
        else:
            key = self._device(client)
            if key[0] == "pass":
                return protocol.dumps({"type": "pass", "seat": key[1],
                                       "version": table.version, "title": table.game.title})
        if key not in cache:
            cache[key] = protocol.dumps(self.state_message(table, key[0], key[1]))
        return cache[key]

    def _device(self, client: Client) -> tuple:
        """A hot-seat device: whose view it shows. A person who must decide sees their
        own view only once they confirm they hold the device; while computers think it
        keeps showing the last person's; at the end, the public view."""
        table = client.table
        if table.state.over or table.failure:
            client.seat = client.waiting = None
            return (None, False)
        humans = [s for s in table.game.deciding_seats(table.state)
                  if table.seats.get(s) == HUMAN]
        if humans:
            if client.seat in humans:
                return (client.seat, True)
            client.seat, client.waiting = None, humans[0]
            return ("pass", humans[0])
        return (client.seat, False)

    async def send(self, client: Client, text: str) -> bool:
        """Send, or forget a client whose socket has gone (False)."""
        try:
            async with client.lock:
                await client.socket.send_text(text)
            return True
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.clients.get(client.table.id, set()).discard(client)
            return False

    async def push(self, table: Table) -> None:
        """The new position to everyone at the table, each from their own seat."""
        cache: dict[tuple, str] = {}
        for client in list(self.clients.get(table.id, ())):
            try:
                text = self.message_for(client, cache)
            except TabletopError as exc:
                self.fail(table, exc)
                text = protocol.dumps(protocol.error(self.stopped(table)))
            await self.send(client, text)

    async def tell(self, client: Client, message: str) -> None:
        await self.send(client, protocol.dumps(protocol.error(message)))

    # -- decisions -----------------------------------------------------------------------
    async def choose(self, client: Client, msg: Choose) -> None:
        table = client.table
        if client.role == "spectator":
            await self.tell(client, "a spectator's link cannot make decisions")
            return
        seat = client.seat
        if seat is None:
            await self.tell(client, "pass the device first: answer 'pass' with 'ready'")
            return
        if msg.seat is not None and msg.seat != seat:
            await self.tell(client, f"this link plays seat {seat}, not seat {msg.seat}")
            return
        async with self.lock(table):
            problem = self._refusal(table, seat, msg)
            if problem is not None:
                await self.tell(client, problem)
                return
            try:
                option = pick(table.game.legal_options(table.state, seat), msg)
                new_state, notation = table.with_decision(seat, option)
            except IllegalMove as exc:
                await self.tell(client, str(exc))
                return
            except TabletopError as exc:
                self.fail(table, exc)
                await self.push(table)
                return
            if not await self.commit(table, client, new_state, seat, notation):
                return
        await self.push(table)
        self.start_computers(table)

    def _refusal(self, table: Table, seat: int, msg: Choose) -> str | None:
        if table.failure:
            return self.stopped(table)
        if msg.version != table.version:
            return STALE
        if table.state.over:
            return "the game is over"
        if seat not in table.game.deciding_seats(table.state):
            return f"it is not {table.game.seat_name(seat)}'s decision now"
        return None

    async def commit(self, table: Table, client: Client | None, state: Any, seat: int,
                     notation: str) -> bool:
        """Save the decision, then make it (under the table's lock)."""
        decisions = [*table.record.decisions, (seat, notation)]
        try:
            await asyncio.to_thread(self.store.write, table, decisions)
        except TabletopError as exc:
            log.error("%s", exc)
            if client is not None:
                await self.tell(client, f"{exc}; the decision was not made")
            return False
        table.record.decisions = decisions
        table.before, table.state = table.state, state
        return True

    def fail(self, table: Table, exc: TabletopError) -> None:
        """The rules went wrong: the game stops, and says why."""
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        table.failure = text
        log.error("game %s stopped: %s", table.id, exc)

    @staticmethod
    def stopped(table: Table) -> str:
        return f"the game cannot go on: {table.failure}"

    # -- computer players ------------------------------------------------------------------
    def start_computers(self, table: Table) -> None:
        """Let the computer seats play while it is their turn (one worker per table)."""
        if table.computer_to_move() is None:
            if table.state.over or table.failure:  # a person's move ended it: their
                close_agents(table.agents.values())  # worker processes go too
            return
        running = self.runners.get(table.id)
        if running is not None and not running.done():
            return
        task = asyncio.get_running_loop().create_task(self._computers(table))
        self.runners[table.id] = task
        task.add_done_callback(lambda _: self.tidy())

    async def _computers(self, table: Table) -> None:
        try:
            await self._computers_move(table)
        finally:
            if table.state.over or table.failure:  # their worker processes go too
                close_agents(table.agents.values())

    async def _computers_move(self, table: Table) -> None:
        while (seat := table.computer_to_move()) is not None:
            if self.pace:
                await asyncio.sleep(self.pace)
            version, state = table.version, table.state.copy()
            try:
                notation = await asyncio.to_thread(
                    decide, table.game, state, seat, table.agents[seat])
            except TabletopError as exc:
                self.fail(table, exc)
                await self.push(table)
                return
            async with self.lock(table):
                if table.version != version:
                    continue  # someone decided meanwhile (a simultaneous choice): again
                if not await self.commit(table, None, state, seat, notation):
                    table.failure = "the game could not be saved"
                    await self.push(table)
                    return
            await self.push(table)

    async def stop(self) -> None:
        running = list(self.runners.values())
        for task in running:
            task.cancel()
        for task in running:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # -- sockets --------------------------------------------------------------------------
    async def socket(self, websocket: WebSocket) -> None:
        if not origin_allowed(websocket.headers, websocket.url.scheme, self.policy.origins):
            await websocket.close(CLOSE_POLICY)  # before accepting: the handshake gets 403
            return
        await websocket.accept()
        table_id = websocket.path_params["id"]
        known = self.store.known(table_id)
        table = await self.table(table_id)
        if table is None:
            await websocket.close(CLOSE_NOT_FOUND, CANNOT_RESUME if known else NO_SUCH_GAME)
            return
        role = table.role(websocket.query_params.get("token", ""))
        if role is None:
            await websocket.close(CLOSE_FORBIDDEN, "this link's token does not open this "
                                  "game; ask for the link again")
            return
        client = Client(websocket, table, role[0], role[1])
        self.clients.setdefault(table.id, set()).add(client)
        try:
            await self.send(client, self.message_for(client, {}))
            while websocket.application_state == WebSocketState.CONNECTED:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = message.get("bytes") or b""
                await self.handle(client, text)
        except WebSocketDisconnect:
            pass
        except TabletopError as exc:
            self.fail(table, exc)
            await self.push(table)
        finally:
            self.clients.get(table.id, set()).discard(client)
            if not self.clients.get(table.id):
                self.clients.pop(table.id, None)
            self.tidy()

    async def handle(self, client: Client, text: str | bytes) -> None:
        try:
            msg = protocol.parse_client(text)
        except ProtocolError as exc:
            await self.tell(client, str(exc))
            return
        if isinstance(msg, Resync):
            await self.send(client, self.message_for(client, {}))
        elif isinstance(msg, Ready):
            await self.ready(client, msg)
        else:
            await self.choose(client, msg)

    async def ready(self, client: Client, msg: Ready) -> None:
        if client.role != "table":
            await self.tell(client, "'ready' is for a hot-seat game's shared device")
            return
        if client.waiting != msg.seat:
            expected = (f"seat {client.waiting}" if client.waiting is not None
                        else "no seat now")
            await self.tell(client, f"the device was passed to {expected}, not seat "
                            f"{msg.seat}")
            return
        client.seat, client.waiting = msg.seat, None
        await self.send(client, self.message_for(client, {}))


def pick(options: list[Option], msg: Choose) -> Option:
    """The option a message names, by index or by notation (case and spaces ignored: as
    typed, else with no spaces at all when that names one option)."""
    if msg.index is not None:
        if msg.index >= len(options):
            raise IllegalMove(f"there is no option {msg.index} (options 0 to "
                              f"{len(options) - 1})")
        return options[msg.index]
    assert msg.notation is not None
    wanted = normalize_notation(msg.notation)
    for option in options:
        if normalize_notation(option.notation) == wanted:
            return option
    squeezed = wanted.replace(" ", "")
    found = [o for o in options if normalize_notation(o.notation).replace(" ", "") == squeezed]
    if len(found) == 1:
        return found[0]
    hint = did_you_mean(msg.notation, [o.notation for o in options])
    raise IllegalMove(f"'{shorten(msg.notation)}' is not a legal option"
                      + (f"; {hint}" if hint else ""))


def log_lines(table: Table, entries: list[dict[str, Any]]) -> list[str]:
    """A view's log as lines of text (what the terminal shows, without its styling)."""
    game = table.game
    out = []
    for entry in entries:
        if "say" in entry:
            out.append("(a message about something hidden from you)" if entry["say"] is None
                       else str(entry["say"]))
        else:
            said, notation = chose_text(game.seat_name(entry["seat"]), entry)
            out.append(said if notation is None else f"{said}  ({notation})")
    return out


def option_groups(options: list[Option]) -> list[dict[str, Any]]:
    """Each option's group as the terminal shows it (by kind, then by the first part of
    the notation that differs), so the page lists a hundred placements in the same
    groups, with the same words: its number, title, size and the key that types it."""
    out: list[dict[str, Any]] = [{} for _ in options]
    place = {id(o): i for i, o in enumerate(options)}
    for n, group in enumerate(group_options(options)):
        for o in group.options:
            out[place[id(o)]] = {"n": n, "title": group.title, "size": len(group.options),
                                 "key": group.key}
    return out


# -- HTTP ----------------------------------------------------------------------------------
def _json_error(message: str, status: int) -> JSONResponse:
    return JSON({"error": message}, status_code=status)


def _html(text: str, status: int) -> HTMLResponse:
    return HTMLResponse(f"<!doctype html><title>Tabletop</title><p>{html.escape(text)}</p>",
                        status_code=status)


def _page(name: str) -> Response:
    path = STATIC / name
    if not path.is_file():
        return _html(f"This tabletop has no {name} page installed.", 500)
    return FileResponse(path)


def rulesets_entries(store: Store, known: dict[str, tuple[str, dict[str, Any]]] | None = None
                     ) -> list[dict[str, Any]]:
    """The games on offer, with what the create form needs; one that does not load is
    left out (the server's log says why). `known` keeps each game's entry by the hash of
    its files, so a page load compiles only the rulesets that changed (all of them take
    about half a second); the compiled game is the store's, shared with the tables."""
    known = {} if known is None else known
    out = []
    for name in store.names():
        try:
            loaded = store.load_ruleset(name)
            digest = loaded.content_hash
            hit = known.get(name)
            if hit is None or hit[0] != digest:
                hit = known[name] = (digest, _entry(name, loaded, store.game(loaded, {})))
        except TabletopError as exc:
            log.warning("%s is not offered: %s", name, str(exc).splitlines()[0])
            continue
        out.append(hit[1])
    return out


def _entry(name: str, loaded: LoadedRuleset, game: Game) -> dict[str, Any]:
    g = loaded.model.game
    entry: dict[str, Any] = {
        "name": name, "title": g.title, "seats": {"min": g.seats.min, "max": g.seats.max},
        "summary": " ".join(g.summary.split()),
        "options": [_option(o) for o in loaded.model.options],
        "hidden": hides_anything(game),  # with its default options
        "computer_players": ruleset_settings(game, game.computer_players),
    }
    if loaded.variant is not None:
        entry["extends"] = loaded.variant.base_name
    return entry


def agent_entry(name: str, cls: type) -> dict[str, Any]:
    """A computer player on offer: the first line of its help, its settings, and whether
    it reads secrets (and then what to tell the person choosing it)."""
    doc = (cls.__doc__ or "").strip()
    out: dict[str, Any] = {"name": name, "help": doc.splitlines()[0] if doc else "",
                           "sees_hidden": sees_hidden(name), "settings": {
        key: {"default": s.default, "help": s.help}
        for key, s in getattr(cls, "SETTINGS", {}).items()}}
    if out["sees_hidden"]:
        out["note"] = SEES_HIDDEN_NOTE
    return out


def _option(o: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": o.id, "label": o.label, "type": o.type, "default": o.default,
                           "description": " ".join(o.description.split())}
    for key in ("choices", "min", "max"):
        if getattr(o, key) is not None:
            out[key] = getattr(o, key)
    return out


def rulebook_html(store: Store, name: str) -> tuple[str, str]:
    """A game's rulebook as one printable page (a variant's: its differences), with the
    hash of the files it was made from."""
    from interpreter.docs.build import environment, print_html, print_variant_html
    from interpreter.docs.rulebook import build_rulebook
    from interpreter.docs.variant_page import build_variant_page

    loaded = store.load_ruleset(name)
    if loaded.variant is None:
        return print_html(environment(), build_rulebook(loaded)), loaded.content_hash
    return print_variant_html(environment(), build_variant_page(loaded)), loaded.content_hash


def create_app(store: Store, policy: Policy | None = None,
               allowed_hosts: list[str] | None = None) -> Starlette:
    """The application over `store` (already opened); `allowed_hosts` refuses requests
    for other host names (against DNS rebinding when the server listens on loopback)."""
    server = Server(store, policy)
    policy = server.policy

    async def index(request: Request) -> Response:
        return _page("index.html")

    async def play(request: Request) -> Response:
        table_id = request.path_params["id"]
        known = store.known(table_id)
        table = await server.table(table_id)
        if table is None:
            return _html(f"{CANNOT_RESUME if known else NO_SUCH_GAME}.".capitalize(), 404)
        if table.role(request.query_params.get("token", "")) is None:
            return _html("This link's token does not open this game; ask for the link "
                         "again.", 403)
        return _page("play.html")

    async def rulesets(request: Request) -> Response:
        entries = await asyncio.to_thread(rulesets_entries, store, server.offered)
        return JSON(entries)

    async def agents(request: Request) -> Response:
        return JSON([agent_entry(name, cls) for name, cls in AGENTS.items()])

    async def settings(request: Request) -> Response:
        return JSON({"chosen_seeds": policy.chosen_seeds,
                     "games_per_minute": policy.games_per_minute})

    async def rules(request: Request) -> Response:
        name = request.path_params["name"].removesuffix(".html")
        if name not in store.names():
            return _html("There is no such game on this server.", 404)
        try:
            digest = (await asyncio.to_thread(store.load_ruleset, name)).content_hash
            page = server.rulebooks.get(name)
            if page is None or page[1] != digest:
                page = server.rulebooks[name] = await asyncio.to_thread(
                    rulebook_html, store, name)
        except TabletopError as exc:
            return _html(f"The rulebook cannot be made: {str(exc).splitlines()[0]}", 500)
        return HTMLResponse(page[0])

    async def create(request: Request) -> Response:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            # also keeps other web sites out: their pages cannot send JSON here
            return _json_error("send the game as JSON (Content-Type: application/json)", 415)
        if not origin_allowed(request.headers, request.url.scheme, policy.origins):
            return _json_error(FOREIGN_ORIGIN, 403)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > protocol.MAX_BODY:
                return _json_error(f"the request is larger than {protocol.MAX_BODY} bytes",
                                   413)
        try:
            wanted = protocol.parse_create(bytes(body))
        except ProtocolError as exc:
            return _json_error(str(exc), 400)
        if wanted.seed is not None and not policy.chosen_seeds:
            return _json_error("this server does not let a game's creator choose its seed "
                               "(whoever knows the seed can work out every secret of the "
                               "game); leave 'seed' out, and a secret one is drawn", 403)
        refusal = _too_many(server, request)
        if refusal is not None:
            return _json_error(refusal, 429)
        try:
            table = await asyncio.to_thread(store.make, wanted)
        except TabletopError as exc:
            return _json_error(str(exc).splitlines()[0], 400)
        store.install(table)
        server.start_computers(table)
        server.tidy()
        links = ({"table": f"/play/{table.id}?token={table.tokens[0]}"} if table.hotseat
                 else {str(s): f"/play/{table.id}?token={t}"
                       for s, t in sorted(table.tokens.items())})
        return JSON({"game": table.id, "links": links,
                     "spectator": f"/play/{table.id}?token={table.spectator}",
                     "hotseat": table.hotseat, "notes": server.notes(table)}, status_code=201)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        warming = (asyncio.get_running_loop().run_in_executor(
            None, rulesets_entries, store, server.offered) if policy.warm else None)
        yield
        await server.stop()
        if warming is not None:
            warming.cancel()

    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(routes=[
        Route("/", index),
        Route("/play/{id}", play),
        Route("/rules/{name}", rules),
        Route("/api/rulesets", rulesets),
        Route("/api/agents", agents),
        Route("/api/server", settings),
        Route("/api/games", create, methods=["POST"]),
        WebSocketRoute("/ws/{id}", server.socket),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ], middleware=middleware, lifespan=lifespan)
    app.state.server = server
    return app


def _too_many(server: Server, request: Request) -> str | None:
    """Why this client may not start a game now (None: it may)."""
    full = server.store.full()
    if full is not None:
        return full
    limit = server.policy.games_in_play
    if server.in_play() >= limit:
        return (f"this server has {limit} games in play, its most at once; try again when "
                "one has ended")
    address = request.client.host if request.client else "unknown"
    return server.limiter.refusal(address)
