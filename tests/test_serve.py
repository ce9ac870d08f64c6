"""The browser table (`tabletop serve`): games made over HTTP and played over sockets,
hot seat, computer seats, saves that survive a restart, and the command line."""

from __future__ import annotations

import json
import os
import random
import socket
import stat
import subprocess
from pathlib import Path

import pytest
from console import console_script
from serve_support import create, receive, send, serving, socket_url, until
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from interpreter.api import load
from interpreter.errors import UsageError
from interpreter.serve.app import create_app
from interpreter.serve.command import _offered_files
from interpreter.serve.tables import Store
from interpreter.simulate.record import read_save


def play_out(wss: dict[int, object], first: dict[int, dict], rnd: random.Random,
             shout: bool = True) -> tuple[dict[int, dict], int]:
    """Both people play to the end by notations (shouted and spaced out: case and
    spaces do not matter); returns the last message each got and how many decisions."""
    last, made = dict(first), 0
    while not last[1]["over"]:
        seat = next(s for s, m in last.items() if m["options"])
        option = rnd.choice(last[seat]["options"])
        notation = option["notation"].upper().replace("-", " - ") if shout else \
            option["notation"]
        send(wss[seat], type="choose", version=last[seat]["version"], notation=notation)
        last[seat] = receive(wss[seat])
        assert last[seat]["type"] == "state", last[seat]
        for s, ws in wss.items():
            if s != seat:
                last[s] = receive(ws)
            assert last[s]["version"] == last[seat]["version"]
        made += 1
    return last, made


def test_a_full_game_of_high_rise_by_notations(tmp_path: Path) -> None:
    with serving(tmp_path, chosen_seeds=True) as client:
        made = create(client, ruleset="high-rise", seats={"1": "human", "2": "human"},
                      seed=7)
        assert set(made["links"]) == {"1", "2"} and made["hotseat"] is False
        with client.websocket_connect(socket_url(made, "1")) as one, \
                client.websocket_connect(socket_url(made, "2")) as two:
            first = {1: receive(one), 2: receive(two)}
            for seat, message in first.items():
                assert message["type"] == "state" and message["seat"] == seat
                assert message["version"] == 0 and message["title"] == "High Rise"
                assert message["svg"].startswith("<svg")
                assert message["view"]["seat"] == seat
                # options only for the seat that must decide now
                assert bool(message["options"]) == (seat in message["deciding"])
            last, made_count = play_out({1: one, 2: two}, first, random.Random(3))
    assert made_count == 50
    assert last[1]["over"] and last[1]["winners"] and last[1]["options"] == []
    saved = read_save(tmp_path / f"{made['game']}.json")  # the save format of `play`
    assert len(saved.decisions) == 50 and saved.seed == 7


def test_a_person_against_a_computer_at_caldera(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        made = create(client, ruleset="caldera", players=2,
                      seats={"1": "human", "2": "random"}, options={"power_play": False})
        assert set(made["links"]) == {"1"}
        rnd = random.Random(5)
        with client.websocket_connect(socket_url(made, "1")) as ws:
            message = receive(ws)
            moved_by_computer = 0
            while not message["over"]:
                if message["options"]:
                    option = rnd.choice(message["options"])
                    send(ws, type="choose", version=message["version"], index=option["index"])
                else:
                    moved_by_computer += 1
                message = receive(ws)
            assert message["winners"] and moved_by_computer > 0
            assert any(line.startswith("Player 2 moved the cap on ")
                       for line in message["log"])  # in the option's words
            assert message["last_move"].startswith("Last move (Player ")
            assert "to" in message["view"]["last_move"]["marks"].values()


def test_a_game_with_secrets_and_an_all_seeing_computer_player_says_so(
        tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        def notes(game: str, players: int, seats: dict[str, str]) -> list[str]:
            made = client.post("/api/games", json={"ruleset": game, "players": players,
                                                   "seats": seats})
            assert made.status_code == 201, made.text
            return made.json()["notes"]

        cheat = notes("bottoms-up", 4, {"2": "mcts:playouts=5"})
        assert len(cheat) == 2 and cheat[0].startswith("mcts sees all that is hidden")
        assert "ismcts" in cheat[0]
        assert "sets how its computer players play: mcts:judge=score" in cheat[1]
        assert notes("bottoms-up", 4, {"2": "ismcts:playouts=5"}) == []
        assert notes("caldera", 2, {"2": "mcts:playouts=5"}) == []  # nothing hidden
        assert len(notes("high-rise", 2, {"2": "mcts:playouts=5"})) == 1  # dice under covers


def test_the_rulesets_and_the_rules_are_one_click_away(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        games = client.get("/api/rulesets").json()
        by_name = {g["name"]: g for g in games}
        assert by_name["caldera"]["seats"] == {"min": 2, "max": 3}
        assert [o["id"] for o in by_name["caldera"]["options"]] == ["power_play"]
        assert by_name["caldera-two-trios"]["extends"] == "caldera"
        agents = {a["name"]: a for a in client.get("/api/agents").json()}
        assert agents["mcts"]["sees_hidden"] and not agents["ismcts"]["sees_hidden"]
        assert by_name["bottoms-up"]["hidden"] and by_name["high-rise"]["hidden"]
        assert not by_name["caldera"]["hidden"]
        page = client.get("/rules/high-rise")
        assert page.status_code == 200 and "High Rise" in page.text
        assert page.headers["content-type"].startswith("text/html")
        assert client.get("/rules/caldera-two-trios").status_code == 200
        assert client.get("/rules/nope").status_code == 404
        assert client.get("/rules/..%2Fpyproject.toml").status_code == 404


@pytest.mark.parametrize(("body", "message"), [
    ({"ruleset": "caldra"}, "unknown game 'caldra'"),
    ({"ruleset": "../../etc/passwd"}, "unknown game"),
    ({"ruleset": "caldera", "options": {"power_play": "maybe"}}, "option 'power_play'"),
    ({"ruleset": "caldera", "options": {"nope": True}}, "nope"),
    ({"ruleset": "caldera", "players": 9}, "2 to 3 players"),
    ({"ruleset": "caldera", "seats": {"3": "human"}}, "no seat '3'"),
    ({"ruleset": "caldera", "seats": {"2": "mcts:playouts=-4"}}, "playouts"),
    ({"ruleset": "caldera", "seats": {"2": "wizard"}}, "unknown agent 'wizard'"),
    ({"ruleset": "caldera", "seed": "abc"}, "'seed'"),
    ({"ruleset": "caldera", "hotseat": "yes"}, "'hotseat'"),
    ({"ruleset": "caldera", "colour": "red"}, "unknown field 'colour'"),
    ({"ruleset": "caldera", "seats": {"1": "random", "2": "random"}, "hotseat": True},
     "at least one human seat"),
    ([1, 2], "one JSON object"),
])
def test_a_bad_request_gets_a_clear_400(tmp_path: Path, body: object, message: str) -> None:
    with serving(tmp_path) as client:
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, response.text
        assert message in response.json()["error"]
        assert "Traceback" not in response.text
        assert not list(tmp_path.glob("*.json"))


def test_a_request_that_is_not_json_is_refused(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        plain = client.post("/api/games", content=b'{"ruleset": "caldera"}',
                            headers={"content-type": "text/plain"})
        assert plain.status_code == 415  # what another web site's form could send
        broken = client.post("/api/games", content=b"{nope",
                             headers={"content-type": "application/json"})
        assert broken.status_code == 400 and "JSON" in broken.json()["error"]
        huge = client.post("/api/games", content=b" " * 200_000,
                           headers={"content-type": "application/json"})
        assert huge.status_code == 413


def test_hot_seat_passes_the_device_between_seats(tmp_path: Path) -> None:
    with serving(tmp_path, chosen_seeds=True) as client:
        made = create(client, ruleset="high-rise", seats={"1": "human", "2": "human"},
                      hotseat=True, seed=3)
        assert set(made["links"]) == {"table"}
        with client.websocket_connect(socket_url(made, "table")) as ws:
            first = receive(ws)
            assert first["type"] == "pass" and "view" not in first and "svg" not in first
            seat = first["seat"]
            send(ws, type="choose", version=0, index=0)  # nobody confirmed holding it
            assert receive(ws)["type"] == "error"
            send(ws, type="ready", seat=3 - seat)  # the wrong seat
            assert receive(ws)["type"] == "error"
            send(ws, type="ready", seat=seat)
            shown = receive(ws)
            assert shown["type"] == "state" and shown["seat"] == seat and shown["options"]
            assert shown["hotseat"] is True
            send(ws, type="choose", version=0, notation=shown["options"][0]["notation"])
            handed = receive(ws)
            assert handed == {"type": "pass", "seat": 3 - seat, "version": 1,
                              "title": "High Rise"}
            send(ws, type="ready", seat=3 - seat)
            other = receive(ws)
            assert other["seat"] == 3 - seat and other["version"] == 1 and other["options"]
            # a reconnecting device starts from a pass again
        with client.websocket_connect(socket_url(made, "table")) as again:
            assert receive(again) == handed


def test_a_spectator_sees_the_public_view_and_cannot_choose(tmp_path: Path) -> None:
    with serving(tmp_path, chosen_seeds=True) as client:
        made = create(client, ruleset="high-rise", seed=3)
        with client.websocket_connect(socket_url(made, "spectator")) as ws:
            message = receive(ws)
            assert message["seat"] is None and message["options"] == []
            assert message["view"]["seat"] == 0
            send(ws, type="choose", version=message["version"], index=0)
            # The computer seat may move meanwhile: its state push can come first.
            refused = until(ws, lambda m: m["type"] == "error")
            assert "spectator" in refused["message"]


def test_games_survive_a_restart(tmp_path: Path) -> None:
    with serving(tmp_path, chosen_seeds=True) as client:
        made = create(client, ruleset="high-rise", seats={"1": "human", "2": "human"},
                      seed=11)
        with client.websocket_connect(socket_url(made, "1")) as one, \
                client.websocket_connect(socket_url(made, "2")) as two:
            wss = {1: one, 2: two}
            last = {1: receive(one), 2: receive(two)}
            for _ in range(3):
                seat = next(s for s, m in last.items() if m["options"])
                send(wss[seat], type="choose", version=last[seat]["version"], index=0)
                last = {s: receive(ws) for s, ws in wss.items()}
    save = tmp_path / f"{made['game']}.json"
    assert stat.S_IMODE(save.stat().st_mode) == 0o600
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    with serving(tmp_path) as client:  # a new server over the same folder
        with client.websocket_connect(socket_url(made, "1")) as one:
            resumed = receive(one)
        assert resumed["version"] == 3
        assert resumed["view"] == last[1]["view"] and resumed["svg"] == last[1]["svg"]


def test_computer_seats_carry_on_after_a_restart(tmp_path: Path) -> None:
    # the computers wait: the server stops first
    with serving(tmp_path, pace=60, chosen_seeds=True) as client:
        made = create(client, ruleset="caldera", seats={"1": "random", "2": "random"},
                      seed=2)
        assert made["links"] == {}
    with serving(tmp_path) as client, \
            client.websocket_connect(socket_url(made, "spectator")) as ws:
        last = until(ws, lambda m: m["over"])
    assert last["winners"]


def test_a_damaged_save_is_skipped_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "0123456789abcdef.json").write_text("{not json")
    with serving(tmp_path) as client:
        assert client.get("/api/rulesets").status_code == 200


def test_the_data_folder_is_private(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    with serving(folder) as client:
        create(client, ruleset="caldera")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


# -- the command line ---------------------------------------------------------------------------

def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    exe = console_script()
    assert exe is not None, "the console script must be installed (pip install -e .)"
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=60,
                          check=False, env={**os.environ, "COLUMNS": "200"})


def test_serve_help() -> None:
    done = run_cli("serve", "--help")
    assert done.returncode == 0
    for flag in ("--host", "--port", "--data", "--allow-origin", "--games-per-minute",
                 "--games-in-play", "--allow-chosen-seeds"):
        assert flag in done.stdout
    said = " ".join(done.stdout.split())
    assert "For testing only: let a game's creator choose its seed" in said


@pytest.mark.parametrize(("args", "message"), [
    (["--port", "70000"], "--port must be from 1 to 65535, not 70000"),
    (["--port", "0"], "--port must be from 1 to 65535"),
    (["--port", "http"], "Invalid value for '--port'"),
    (["--pace", "-1"], "--pace"),
    (["--ruleset", "no-such-file.yaml"], "no such ruleset file"),
    (["--allow-origin", "evil.example"], "--allow-origin evil.example: an origin is"),
    (["--allow-origin", "http://x.example/path"], "an origin is a scheme"),
    (["--games-per-minute", "0"], "--games-per-minute is from 1"),
    (["--games-in-play", "-3"], "--games-in-play is from 1"),
])
def test_bad_serve_arguments_exit_1_with_a_message(args: list[str], message: str) -> None:
    done = run_cli("serve", *args)
    assert done.returncode == 1, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_a_ruleset_file_of_a_bundled_game_takes_its_place_with_a_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    own = tmp_path / "my-caldera.yaml"
    own.write_text(Path(load("caldera").path).read_text())
    offered = _offered_files([own])
    assert offered == {"caldera": own}
    said = capsys.readouterr().err
    assert "is the game 'caldera', which is bundled" in said and "in its place" in said
    twice = tmp_path / "again.yaml"
    twice.write_text(own.read_text())
    with pytest.raises(UsageError, match="both the game 'caldera'"):
        _offered_files([own, twice])


def test_the_save_is_the_play_commands_format(tmp_path: Path) -> None:
    with serving(tmp_path, chosen_seeds=True) as client:
        made = create(client, ruleset="high-rise", seed=5)
    data = json.loads((tmp_path / f"{made['game']}.json").read_text())
    assert data["format"] == "tabletop-save" and data["table"]["id"] == made["game"]
    assert data["seats"] == {"1": "human", "2": "random"}


def test_an_address_that_cannot_be_listened_on_is_one_message(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = run_cli("serve", "--port", str(port), "--data", str(tmp_path))
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
    nowhere = run_cli("serve", "--host", "no-such-host.invalid", "--data", str(tmp_path))
    assert nowhere.returncode == 1 and "no such address" in nowhere.stderr


def test_on_loopback_other_host_names_are_refused(tmp_path: Path) -> None:
    """A web page cannot reach the table by pointing its own name at 127.0.0.1."""
    store = Store(tmp_path)
    store.open_folder()
    app = create_app(store, allowed_hosts=["localhost", "127.0.0.1"])
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/rulesets").status_code == 200
        assert client.get("/api/rulesets", headers={"host": "evil.example"}).status_code == 400


def test_the_games_on_offer_follow_an_edited_ruleset(tmp_path: Path) -> None:
    """Entries are kept between requests (compiling every game takes about half a
    second), but never past an edit of the file."""
    text = (Path(__file__).resolve().parent / "rulesets" / "minimal.yaml").read_text(
        encoding="utf-8")
    path = tmp_path / "minimal.yaml"
    path.write_text(text, encoding="utf-8")
    with serving(tmp_path / "games", extra={"minimal": path}) as client:
        def offered() -> dict[str, object]:
            return {g["name"]: g for g in client.get("/api/rulesets").json()}["minimal"]

        assert offered()["title"] == "Minimal"
        assert offered()["title"] == "Minimal"
        path.write_text(text.replace("title: Minimal", "title: Minimal Two")
                        + "computer_players:\n  mcts: judge=score\n", encoding="utf-8")
        stamp = path.stat().st_mtime + 5
        os.utime(path, (stamp, stamp))
        now = offered()
        assert now["title"] == "Minimal Two"
        assert now["computer_players"] == {"mcts": "judge=score"}


def test_a_designers_file_can_be_offered_and_played(tmp_path: Path) -> None:
    """`tabletop serve --ruleset PATH`: the file's game is on offer by its name (a
    request names games, never files); without it, its saved games wait, not fail."""
    path = Path(__file__).resolve().parent / "rulesets" / "minimal.yaml"
    with serving(tmp_path, extra={"minimal": path}) as client:
        assert "minimal" in [g["name"] for g in client.get("/api/rulesets").json()]
        made = create(client, ruleset="minimal", seats={"1": "human", "2": "human"})
        with client.websocket_connect(socket_url(made, "1")) as ws:
            assert receive(ws)["type"] == "state"
        assert client.get("/rules/minimal").status_code == 200
        refused = client.post("/api/games", json={"ruleset": str(path)})
        assert refused.status_code == 400 and "unknown game" in refused.json()["error"]
    with serving(tmp_path) as client:  # the file is not offered now: its game waits
        page = client.get(made["links"]["1"])
        assert page.status_code == 404 and "cannot be resumed" in page.text
        with client.websocket_connect(socket_url(made, "1")) as ws, \
                pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4404 and "cannot be resumed" in closed.value.reason
        skipped = client.app.state.server.store.skipped
        assert "unknown game 'minimal'" in skipped[f"{made['game']}.json"]
    assert (tmp_path / f"{made['game']}.json").is_file()  # kept for when it is offered
