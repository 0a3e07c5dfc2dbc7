"""A fake Anthropic Messages API on 127.0.0.1, driven by a script.

Routes:

* ``HEAD /`` -> 200 (the ``claude`` CLI's fire-and-forget preconnect);
* ``POST /v1/messages`` (with or without ``?beta=true``) -> the responder;
  ``"stream": true`` in the body gets SSE (the event sequence the real API and
  agent-protocols.md B.3 use), otherwise one JSON message object;
* ``POST /v1/messages/count_tokens`` -> ``{"input_tokens": N}``;
* anything else -> JSON 404 in the Anthropic error shape.

The responder is ``responder(body: dict, call_index: int) -> Reply`` where
``call_index`` counts ``POST /v1/messages`` calls from 0. Prefer scripts that
decide by the *state* of ``body["messages"]`` (see :func:`tool_steps_script`
and :func:`claude_skill_script`): the CLI retries, and may send side requests.

Example::

    with FakeMessagesServer(sequence_script(rate_limit_reply(0.01), text_reply("hi"))) as srv:
        client = anthropic.Anthropic(base_url=srv.base_url, api_key="sk-ant-test")
        msg = client.messages.create(model="m", max_tokens=10, messages=[...])
        assert srv.message_requests()[-1].body["model"] == "m"
"""

from __future__ import annotations

import dataclasses
import json
import os
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._base import (
    DropConnection,
    ErrorReply,
    FakeServerBase,
    JSONResponse,
    MalformedReply,
    RecordedRequest,
    SSEResponse,
    WireReply,
)

__all__ = [
    "DropConnection",
    "ErrorReply",
    "FakeMessagesServer",
    "JSONResponse",
    "MalformedReply",
    "MessageReply",
    "RecordedRequest",
    "Reply",
    "Responder",
    "SSEResponse",
    "claude_skill_script",
    "delayed",
    "error_reply",
    "forced_tool_script",
    "is_main_agent_request",
    "offered_tool_names",
    "overloaded_reply",
    "rate_limit_reply",
    "record_lessons_reply",
    "sequence_script",
    "server_error_reply",
    "stream_error_reply",
    "text_reply",
    "tool_results",
    "tool_steps_script",
    "tool_use_names",
    "tool_use_reply",
    "tool_uses",
]

MESSAGES_PATH = "/v1/messages"
COUNT_TOKENS_PATH = "/v1/messages/count_tokens"

ERROR_TYPES: dict[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    503: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class MessageReply:
    """An assistant message: content blocks plus ``stop_reason``.

    ``content`` holds Messages-API blocks, e.g. ``{"type": "text", "text": ...}``
    or ``{"type": "tool_use", "id": ..., "name": ..., "input": {...}}``.
    ``stream`` forces SSE (True) or JSON (False); ``None`` follows the request.
    ``event_delay`` sleeps between SSE events; ``cut_stream_after`` drops the
    connection after that many SSE events (a truncated stream).
    """

    content: tuple[dict[str, Any], ...]
    stop_reason: str = "end_turn"
    model: str | None = None
    usage: Mapping[str, int] | None = None
    message_id: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    stream: bool | None = None
    event_delay: float = 0.0
    cut_stream_after: int | None = None


Reply = MessageReply | ErrorReply | MalformedReply | DropConnection | JSONResponse | SSEResponse
Responder = Callable[[dict[str, Any], int], Reply]


# ---------------------------------------------------------------- builders
def _new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:24]}"


def text_reply(text: str, *, stop_reason: str = "end_turn", **options: Any) -> MessageReply:
    """A message with one text block (``options``: other MessageReply fields)."""
    return MessageReply(
        content=({"type": "text", "text": text},), stop_reason=stop_reason, **options
    )


def tool_use_reply(
    name: str,
    input: Mapping[str, Any],
    *,
    text: str | None = None,
    tool_use_id: str | None = None,
    **options: Any,
) -> MessageReply:
    """A message calling one tool (optionally preceded by a text block)."""
    blocks: list[dict[str, Any]] = []
    if text:
        blocks.append({"type": "text", "text": text})
    blocks.append(
        {
            "type": "tool_use",
            "id": tool_use_id or _new_id("toolu"),
            "name": name,
            "input": dict(input),
        }
    )
    return MessageReply(content=tuple(blocks), stop_reason="tool_use", **options)


def record_lessons_reply(
    lessons: Sequence[Mapping[str, Any]] = (),
    global_lessons: Sequence[Mapping[str, Any]] = (),
    ratings: Sequence[Mapping[str, Any]] = (),
    *,
    name: str = "record_lessons",
) -> MessageReply:
    """The distiller's structured answer: a ``record_lessons`` tool call.

    ``lessons`` items are ``{"skill", "tag", "text", "evidence"}``, ``global_lessons`` the
    same without ``skill``, ``ratings`` ``{"id", "rating", "evidence"?}`` (the lessons the
    session was shown, rated ``helped``/``confirmed``/``irrelevant``/``wrong``). Items are
    sent as given, so a test can script junk too. No ``ratings`` key when there are none.
    """
    data: dict[str, Any] = {"lessons": list(lessons), "global": list(global_lessons)}
    if ratings:
        data["ratings"] = list(ratings)
    return tool_use_reply(name, data)


def error_reply(
    status: int,
    message: str | None = None,
    *,
    error_type: str | None = None,
    headers: Mapping[str, str] | None = None,
    delay: float = 0.0,
) -> ErrorReply:
    """An HTTP error with the Anthropic error JSON body."""
    kind = error_type or ERROR_TYPES.get(status, "api_error")
    body = {
        "type": "error",
        "error": {"type": kind, "message": message or f"fake {kind}"},
        "request_id": _new_id("req"),
    }
    return ErrorReply(status=status, body=body, headers=dict(headers or {}), delay=delay)


def rate_limit_reply(retry_after: float | None = 0.01, **options: Any) -> ErrorReply:
    """429 ``rate_limit_error`` with a ``retry-after`` header (seconds).

    The anthropic SDK honours any positive ``retry-after`` (floats too);
    ``None`` omits the header so the client falls back to its own backoff.
    """
    headers = {} if retry_after is None else {"retry-after": f"{retry_after:g}"}
    return error_reply(429, "fake rate limit", headers=headers, **options)


def overloaded_reply(**options: Any) -> ErrorReply:
    """529 ``overloaded_error``."""
    return error_reply(529, "fake overloaded", **options)


def server_error_reply(status: int = 500, **options: Any) -> ErrorReply:
    """500 ``api_error`` (or another 5xx)."""
    return error_reply(status, "fake internal error", **options)


def stream_error_reply(error_type: str = "overloaded_error", message: str = "fake") -> SSEResponse:
    """HTTP 200 SSE whose only event is an ``error`` event (mid-stream failure)."""
    data = {"type": "error", "error": {"type": error_type, "message": message}}
    return SSEResponse(events=(("error", data),))


def delayed(reply: Reply, seconds: float) -> Reply:
    """The same reply, sent after ``seconds`` (use to trigger client timeouts)."""
    return dataclasses.replace(reply, delay=seconds)


# ------------------------------------------------------------ body helpers
def tool_uses(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """All ``tool_use`` blocks in the assistant messages of a request body."""
    found: list[dict[str, Any]] = []
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if message.get("role") != "assistant" or not isinstance(content, list):
            continue
        found.extend(b for b in content if isinstance(b, dict) and b.get("type") == "tool_use")
    return found


def tool_use_names(body: Mapping[str, Any]) -> list[str]:
    """Names of the tools the assistant already called, in order."""
    return [str(b.get("name")) for b in tool_uses(body)]


def tool_results(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """All ``tool_result`` blocks in the user messages of a request body."""
    found: list[dict[str, Any]] = []
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if message.get("role") != "user" or not isinstance(content, list):
            continue
        found.extend(b for b in content if isinstance(b, dict) and b.get("type") == "tool_result")
    return found


def offered_tool_names(body: Mapping[str, Any]) -> list[str]:
    """Names in ``body["tools"]`` (what the client offers the model)."""
    return [str(t.get("name")) for t in body.get("tools") or [] if isinstance(t, dict)]


def is_main_agent_request(body: Mapping[str, Any], marker_tool: str = "Skill") -> bool:
    """True when the request offers ``marker_tool`` (the CLI's main agent loop).

    Side requests of the ``claude`` CLI (compaction forks, prompt hooks, titles)
    do not offer the Skill tool and should get a plain text answer.
    """
    return marker_tool in offered_tool_names(body)


# ----------------------------------------------------------------- scripts
def sequence_script(*replies: Reply, then: Reply | None = None) -> Responder:
    """Answer call ``i`` with ``replies[i]``; afterwards ``then`` (default: the last).

    Good for SDK-level tests (retries, faults). For the CLIs use a state script.
    """
    if not replies:
        raise ValueError("sequence_script needs at least one reply")

    def responder(body: dict[str, Any], call_index: int) -> Reply:
        if call_index < len(replies):
            return replies[call_index]
        return then if then is not None else replies[-1]

    return responder


ToolStep = tuple[str, Mapping[str, Any]] | MessageReply


def tool_steps_script(
    steps: Sequence[ToolStep],
    final_text: str = "Done.",
    *,
    main_agent_tool: str | None = "Skill",
    side_text: str = "OK",
) -> Responder:
    """Script by state: the number of ``tool_use`` blocks already in the history
    selects the next step; once all steps were called, answer ``final_text``.

    A step is ``(tool_name, input)`` or a ready :class:`MessageReply`. Requests
    that do not offer ``main_agent_tool`` (side requests) get ``side_text``;
    pass ``main_agent_tool=None`` to treat every request as the main agent.
    """
    replies = [s if isinstance(s, MessageReply) else tool_use_reply(s[0], s[1]) for s in steps]

    def responder(body: dict[str, Any], call_index: int) -> Reply:
        if main_agent_tool is not None and not is_main_agent_request(body, main_agent_tool):
            return text_reply(side_text)
        done = len(tool_uses(body))
        if done < len(replies):
            return dataclasses.replace(replies[done], content=_fresh_ids(replies[done].content))
        return text_reply(final_text)

    return responder


def claude_skill_script(
    skill: str,
    then_read_path: str | os.PathLike[str] | None = None,
    final_text: str = "All done.",
    *,
    args: str | None = None,
    side_text: str = "OK",
) -> Responder:
    """The B.3 script: Skill(skill) -> [Read(then_read_path)] -> final text.

    Decides by the tool names already called (not by call count): no Skill yet
    -> call Skill; Skill but no Read (and a path given) -> Read the absolute
    path; otherwise -> ``final_text`` with ``end_turn``. Requests that do not
    offer the Skill tool get ``side_text``.
    """
    skill_input: dict[str, Any] = {"skill": skill}
    if args is not None:
        skill_input["args"] = args

    def responder(body: dict[str, Any], call_index: int) -> Reply:
        if not is_main_agent_request(body):
            return text_reply(side_text)
        called = tool_use_names(body)
        if "Skill" not in called:
            return tool_use_reply("Skill", skill_input, text=f"I'll use the {skill} skill.")
        if then_read_path is not None and "Read" not in called:
            return tool_use_reply("Read", {"file_path": os.fspath(then_read_path)})
        return text_reply(final_text)

    return responder


def forced_tool_script(
    replies: Mapping[str, Reply], otherwise: Responder | None = None
) -> Responder:
    """Answer a request that forces tool ``name`` (``tool_choice``) with ``replies[name]``.

    Other requests (the agent's own turns, side requests, a forced tool not scripted) go to
    ``otherwise`` (default: ``text_reply("OK")``). One server can so play the agent's model
    and the distiller behind it (``record_lessons``, ``same_lesson``, ...).
    """

    def responder(body: dict[str, Any], call_index: int) -> Reply:
        choice = body.get("tool_choice")
        name = choice.get("name") if isinstance(choice, dict) else None
        if isinstance(name, str) and name in replies:
            return replies[name]
        return otherwise(body, call_index) if otherwise is not None else text_reply("OK")

    return responder


def _fresh_ids(blocks: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    """Copy blocks, giving every tool_use a new id (ids must be unique)."""
    return tuple(
        {**block, "id": _new_id("toolu")} if block.get("type") == "tool_use" else block
        for block in blocks
    )


# ----------------------------------------------------------------- render
def _message_json(reply: MessageReply, model: str) -> dict[str, Any]:
    output_tokens = max(1, sum(len(json.dumps(b)) for b in reply.content) // 4)
    usage = {
        "input_tokens": 100,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        **dict(reply.usage or {}),
    }
    return {
        "id": reply.message_id or _new_id("msg"),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [dict(b) for b in reply.content],
        "stop_reason": reply.stop_reason,
        "stop_sequence": None,
        "usage": usage,
    }


def _block_events(index: int, block: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    kind = block.get("type")
    if kind == "text":
        start: dict[str, Any] = {"type": "text", "text": ""}
        delta: dict[str, Any] | None = {"type": "text_delta", "text": block.get("text", "")}
    elif kind == "tool_use":
        start = {**block, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block.get("input", {}))}
    elif kind == "thinking":
        start = {"type": "thinking", "thinking": "", "signature": ""}
        delta = {"type": "thinking_delta", "thinking": block.get("thinking", "")}
    else:
        start, delta = dict(block), None
    events = [
        (
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": start},
        )
    ]
    if delta is not None:
        events.append(
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        )
    if kind == "thinking":
        signature = {"type": "signature_delta", "signature": block.get("signature", "sig")}
        events.append(
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": signature},
            )
        )
    events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    return events


def message_sse_events(message: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The SSE event sequence for a full message object (B.3 of the protocol)."""
    start = {**message, "content": [], "stop_reason": None, "stop_sequence": None}
    start["usage"] = {**message["usage"], "output_tokens": 1}
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start}),
        ("ping", {"type": "ping"}),
    ]
    for index, block in enumerate(message["content"]):
        events.extend(_block_events(index, block))
    events.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": message["usage"]["output_tokens"]},
            },
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return events


def render_message_reply(
    reply: MessageReply, body: Mapping[str, Any]
) -> JSONResponse | SSEResponse:
    """Turn a :class:`MessageReply` into the JSON or SSE wire response."""
    model = reply.model or str(body.get("model") or "claude-fake")
    message = _message_json(reply, model)
    stream = reply.stream if reply.stream is not None else body.get("stream") is True
    headers = {"request-id": _new_id("req"), **dict(reply.headers)}
    if not stream:
        return JSONResponse(message, headers=headers, delay=reply.delay)
    return SSEResponse(
        events=tuple(message_sse_events(message)),
        headers=headers,
        delay=reply.delay,
        event_delay=reply.event_delay,
        cut_after=reply.cut_stream_after,
    )


# ------------------------------------------------------------------ server
class FakeMessagesServer(FakeServerBase):
    """Fake Anthropic Messages API (see the module docstring).

    ``responder`` defaults to always answering ``text_reply("OK")``.
    Attributes: ``base_url`` (for ``ANTHROPIC_BASE_URL`` / ``base_url=``),
    ``requests`` (every :class:`RecordedRequest`), :meth:`message_requests`,
    ``responder_errors`` (exceptions your script raised; answered with 500).
    """

    scripted_routes = (("POST", MESSAGES_PATH),)

    def __init__(self, responder: Responder | None = None) -> None:
        super().__init__()
        self.responder: Responder = responder or (lambda body, index: text_reply("OK"))

    def set_responder(self, responder: Responder) -> None:
        """Swap the script (takes effect for the next request)."""
        self.responder = responder

    def message_requests(self) -> list[RecordedRequest]:
        """Recorded ``POST /v1/messages`` requests (any query string)."""
        return self.requests_to(MESSAGES_PATH)

    def bodies(self) -> list[dict[str, Any]]:
        """Parsed JSON bodies of the ``POST /v1/messages`` requests."""
        return [r.body for r in self.message_requests() if isinstance(r.body, dict)]

    def not_found_body(self, request: RecordedRequest) -> Any:
        return {
            "type": "error",
            "error": {"type": "not_found_error", "message": f"Not found: {request.route}"},
        }

    def route(self, request: RecordedRequest) -> WireReply | None:
        if request.method == "HEAD" and request.route == "/":
            return JSONResponse(None)
        if request.method != "POST":
            return None
        if request.route == COUNT_TOKENS_PATH:
            return JSONResponse({"input_tokens": max(1, len(request.raw_body) // 4)})
        if request.route != MESSAGES_PATH:
            return None
        if not isinstance(request.body, dict):
            return error_reply(400, "fake server: body is not a JSON object")
        reply = self.responder(request.body, request.call_index or 0)
        if isinstance(reply, MessageReply):
            return render_message_reply(reply, request.body)
        return reply
