"""The server's WebSocket protocol: uvicorn's, made to answer a handshake it refuses.

A handshake whose request line is longer than the websockets library's limit (8 KB: a
URL of a few KB of query, say) or whose headers are too many or too large is refused by
`websockets.server.ServerProtocol`, which queues a 414 or 431 response and then waits.
uvicorn's sans-I/O protocol only writes what the library queued when it hands over an
event or a parser error, and a refused handshake is neither: the response never left and
the client waited for ever. This protocol sends it, and closes the connection.
"""

from __future__ import annotations

from typing import Any

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol that answers a refused handshake at once."""

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if (not self.handshake_initiated and self.conn.handshake_exc is not None
                and not self.transport.is_closing()):
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.handshake_complete = self.close_sent = True
            self.transport.close()


MAX_FRAME = 64 * 1024
"""Largest WebSocket message taken from a client (a choice is a few dozen bytes; the
protocol refuses more than 4 KB): a larger one closes the socket (1009) before it is
read into memory, instead of uvicorn's default of 16 MB."""


def uvicorn_config(app: Any, host: str, port: int) -> uvicorn.Config:
    """How the browser table runs under uvicorn (the command and the browser tests)."""
    return uvicorn.Config(app, host=host, port=port, log_level="warning",
                          ws=WebSocketProtocol, ws_max_size=MAX_FRAME, lifespan="on")
