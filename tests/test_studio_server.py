"""The studio's server: who may ask it anything (token, Host, Origin), which files it opens
(the workspace guard), how it writes them, and the real command started in a subprocess.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")  # Starlette's note on its test client

from starlette.testclient import TestClient  # noqa: E402

from interpreter.load.catalog import rulesets_dir  # noqa: E402
from interpreter.studio.app import MAX_BODY, create_app  # noqa: E402
from interpreter.studio.workspace import StudioError, Workspace  # noqa: E402

TOKEN = "secret-token"
PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    for name in ("connect-four.yaml", "connect-four.tests.yaml"):
        shutil.copy(rulesets_dir() / name, work / name)
    (tmp_path / "secret.yaml").write_text("password: hunter2\n")
    return work


@pytest.fixture
def client(folder: Path) -> TestClient:
    app = create_app(Workspace.open(folder), TOKEN, PORT)
    return TestClient(app, base_url=BASE, headers={"X-Studio-Token": TOKEN})


def test_every_api_call_needs_the_token(folder: Path) -> None:
    bare = TestClient(create_app(Workspace.open(folder), TOKEN, PORT), base_url=BASE)
    assert bare.get("/api/workspace").status_code == 403
    assert "token" in bare.get("/api/workspace").json()["error"]
    assert bare.get("/api/workspace", headers={"X-Studio-Token": "wrong"}).status_code == 403
    assert bare.get(f"/api/workspace?token={TOKEN}x").status_code == 403
    assert bare.get("/?token=nope").status_code == 403
    assert bare.get("/rulebook?path=connect-four.yaml").status_code == 403
    assert bare.get(f"/api/workspace?token={TOKEN}").status_code == 200
    assert bare.get("/api/workspace", headers={"X-Studio-Token": TOKEN}).status_code == 200


def test_the_page_carries_the_policy(client: TestClient) -> None:
    page = client.get(f"/?token={TOKEN}")
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "'unsafe-eval'" not in csp
    assert "frame-ancestors 'self'" in csp and "frame-src 'self'" in csp
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"


def test_a_host_header_of_another_name_is_refused(client: TestClient) -> None:
    """A DNS-rebinding page reaches 127.0.0.1 under its own name: refused."""
    assert client.get("/api/workspace", headers={"host": "evil.example:8765"}).status_code == 400
    assert client.get("/api/workspace", headers={"host": "127.0.0.1:9999"}).status_code == 400
    assert client.get("/api/workspace", headers={"host": "localhost:8765"}).status_code == 200


def test_a_foreign_origin_is_refused(client: TestClient) -> None:
    body = {"path": "connect-four.yaml", "text": "x: 1\n"}
    foreign = client.put("/api/file", json=body, headers={"origin": "http://evil.example"})
    assert foreign.status_code == 403
    assert "other sites" in foreign.json()["error"]
    assert client.get("/api/workspace", headers={"origin": "null"}).status_code == 403
    own = client.get("/api/workspace", headers={"origin": BASE})
    assert own.status_code == 200


@pytest.mark.parametrize("name", ["../secret.yaml", "/etc/passwd", "sub/../../secret.yaml",
                                  "a\0b.yaml", "..", "link.yaml", "linked/secret.yaml"])
def test_paths_leading_out_are_refused(client: TestClient, folder: Path, name: str) -> None:
    (folder / "link.yaml").symlink_to(folder.parent / "secret.yaml")
    (folder / "linked").symlink_to(folder.parent)
    reply = client.get("/api/file", params={"path": name})
    assert reply.status_code == 403, reply.text
    assert "hunter2" not in reply.text
    assert reply.json()["error"]
    write = client.put("/api/file", json={"path": name, "text": "x: 1\n"})
    assert write.status_code == 403
    assert (folder.parent / "secret.yaml").read_text() == "password: hunter2\n"


def test_a_path_that_is_not_a_string_is_a_clear_error(client: TestClient) -> None:
    reply = client.put("/api/file", json={"path": ["a"], "text": "x"})
    assert reply.status_code == 400
    assert "name a file" in reply.json()["error"]


def test_read_stat_and_write_a_file(client: TestClient, folder: Path) -> None:
    read = client.get("/api/file", params={"path": "connect-four.yaml"}).json()
    assert read["text"] == (folder / "connect-four.yaml").read_text()
    stat = client.get("/api/file/stat", params={"path": "connect-four.yaml"}).json()
    assert stat == {"path": "connect-four.yaml", "mtime": read["mtime"], "exists": True}
    new_text = read["text"] + "# edited\n"
    saved = client.put("/api/file", json={"path": "connect-four.yaml", "text": new_text,
                                          "mtime": read["mtime"]})
    assert saved.status_code == 200, saved.text
    assert (folder / "connect-four.yaml").read_text() == new_text
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]  # no temp file left
    missing = client.get("/api/file/stat", params={"path": "nothing.yaml"}).json()
    assert missing["exists"] is False and missing["mtime"] is None
    assert client.get("/api/file", params={"path": "nothing.yaml"}).status_code == 404


def test_a_file_changed_on_disk_is_not_overwritten(client: TestClient, folder: Path) -> None:
    read = client.get("/api/file", params={"path": "connect-four.yaml"}).json()
    path = folder / "connect-four.yaml"
    path.write_text("# someone else's edit\n")
    os.utime(path, (read["mtime"] + 5, read["mtime"] + 5))
    reply = client.put("/api/file", json={"path": "connect-four.yaml", "text": "mine\n",
                                          "mtime": read["mtime"]})
    assert reply.status_code == 409
    assert "changed on disk" in reply.json()["error"]
    assert path.read_text() == "# someone else's edit\n"


def test_new_files_need_a_plain_yaml_name(client: TestClient, folder: Path) -> None:
    assert client.put("/api/file", json={"path": "my-game.yaml", "text": "a: 1\n"}
                      ).status_code == 200
    assert (folder / "my-game.yaml").read_text() == "a: 1\n"
    assert client.put("/api/file", json={"path": "My Game.yaml", "text": "a"}).status_code == 400
    assert client.put("/api/file", json={"path": "run.sh", "text": "a"}).status_code == 403
    assert not (folder / "run.sh").exists()


def test_bad_json_and_too_large_bodies(client: TestClient) -> None:
    bad = client.post("/api/check", content=b"{not json",
                      headers={"content-type": "application/json"})
    assert bad.status_code == 400
    assert "JSON" in bad.json()["error"]
    assert client.post("/api/check", json=[1, 2]).status_code == 400
    huge = client.put("/api/file", content=b"x" * (MAX_BODY + 10))
    assert huge.status_code == 413


def test_the_workspace_lists_its_files(client: TestClient, folder: Path) -> None:
    (folder / "notes.yaml").write_text("just: notes\n")
    listing = client.get("/api/workspace").json()
    files = {f["path"]: f for f in listing["files"]}
    assert files["connect-four.yaml"] == {"path": "connect-four.yaml", "kind": "ruleset",
                                          "title": "Connect Four"}
    assert files["connect-four.tests.yaml"]["kind"] == "tests"
    assert files["notes.yaml"]["kind"] == "other"
    bundled = {b["name"]: b for b in listing["bundled"]}
    assert bundled["connect-four"]["title"] == "Connect Four"
    assert any(b["variant_of"] for b in listing["bundled"])
    assert listing["roots"] == [str(folder.resolve())]


def test_the_computer_players_on_offer_are_the_clis(client: TestClient) -> None:
    from interpreter.agents import AGENTS

    offered = {a["name"]: a for a in client.get("/api/agents").json()["agents"]}
    assert list(offered) == list(AGENTS)
    assert offered["random"]["sees_hidden"] is False and offered["mcts"]["sees_hidden"] is True
    assert all(a["help"] for a in offered.values())
    assert client.get("/api/agents", headers={"X-Studio-Token": "wrong"}).status_code == 403


def test_a_workspace_opens_a_file_or_a_folder(folder: Path) -> None:
    ws = Workspace.open(folder / "connect-four.yaml")
    assert ws.roots == (folder.resolve(),) and ws.start == "connect-four.yaml"
    with pytest.raises(StudioError, match="no such file"):
        Workspace.open(folder / "missing.yaml")
    (folder / "readme.txt").write_text("hi")
    with pytest.raises(StudioError, match="not a ruleset"):
        Workspace.open(folder / "readme.txt")


# -- the real command ----------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tabletop(*args: str) -> list[str]:
    return [sys.executable, "-m", "interpreter.cli", *args]


def test_the_command_serves_the_page(folder: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen(_tabletop("studio", str(folder / "connect-four.yaml"), "--port",
                                      str(port), "--no-open"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = ""
        deadline = time.monotonic() + 60
        while "?token=" not in line:
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr
            line = proc.stdout.readline()
        url = line.split()[1]
        assert url.startswith(f"http://127.0.0.1:{port}/?token=")
        page = None
        while page is None:
            try:
                page = urllib.request.urlopen(url, timeout=10)
            except urllib.error.URLError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert page.status == 200
        assert "script-src 'self'" in page.headers["content-security-policy"]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url.split("?")[0] + "api/workspace", timeout=10)
        assert refused.value.code == 403
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_command_says_what_is_wrong(folder: Path) -> None:
    missing = subprocess.run(_tabletop("studio", str(folder / "nope.yaml"), "--no-open"),
                             capture_output=True, text=True, timeout=120)
    assert missing.returncode == 1
    assert "no such file or folder" in missing.stderr and "Traceback" not in missing.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = subprocess.run(_tabletop("studio", str(folder), "--port", str(port),
                                        "--no-open"),
                              capture_output=True, text=True, timeout=120)
    assert busy.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in busy.stderr
    helped = subprocess.run(_tabletop("studio", "--help"), capture_output=True, text=True,
                            timeout=120)
    assert "workbench" in helped.stdout and "--no-open" in helped.stdout
