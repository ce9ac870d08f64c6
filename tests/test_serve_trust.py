"""The browser table's second round of trust (issue 38): a game's creator cannot choose
its seed unless the server is for testing (and then every player is told); sockets and
creates from other sites' pages are refused; every response carries a policy that runs
no inline script, and no ruleset text reaches a page or a message as markup; a handshake
with a huge URL is answered; idle games wait in their files, a restart listens at once,
and one client cannot start games without end; a ruleset is compiled once."""

from __future__ import annotations

import json
import os
import re
import socket
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from serve_support import (
    HOSTILE,
    Running,
    create,
    hostile_ruleset,
    raw_markup,
    receive,
    send,
    serving,
    socket_url,
)
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from interpreter.serve import tables
from interpreter.serve.guard import CreateLimiter, origin_allowed
from interpreter.serve.tables import SEED_CHOSEN_NOTE

PEOPLE = {"1": "human", "2": "human"}


# -- 1. a chosen seed ------------------------------------------------------------------------

def test_a_chosen_seed_is_refused_unless_the_server_is_for_testing(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        refused = client.post("/api/games", json={"ruleset": "caldera", "seed": 5})
        assert refused.status_code == 403
        assert "choose its seed" in refused.json()["error"]
        assert not list(tmp_path.glob("*.json"))
        assert client.get("/api/server").json()["chosen_seeds"] is False
        made = create(client, ruleset="caldera")  # without a seed: a secret one
        assert SEED_CHOSEN_NOTE not in made["notes"]


def test_every_player_is_told_when_the_creator_chose_the_seed(tmp_path: Path) -> None:
    with serving(tmp_path, chosen_seeds=True) as client:
        assert client.get("/api/server").json()["chosen_seeds"] is True
        chosen = create(client, ruleset="high-rise", seats=PEOPLE, seed=12)
        drawn = create(client, ruleset="high-rise", seats=PEOPLE)
        assert SEED_CHOSEN_NOTE in chosen["notes"]
        assert SEED_CHOSEN_NOTE not in drawn["notes"]
        for who in ("1", "2", "spectator"):
            with client.websocket_connect(socket_url(chosen, who)) as ws:
                assert SEED_CHOSEN_NOTE in receive(ws)["notes"]
            with client.websocket_connect(socket_url(drawn, who)) as ws:
                assert SEED_CHOSEN_NOTE not in receive(ws)["notes"]
    with serving(tmp_path) as client, \
            client.websocket_connect(socket_url(chosen, "2")) as ws:  # after a restart
        assert SEED_CHOSEN_NOTE in receive(ws)["notes"]


# -- 2. origins ------------------------------------------------------------------------------

def test_a_socket_from_another_sites_page_is_refused(tmp_path: Path) -> None:
    with serving(tmp_path, origins=("https://games.example.org",)) as client:
        made = create(client, ruleset="high-rise", seats=PEOPLE)
        url = socket_url(made, "1")
        for origin in ("http://evil.example", "null", "http://testserver.evil.example",
                       "https://testserver", "http://testserver:8080", "not an origin"):
            with pytest.raises(WebSocketDisconnect) as refused, \
                    client.websocket_connect(url, headers={"origin": origin}):
                pass
            assert refused.value.code == 1008, origin
        # its own origin (as the Host header names it), one allowed, or none (a program)
        for headers in ({"origin": "http://testserver"}, {"origin": "http://TestServer:80"},
                        {"origin": "https://games.example.org"}, {}):
            with client.websocket_connect(url, headers=headers) as ws:
                assert receive(ws)["type"] == "state"
        other_site = client.post("/api/games", json={"ruleset": "caldera"},
                                 headers={"origin": "http://evil.example"})
        assert other_site.status_code == 403 and "another site" in other_site.json()["error"]
        assert client.post("/api/games", json={"ruleset": "caldera"},
                           headers={"origin": "http://testserver"}).status_code == 201


def test_the_origin_is_compared_by_scheme_host_and_port() -> None:
    def allowed(origin: str, host: str, scheme: str = "ws") -> bool:
        return origin_allowed({"origin": origin, "host": host}, scheme, ())

    assert allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert allowed("https://[::1]:8443", "[::1]:8443", "wss")
    assert allowed("https://example.org", "example.org", "wss")
    assert not allowed("http://127.0.0.1:8001", "127.0.0.1:8000")
    assert not allowed("https://127.0.0.1:8000", "127.0.0.1:8000")  # the page was http
    assert not allowed("http://127.0.0.1:8000/x", "127.0.0.1:8000")
    assert not allowed("http://127.0.0.1:8000", "")
    assert origin_allowed({"host": "127.0.0.1:8000"}, "ws", ())  # no Origin: a program


# -- 3. the pages' policy and a hostile ruleset ------------------------------------------

def check_policy(response: Any, what: str) -> None:
    policy = response.headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in policy, what
    assert "unsafe-eval" not in policy, what
    script = next((d for d in policy.split(";") if d.strip().startswith("script-src")), "")
    assert script and "unsafe-inline" not in script, what
    assert response.headers.get("x-content-type-options") == "nosniff", what


def test_every_response_carries_a_policy_that_runs_no_inline_script(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        made = create(client, ruleset="high-rise", seats=PEOPLE)
        for url in ("/", made["links"]["1"], "/play/0123456789abcdef?token=x",
                    f"/play/{made['game']}?token=nope", "/static/play.js",
                    "/static/play.css", "/static/nothing.js", "/api/rulesets", "/api/agents",
                    "/api/server", "/rules/high-rise", "/rules/nope", "/nowhere"):
            check_policy(client.get(url), url)
        assert "default-src 'self'" in client.get("/").headers["content-security-policy"]
        assert "script-src 'none'" in client.get(
            "/rules/high-rise").headers["content-security-policy"]
        check_policy(client.post("/api/games", json={"ruleset": "caldera"}), "201")
        check_policy(client.post("/api/games", json={"ruleset": "nope"}), "400")
        check_policy(client.post("/api/games", content=b"x"), "415")
        check_policy(client.get("/api/games"), "405")
    for name in ("index.html", "play.html"):  # and the pages have no inline script
        page = (Path(tables.__file__).parent / "static" / name).read_text()
        assert "<script>" not in page and not re.search(r"\son[a-z]+\s*=", page)


def hostile_messages(client: TestClient, made: dict[str, Any], end: str) -> list[str]:
    """Every text sent to both seats and a spectator while seat 1 takes one counter and
    then the game ends by `end` ("stop": its end_game; "take": the pile runs out)."""
    texts: list[str] = []
    seats = {who: client.websocket_connect(socket_url(made, who)).__enter__()
             for who in ("1", "2", "spectator")}
    try:
        last = {}
        for who, ws in seats.items():
            texts.append(ws.receive_text())
            last[who] = json.loads(texts[-1])
        for _ in range(20):
            if last["spectator"]["over"]:
                break
            who = next(w for w in ("1", "2") if last[w]["options"])
            notation = "take" if end == "take" or len(texts) < 6 else "stop"
            send(seats[who], type="choose", version=last[who]["version"], notation=notation)
            for w, ws in seats.items():
                texts.append(ws.receive_text())
                last[w] = json.loads(texts[-1])
        assert last["spectator"]["over"]
    finally:
        for ws in seats.values():
            ws.__exit__(None, None, None)
    return texts


def test_a_hostile_rulesets_texts_reach_no_page_or_message_as_markup(tmp_path: Path) -> None:
    """`serve --ruleset x.yaml` with markup in every text: the start page, the JSON, the
    play page and every socket message carry none of it as markup (in JSON, < > & are
    \\u escapes; in the board's SVG, entities), yet the texts arrive whole."""
    path = hostile_ruleset(tmp_path)
    with serving(tmp_path / "games", extra={"minimal": path}) as client:
        offered = client.get("/api/rulesets")
        assert not raw_markup(offered.text)
        entry = next(g for g in offered.json() if g["name"] == "minimal")
        assert entry["title"] == "Minimal " + HOSTILE[0]  # the text itself, whole
        assert HOSTILE[2] in entry["options"][0]["label"]
        for url in ("/", "/api/agents", "/api/server"):
            assert not raw_markup(client.get(url).text), url
        texts = []
        for end in ("stop", "take"):
            response = client.post("/api/games", json={"ruleset": "minimal", "seats": PEOPLE})
            assert response.status_code == 201 and not raw_markup(response.text)
            made = response.json()
            assert not raw_markup(client.get(made["links"]["1"]).text)
            texts += hostile_messages(client, made, end)
        seen = " ".join(texts)
        assert not raw_markup(seen)
        decoded = [json.loads(t) for t in texts]
        assert all(not raw_markup(m["svg"]) for m in decoded)
        said = " ".join(" ".join(m["log"]) + (m["prompt"] or "") + (m["view"]["reason"] or "")
                        + " ".join(o["label"] for o in m["options"]) for m in decoded)
        for text in HOSTILE:  # they were all there, as text
            assert text in said
        assert "stopped " + " ".join(HOSTILE) in said  # the end_game text
        assert "the pile is empty" in said or "empty" in said


def test_the_served_rulebook_of_a_hostile_ruleset_carries_no_markup(tmp_path: Path) -> None:
    """/rules/NAME of the hostile ruleset: every text escaped (the rulebook is written by
    `interpreter.docs`; this page is where `serve` shows it)."""
    path = hostile_ruleset(tmp_path)
    with serving(tmp_path / "games", extra={"minimal": path}) as client:
        page = client.get("/rules/minimal")
        assert page.status_code == 200
        check_policy(page, "/rules/minimal")
        assert "alert(1)" in page.text  # the texts are there ...
        assert raw_markup(page.text) == []  # ... as text


# -- 4. a handshake with a huge URL ------------------------------------------------------

def raw_exchange(port: int, request: bytes, wait: float = 5.0) -> tuple[bytes, float]:
    """Send `request` on a new connection; the first bytes answered and how long they
    took (b"" when the server closed without a word or said nothing in `wait` s)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        started = time.monotonic()
        s.sendall(request)
        try:
            answer = s.recv(4096)
        except TimeoutError:
            answer = b""
        return answer, time.monotonic() - started


def handshake(path: str, headers: str = "") -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            f"Sec-WebSocket-Version: 13\r\n{headers}\r\n").encode()


def test_a_socket_handshake_with_a_huge_url_is_answered_at_once(tmp_path: Path) -> None:
    with Running(tmp_path) as running:
        for size in (9_000, 17_000, 70_000):
            answer, took = raw_exchange(running.port,
                                        handshake("/ws/0123456789abcdef?token=" + "a" * size))
            assert answer.startswith(b"HTTP/1.1 414"), (size, answer[:80])
            assert took < 2, (size, took)
        many = "".join(f"X-Junk-{i}: {i}\r\n" for i in range(200))
        answer, took = raw_exchange(running.port, handshake("/ws/0123456789abcdef", many))
        assert answer.startswith(b"HTTP/1.1 431") and took < 2, answer[:80]
        # and it goes on serving: a socket of a real game opens
        made = running.create(ruleset="high-rise", seats=PEOPLE)
        answer, _ = raw_exchange(running.port, handshake(
            made["links"]["1"].replace("/play/", "/ws/")))
        assert answer.startswith(b"HTTP/1.1 101"), answer[:80]


# -- 5. memory, start-up and how much one client may start --------------------------------

def test_a_restart_reads_no_saved_game_until_one_is_opened(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        made = [create(client, ruleset="high-rise", seats=PEOPLE) for _ in range(4)]
        with client.websocket_connect(socket_url(made[0], "1")) as ws:
            first = receive(ws)
            who = "1" if first["options"] else "2"
        with client.websocket_connect(socket_url(made[0], who)) as ws:
            before = receive(ws)
            send(ws, type="choose", version=before["version"], index=0)
            assert receive(ws)["version"] == 1
    (tmp_path / "notes.json").write_text("{}")  # not a table's save: left alone
    with serving(tmp_path) as client:
        store = client.app.state.server.store
        assert store.live == {} and store.saved == {m["game"] for m in made}
        assert "notes.json" in store.skipped
        with client.websocket_connect(socket_url(made[0], "1")) as ws:
            assert receive(ws)["version"] == 1  # read back, with its decision
        assert list(store.live) == [made[0]["game"]]


def test_idle_games_go_back_to_their_files_and_come_back_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "KEEP_IDLE", 1)
    with serving(tmp_path, chosen_seeds=True) as client:
        store = client.app.state.server.store
        kept = create(client, ruleset="high-rise", seats=PEOPLE, seed=3)
        with client.websocket_connect(socket_url(kept, "1")) as one, \
                client.websocket_connect(socket_url(kept, "2")) as two:
            wss = {"1": one, "2": two}
            last = {"1": receive(one), "2": receive(two)}
            for _ in range(3):  # others come and go; a game with players stays in memory
                create(client, ruleset="high-rise", seats=PEOPLE)
                assert kept["game"] in store.live
                who = next(w for w, m in last.items() if m["options"])
                send(wss[who], type="choose", version=last[who]["version"], index=0)
                last = {w: receive(ws) for w, ws in wss.items()}
        create(client, ruleset="caldera")
        create(client, ruleset="caldera")
        assert kept["game"] not in store.live and len(store.live) == 1
        with client.websocket_connect(socket_url(kept, "1")) as one:
            back = receive(one)
        assert back["version"] == 3 and back["view"] == last["1"]["view"]
        assert back["svg"] == last["1"]["svg"]


def test_a_game_whose_computer_is_thinking_stays_in_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "KEEP_IDLE", 0)
    with serving(tmp_path, pace=60) as client:  # each computer waits a minute to move
        store = client.app.state.server.store
        busy = create(client, ruleset="caldera", seats={"1": "random", "2": "random"})
        idle = create(client, ruleset="high-rise", seats=PEOPLE)
        create(client, ruleset="caldera", seats=PEOPLE)
        assert busy["game"] in store.live
        assert idle["game"] not in store.live


def test_games_of_one_ruleset_and_options_share_one_compiled_game(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        live = client.app.state.server.store.live
        a, b = (create(client, ruleset="caldera", options={"power_play": True})
                for _ in range(2))
        c = create(client, ruleset="caldera", options={"power_play": False})
        assert live[a["game"]].game is live[b["game"]].game
        assert live[c["game"]].game is not live[a["game"]].game


def test_one_client_may_start_only_so_many_games_a_minute(tmp_path: Path) -> None:
    with serving(tmp_path, games_per_minute=3) as client:
        for _ in range(3):
            create(client, ruleset="caldera")
        refused = client.post("/api/games", json={"ruleset": "caldera"})
        assert refused.status_code == 429
        assert "one client may start 3 a minute" in refused.json()["error"]
        assert len(list(tmp_path.glob("*.json"))) == 3
    limiter = CreateLimiter(2)
    assert limiter.refusal("a", 0) is None and limiter.refusal("a", 1) is None
    assert "try again in 58 s" in (limiter.refusal("a", 2) or "")
    assert limiter.refusal("b", 2) is None  # another address has its own share
    assert limiter.refusal("a", 60.5) is None  # a minute after the first
    assert limiter.refusal("a", 61.5) is None and limiter.refusal("a", 61.6) is not None


def test_no_game_starts_while_too_many_are_in_play(tmp_path: Path) -> None:
    with serving(tmp_path, games_in_play=2) as client:
        games = [create(client, ruleset="high-rise", seats=PEOPLE) for _ in range(3)]
        with client.websocket_connect(socket_url(games[0], "1")) as ws, \
                client.websocket_connect(socket_url(games[1], "1")) as ws2:
            receive(ws), receive(ws2)
            refused = client.post("/api/games", json={"ruleset": "caldera"})
            assert refused.status_code == 429
            assert "2 games in play" in refused.json()["error"]
        create(client, ruleset="caldera")  # nobody plays them now


# -- 6. a ruleset is compiled once --------------------------------------------------------

def test_a_designers_ruleset_is_compiled_once_not_on_every_request(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    real = tables.compile_game

    def counting(loaded: Any, options: Any = None, **kw: Any) -> Any:
        compiled.append(loaded.model.game.name)
        return real(loaded, options, **kw)

    monkeypatch.setattr(tables, "compile_game", counting)
    text = (Path(__file__).parent / "rulesets" / "minimal.yaml").read_text(encoding="utf-8")
    path = tmp_path / "minimal.yaml"
    path.write_text(text, encoding="utf-8")
    with serving(tmp_path / "games", extra={"minimal": path}) as client:
        client.get("/api/rulesets")
        made = [create(client, ruleset="minimal", seats=PEOPLE) for _ in range(3)]
        assert compiled.count("minimal") == 1
    with serving(tmp_path / "games", extra={"minimal": path}) as client:  # a restart
        for game in made:
            with client.websocket_connect(socket_url(game, "1")) as ws:
                assert receive(ws)["type"] == "state"
        assert compiled.count("minimal") == 2
        path.write_text(text.replace("title: Minimal", "title: Minimal Two"), encoding="utf-8")
        stamp = path.stat().st_mtime + 5
        os.utime(path, (stamp, stamp))
        create(client, ruleset="minimal")  # an edited file is compiled again
        assert compiled.count("minimal") == 3


# -- 7. the serve probes run as the probe runner runs them ------------------------------------

def test_the_serve_probes_run_a_real_server() -> None:
    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    from tests.probes.run import Limits, default_tabletop, run_probe
    from tests.probes.serve_probes import serve_probes

    probes = {p.name: p for p in serve_probes()}
    assert len(probes) >= 15
    result = run_probe(probes["serve/socket-url-17k"], default_tabletop(), Limits())
    assert result.passed, result.reasons
    assert result.category == "serve" and 0 < result.megabytes < 500
