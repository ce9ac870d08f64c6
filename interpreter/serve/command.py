"""`tabletop serve`: check the arguments, open the games' folder, run uvicorn."""

from __future__ import annotations

import ipaddress
import logging
import socket
from pathlib import Path
from typing import Annotated, Any

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


def _check_origins(origins: tuple[str, ...]) -> None:
    from interpreter.serve.guard import origin_key

    for origin in origins:
        if origin_key(origin) is None:
            raise UsageError(f"--allow-origin {origin}: an origin is a scheme, a host and "
                             "maybe a port, e.g. https://games.example.org or "
                             "http://192.168.1.5:8000")


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
    allow_origin: Annotated[list[str] | None, typer.Option(
        "--allow-origin", metavar="ORIGIN", help="Also let pages of this site open games "
        "and start them, e.g. https://games.example.org (repeatable): for a server "
        "reached through another address than the one it listens on, such as a proxy "
        "that adds HTTPS. Pages of the server's own address always may; other sites' "
        "never.", show_default=False)] = None,
    games_per_minute: Annotated[int, typer.Option(
        "--games-per-minute", metavar="N", help="How many games one client address may "
        "start in any minute (more get 'too many new games').")] = 30,
    games_in_play: Annotated[int, typer.Option(
        "--games-in-play", metavar="N", help="How many games may be played at once "
        "(someone connected, or a computer thinking); past it no new game starts. Games "
        "nobody plays wait in their files and cost no memory.")] = 200,
    allow_chosen_seeds: Annotated[bool, typer.Option(
        "--allow-chosen-seeds", help="For testing only: let a game's creator choose its "
        "seed (\"seed\" in POST /api/games, the form's Seed box). Whoever knows a game's "
        "seed can work out everything it hides (tabletop run --seed S), so every player "
        "of such a game is told its seed was chosen. Without it, a chosen seed is "
        "refused and each game draws a secret one.")] = False,
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
    if not 1 <= games_per_minute <= 100_000:
        raise UsageError(f"--games-per-minute is from 1 to 100000, not {games_per_minute}")
    if not 1 <= games_in_play <= 100_000:
        raise UsageError(f"--games-in-play is from 1 to 100000, not {games_in_play}")
    origins = tuple(allow_origin or ())
    _check_origins(origins)
    _check_address(host, port)
    try:
        import uvicorn

        from interpreter.serve.app import Policy, create_app
        from interpreter.serve.tables import Store, default_data_dir
        from interpreter.serve.wsprotocol import uvicorn_config
    except ImportError as exc:
        raise UsageError(f"the browser table needs the 'serve' extra ({exc.name} is "
                         "missing): pip install 'tabletop[serve]'") from None
    extra = _offered_files(ruleset or [])
    store = Store(data if data is not None else default_data_dir(), extra)
    store.open_folder()
    for name, problem in store.skipped.items():
        typer.echo(f"warning: {name} is left alone: {problem}", err=True)
    allowed = None
    if is_loopback(host):
        allowed = [*LOOPBACK_NAMES, "[::1]"]
    else:
        typer.echo(f"warning: listening on {host}: anyone who can reach this computer can "
                   "open the page and start games (each seat still needs its link)",
                   err=True)
    if allow_chosen_seeds:
        typer.echo("warning: --allow-chosen-seeds: a game's creator may choose its seed, and "
                   "so know its secrets (for testing; each such game's players are told)",
                   err=True)
    policy = Policy(pace=pace, chosen_seeds=allow_chosen_seeds, origins=origins,
                    games_per_minute=games_per_minute, games_in_play=games_in_play,
                    warm=True)
    app = create_app(store, policy, allowed_hosts=allowed)
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"Tabletop is serving {len(store.saved)} saved game(s) from {store.folder}")
    typer.echo(f"Open http://{shown}:{port}/ in a browser (Ctrl-C stops the server).")
    logging.getLogger("tabletop.serve").setLevel(logging.INFO)
    run_server(uvicorn.Server(uvicorn_config(app, host, port)), host, port)


def run_server(server: Any, host: str, port: int) -> None:
    """Run a uvicorn server until Ctrl-C; one clear message when it could not listen."""
    try:
        server.run()
    except SystemExit:  # uvicorn's way of saying it could not start (its log says why)
        if server.started:
            raise
        raise UsageError(f"cannot listen on {host}:{port} (is the port in use?)") from None
    if not server.started:
        raise UsageError(f"cannot listen on {host}:{port} (is the port in use?)")
