"""Helpers for the browser table's tests: a server over a folder, games made through its
API, and sockets read message by message."""

from __future__ import annotations

import contextlib
import faulthandler
import json
import re
import socket
import threading
import time
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore", message=".*httpx2.*")  # Starlette's note on its test client

from starlette.testclient import TestClient  # noqa: E402

from interpreter.serve.app import Policy, create_app  # noqa: E402
from interpreter.serve.tables import Store  # noqa: E402


class Running:
    """A uvicorn server in a background thread on a free loopback port, over a store in
    `folder`, run as `tabletop serve` runs it (its WebSocket protocol included); it lets
    games be created with a seed (the tests choose theirs, as `serve
    --allow-chosen-seeds`) unless `policy` says otherwise."""

    def __init__(self, folder: Path, port: int | None = None,
                 extra: dict[str, Path] | None = None, policy: Policy | None = None) -> None:
        import uvicorn

        from interpreter.serve.wsprotocol import uvicorn_config

        self.store = Store(folder, extra)
        self.store.open_folder()
        if port is None:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
        self.port = port
        app = create_app(self.store, policy or Policy(chosen_seeds=True))
        self.server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", self.port))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Running:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)

    def create(self, **body: Any) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.url}/api/games", data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())


WATCHDOG = 240
"""Seconds a test with a server may take: a socket read that waits for a message that
never comes would otherwise hang the run (the test client's reads have no timeout)."""


@contextlib.contextmanager
def serving(folder: Path | None, pace: float = 0.0, extra: dict[str, Path] | None = None,
            chosen_seeds: bool = False, **policy: Any) -> Iterator[TestClient]:
    """A server (its lifespan running) over `folder`, as a test client; `chosen_seeds`
    for a test that creates games with a seed (as `serve --allow-chosen-seeds`)."""
    store = Store(folder, extra)
    store.open_folder()
    faulthandler.dump_traceback_later(WATCHDOG, exit=True)
    try:
        app = create_app(store, Policy(pace=pace, chosen_seeds=chosen_seeds, **policy))
        with TestClient(app) as client:
            yield client
    finally:
        faulthandler.cancel_dump_traceback_later()


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def token(link: str) -> str:
    return link.split("token=", 1)[1]


def socket_url(made: dict[str, Any], who: str) -> str:
    link = made["spectator"] if who == "spectator" else made["links"][who]
    return f"/ws/{made['game']}?token={token(link)}"


def receive(ws: Any) -> dict[str, Any]:
    return json.loads(ws.receive_text())


def send(ws: Any, **message: Any) -> None:
    ws.send_text(json.dumps(message))


def until(ws: Any, test: Any, limit: int = 500) -> dict[str, Any]:
    """The first message from `ws` that passes `test` (the ones before it are read)."""
    for _ in range(limit):
        message = receive(ws)
        if test(message):
            return message
    raise AssertionError("no such message came")


# -- a hostile ruleset: every text a player or reader sees carries markup ----------------

HOSTILE = ('<script>alert(1)</script>', '<img src=x onerror=alert(1)>',
           '<a href="javascript:alert(1)">x</a>', "it's \"quoted\" & <b>bold</b>")
"""What the hostile ruleset's texts carry: a script, an image whose error runs code, a
`javascript:` link, and quotes, an ampersand and an innocent tag."""

RAW = re.compile(r"<script>alert|<img src=x|<a href=\"javascript:|<b>bold", re.IGNORECASE)
"""The hostile texts' tags as markup (escaped, they read `&lt;script&gt;` ...)."""


def raw_markup(text: str) -> list[str]:
    """Each hostile tag that `text` carries as markup (none: every one was escaped)."""
    return RAW.findall(text)

HOSTILE_LINE = " ".join(HOSTILE)


def hostile_ruleset(folder: Path) -> Path:
    """A small valid ruleset (the loader tests' `minimal`, game name `minimal`) whose
    title, designer, summary, option, zone and piece-set labels, choose prompt, option
    labels, `say` lines, end text and rulings all carry HOSTILE."""
    q = json.dumps
    text = f"""\
tabletop: 1
game:
  name: minimal
  title: {q("Minimal " + HOSTILE[0])}
  designer: {q(HOSTILE[1])}
  seats: {{min: 2, max: 3}}
  summary: {q(HOSTILE_LINE)}
  introduction: {q(HOSTILE_LINE)}
options:
  - id: fast
    label: {q("Fast " + HOSTILE[2])}
    description: {q(HOSTILE_LINE)}
    type: bool
    default: false
pieces:
  attributes:
    colour:
      values: [red, blue]
  sets:
    - id: counters
      label: {q("counters " + HOSTILE[1])}
      each: {{colour: [red, blue]}}
      count: 2
      start: pile
zones:
  - id: pile
    kind: pile
    label: {q("the pile " + HOSTILE[0])}
    description: {q(HOSTILE_LINE)}
  - id: taken
    kind: pile
    per_seat: true
    label: {q("taken " + HOSTILE[3])}
variables:
  - id: takes
    per_seat: true
    description: {q(HOSTILE_LINE)}
define:
  left: count(pieces(pile))
turn:
  - say: {q("Turn of the bold " + HOSTILE_LINE)}
  - choose: {q("Take one " + HOSTILE_LINE)}
    options:
      - id: take
        notation: take
        label: {q("take it " + HOSTILE_LINE)}
        do:
          - move: top(pile)
            to: taken[current]
          - add: takes
            seat: current
            amount: 1
          - say: {q("taken " + HOSTILE_LINE)}
      - id: stop
        notation: stop
        label: {q("stop " + HOSTILE_LINE)}
        do:
          - end_game: {q("stopped " + HOSTILE_LINE)}
            winners: "[current]"
end:
  - id: empty
    when: left == 0
    winners: "[current]"
    text: {q("the pile is empty " + HOSTILE_LINE)}
rulings:
  - id: hostile
    text: {q(HOSTILE_LINE)}
"""
    path = folder / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    return path
