"""The studio's web application (Starlette): the page, its static files and the JSON API.

The server listens on loopback only, yet any page the designer opens in the same browser
can send requests to it. So every request passes `Guard` first: the Host header must
name this server (a DNS-rebinding page's does not), an Origin header must be the
server's own, and every API call and the rulebook page carry the token printed with the
address. Routes of the panels (tests, balance, rulebook) and of the language services
(completion, hover) come from their own modules, under the same guard.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from interpreter.errors import TabletopError
from interpreter.serve.guard import HEADERS, origin_allowed
from interpreter.studio.collector import IdleCollector
from interpreter.studio.workspace import StudioError, Workspace

log = logging.getLogger("tabletop.studio")

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 2 * 1024 * 1024
"""The largest request body (a ruleset's text is far smaller)."""
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'")
"""The page's policy: scripts only from the server's own files (no inline script, no
eval), inline styles (the editor sets them), the rulebook in a frame of its own."""
RULEBOOK_CSP = ("default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; "
                "img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'; "
                "frame-ancestors 'self'")
"""The rulebook page runs no script and loads nothing; only the studio may frame it."""
PROTECTED = ("/api/", "/rulebook")
NO_TOKEN = ("this request needs the studio's token: open the address `tabletop studio` "
            "printed (it ends with ?token=...)")


class JSON(JSONResponse):
    """JSON with <, > and & escaped, so a ruleset's text never reaches a reader as a tag."""

    def render(self, content: Any) -> bytes:
        # str.replace: ten times quicker than str.translate on a table's SVG
        text = json.dumps(content, separators=(",", ":"), ensure_ascii=False)
        return (text.replace("<", "\\u003c").replace(">", "\\u003e")
                .replace("&", "\\u0026").encode("utf-8"))


def _refuse(scope: Scope, message: str, status: int) -> Response:
    if str(scope.get("path", "")).startswith("/api/"):
        return JSON({"error": message}, status_code=status)
    return HTMLResponse("<!doctype html><title>Tabletop Studio</title><p>"
                        + message.replace("&", "&amp;").replace("<", "&lt;") + "</p>",
                        status_code=status)


class Guard:
    """Host, Origin, token and body size of every request, and the security headers of
    every response."""

    def __init__(self, app: ASGIApp, token: str, port: int,
                 collector: IdleCollector | None = None) -> None:
        self.app = app
        self.token = token
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.collector = collector

    def refusal(self, scope: Scope) -> tuple[str, int] | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        if headers.get("host", "").lower() not in self.hosts:
            return ("this server answers only at the address it printed (127.0.0.1 or "
                    "localhost and its port)", 400)
        if not origin_allowed(headers, "http", ()):
            return ("the studio takes no requests from pages of other sites", 403)
        path = str(scope.get("path", ""))
        if path == "/" or path.startswith(PROTECTED):
            given = headers.get("x-studio-token")
            if given is None:
                query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
                given = (query.get("token") or [""])[0]
            if not secrets.compare_digest(given.encode("utf-8", "replace"),
                                          self.token.encode()):
                return (NO_TOKEN, 403)
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rulebook = str(scope.get("path", "")).startswith("/rulebook")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                given = {k.lower() for k, _ in message.get("headers", [])}
                extra = {**HEADERS, "content-security-policy":
                         RULEBOOK_CSP if rulebook else CSP, "x-frame-options": "SAMEORIGIN"}
                added = [(k.encode(), v.encode()) for k, v in extra.items()
                         if k.encode() not in given]
                message = {**message, "headers": [*message.get("headers", []), *added]}
            await send(message)

        problem = self.refusal(scope)
        if problem is not None:
            await _refuse(scope, *problem)(scope, receive, send_with_headers)
            return
        if scope.get("method") in ("POST", "PUT", "PATCH", "DELETE"):
            if self.collector is not None:
                self.collector.busy()  # a check, a move, a run: no full collection now
            body = bytearray()
            more = True
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > MAX_BODY:
                    await _refuse(scope, f"the request is larger than {MAX_BODY // 1048576} "
                                  "MB, the studio's limit", 413)(scope, receive,
                                                                 send_with_headers)
                    return
            sent = False

            async def replay() -> Message:
                nonlocal sent
                if not sent:
                    sent = True
                    return {"type": "http.request", "body": bytes(body), "more_body": False}
                return await receive()

            await self.app(scope, replay, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object (StudioError 400 when it is not one)."""
    raw = await request.body()
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise StudioError("the request's body is not JSON") from None
    if not isinstance(data, dict):
        raise StudioError("the request's body must be a JSON object")
    return data


def query(request: Request, key: str) -> str:
    value = request.query_params.get(key)
    if value is None:
        raise StudioError(f"name the '{key}' (?{key}=...)")
    return value


async def threaded(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> JSON:
    """Run `fn` in a worker thread (the server keeps answering) and send its result."""
    return JSON(await run_in_threadpool(fn, *args, **kwargs))


def workspace_listing(ws: Workspace) -> dict[str, Any]:
    """The workspace's files, the bundled games a variant may start from and the
    new-game templates."""
    from interpreter.load.catalog import bundled_catalog

    bundled = [{"name": e["name"], "title": e.get("title", e["name"]),
                "variant_of": e.get("extends")}
               for e in bundled_catalog() if "error" not in e]
    try:
        from interpreter.studio.templates import TEMPLATES
        templates = [{"id": t.id, "title": t.title, "summary": t.summary} for t in TEMPLATES]
    except ImportError:  # the templates are not installed yet
        templates = []
    return {"roots": [str(r) for r in ws.roots], "start": ws.start, "files": ws.files(),
            "bundled": bundled, "templates": templates}


def create_app(ws: Workspace, token: str, port: int) -> Starlette:
    """The studio over `ws`, answering at 127.0.0.1:`port` or localhost:`port` to
    requests that carry `token`."""
    from interpreter.studio import language, panels, play
    from interpreter.studio import workspace as workspace_module
    async def index(request: Request) -> Response:
        page = STATIC / "studio.html"
        if not page.is_file():
            return HTMLResponse("<!doctype html><p>This installation has no studio page.",
                                status_code=500)
        return FileResponse(page)

    async def workspace(request: Request) -> Response:
        return await threaded(workspace_listing, ws)

    async def read_file(request: Request) -> Response:
        name = query(request, "path")
        path = ws.resolve(name)
        text = await run_in_threadpool(ws.read_disk, path)
        return JSON({"path": ws.shown(path), "text": text, "mtime": ws.mtime(path)})

    async def stat_file(request: Request) -> Response:
        path = ws.resolve(query(request, "path"))
        mtime = ws.mtime(path)
        return JSON({"path": ws.shown(path), "mtime": mtime, "exists": mtime is not None})

    async def write_file(request: Request) -> Response:
        data = await body(request)
        name = data.get("path")
        mtime = await run_in_threadpool(ws.write, name, data.get("text"), data.get("mtime"))
        return JSON({"path": ws.shown(ws.resolve(name)), "mtime": mtime})

    async def check_route(request: Request) -> Response:
        from interpreter.studio.check import check_request

        data = await body(request)
        return await threaded(check_request, ws, data)

    async def new_game(request: Request) -> Response:
        data = await body(request)
        return await threaded(workspace_module.new_game, ws, data.get("template"),
                              data.get("name"))

    async def new_variant(request: Request) -> Response:
        data = await body(request)
        return await threaded(workspace_module.new_variant, ws, data.get("base"),
                              data.get("name"))

    async def agents(request: Request) -> Response:
        from interpreter.agents import AGENTS
        from interpreter.serve.app import agent_entry

        # the browser table's own list (`tabletop play`'s players)
        return JSON({"agents": [agent_entry(name, cls) for name, cls in AGENTS.items()]})

    routes: list[BaseRoute] = [
        Route("/", index),
        Route("/api/workspace", workspace),
        Route("/api/file", read_file, methods=["GET"]),
        Route("/api/file", write_file, methods=["PUT"]),
        Route("/api/file/stat", stat_file),
        Route("/api/check", check_route, methods=["POST"]),
        Route("/api/new", new_game, methods=["POST"]),
        Route("/api/variant", new_variant, methods=["POST"]),
        Route("/api/agents", agents),
        *play.routes(ws),
        *panels.routes(ws),
        *language.routes(ws),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]

    async def studio_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StudioError)
        return JSON({"error": exc.message}, status_code=exc.status)

    async def tabletop_error(request: Request, exc: Exception) -> Response:
        return JSON({"error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__},
                    status_code=400)

    async def crashed(request: Request, exc: Exception) -> Response:
        log.exception("the studio failed on %s", request.url.path, exc_info=exc)
        return JSON({"error": f"the studio failed: {exc!r} (a bug: please report it)"},
                    status_code=500)

    collector = IdleCollector()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        from interpreter.studio.panels import worker

        collector.start()
        worker.start()
        try:
            yield
        finally:
            worker.stop()
            collector.stop()

    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Guard, token=token, port=port,
                                           collector=collector)],
                    exception_handlers={StudioError: studio_error,
                                        TabletopError: tabletop_error, Exception: crashed})
    app.state.collector = collector
    app.state.workspace = ws
    return app

