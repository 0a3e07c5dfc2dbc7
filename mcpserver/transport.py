"""The stdio transport: the `mcp` SDK's `stdio_server`, with a reader that answers bad frames.

The SDK's reader hands a line it cannot parse to the session as an exception, which answers
nobody (a client waiting on that id hangs), and the session answers an unknown method with
-32602. Here every line is sorted first (`triage`): not JSON gets -32700 (id null); anything
that is not a JSON-RPC request, notification or response gets -32600 (with the frame's id when
it has a usable one); a request for a method MCP does not define gets -32601. What is left goes
to the session exactly as the SDK's reader would pass it, and the process keeps serving. The
errors are fixed sentences: nothing of the frame but its id is repeated.
"""

from __future__ import annotations

import json
import logging
import typing
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp import types
from mcp.shared.message import SessionMessage

log = logging.getLogger("skill-memory.mcp")

RequestId = str | int


def _client_methods() -> frozenset[str]:
    """Every request method the SDK parses (it answers -32601 itself for those not served)."""
    kinds = typing.get_args(types.ClientRequest.model_fields["root"].annotation)
    return frozenset(
        method
        for kind in kinds
        for method in typing.get_args(kind.model_fields["method"].annotation)
    )


CLIENT_METHODS = _client_methods()


@dataclass(frozen=True)
class Refusal:
    """The JSON-RPC error a frame gets instead of reaching the session."""

    id: RequestId | None
    code: int
    message: str

    def line(self) -> str:
        error = {"code": self.code, "message": self.message}
        return json.dumps({"jsonrpc": "2.0", "id": self.id, "error": error})


def triage(line: str) -> types.JSONRPCMessage | Refusal | None:
    """The message in `line` for the session, the error to answer instead, or None (ignore)."""
    if not line.strip():
        return None
    try:
        frame = json.loads(line)
    except (ValueError, RecursionError):
        return Refusal(None, types.PARSE_ERROR, "Parse error: the line is not JSON")
    if not isinstance(frame, dict):
        return Refusal(None, types.INVALID_REQUEST, "Invalid request: not a JSON-RPC object")
    raw_id = frame.get("id")
    usable = isinstance(raw_id, str | int) and not isinstance(raw_id, bool)
    frame_id: RequestId | None = raw_id if usable else None
    if frame.get("jsonrpc") != "2.0":
        return Refusal(frame_id, types.INVALID_REQUEST, 'Invalid request: "jsonrpc" must be "2.0"')
    if "method" not in frame:
        if frame_id is not None and ("result" in frame or "error" in frame):
            return _parsed(frame)  # a reply to one of the server's own requests
        return Refusal(frame_id, types.INVALID_REQUEST, "Invalid request: no method")
    if not isinstance(frame["method"], str):
        return Refusal(frame_id, types.INVALID_REQUEST, "Invalid request: method is no string")
    if frame.get("params") is not None and not isinstance(frame["params"], dict):
        return Refusal(frame_id, types.INVALID_REQUEST, "Invalid request: params is no object")
    if "id" not in frame:
        return _parsed(frame)  # a notification: never answered, even when unknown
    if frame_id is None:
        return Refusal(None, types.INVALID_REQUEST, "Invalid request: id is no string or integer")
    if frame["method"] not in CLIENT_METHODS:
        return Refusal(frame_id, types.METHOD_NOT_FOUND, "Method not found")
    return _parsed(frame) or Refusal(frame_id, types.INVALID_REQUEST, "Invalid request")


def _parsed(frame: dict[str, object]) -> types.JSONRPCMessage | None:
    try:
        return types.JSONRPCMessage.model_validate(frame)
    except Exception as error:  # noqa: BLE001 - pydantic's error, or a frame nested too deep
        log.warning("dropped a frame that is no JSON-RPC message: %s", type(error).__name__)
        return None


ReadStreams = tuple[
    MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]
]


@asynccontextmanager
async def stdio_transport(
    stdin: anyio.AsyncFile[str], stdout: anyio.AsyncFile[str]
) -> AsyncIterator[ReadStreams]:
    """The session's streams over `stdin`/`stdout` (the SDK's `stdio_server`, refusing bad
    frames): one writer task serialises the session's messages and the refusals."""
    to_session, from_stdin = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    outgoing, to_stdout = anyio.create_memory_object_stream[SessionMessage | str](0)
    refusals = outgoing.clone()

    async def read() -> None:
        async with to_session, refusals:
            async for line in stdin:
                verdict = triage(line)
                if isinstance(verdict, Refusal):
                    await refusals.send(verdict.line())
                elif verdict is not None:
                    await to_session.send(SessionMessage(verdict))

    async def write() -> None:
        async with to_stdout:
            async for item in to_stdout:
                if isinstance(item, str):
                    text = item
                else:
                    text = item.message.model_dump_json(by_alias=True, exclude_none=True)
                await stdout.write(text + "\n")
                await stdout.flush()

    async with anyio.create_task_group() as group:
        group.start_soon(read)
        group.start_soon(write)
        yield from_stdin, outgoing
