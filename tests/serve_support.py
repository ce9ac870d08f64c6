"""Helpers for the browser table's tests: a server over a folder, games made through its
API, and sockets read message by message."""

from __future__ import annotations

import contextlib
import faulthandler
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore", message=".*httpx2.*")  # Starlette's note on its test client

from starlette.testclient import TestClient  # noqa: E402

from interpreter.serve.app import create_app  # noqa: E402
from interpreter.serve.tables import Store  # noqa: E402

WATCHDOG = 240
"""Seconds a test with a server may take: a socket read that waits for a message that
never comes would otherwise hang the run (the test client's reads have no timeout)."""


@contextlib.contextmanager
def serving(folder: Path | None, pace: float = 0.0,
            extra: dict[str, Path] | None = None) -> Iterator[TestClient]:
    """A server (its lifespan running) over `folder`, as a test client."""
    store = Store(folder, extra)
    store.open_folder()
    faulthandler.dump_traceback_later(WATCHDOG, exit=True)
    try:
        with TestClient(create_app(store, pace=pace)) as client:
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
