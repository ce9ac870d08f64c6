"""The browser table's protocol: the shapes of its requests and messages, and the checks
every message from a client passes before anything acts on it.

HTTP
  ``POST /api/games`` ``{"ruleset": NAME, "options": {K: V}, "players": N,
  "seats": {"1": "human", "2": "mcts:playouts=200"}, "hotseat": false}``
  (everything but ``ruleset`` may be left out: the least players, the default options,
  seat 1 a person and the others ``random``, a fresh secret seed) → 201 ``{"game": ID,
  "links": {"1": "/play/ID?token=T1", ...}, "spectator": "/play/ID?token=T0",
  "hotseat": bool, "notes": [text]}``. ``links`` has one entry per human seat; a
  hot-seat game has one link for the whole table instead, under the key ``"table"``.
  ``notes`` are what every player of the game is told about it (also in each state). A
  bad request → 400 ``{"error": MESSAGE}``. ``"seed": S`` is refused (403) unless the
  server was started with ``--allow-chosen-seeds`` (for testing; the game's notes then
  say so). One client address starting too many games a minute, or a server with too
  many games in play → 429, saying which.
  ``GET /api/rulesets`` → the games on offer: ``[{"name", "title", "seats": {"min",
  "max"}, "summary", "options": [{"id", "label", "type", "default", "description",
  "choices"?, "min"?, "max"?}], "hidden", "computer_players": {NAME: SETTINGS},
  "extends"?}]`` (``computer_players``: the ruleset's settings for a player, as after
  ``NAME:``). ``GET /api/agents`` → the computer
  players: ``[{"name", "settings": {KEY: {"default", "help"}}}]`` (a seat is written
  ``name`` or ``name:key=value,...``). ``GET /api/server`` → ``{"chosen_seeds": bool,
  "games_per_minute": n}``. ``GET /rules/NAME`` → the rulebook as one
  printable page. A request for another host name than the server's own (when it
  listens on loopback) → 400; a POST that is not ``application/json`` → 415, one whose
  ``Origin`` is another site's → 403. Every response carries a Content-Security-Policy
  (scripts only from the server's files) and ``X-Content-Type-Options: nosniff``; JSON
  is written with <, > and & as \\u escapes.
  ``GET /play/ID?token=T`` → the play page (403 for a token that is not the game's).

WebSocket ``/ws/ID?token=T``. A handshake with another site's ``Origin`` is refused
(403) before it is accepted; one without ``Origin`` (not a browser) is taken, as it
still needs a seat's token. A wrong token or game: the socket is accepted, then closed
with code 4403 (4404 for no such game, or one whose save cannot be resumed) and a
reason saying so. A handshake whose URL is too long → 414.

Server → client:
  ``{"type": "state", "version": n, "seat": s | null, "title", "svg", "view", "table":
  [{"label", "text"}], "log": [text lines], "deciding": [seats], "prompt": text | null,
  "options": [{"index", "notation", "label", "kind"}], "over", "winners": [seats],
  "hotseat", "stopped": text | null, "notes": [text]}``: the position as ``seat`` may
  see it (null: a spectator, the public view). ``table``: the variables players see,
  each under its label (`interpreter.view.shown`, the terminal's lines). ``svg`` marks
  places and visible pieces as click targets. ``options`` is empty unless this seat
  must decide now; each also carries ``"involves": [{"place", "piece"?}]`` and
  ``"places": [names]`` (what the option points at, for board clicks:
  `interpreter.view.involvement`, a piece only when this seat may see it). ``version``
  counts the decisions made so far. ``stopped`` says why the game cannot go on (the rules went
  wrong), else null. A hot-seat device shows the seat that confirmed it holds it while
  computers think, and the public view once the game is over.
  ``{"type": "pass", "seat": s, "version": n, "title"}`` (hot seat only): hand the
  device to seat s; no view comes until the client answers ``ready``.
  ``{"type": "error", "message": text}``: to that client only; nothing changed.

Client → server (a JSON object of at most MAX_MESSAGE bytes, no other keys):
  ``{"type": "choose", "version": n, "notation": text}`` or ``"index": i`` instead of
  ``notation`` (notations match with case and spaces ignored); an optional ``"seat"``
  must be the client's own seat. A stale ``version`` is refused ("the position
  changed; choose again"), as is a choice when it is not this seat's turn.
  ``{"type": "ready", "seat": s}`` (hot seat): seat s has the device.
  ``{"type": "resync"}``: send the current state again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MAX_MESSAGE = 4096
"""Largest message a client may send (bytes): a choice is a few dozen."""
MAX_NOTATION = 1000
MAX_BODY = 64 * 1024
"""Largest body of a request to create a game."""
MAX_SEED_DIGITS = 100
MAX_OPTIONS = 100
MAX_TEXT = 200


class ProtocolError(Exception):
    """A message or request the server refuses; its text goes back to the client."""


@dataclass(frozen=True, slots=True)
class Choose:
    version: int
    notation: str | None
    index: int | None
    seat: int | None


@dataclass(frozen=True, slots=True)
class Ready:
    seat: int


@dataclass(frozen=True, slots=True)
class Resync:
    pass


ClientMessage = Choose | Ready | Resync

_KEYS = {
    "choose": ({"type", "version"}, {"notation", "index", "seat"}),
    "ready": ({"type", "seat"}, set()),
    "resync": ({"type"}, set()),
}


def _whole(value: Any) -> bool:
    return type(value) is int and abs(value) < 10 ** 18


def parse_client(text: str | bytes) -> ClientMessage:
    """A client's message, checked in full, or a ProtocolError saying what is wrong with
    it (never quoting more than its type)."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(f"a message is at most {MAX_MESSAGE} bytes")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("a message is one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is one JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise ProtocolError(f"unknown message type (use one of {', '.join(_KEYS)})")
    needed, optional = _KEYS[kind]
    missing = sorted(needed - data.keys())
    if missing:
        raise ProtocolError(f"a '{kind}' message needs {', '.join(missing)}")
    extra = sorted(data.keys() - needed - optional)
    if extra:
        raise ProtocolError(f"a '{kind}' message has no field {extra[0][:40]!r}")
    if kind == "resync":
        return Resync()
    seat = data.get("seat")
    if seat is not None and not (_whole(seat) and seat >= 1):
        raise ProtocolError("'seat' is a seat number (from 1)")
    if kind == "ready":
        if seat is None:
            raise ProtocolError("'seat' is a seat number (from 1)")
        return Ready(seat)
    version = data["version"]
    if not (_whole(version) and version >= 0):
        raise ProtocolError("'version' is the version of the state being answered")
    notation, index = data.get("notation"), data.get("index")
    if (notation is None) == (index is None):
        raise ProtocolError("a 'choose' message gives either 'notation' or 'index'")
    if notation is not None and not (isinstance(notation, str)
                                     and 0 < len(notation) <= MAX_NOTATION):
        raise ProtocolError("'notation' is an option's notation (text)")
    if index is not None and not (_whole(index) and index >= 0):
        raise ProtocolError("'index' is an option's number in the list (from 0)")
    return Choose(version, notation, index, seat)


def _no_constant(name: str) -> Any:
    raise ValueError(name)


@dataclass(frozen=True, slots=True)
class CreateRequest:
    """A checked request to create a game (values not yet checked against the game)."""

    ruleset: str
    options: dict[str, Any]
    players: int | None
    seats: dict[str, str]
    hotseat: bool
    seed: int | None


_CREATE_KEYS = {"ruleset", "options", "players", "seats", "hotseat", "seed"}


def parse_create(body: bytes) -> CreateRequest:
    """The body of ``POST /api/games``, checked for shape (the game checks the values)."""
    if len(body) > MAX_BODY:
        raise ProtocolError(f"the request is larger than {MAX_BODY} bytes")
    try:
        data = json.loads(body, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("the request is one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("the request is one JSON object")
    extra = sorted(data.keys() - _CREATE_KEYS)
    if extra:
        raise ProtocolError(f"unknown field {extra[0][:40]!r} (fields: "
                            f"{', '.join(sorted(_CREATE_KEYS))})")
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or not ruleset.strip():
        raise ProtocolError("'ruleset' names the game to play (see /api/rulesets)")
    options = data.get("options", {})
    if options is None:
        options = {}
    if not (isinstance(options, dict) and len(options) <= MAX_OPTIONS and all(
            isinstance(v, bool | str) or _whole(v) for v in options.values())
            and all(isinstance(v, bool) or not isinstance(v, str) or len(v) <= MAX_TEXT
                    for v in options.values())):
        raise ProtocolError("'options' maps option names to true/false, whole numbers or "
                            "short texts")
    players = data.get("players")
    if players is not None and not (_whole(players) and players >= 1):
        raise ProtocolError("'players' is a whole number of players")
    seats = data.get("seats", {})
    if seats is None:
        seats = {}
    if not (isinstance(seats, dict) and all(
            isinstance(v, str) and len(v) <= MAX_TEXT for v in seats.values())):
        raise ProtocolError("'seats' maps seat numbers to 'human' or a computer player "
                            "(e.g. {\"2\": \"mcts:playouts=200\"})")
    hotseat = data.get("hotseat", False)
    if not isinstance(hotseat, bool):
        raise ProtocolError("'hotseat' is true or false")
    seed = data.get("seed")
    if seed is not None and not (type(seed) is int and abs(seed) < 10 ** MAX_SEED_DIGITS):
        raise ProtocolError(f"'seed' is a whole number of at most {MAX_SEED_DIGITS} digits")
    return CreateRequest(ruleset.strip(), dict(options), players, dict(seats), hotseat, seed)


_MARKUP = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def dumps(message: Any) -> str:
    """A message as sent: compact JSON, keys in a fixed order (the same position gives
    the same bytes), with <, > and & written as \\u escapes: the same data once parsed,
    but no text of a ruleset (a title, a log line) ever reaches a reader as a tag."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).translate(_MARKUP)


def error(message: str) -> dict[str, Any]:
    return {"type": "error", "message": message}
