"""The browser table's web application (Starlette): pages, the game API and the sockets.

Every client holds a link with a secret token that opens one seat (or the spectators'
view, or a hot-seat table's device). What a client is sent is drawn from *its* seat's
view only (`interpreter.run.view.view`, the one function that redacts), so a socket
never carries what its seat may not see. Decisions on a game are made one at a time
(a lock per game) and checked against the version the client saw; computer seats think
in a worker thread so the server keeps answering meanwhile. See `protocol` for the
messages.
"""

from __future__ import annotations

import asyncio
import contextlib
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
    ruleset_settings,
    ruleset_settings_note,
    sees_hidden,
)
from interpreter.compile.game import compile_game
from interpreter.docs.diagrams import position_svg
from interpreter.errors import IllegalMove, TabletopError, did_you_mean
from interpreter.load.catalog import shorten
from interpreter.load.loader import LoadedRuleset
from interpreter.run.game import Game, Option, normalize_notation
from interpreter.run.playout import decide
from interpreter.run.view import SPECTATOR, hides_anything, view
from interpreter.serve import protocol
from interpreter.serve.protocol import Choose, ProtocolError, Ready, Resync
from interpreter.serve.tables import HUMAN, Store, Table
from interpreter.view.involvement import involvement, places_of

log = logging.getLogger("tabletop.serve")

STATIC = Path(__file__).resolve().parent / "static"
SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",  # a page's URL holds its seat's token
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
STALE = "the position changed; choose again"
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


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

    def __init__(self, store: Store, pace: float = 0.0) -> None:
        self.store = store
        self.pace = pace
        """Seconds a computer player waits before it moves, so people can follow."""
        self.clients: dict[str, set[Client]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.runners: dict[str, asyncio.Task[None]] = {}
        self.rulebooks: dict[str, str] = {}
        self.offered: dict[str, tuple[str, dict[str, Any]]] = {}
        """The new-game form's entry of each game, by the hash of its files."""

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    # -- what a client is sent ---------------------------------------------------------
    def state_message(self, table: Table, seat: int | None, choosing: bool) -> dict[str, Any]:
        """The position as `seat` may see it (None: a spectator), with its options when
        `choosing` and it must decide now."""
        game, state = table.game, table.state
        seen = view(game, state, SPECTATOR if seat is None else seat)
        options: list[Option] = []
        if seat is not None and choosing and seat in seen["deciding"] and not table.failure:
            options = game.legal_options(state, seat)
        # what each option involves, for click targets (only pieces this seat may see)
        involved = involvement(game, state, seat, options) if seat is not None else []
        return {
            "type": "state",
            "version": table.version,
            "seat": seat,
            "title": game.title,
            "svg": position_svg(game, seen, game.title, targets=True),
            "view": seen,
            "log": log_lines(table, seen["log"]),
            "deciding": seen["deciding"],
            "prompt": seen["prompt"],
            "options": [{"index": o.index, "notation": o.notation, "label": o.label,
                         "kind": o.kind, "involves": items, "places": places_of(items)}
                        for o, items in zip(options, involved, strict=True)],
            "over": seen["over"],
            "winners": list(seen["winners"] or []),
            "hotseat": table.hotseat,
            "stopped": table.failure,
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
        table.state = state
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
            return
        running = self.runners.get(table.id)
        if running is not None and not running.done():
            return
        self.runners[table.id] = asyncio.get_running_loop().create_task(
            self._computers(table))

    async def _computers(self, table: Table) -> None:
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
        for task in self.runners.values():
            task.cancel()
        for task in self.runners.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # -- sockets --------------------------------------------------------------------------
    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        table = self.store.tables.get(websocket.path_params["id"])
        if table is None:
            await websocket.close(CLOSE_NOT_FOUND, "there is no such game on this server")
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
        elif entry.get("decision") is None:
            out.append(f"{game.seat_name(entry['seat'])} decided (secret)")
        else:
            out.append(f"{game.seat_name(entry['seat'])}: {entry['decision']}")
    return out


# -- HTTP ----------------------------------------------------------------------------------
def _json_error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)


def _page(name: str) -> Response:
    path = STATIC / name
    if not path.is_file():
        return HTMLResponse(f"<p>This tabletop has no {name} page installed.</p>",
                            status_code=500, headers=SECURITY_HEADERS)
    return FileResponse(path, headers=SECURITY_HEADERS)


def rulesets_entries(store: Store, known: dict[str, tuple[str, dict[str, Any]]] | None = None
                     ) -> list[dict[str, Any]]:
    """The games on offer, with what the create form needs; one that does not load is
    left out (the server's log says why). `known` keeps each game's entry by the hash of
    its files, so a page load compiles only the rulesets that changed (all of them take
    about half a second)."""
    known = {} if known is None else known
    out = []
    for name in store.names():
        try:
            loaded = store.load_ruleset(name)
            digest = loaded.content_hash
            hit = known.get(name)
            if hit is None or hit[0] != digest:
                hit = known[name] = (digest, _entry(name, loaded, compile_game(loaded, {})))
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


def _agent(name: str, cls: type) -> dict[str, Any]:
    """A computer player on offer: its settings, and whether it reads secrets (and
    then what to tell the person choosing it)."""
    out: dict[str, Any] = {"name": name, "sees_hidden": sees_hidden(name), "settings": {
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


def rulebook_html(store: Store, name: str) -> str:
    """A game's rulebook as one printable page (a variant's: its differences)."""
    from interpreter.docs.build import environment, print_html, print_variant_html
    from interpreter.docs.rulebook import build_rulebook
    from interpreter.docs.variant_page import build_variant_page

    loaded = store.load_ruleset(name)
    if loaded.variant is None:
        return print_html(environment(), build_rulebook(loaded))
    return print_variant_html(environment(), build_variant_page(loaded))


def create_app(store: Store, pace: float = 0.0,
               allowed_hosts: list[str] | None = None) -> Starlette:
    """The application over `store` (already opened); `allowed_hosts` refuses requests
    for other host names (against DNS rebinding when the server listens on loopback)."""
    server = Server(store, pace)

    async def index(request: Request) -> Response:
        return _page("index.html")

    async def play(request: Request) -> Response:
        table = store.tables.get(request.path_params["id"])
        if table is None:
            return HTMLResponse("<p>There is no such game on this server.</p>",
                                status_code=404, headers=SECURITY_HEADERS)
        if table.role(request.query_params.get("token", "")) is None:
            return HTMLResponse("<p>This link's token does not open this game; ask for "
                                "the link again.</p>", status_code=403,
                                headers=SECURITY_HEADERS)
        return _page("play.html")

    async def rulesets(request: Request) -> Response:
        entries = await asyncio.to_thread(rulesets_entries, store, server.offered)
        return JSONResponse(entries, headers=SECURITY_HEADERS)

    async def agents(request: Request) -> Response:
        return JSONResponse([_agent(name, cls) for name, cls in AGENTS.items()],
                            headers=SECURITY_HEADERS)

    async def rules(request: Request) -> Response:
        name = request.path_params["name"].removesuffix(".html")
        if name not in store.names():
            return HTMLResponse("<p>There is no such game on this server.</p>",
                                status_code=404, headers=SECURITY_HEADERS)
        page = server.rulebooks.get(name)
        if page is None:
            try:
                page = await asyncio.to_thread(rulebook_html, store, name)
            except TabletopError as exc:
                return HTMLResponse(f"<p>The rulebook cannot be made: "
                                    f"{_escape(str(exc).splitlines()[0])}</p>",
                                    status_code=500, headers=SECURITY_HEADERS)
            server.rulebooks[name] = page
        return HTMLResponse(page, headers=SECURITY_HEADERS)

    async def create(request: Request) -> Response:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            # also keeps other web sites out: their pages cannot send JSON here
            return _json_error("send the game as JSON (Content-Type: application/json)", 415)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > protocol.MAX_BODY:
                return _json_error(f"the request is larger than {protocol.MAX_BODY} bytes",
                                   413)
        try:
            wanted = protocol.parse_create(bytes(body))
            table = await asyncio.to_thread(store.create, wanted)
        except ProtocolError as exc:
            return _json_error(str(exc), 400)
        except TabletopError as exc:
            return _json_error(str(exc).splitlines()[0], 400)
        links = ({"table": f"/play/{table.id}?token={table.tokens[0]}"} if table.hotseat
                 else {str(s): f"/play/{table.id}?token={t}"
                       for s, t in sorted(table.tokens.items())})
        server.start_computers(table)
        notes = ([SEES_HIDDEN_NOTE]  # it starts with the player's name, mcts, as typed
                 if hides_anything(table.game) and any(map(sees_hidden, table.seats.values()))
                 else [])
        settings_note = ruleset_settings_note(table.game, table.seats.values())
        if settings_note is not None:
            notes.append(settings_note)
        return JSONResponse({"game": table.id, "links": links,
                             "spectator": f"/play/{table.id}?token={table.spectator}",
                             "hotseat": table.hotseat, "notes": notes}, status_code=201,
                            headers=SECURITY_HEADERS)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for table in list(store.tables.values()):
            server.start_computers(table)
        yield
        await server.stop()

    middleware = []
    if allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(routes=[
        Route("/", index),
        Route("/play/{id}", play),
        Route("/rules/{name}", rules),
        Route("/api/rulesets", rulesets),
        Route("/api/agents", agents),
        Route("/api/games", create, methods=["POST"]),
        WebSocketRoute("/ws/{id}", server.socket),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ], middleware=middleware, lifespan=lifespan)
    app.state.server = server
    return app


def _escape(text: str) -> str:
    import html

    return html.escape(text)
