"""The ``serve`` probes: hostile requests to a running `tabletop serve`.

Each probe starts its own server (`tabletop serve --port P --data DIR --pace 0`, on a
free loopback port, in an empty folder), waits until it answers, then sends its hostile
requests: URLs far too long (pages and socket handshakes), huge and malformed JSON,
forged tokens and game ids, other sites' origins, a chosen seed without
--allow-chosen-seeds, slow clients, many games from one client, a slow ruleset, many
saved games. A probe passes when each request gets a clear answer (the status or close
code it names, a message saying why) within 2 s; the server keeps serving afterwards;
its stderr shows no traceback and no internal error; its memory stays under 500 MB; and
it stops cleanly on Ctrl-C.

Run them with the other probes: ``python -m tests.probes.run -c serve``.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .catalogue import ROOT, Probe

ANSWER_SECONDS = 2.0
START_SECONDS = 30.0
"""How long a server may take to start (imports; the machine may be busy)."""
INTERNAL = re.compile(r"Traceback \(most recent call last\)|internal error|Exception in ASGI "
                      r"application|This is a bug in tabletop", re.IGNORECASE)


class Problem(Exception):
    """What a probe found wrong (kind, reason)."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind


@dataclass
class ServeProbe(Probe):
    """A probe of a running server: `attack(target)` sends the hostile requests and
    raises Problem for a wrong answer (`Target` times every answer)."""

    attack: Callable[[Target], None] | None = None
    flags: tuple[str, ...] = ()
    """More arguments for `tabletop serve`."""
    prepare: Callable[[Path, str], None] | None = None
    """Makes files before the server starts (the folder, the tabletop command)."""


@dataclass
class Outcome:
    """As the runner's `Outcome`: the server's exit code and output, the attack's worst
    answer time, the server's peak memory and its CPU time during the attack."""

    code: int | None
    stdout: str
    stderr: str
    seconds: float
    megabytes: float
    cpu_seconds: float
    timed_out: bool


@dataclass
class Target:
    """The running server, and what its answers took."""

    port: int
    folder: Path
    pid: int
    listened: float = 0.0
    """Seconds from the start of the process until it accepted a connection."""
    worst: float = 0.0
    notes: list[str] = field(default_factory=list)

    def timed(self, what: str, seconds: float, allowed: float = ANSWER_SECONDS) -> None:
        if allowed == ANSWER_SECONDS:
            self.worst = max(self.worst, seconds)
        if seconds > allowed:
            raise Problem("slow", f"{what}: answered after {seconds:.1f} s")

    # -- HTTP ------------------------------------------------------------------------------
    def http(self, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None, allowed: float = ANSWER_SECONDS
             ) -> tuple[int, dict[str, str], bytes]:
        """One request; its status, headers and body (a hang past 10 s, or `allowed`,
        is a Problem)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=max(10, allowed))
        started = time.monotonic()
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            data = response.read()
        except TimeoutError:
            raise Problem("hang", f"{method} {path[:60]}: no answer in 10 s") from None
        except (ConnectionError, http.client.HTTPException) as exc:
            raise Problem("other", f"{method} {path[:60]}: the connection failed "
                                   f"({type(exc).__name__}) without an answer") from None
        finally:
            conn.close()
        self.timed(f"{method} {path[:60]}", time.monotonic() - started, allowed)
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def expect(self, method: str, path: str, statuses: set[int], says: str = "",
               body: bytes | None = None, headers: dict[str, str] | None = None,
               allowed: float = ANSWER_SECONDS) -> bytes:
        """A request whose status must be one of `statuses`, its body saying `says`; a
        JSON error must be {"error": text}."""
        status, got, data = self.http(method, path, body, headers, allowed)
        what = f"{method} {path[:60]}"
        if status not in statuses:
            raise Problem("other", f"{what}: status {status}, expected {sorted(statuses)}: "
                                   f"{data[:120]!r}")
        if status >= 500:
            raise Problem("internal", f"{what}: status {status}")
        text = data.decode("utf-8", "replace")
        if says and says not in text:
            raise Problem("other", f"{what}: the answer does not say {says!r}: {text[:160]}")
        if status >= 400 and got.get("content-type", "").startswith("application/json"):
            error = json.loads(text).get("error")
            if not isinstance(error, str) or not error:
                raise Problem("other", f"{what}: a JSON error without a message")
        return data

    def create(self, **body: Any) -> dict[str, Any]:
        data = self.expect("POST", "/api/games", {201}, body=json.dumps(body).encode(),
                           headers={"Content-Type": "application/json"})
        return json.loads(data)

    # -- raw sockets -------------------------------------------------------------------------
    def raw(self, what: str, data: bytes, pieces: int = 1, pause: float = 0.0) -> bytes:
        """Send `data` (in `pieces`, `pause` s apart) on a new connection; the first
        bytes answered ("" when the server closed without a word)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as s:
            size = -(-len(data) // pieces)
            started = time.monotonic()
            try:
                for i in range(0, len(data), size):
                    s.sendall(data[i:i + size])
                    if pause:
                        time.sleep(pause)
                started = time.monotonic()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server answered and closed before the rest: read its answer
            try:
                answer = s.recv(4096)
            except TimeoutError:
                raise Problem("hang", f"{what}: no answer in 10 s") from None
            except ConnectionResetError:
                answer = b""
            self.timed(what, time.monotonic() - started)
            return answer

    def raw_status(self, what: str, data: bytes, statuses: set[int], **kw: Any) -> None:
        answer = self.raw(what, data, **kw)
        match = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
        if match is None or int(match.group(1)) not in statuses:
            raise Problem("other", f"{what}: answered {answer[:60]!r}, expected a status "
                                   f"in {sorted(statuses)}")

    # -- sockets -----------------------------------------------------------------------------
    def socket(self, path: str, headers: dict[str, str] | None = None) -> Any:
        from websockets.sync.client import connect

        return connect(f"ws://127.0.0.1:{self.port}{path}", additional_headers=headers,
                       open_timeout=10, close_timeout=2, max_size=None)

    def refused_socket(self, what: str, path: str, code: int, says: str = "",
                       headers: dict[str, str] | None = None) -> None:
        """A socket that must be refused: closed with `code` (or, a handshake refused, an
        HTTP status `code`)."""
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        started = time.monotonic()
        try:
            with self.socket(path, headers) as ws:
                ws.recv(timeout=10)
                ws.recv(timeout=10)
        except InvalidStatus as exc:
            got, reason = exc.response.status_code, exc.response.body.decode("utf-8", "replace")
        except ConnectionClosed as exc:
            got = exc.rcvd.code if exc.rcvd else None
            reason = exc.rcvd.reason if exc.rcvd else ""
        except TimeoutError:
            raise Problem("hang", f"{what}: the socket was neither refused nor closed") from None
        else:
            raise Problem("other", f"{what}: the socket was not refused")
        self.timed(what, time.monotonic() - started)
        if got != code or says not in reason:
            raise Problem("other", f"{what}: closed with {got} {reason!r}, expected {code} "
                                   f"saying {says!r}")


def people(target: Target) -> dict[str, Any]:
    return target.create(ruleset="high-rise", seats={"1": "human", "2": "human"})


def ws_path(link: str) -> str:
    return link.replace("/play/", "/ws/")


JSON_HEADERS = {"Content-Type": "application/json"}


def handshake(path: str, extra: str = "") -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            f"Sec-WebSocket-Version: 13\r\n{extra}\r\n").encode()


# -- the attacks ---------------------------------------------------------------------------------

def long_socket_url(size: int) -> Callable[[Target], None]:
    def attack(t: Target) -> None:
        t.raw_status(f"a socket handshake with a {size:,}-byte URL",
                     handshake("/ws/0123456789abcdef?token=" + "a" * size), {414})
    return attack


def long_page_url(size: int) -> Callable[[Target], None]:
    def attack(t: Target) -> None:
        made = people(t)
        # the games on offer are compiled once, in the background from the start (their
        # honest work, a few seconds on a busy machine): then the hostile requests
        t.expect("GET", "/api/rulesets", {200}, allowed=60)
        for path in (f"/?x={'a' * size}", f"{made['links']['1']}{'a' * size}",
                     f"/rules/{'a' * size}", f"/api/rulesets?{'a=1&' * (size // 4)}"):
            t.expect("GET", path, {200, 400, 403, 404, 414, 431})
    return attack


def huge_headers(t: Target) -> None:
    big = f"X-Junk: {'b' * 70_000}\r\n"  # taken when it comes at once (h11), else refused
    t.raw_status("a page request with a 70 KB header",
                 f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n{big}\r\n".encode(),
                 {200, 400, 431})
    t.raw_status("a page request with a 70 KB header in pieces",
                 f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n{big}\r\n".encode(),
                 {400, 431}, pieces=10, pause=0.02)
    t.raw_status("a socket handshake with a 20 KB header",
                 handshake("/ws/0123456789abcdef", f"X-Junk: {'b' * 20_000}\r\n"), {400, 431})
    many = "".join(f"X-Junk-{i}: {i}\r\n" for i in range(500))
    t.raw_status("a socket handshake with 500 headers", handshake("/ws/0123456789abcdef",
                                                                   many), {400, 431})


def huge_body(t: Target) -> None:
    t.expect("POST", "/api/games", {413}, "larger than", body=b" " * 10_000_000,
             headers=JSON_HEADERS)
    chunked = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
               b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
               + (b"100000\r\n" + b" " * 0x100000 + b"\r\n") * 8 + b"0\r\n\r\n")
    t.raw_status("a chunked create of 8 MB", chunked, {413})


MALFORMED: list[tuple[str, bytes, str]] = [
    ("not JSON", b"{nope", "one JSON object"),
    ("deep nesting", b"[" * 60_000, "one JSON object"),
    ("a huge number", b'{"ruleset": "caldera", "players": 1' + b"0" * 5000 + b"}", "JSON"),
    ("a large number", b'{"ruleset": "caldera", "players": 1' + b"0" * 50 + b"}",
     "'players'"),
    ("NaN", b'{"ruleset": "caldera", "players": NaN}', "one JSON object"),
    ("invalid UTF-8", b'{"ruleset": "\xff\xfe"}', ""),
    ("a list", b"[1, 2, 3]", "one JSON object"),
    ("an unknown field", b'{"ruleset": "caldera", "admin": true}', "unknown field"),
    ("a path for a game", b'{"ruleset": "../../etc/passwd"}', "unknown game"),
    ("a wrong seat", b'{"ruleset": "caldera", "seats": {"99999999999": "human"}}', "seat"),
    ("a wrong agent", b'{"ruleset": "caldera", "seats": {"2": "mcts:playouts=1e99"}}',
     "playouts"),
    ("options of every type", b'{"ruleset": "caldera", "options": {"power_play": [1]}}',
     "'options'"),
    ("a long text option", b'{"ruleset": "aquarium", "options": {"mode": "'
     + b"x" * 50_000 + b'"}}', "'options'"),
    ("too many players", b'{"ruleset": "caldera", "players": 1000000}', "players"),
]


def malformed_json(t: Target) -> None:
    for what, body, says in MALFORMED:
        try:
            t.expect("POST", "/api/games", {400}, says, body=body, headers=JSON_HEADERS)
        except Problem as exc:
            raise Problem(exc.kind, f"{what}: {exc}") from None
    t.expect("POST", "/api/games", {415}, "JSON", body=b'{"ruleset": "caldera"}',
             headers={"Content-Type": "text/plain"})
    t.expect("PUT", "/api/games", {405}, body=b"{}", headers=JSON_HEADERS)


def chosen_seed(t: Target) -> None:
    for seed in (7, -1, 10 ** 90):
        t.expect("POST", "/api/games", {403}, "seed",
                 body=json.dumps({"ruleset": "caldera", "seed": seed}).encode(),
                 headers=JSON_HEADERS)
    if list(t.folder.glob("*.json")):
        raise Problem("other", "a game was made with a chosen seed")


def forged_tokens(t: Target) -> None:
    made = people(t)
    game = made["game"]
    real = made["links"]["1"].split("token=")[1]
    for token in ("nope", "", real[:-1], real + "x", real.upper(), "%00" * 30, "a" * 4000,
                  made["spectator"].split("token=")[1] + "0"):
        t.refused_socket(f"a socket with a forged token {token[:12]!r}",
                         f"/ws/{game}?token={token}", 4403, "token")
        t.expect("GET", f"/play/{game}?token={token}", {403}, "token")
    t.refused_socket("a socket without a token", f"/ws/{game}", 4403, "token")


def forged_games(t: Target) -> None:
    made = people(t)
    token = made["links"]["1"].split("token=")[1]
    for game in ("0123456789abcdef", "ffffffffffffffff", "x" * 5000, made["game"].upper(),
                 made["game"] + "0", made["game"][:-1], "%00", "null", "%E2%80%AE"):
        t.expect("GET", f"/play/{game}?token={token}", {404}, "no such game")
        t.refused_socket(f"a socket for game {game[:20]!r}", f"/ws/{game}?token={token}",
                         4404, "no such game")
    for path in ("/play/../../etc/passwd", "/play/%2e%2e%2fx", "/rules/..%2F..%2Fpyproject.toml",
                 "/static/..%2F..%2Fapp.py", "/static/../tables.py"):
        t.expect("GET", path, {404})
    t.refused_socket("a socket for a path", f"/ws/..%2f..%2fx?token={token}", 403)


def bad_origins(t: Target) -> None:
    made = people(t)
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{t.port + 1}",
                   f"https://127.0.0.1:{t.port}", "http://127.0.0.1.evil.example",
                   "file://", "javascript:alert(1)", "x" * 3000):
        t.refused_socket(f"a socket from the origin {origin[:30]!r}",
                         ws_path(made["links"]["1"]), 403, headers={"Origin": origin})
        t.expect("POST", "/api/games", {403}, "another site",
                 body=b'{"ruleset": "caldera"}', headers={**JSON_HEADERS, "Origin": origin})
    with t.socket(ws_path(made["links"]["1"]),
                  {"Origin": f"http://127.0.0.1:{t.port}"}) as ws:
        if json.loads(ws.recv(timeout=5))["type"] != "state":
            raise Problem("other", "the server's own page could not open its socket")


def slow_clients(t: Target) -> None:
    """Forty connections that send half a request a byte at a time, and one that sends a
    socket frame slowly: meanwhile, everyone else is answered at once."""
    made = people(t)
    held = []
    try:
        for _ in range(40):
            s = socket.create_connection(("127.0.0.1", t.port), timeout=10)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            held.append(s)
        for round_ in range(3):
            for s in held:
                with contextlib.suppress(OSError):
                    s.sendall(b"a")
            t.expect("GET", "/", {200})
            t.expect("GET", "/api/agents", {200})
            with t.socket(ws_path(made["links"]["1"])) as ws:
                json.loads(ws.recv(timeout=5))
            time.sleep(0.3 * round_)
        # a request line sent in pieces past the parser's limit
        t.raw_status("a 20 KB request line in 20 pieces",
                     b"GET /?" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                     {200, 400, 414, 431}, pieces=20, pause=0.02)
    finally:
        for s in held:
            s.close()


def socket_abuse(t: Target) -> None:
    """Huge, malformed and binary socket messages: each refused, and the socket goes on
    (or, over the frame limit, is closed with 1009)."""
    from websockets.exceptions import ConnectionClosed

    made = people(t)
    with t.socket(ws_path(made["links"]["1"])) as ws:
        json.loads(ws.recv(timeout=5))
        for text in ("[" * 4000, "{}", '{"type": "choose", "version": 0, "index": 1e400}',
                     '{"type": "choose", "version": 0, "notation": "' + "x" * 3000 + '"}',
                     "x" * 20_000, "\x00" * 100):
            started = time.monotonic()
            ws.send(text)
            answer = json.loads(ws.recv(timeout=5))
            t.timed("an odd socket message", time.monotonic() - started)
            if answer.get("type") != "error" or not answer.get("message"):
                raise Problem("other", f"an odd socket message was answered {answer}")
        ws.send(b"\xff\xfe binary")
        if json.loads(ws.recv(timeout=5)).get("type") != "error":
            raise Problem("other", "a binary message was not refused")
    started = time.monotonic()
    try:
        with t.socket(ws_path(made["links"]["1"])) as ws:
            json.loads(ws.recv(timeout=5))
            ws.send("x" * 5_000_000)
            ws.recv(timeout=5)
        raise Problem("other", "a 5 MB socket message was taken")
    except ConnectionClosed as exc:
        code = exc.rcvd.code if exc.rcvd else None
        if code != 1009:
            raise Problem("other", f"a 5 MB socket message: closed with {code}, not 1009"
                          ) from None
    except TimeoutError:
        raise Problem("hang", "a 5 MB socket message got no answer") from None
    t.timed("a 5 MB socket message", time.monotonic() - started)


def many_creates(t: Target) -> None:
    """One client starts games in a loop: after its share, each is refused (429)."""
    refused = 0
    for n in range(60):
        status, _, data = t.http("POST", "/api/games", b'{"ruleset": "caldera"}',
                                 JSON_HEADERS)
        if status == 429:
            refused += 1
            if "too many new games" not in data.decode():
                raise Problem("other", f"429 without saying why: {data[:100]!r}")
        elif status != 201:
            raise Problem("other", f"create {n}: status {status}")
    if refused != 30:
        raise Problem("other", f"{60 - refused} of 60 games were started (the share is 30)")


def games_in_play(t: Target) -> None:
    """With --games-in-play 3: three games with a player connected, then a fourth is
    refused (429) until one is left."""
    games = [people(t) for _ in range(4)]
    sockets = [t.socket(ws_path(g["links"]["1"])) for g in games[:3]]
    try:
        for ws in sockets:
            json.loads(ws.recv(timeout=5))
        t.expect("POST", "/api/games", {429}, "games in play", body=b'{"ruleset": "caldera"}',
                 headers=JSON_HEADERS)
    finally:
        for ws in sockets:
            ws.close()
    deadline = time.monotonic() + 5
    while True:
        status, _, _ = t.http("POST", "/api/games", b'{"ruleset": "caldera"}', JSON_HEADERS)
        if status == 201:
            return
        if time.monotonic() > deadline:
            raise Problem("other", "games left by their players still count as in play")
        time.sleep(0.1)


SLOW_LEVELS = 10
"""Definitions each calling the next twice: compiling takes a second or more (inlined,
2^10 calls), the work a create must not repeat."""


def slow_ruleset_files(folder: Path, tabletop: str) -> None:
    text = (ROOT / "tests" / "rulesets" / "minimal.yaml").read_text(encoding="utf-8")
    defs = "".join(f"  f{i}(k): f{i + 1}(k) + f{i + 1}(k)\n" for i in range(SLOW_LEVELS))
    text = text.replace("define:\n", f"define:\n{defs}  f{SLOW_LEVELS}(k): k\n")
    text = text.replace("where: n <= left", "where: n <= left and f0(1) > 0")
    (folder / "slow.yaml").write_text(text, encoding="utf-8")


def slow_ruleset(t: Target) -> None:
    """`--ruleset slow.yaml`: compiled once (for the games on offer, which may take its
    honest time), then never again."""
    t.expect("GET", "/api/rulesets", {200}, "minimal", allowed=60)
    started = time.monotonic()
    for _ in range(4):
        t.create(ruleset="minimal")
    each = (time.monotonic() - started) / 4
    if each > 0.5:
        raise Problem("slow", f"a create of the slow ruleset takes {each:.1f} s: it is "
                              "compiled again")


SAVED = 200
LISTEN_SECONDS = 8.0
"""Start-up with the saved games: the command's imports take about 2 s of it."""


def saved_games_files(folder: Path, tabletop: str) -> None:
    """A data folder with SAVED games of five-player Aquarium, saved by a real server,
    each a few decisions in, and a few damaged saves beside them."""
    data = folder / "data"
    with serving(tabletop, folder, ("--data", "data", "--allow-chosen-seeds")) as t:
        made = t.create(ruleset="aquarium", players=5, seed=3)
        time.sleep(1.0)  # the computers decide until seat 1 (a person) must
    save = json.loads((data / f"{made['game']}.json").read_text())
    for n in range(SAVED):
        table_id = f"{n:016x}"
        save["table"]["id"] = table_id
        (data / f"{table_id}.json").write_text(json.dumps(save))
    for n, junk in enumerate(["{", "[]", '{"table": {"id": "1"}}', "x" * 1000]):
        (data / f"dead{n:012x}.json").write_text(junk)


def saved_games(t: Target) -> None:
    """A restart over 200 saved games listens at once (none is read); opening some reads
    only those, each in time; a damaged save is named, not fatal."""
    if t.listened > LISTEN_SECONDS:
        raise Problem("slow", f"with {SAVED} saved games the server listened after "
                              f"{t.listened:.1f} s")
    t.expect("GET", "/", {200})
    # the first game opened compiles Aquarium (honest work, once): then each is a replay
    t.expect("GET", f"/play/{0:016x}?token=wrong", {403}, "token", allowed=30)
    for n in (77, 199, 5, 6, 7):
        t.expect("GET", f"/play/{n:016x}?token=wrong", {403}, "token")
    for n in range(3):
        t.expect("GET", f"/play/dead{n:012x}?token=wrong", {404}, "cannot be resumed")


def serve_probes() -> list[ServeProbe]:
    """Every serve probe."""
    out: list[ServeProbe] = []

    def add(name: str, attack: Callable[[Target], None], flags: tuple[str, ...] = (),
            prepare: Callable[[Path, str], None] | None = None, note: str = "") -> None:
        out.append(ServeProbe(f"serve/{name}", "serve", ("serve", *flags), attack=attack,
                              flags=flags, prepare=prepare, note=note, issue=True))

    for size in (9_000, 17_000, 70_000):
        add(f"socket-url-{size // 1000}k", long_socket_url(size))
    add("page-url-70k", long_page_url(70_000))
    add("huge-headers", huge_headers)
    add("huge-body", huge_body)
    add("malformed-json", malformed_json)
    add("chosen-seed", chosen_seed)
    add("forged-tokens", forged_tokens)
    add("forged-game-ids", forged_games)
    add("bad-origins", bad_origins)
    add("slow-clients", slow_clients)
    add("socket-messages", socket_abuse)
    add("many-creates", many_creates)
    add("games-in-play", games_in_play, ("--games-in-play", "3"))
    add("slow-ruleset", slow_ruleset, ("--ruleset", "slow.yaml"), slow_ruleset_files)
    add("saved-games-200", saved_games, ("--data", "data"), saved_games_files)
    return out


# -- running one ---------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _status(pid: int, key: bytes) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _cpu(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


@contextlib.contextmanager
def serving(tabletop: str, folder: Path, flags: tuple[str, ...] = ()) -> Iterator[Target]:
    """`tabletop serve` on a free port in `folder` (its data there unless --data is
    given), until it answers; stopped (Ctrl-C) afterwards."""
    port = free_port()
    data = () if "--data" in flags else ("--data", str(folder / "games"))
    out = open(folder / "serve.out", "wb")  # noqa: SIM115
    err = open(folder / "serve.err", "wb")  # noqa: SIM115
    env = {k: v for k, v in os.environ.items() if k not in ("TABLETOP_DEBUG",)}
    proc = subprocess.Popen([tabletop, "serve", "--port", str(port), "--pace", "0", *data,
                             *flags], cwd=folder, stdout=out, stderr=err, env=env,
                            start_new_session=True)
    out.close()
    err.close()
    target = Target(port, folder / "games" if data else folder / "data", proc.pid)
    began = time.monotonic()
    try:
        deadline = began + START_SECONDS
        while True:
            if proc.poll() is not None:
                raise Problem("other", f"the server stopped at start (exit {proc.returncode})")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    target.listened = time.monotonic() - began
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise Problem("hang", "the server did not listen") from None
                time.sleep(0.05)
        yield target
    finally:
        target.notes.append(f"exit:{_stop(proc)}")


def _stop(proc: subprocess.Popen[bytes]) -> int | None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return None
    return proc.returncode


def run_serve_probe(probe: ServeProbe, tabletop: str, megabytes: float
                    ) -> tuple[Outcome, list[tuple[str, str]]]:
    """Run one probe; its outcome and its failures (kind, reason)."""
    folder = Path(tempfile.mkdtemp(prefix="tabletop-serve-probe-"))
    failures: list[tuple[str, str]] = []
    peak = cpu = 0.0
    worst = 0.0
    code: int | None = None
    try:
        if probe.prepare is not None:
            probe.prepare(folder, tabletop)
        with serving(tabletop, folder, probe.flags) as target:
            before = _cpu(target.pid)
            try:
                assert probe.attack is not None
                probe.attack(target)
                target.expect("GET", "/api/agents", {200})  # and it goes on serving
            except Problem as exc:
                failures.append((exc.kind, str(exc)))
            cpu = _cpu(target.pid) - before
            peak = _status(target.pid, b"VmHWM:") / 1024
            worst = target.worst
        exit_note = target.notes[-1]
        code = None if exit_note == "exit:None" else int(exit_note.split(":")[1])
        if code is None:
            failures.append(("hang", "the server did not stop on Ctrl-C"))
        elif code not in (0, 130):  # 130: stopped by Ctrl-C, as the command says it
            failures.append(("internal", f"the server stopped with exit code {code}"))
    except Problem as exc:
        failures.append((exc.kind, str(exc)))
    finally:
        stdout = _tail(folder / "serve.out")
        stderr = _tail(folder / "serve.err")
        shutil.rmtree(folder, ignore_errors=True)
    found = INTERNAL.search(stderr)
    if found:
        line = next(ln for ln in stderr.splitlines() if INTERNAL.search(ln))
        failures.append(("internal", f"the server's stderr: {line.strip()[:160]}"))
    if peak > megabytes:
        failures.append(("memory", f"the server's peak memory {peak:.0f} MB"))
    return Outcome(code, stdout, stderr, round(worst, 3), round(peak, 1), round(cpu, 3),
                   any(kind == "hang" for kind, _ in failures)), failures


def _tail(path: Path) -> str:
    try:
        return path.read_bytes()[-64 * 1024:].decode("utf-8", "replace")
    except OSError:
        return ""
