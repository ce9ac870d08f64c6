"""How `tabletop serve` holds up under many games: its memory after creating N games, and
how long a restart over their saves takes before it listens.

    python benchmarks/serve_load.py                 # 200 five-player Aquarium games
    python benchmarks/serve_load.py -n 50 --game caldera --players 2

It starts the real command (`tabletop serve --data DIR --pace 0`) on a free loopback
port, creates the games over HTTP (seat 1 a person, the others `random`, as the create
form does by default), waits for the computers to reach a person's turn, reads the
server's resident memory (VmRSS) and peak (VmHWM) from /proc, stops it, and starts it
again over the same folder, timing from the start of the process to its first answer.
Extra arguments after `--` go to `tabletop serve` (e.g. `-- --games-per-minute 1000`,
which creating 200 games from one client needs).
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


COMMAND: list[str] = []


def tabletop() -> str:
    if COMMAND:
        return COMMAND[0]
    here = Path(sys.executable).parent / "tabletop"
    return str(here) if here.exists() else (shutil.which("tabletop") or "tabletop")


def memory_mb(pid: int) -> dict[str, float]:
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024
    return out


def start(folder: Path, port: int, extra: list[str]
          ) -> tuple[subprocess.Popen, float, float]:
    """The server, and the seconds from its start until it listened (took a connection)
    and until it answered GET /."""
    began = time.monotonic()
    proc = subprocess.Popen([tabletop(), "serve", "--port", str(port), "--data", str(folder),
                             "--pace", "0", *extra], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped: {proc.stderr.read()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                listened = time.monotonic() - began
                break
        except OSError:
            time.sleep(0.01)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60):
        return proc, listened, time.monotonic() - began


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def create(port: int, body: dict) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=200, help="games to create")
    parser.add_argument("--game", default="aquarium")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds to wait after the last create (computers move)")
    parser.add_argument("--tabletop", metavar="PATH", help="the tabletop command to measure "
                        "(another checkout's, say); default: this environment's")
    parser.add_argument("extra", nargs="*", help="arguments for tabletop serve")
    args = parser.parse_args()
    if args.tabletop:
        COMMAND.append(args.tabletop)
    folder = Path(tempfile.mkdtemp(prefix="tabletop-serve-load-"))
    try:
        port = free_port()
        proc, first_listen, first_answer = start(folder, port, args.extra)
        empty = memory_mb(proc.pid)
        began = time.monotonic()
        for _ in range(args.n):
            create(port, {"ruleset": args.game, "players": args.players})
        created = time.monotonic() - began
        time.sleep(args.settle)
        full = memory_mb(proc.pid)
        stop(proc)
        proc, listen, answer = start(folder, port, args.extra)
        after_restart = memory_mb(proc.pid)
        stop(proc)
        print(json.dumps({
            "games": args.n, "game": args.game, "players": args.players,
            "rss_mb_empty": round(empty["VmRSS"], 1),
            "rss_mb_after_creates": round(full["VmRSS"], 1),
            "peak_mb": round(full["VmHWM"], 1),
            "seconds_to_create": round(created, 2),
            "seconds_to_listen_empty": round(first_listen, 2),
            "seconds_to_answer_empty": round(first_answer, 2),
            "seconds_to_listen_with_saves": round(listen, 2),
            "seconds_to_answer_with_saves": round(answer, 2),
            "rss_mb_after_restart": round(after_restart["VmRSS"], 1),
        }, indent=1))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
