"""The read loop every WebSocket endpoint shares: each incoming message handed on, one at a time, until the
client leaves or the endpoint's writer stops."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from fastapi import WebSocket, WebSocketDisconnect


async def read_messages(websocket: WebSocket, handle: Callable[[str | bytes | None], Awaitable[None]],
                        writer: asyncio.Task[None]) -> None:
    """Await ``handle(text or bytes)`` for each message until the client disconnects or ``writer`` ends."""
    with contextlib.suppress(WebSocketDisconnect):
        while not writer.done():
            receive = asyncio.ensure_future(websocket.receive())
            done, _pending = await asyncio.wait({receive, writer}, return_when=asyncio.FIRST_COMPLETED)
            if receive not in done:
                receive.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await receive
                return
            message = receive.result()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            await handle(text if text is not None else message.get("bytes"))
