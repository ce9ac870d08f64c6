"""`tabletop studio`: check the arguments, open the workspace, print the address with a
fresh token, open the browser and run uvicorn on loopback."""

from __future__ import annotations

import logging
import secrets
import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from interpreter.errors import UsageError

HOST = "127.0.0.1"


def studio(
    path: Annotated[Path, typer.Argument(
        metavar="[PATH]", help="A ruleset file, or a folder of rulesets [default: the "
        "current folder]. The studio reads and writes files in that folder only.",
        show_default=False)] = Path("."),
    port: Annotated[int, typer.Option(
        "--port", metavar="N", help="The port to listen on (1 to 65535).")] = 8765,
    no_open: Annotated[bool, typer.Option(
        "--no-open", help="Print the address but do not open a browser.")] = False,
) -> None:
    """Edit, see, play, test and balance a ruleset in one browser page.

    The studio is a designer's workbench: an editor for a ruleset and its scenario
    tests with errors shown as you type (and did-you-mean fixes), the set-up table
    redrawn on every change, a play mode with undo that saves a position as a test
    case, the tests panel, a quick balance check and the rulebook. It serves this
    computer only (127.0.0.1), and the address it prints carries a secret token: keep
    it to yourself. Ctrl-C stops it.
    """
    from interpreter.serve.command import _check_address, run_server

    if not 1 <= port <= 65535:
        raise UsageError(f"--port must be from 1 to 65535, not {port}")
    try:
        import uvicorn

        from interpreter.serve.wsprotocol import uvicorn_config
        from interpreter.studio.app import create_app
        from interpreter.studio.workspace import StudioError, Workspace
    except ImportError as exc:
        raise UsageError(f"the browser table needs the 'serve' extra ({exc.name} is "
                         "missing): pip install 'tabletop[serve]'") from None
    try:
        ws = Workspace.open(path)
    except StudioError as exc:
        raise UsageError(exc.message) from None
    _check_address(HOST, port)
    token = secrets.token_urlsafe(24)
    url = f"http://{HOST}:{port}/?token={token}"
    app = create_app(ws, token, port)
    typer.echo(f"Tabletop Studio on {ws.roots[0]}")
    typer.echo(f"Open {url} in a browser (Ctrl-C stops the studio).")
    logging.getLogger("tabletop.studio").setLevel(logging.INFO)
    server = uvicorn.Server(uvicorn_config(app, HOST, port))
    if not no_open:
        def opener() -> None:
            # once the server listens, so the page does not load before it can answer
            for _ in range(100):
                if server.started:
                    webbrowser.open(url)
                    return
                threading.Event().wait(0.05)

        threading.Thread(target=opener, daemon=True).start()
    run_server(server, HOST, port)
