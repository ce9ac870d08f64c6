"""What the studio's HTTP tests share: the app over a workspace, reached through
Starlette's test client at the address and with the token it answers to."""

from __future__ import annotations

import warnings

warnings.filterwarnings("ignore", message=".*httpx2.*")  # Starlette's note on its test client

from starlette.testclient import TestClient  # noqa: E402

from interpreter.studio.app import create_app  # noqa: E402
from interpreter.studio.workspace import Workspace  # noqa: E402

TOKEN = "studio-test-token"
PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"


def studio_client(ws: Workspace) -> TestClient:
    """A client of the studio over `ws` that sends the token with every request."""
    return TestClient(create_app(ws, TOKEN, PORT), base_url=BASE,
                      headers={"X-Studio-Token": TOKEN})
