"""`tabletop serve`: check the arguments, open the games' folder, run uvicorn."""

from __future__ import annotations

import ipaddress
import logging
import socket
from pathlib import Path
from typing import Annotated

import typer

from interpreter.errors import UsageError

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_address(host: str, port: int) -> None:
    """Fail now, with one clear message, when the address cannot be listened on (no such
    host, the port in use, a port below 1024 without the right to it)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise UsageError(f"--host {host}: no such address on this computer") from None
    family, kind, proto, _, address = found[0]
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _offered_files(paths: list[Path]) -> dict[str, Path]:
    """The ruleset files to offer, by game name: each checked now (its errors stop the
    server before it starts). Two files of one game are refused; a file of a bundled
    game is offered in the bundled one's place, with a warning."""
    from interpreter.api import load
    from interpreter.load.catalog import bundled_names

    out: dict[str, Path] = {}
    for path in paths:
        name = load(path).model.game.name
        if name in out:
            raise UsageError(f"--ruleset {path} and --ruleset {out[name]} are both the "
                             f"game '{name}': offer one of them (or rename one's game)")
        if name in bundled_names():
            typer.echo(f"warning: --ruleset {path} is the game '{name}', which is bundled: "
                       "this file is offered in its place, and saved games of the "
                       "bundled one resume only if their rules are the same", err=True)
        out[name] = path
    return out


def serve(
    host: Annotated[str, typer.Option(
        "--host", metavar="H", help="The address to listen on. The default (loopback) "
        "lets only this computer in; 0.0.0.0 lets in anyone who can reach it (the links' "
        "secret tokens still keep each seat to its player).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(
        "--port", metavar="P", help="The port to listen on (1 to 65535).")] = 8000,
    data: Annotated[Path | None, typer.Option(
        "--data", metavar="DIR", help="Where games are saved, after every decision, and "
        "read back when the server starts again [default: your data folder's "
        "tabletop/games].", file_okay=False, show_default=False)] = None,
    ruleset: Annotated[list[Path] | None, typer.Option(
        "--ruleset", metavar="PATH", help="Also offer this ruleset file (repeatable): a "
        "designer's game, played in the browser before it is bundled. A file of a "
        "bundled game (the same game name) is offered in the bundled one's place.",
        dir_okay=False, show_default=False)] = None,
    pace: Annotated[float, typer.Option(
        "--pace", metavar="SECONDS", help="How long a computer player waits before it "
        "moves, so people can follow the game.")] = 0.5,
) -> None:
    """Play in the browser: a local web server for games against friends and computers.

    Open the address it prints, choose a game and who sits where, and send each player
    their own link: a link is the key to one seat (keep it secret; the spectators' link
    shows only what everyone may see). Games are saved after every decision and survive
    a restart of the server.
    """
    if not 1 <= port <= 65535:
        raise UsageError(f"--port must be from 1 to 65535, not {port}")
    if not host.strip():
        raise UsageError("--host names the address to listen on (e.g. 127.0.0.1)")
    if not 0 <= pace <= 60:
        raise UsageError(f"--pace is from 0 to 60 seconds, not {pace:g}")
    _check_address(host, port)
    try:
        import uvicorn

        from interpreter.serve.app import create_app
        from interpreter.serve.tables import Store, default_data_dir
    except ImportError as exc:
        raise UsageError(f"the browser table needs the 'serve' extra ({exc.name} is "
                         "missing): pip install 'tabletop[serve]'") from None
    extra = _offered_files(ruleset or [])
    store = Store(data if data is not None else default_data_dir(), extra)
    store.open_folder()
    for name, problem in store.skipped.items():
        typer.echo(f"warning: {name} was not resumed: {problem}", err=True)
    allowed = None
    if is_loopback(host):
        allowed = [*LOOPBACK_NAMES, "[::1]"]
    else:
        typer.echo(f"warning: listening on {host}: anyone who can reach this computer can "
                   "open the page and start games (each seat still needs its link)",
                   err=True)
    app = create_app(store, pace=pace, allowed_hosts=allowed)
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"Tabletop is serving {len(store.tables)} saved game(s) from {store.folder}")
    typer.echo(f"Open http://{shown}:{port}/ in a browser (Ctrl-C stops the server).")
    logging.getLogger("tabletop.serve").setLevel(logging.INFO)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            ws="websockets-sansio", lifespan="on")
    server = uvicorn.Server(config)
    try:
        server.run()
    except SystemExit:  # uvicorn's way of saying it could not start (its log says why)
        if server.started:
            raise
        raise UsageError(f"cannot listen on {host}:{port} (is the port in use?)") from None
    if not server.started:
        raise UsageError(f"cannot listen on {host}:{port} (is the port in use?)")
