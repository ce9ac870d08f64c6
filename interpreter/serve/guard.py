"""What keeps the browser table's pages and sockets to their own site and its clients to
their share: the headers of every response (a Content-Security-Policy that runs no inline
script), the Origin check of sockets and creates, and how many games one client may
create.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
"""The pages' policy: scripts only from the server's own files (no inline script, no
eval, no event-handler attribute), so a ruleset's text that slipped into a page as
markup could still run nothing."""
RULEBOOK_CSP = ("default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; "
                "img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'; "
                "frame-ancestors 'none'")
"""A rulebook page (its styles are inline, written by the rulebook's template) runs no
script at all and loads nothing."""
HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",  # a page's URL holds its seat's token
    "cache-control": "no-store",
    "cross-origin-opener-policy": "same-origin",
}


class SecurityHeaders:
    """Adds HEADERS to every HTTP response (pages, JSON, static files, errors), with the
    rulebook's own policy under /rules/."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rulebook = str(scope.get("path", "")).startswith("/rules/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                given = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k.encode(), (RULEBOOK_CSP if rulebook and k ==
                                       "content-security-policy" else v).encode())
                         for k, v in HEADERS.items() if k.encode() not in given]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


# -- origins ----------------------------------------------------------------------------------

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_key(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin such as ``http://localhost:8000`` (None when it
    is not one: ``null``, a path, another scheme)."""
    try:
        parts = urlsplit(origin.strip())
        scheme = parts.scheme.lower()
        host = (parts.hostname or "").lower()
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None
    if scheme not in DEFAULT_PORTS or not host or port is None or parts.path not in ("", "/"):
        return None
    return scheme, host, port


def own_origin(scheme: str, host_header: str) -> tuple[str, str, int] | None:
    """The origin a client reached the server at: its Host header, with the request's
    scheme (ws and wss are the pages' http and https)."""
    web = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return origin_key(f"{web}://{host_header}") if host_header else None


def origin_allowed(headers: Any, scheme: str, allowed: Iterable[str]) -> bool:
    """May a request with these headers act? A browser always sends Origin with a
    WebSocket handshake and a cross-site POST, so a request without one comes from a
    program (a test, a script), not from another site's page running in a player's
    browser: it still needs a seat's token. With one, it must be the server's own origin
    (as the Host header names it) or one given with --allow-origin."""
    origin = headers.get("origin")
    if origin is None:
        return True
    key = origin_key(origin)
    if key is None:
        return False
    if key == own_origin(scheme, headers.get("host", "")):
        return True
    return any(key == origin_key(other) for other in allowed)


# -- how many games a client may create --------------------------------------------------------

class CreateLimiter:
    """At most `per_minute` games created by one client address in any 60 seconds."""

    WINDOW = 60.0

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self.recent: dict[str, deque[float]] = {}

    def refusal(self, address: str, now: float | None = None) -> str | None:
        """Why `address` may not create a game now (None: it may; counted)."""
        now = time.monotonic() if now is None else now
        self._forget(now)
        times = self.recent.setdefault(address, deque())
        if len(times) >= self.per_minute:
            wait = max(1, round(times[0] + self.WINDOW - now))
            return (f"too many new games: one client may start {self.per_minute} a minute "
                    f"on this server; try again in {wait} s")
        times.append(now)
        return None

    def _forget(self, now: float) -> None:
        for address in list(self.recent):
            times = self.recent[address]
            while times and times[0] <= now - self.WINDOW:
                times.popleft()
            if not times:
                del self.recent[address]
