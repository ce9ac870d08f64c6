"""The rulebook panel: the printable page `tabletop docs` makes (the browser table's
`/rules/` page: `print_html` of the rulebook, the players' layer and the exact rules; a
variant's page of its differences from its base), from the editor's draft, for an
iframe of the studio. The page runs no script; pages are kept by the hash of the texts
they are made from (the ruleset, its base, its tests file's examples)."""

from __future__ import annotations

import html
import threading
from collections import OrderedDict
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from interpreter.errors import RulesetError, TabletopError
from interpreter.load.loader import LoadedRuleset
from interpreter.studio.app import RULEBOOK_CSP
from interpreter.studio.panels import InvalidRuleset, digest, drafts_in_force
from interpreter.studio.workspace import StudioError, Workspace

KEPT_PAGES = 16


def page_html(loaded: LoadedRuleset, tests_text: str | None = None) -> str:
    """The rulebook page of a loaded ruleset, as the browser table's /rules/ page makes
    it (a variant: its page of differences); its worked examples from `tests_text` when
    given (the editor's draft of its tests file)."""
    from interpreter.docs.build import environment, print_html, print_variant_html
    from interpreter.docs.rulebook import build_rulebook
    from interpreter.docs.variant_page import build_variant_page

    if loaded.variant is None:
        return print_html(environment(), build_rulebook(loaded, tests_text=tests_text))
    return print_variant_html(environment(), build_variant_page(loaded))


def _problem_page(title: str, lines: list[str]) -> str:
    """A page that says why there is no rulebook (every text escaped)."""
    items = "".join(f"<pre>{html.escape(line)}</pre>" for line in lines)
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>body{{font-family:sans-serif;"
            "margin:2em}pre{white-space:pre-wrap;background:#fdf0f0;padding:.6em;"
            "border-left:3px solid #c0392b}</style></head><body>"
            f"<h1>{html.escape(title)}</h1>{items}</body></html>")


class Rulebooks:
    """The workspace's rulebook pages, kept by the hash of what they are made from."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.pages: OrderedDict[str, str] = OrderedDict()
        self.lock = threading.Lock()

    def key(self, name: str, loaded: LoadedRuleset) -> str:
        """The ruleset's files and its tests file (the worked examples come from it)."""
        tests = self.ws.tests_path(name)
        try:
            tests_text = self.ws.text(self.ws.shown(tests))
        except StudioError:
            tests_text = ""
        return digest(loaded.path, loaded.content_hash, tests_text)

    def page(self, name: Any) -> tuple[str, int]:
        """(the page, its HTTP status): the rulebook, or the diagnostics of a draft that
        does not load (422) or of a rulebook that cannot be made (422)."""
        path = self.ws.resolve(name)
        title = f"The rulebook of {self.ws.shown(path)} cannot be made"
        try:
            with drafts_in_force(self.ws, ruleset=name):
                loaded = self.ws.loaded(name)
                key = self.key(name, loaded)
                with self.lock:
                    hit = self.pages.get(key)
                if hit is not None:
                    return hit, 200
                text = page_html(loaded, self.ws.drafts.get(self.ws.tests_path(name)))
        except InvalidRuleset as exc:
            return _problem_page(title, [d["rendered"] for d in exc.diagnostics]), 422
        except RulesetError as exc:
            return _problem_page(title, [d.render() for d in exc.diagnostics]), 422
        except TabletopError as exc:
            return _problem_page(title, [str(exc)]), 422
        with self.lock:
            self.pages[key] = text
            while len(self.pages) > KEPT_PAGES:
                self.pages.popitem(last=False)
        return text, 200


def routes(ws: Workspace) -> list[BaseRoute]:
    books = Rulebooks(ws)

    async def rulebook(request: Request) -> Response:
        name = request.query_params.get("path")
        if name is None:
            raise StudioError("name the ruleset: /rulebook?path=my-game.yaml")
        text, status = await run_in_threadpool(books.page, name)
        return HTMLResponse(text, status_code=status, headers={
            "content-security-policy": RULEBOOK_CSP, "x-frame-options": "SAMEORIGIN",
            "cache-control": "no-store"})

    return [Route("/rulebook", rulebook, methods=["GET"])]


__all__ = ["Rulebooks", "page_html", "routes"]
