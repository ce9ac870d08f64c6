"""The browser table keeps secrets: links are keys, messages are checked before anything
acts on them, decisions are made one at a time, and a socket carries only what its seat
may see (non-interference, checked on the bytes sent)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from serve_support import create, receive, send, serving, socket_url, token
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from interpreter.api import load_game
from interpreter.run.view import SPECTATOR, view
from interpreter.serve.app import STALE


def two_people(client: TestClient, ruleset: str = "high-rise", seed: int = 4,
               **more: Any) -> dict[str, Any]:
    return create(client, ruleset=ruleset, seats={"1": "human", "2": "human"}, seed=seed,
                  **more)


def refused(client: TestClient, url: str) -> WebSocketDisconnect:
    with client.websocket_connect(url) as ws, pytest.raises(WebSocketDisconnect) as caught:
        ws.receive_text()
    return caught.value


def test_a_wrong_token_is_refused(tmp_path: Path) -> None:
    with serving(tmp_path, chosen_seeds=True) as client:
        made = two_people(client)
        other = two_people(client)
        game = made["game"]
        for url in (f"/ws/{game}?token=nope", f"/ws/{game}", f"/ws/{game}?token=",
                    socket_url(other, "1").replace(other["game"], game)):
            closed = refused(client, url)
            assert closed.code == 4403 and "token" in closed.reason
        closed = refused(client, f"/ws/0000000000000000?token={token(made['links']['1'])}")
        assert closed.code == 4404 and "no such game" in closed.reason
        assert client.get(f"/play/{game}?token=nope").status_code == 403
        assert client.get(f"/play/{game}").status_code == 403
        assert client.get("/play/0000000000000000?token=x").status_code == 404


def seat_with_options(client: TestClient, made: dict[str, Any]) -> tuple[str, dict]:
    """The seat that decides first, and its first message."""
    for seat in made["links"]:
        with client.websocket_connect(socket_url(made, seat)) as ws:
            first = receive(ws)
        if first["options"]:
            return seat, first
    raise AssertionError("nobody decides")


BAD_MESSAGES = [
    "not json",
    "[1, 2]",
    '"choose"',
    "{}",
    '{"type": "steal"}',
    '{"type": "choose"}',
    '{"type": "choose", "version": 0}',
    '{"type": "choose", "version": true, "index": 0}',
    '{"type": "choose", "version": "0", "index": 0}',
    '{"type": "choose", "version": 0, "index": -1}',
    '{"type": "choose", "version": 0, "index": 99999}',
    '{"type": "choose", "version": 0, "index": 0, "notation": "x"}',
    '{"type": "choose", "version": 0, "notation": 5}',
    '{"type": "choose", "version": 0, "notation": ""}',
    '{"type": "choose", "version": 0, "notation": "no-such-move"}',
    '{"type": "choose", "version": 0, "index": 0, "seat": 2, "admin": true}',
    '{"type": "choose", "version": 0, "index": 0.5}',
    '{"type": "choose", "version": NaN, "index": 0}',
    '{"type": "choose", "version": 1e400, "index": 0}',
    '{"type": "ready", "seat": 1}',
    '{"type": "resync", "x": 1}',
    "[" * 5000,
    '{"type": "choose", "version": 0, "notation": "' + "a" * 5000 + '"}',
]


def test_malformed_and_forged_messages_change_nothing(tmp_path: Path) -> None:
    with serving(tmp_path, chosen_seeds=True) as client:
        made = two_people(client)
        seat, first = seat_with_options(client, made)
        other = "2" if seat == "1" else "1"
        save = tmp_path / f"{made['game']}.json"
        before = save.read_bytes()
        with client.websocket_connect(socket_url(made, seat)) as ws, \
                client.websocket_connect(socket_url(made, other)) as them:
            receive(ws)
            theirs = receive(them)
            for text in BAD_MESSAGES:
                ws.send_text(text)
                answer = receive(ws)
                assert answer["type"] == "error" and answer["message"], text
                assert "Traceback" not in answer["message"]
            ws.send_bytes(b"\xff\xfe garbage")
            assert receive(ws)["type"] == "error"
            # a seat acting for another, and a seat choosing out of turn
            send(ws, type="choose", version=0, index=0, seat=int(other))
            assert f"plays seat {seat}" in receive(ws)["message"]
            send(them, type="choose", version=0, index=0)
            assert "decision now" in receive(them)["message"]
            send(ws, type="resync")
            assert receive(ws) == first  # nothing changed
            send(them, type="resync")
            assert receive(them) == theirs
        assert save.read_bytes() == before


def test_a_stale_version_is_refused(tmp_path: Path) -> None:
    with serving(tmp_path, chosen_seeds=True) as client:
        made = two_people(client)
        seat, first = seat_with_options(client, made)
        with client.websocket_connect(socket_url(made, seat)) as ws:
            receive(ws)
            send(ws, type="choose", version=first["version"] + 1, index=0)
            assert receive(ws) == {"type": "error", "message": STALE}
            send(ws, type="resync")
            assert receive(ws)["version"] == 0


def test_two_choices_racing_make_exactly_one_decision(tmp_path: Path) -> None:
    with serving(tmp_path, chosen_seeds=True) as client:
        made = two_people(client)
        seat, _ = seat_with_options(client, made)
        url = socket_url(made, seat)
        with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
            receive(a), receive(b)
            send(a, type="choose", version=0, index=0)
            send(b, type="choose", version=0, index=1)
            got: list[dict[str, Any]] = []
            for ws in (a, b):
                # each socket gets the push of the one decision, maybe the refusal, then
                # the answer to this resync: its second state ends what it was sent
                send(ws, type="resync")
                states = 0
                while states < 2:
                    got.append(receive(ws))
                    states += got[-1]["type"] == "state"
            errors = [m for m in got if m["type"] == "error"]
            assert [e["message"] for e in errors] == [STALE]
            assert {m["version"] for m in got if m["type"] == "state"} == {1}
    saved = json.loads((tmp_path / f"{made['game']}.json").read_text())
    assert len(saved["decisions"]) == 1


# -- non-interference -------------------------------------------------------------------------

def record_game(client: TestClient, made: dict[str, Any], seats: list[str], watch: list[str],
                moves: list[tuple[str, int | str]] | None, count: int,
                rnd: random.Random) -> tuple[list[tuple[str, str]], dict[str, list[str]]]:
    """Play `count` decisions (the given moves, else random ones) with every seat
    connected; every text sent to the `watch`ed sockets, in order."""
    texts: dict[str, list[str]] = {who: [] for who in watch}
    played: list[tuple[str, str]] = []
    wss = {who: client.websocket_connect(socket_url(made, who)) for who in seats}
    sockets = {who: ws.__enter__() for who, ws in wss.items()}
    try:
        last: dict[str, dict[str, Any]] = {}
        for who, ws in sockets.items():
            text = ws.receive_text()
            last[who] = json.loads(text)
            if who in texts:
                texts[who].append(text)
        for n in range(count):
            if moves is not None:
                seat, notation = moves[n]
            else:
                seat = next(s for s in seats if s != "spectator" and last[s]["options"])
                notation = rnd.choice(last[seat]["options"])["notation"]
            played.append((seat, notation))
            send(sockets[seat], type="choose", version=last[seat]["version"],
                 notation=notation)
            for who, ws in sockets.items():
                text = ws.receive_text()
                last[who] = json.loads(text)
                assert last[who]["type"] == "state", last[who]
                if who in texts:
                    texts[who].append(text)
    finally:
        for ws in wss.values():
            ws.__exit__(None, None, None)
    return played, texts


def secret_colours(seed: int) -> list[str]:
    game = load_game("bottoms-up")
    return game.new_state(4, seed).seat_vars["secret_colour"]


def test_bottoms_up_seat_1_and_spectators_are_sent_the_same_bytes(tmp_path: Path) -> None:
    """Two games whose secret colours differ only for seats 2-4: everything sent to
    seat 1 and to a spectator is byte-identical, and no message to them names another
    seat's colour as its secret."""
    first = 1
    mine = secret_colours(first)
    second = next(s for s in range(2, 500) if secret_colours(s)[0] == mine[0]
                  and secret_colours(s)[1] != mine[1])
    seats = ["1", "2", "3", "4", "spectator"]
    everyone = {"1": "human", "2": "human", "3": "human", "4": "human"}
    with serving(tmp_path, chosen_seeds=True) as client:
        a = create(client, ruleset="bottoms-up", players=4, seats=everyone, seed=first)
        b = create(client, ruleset="bottoms-up", players=4, seats=everyone, seed=second)
        moves, sent_a = record_game(client, a, seats, ["1", "spectator", "2"], None, 40,
                                    random.Random(8))
        _, sent_b = record_game(client, b, seats, ["1", "spectator", "2"], moves, 40,
                                random.Random(0))
    assert not json.loads(sent_a["1"][-1])["over"]
    assert sent_a["1"] == sent_b["1"]
    assert sent_a["spectator"] == sent_b["spectator"]
    assert sent_a["2"] != sent_b["2"]  # seat 2 was told its own (different) colour
    for texts, colours in ((sent_a, mine), (sent_b, secret_colours(second))):
        for who in ("1", "spectator"):
            for text in texts[who]:
                seen = json.loads(text)
                assert set(seen["view"]["variables"].get("secret_colour", {})) <= {who}
                for other in (2, 3, 4):
                    assert f"Your secret colour is {colours[other - 1]}" not in text
        assert any(f"Your secret colour is {colours[1]}" in t for t in texts["2"])


def test_high_rise_hidden_dice_change_no_byte_until_the_end(tmp_path: Path) -> None:
    """Two games whose dice under the covers differ (nobody may see them): every
    message to both seats and a spectator is the same until the game ends and the
    dice are shown; the final messages differ (so the games really did differ)."""
    game = load_game("high-rise")
    first = game.new_state(2, 1)

    def public(state: Any) -> str:
        return json.dumps([view(game, state, s) for s in (1, 2, SPECTATOR)])

    second = next(s for s in range(2, 500) if public(game.new_state(2, s)) == public(first)
                  and game.new_state(2, s).lists() != first.lists())
    seats = ["1", "2", "spectator"]
    with serving(tmp_path, chosen_seeds=True) as client:
        a = two_people(client, seed=1)
        b = two_people(client, seed=second)
        moves, sent_a = record_game(client, a, seats, seats, None, 50, random.Random(2))
        _, sent_b = record_game(client, b, seats, seats, moves, 50, random.Random(0))
    for who in seats:
        assert json.loads(sent_a[who][-1])["over"]
        assert sent_a[who][:-1] == sent_b[who][:-1]
        assert sent_a[who][-1] != sent_b[who][-1]


def test_no_message_holds_the_seed_or_another_seats_key(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        made = create(client, ruleset="bottoms-up", players=4,
                      seats={"1": "human", "2": "human", "3": "human", "4": "human"})
        saved = json.loads((tmp_path / f"{made['game']}.json").read_text())
        seed = str(saved["seed"])
        assert len(seed) > 20  # a fresh secret seed of 128 bits
        seats = ["1", "2", "3", "4", "spectator"]
        _, sent = record_game(client, made, seats, seats, None, 12, random.Random(1))
    keys = {who: token(made["spectator"] if who == "spectator" else made["links"][who])
            for who in seats}
    for who, texts in sent.items():
        for text in texts:
            assert seed not in text
            for other, key in keys.items():
                assert key not in text, (who, other)
