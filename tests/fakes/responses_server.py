"""A fake OpenAI API on 127.0.0.1: Responses (SSE, for Codex) + Chat Completions.

One server, two scripted routes, two responders:

* ``POST /v1/responses`` -> ``responder(body, call_index) -> Reply``.
  :class:`ResponsesReply` is always sent as SSE (``response.created``,
  ``response.in_progress``, per output item ``response.output_item.added`` ...
  ``response.output_item.done``, then ``response.completed`` with usage), which
  is what Codex consumes; when the body has ``"stream": false`` the final
  response object is sent as JSON instead.
* ``POST /v1/chat/completions`` -> ``chat_responder(body, call_index) -> Reply``
  with :class:`ChatReply` (JSON by default; SSE chunks + ``[DONE]`` when the
  request has ``"stream": true``). This is for our ``openai`` distiller backend.
* ``GET /v1/responses`` (Codex's WebSocket attempt when ``openai_base_url`` is
  used) and anything else -> JSON 404 in the OpenAI error shape.

The Codex CLI (0.171.0) gives the model an ``exec_command`` function tool whose
arguments are ``{"cmd": "<shell command>", "workdir"?, "yield_time_ms"?, ...}``;
:func:`exec_command_reply` builds that call. Script Codex by state with
:func:`codex_steps_script`: it counts the ``function_call`` items already in
``body["input"]`` (each followed by a ``function_call_output``).

``base_url`` is ``http://127.0.0.1:<port>``; OpenAI clients and Codex want
``api_base`` = ``base_url + "/v1"``.
"""

from __future__ import annotations

import dataclasses
import json
import time
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
    "ChatReply",
    "DropConnection",
    "ErrorReply",
    "FakeOpenAIServer",
    "JSONResponse",
    "MalformedReply",
    "RecordedRequest",
    "Reply",
    "Responder",
    "ResponsesReply",
    "SSEResponse",
    "chat_sequence_script",
    "chat_text_reply",
    "codex_steps_script",
    "delayed",
    "exec_command_reply",
    "function_call_outputs",
    "function_call_reply",
    "function_calls",
    "is_codex_main_request",
    "offered_tool_names",
    "openai_error_reply",
    "output_text_reply",
    "response_failed_reply",
    "sequence_script",
]

RESPONSES_PATH = "/v1/responses"
CHAT_PATH = "/v1/chat/completions"
EXEC_TOOL = "exec_command"


@dataclass(frozen=True)
class ResponsesReply:
    """A Responses-API turn: output items (``function_call``, ``message``, ...).

    ``event_delay`` sleeps between SSE events; ``cut_stream_after`` drops the
    connection after that many events (Codex then reports a stream error).
    """

    output: tuple[dict[str, Any], ...]
    model: str | None = None
    usage: Mapping[str, Any] | None = None
    response_id: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    event_delay: float = 0.0
    cut_stream_after: int | None = None


@dataclass(frozen=True)
class ChatReply:
    """A chat-completions answer: ``content`` text and/or ``tool_calls``."""

    content: str | None = None
    tool_calls: tuple[dict[str, Any], ...] = ()
    finish_reason: str | None = None
    model: str | None = None
    usage: Mapping[str, int] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0


Reply = (
    ResponsesReply
    | ChatReply
    | ErrorReply
    | MalformedReply
    | DropConnection
    | JSONResponse
    | SSEResponse
)
Responder = Callable[[dict[str, Any], int], Reply]


def _new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:24]}"


# --------------------------------------------------------- Responses builders
def function_call_reply(
    name: str, arguments: Mapping[str, Any], *, call_id: str | None = None, **options: Any
) -> ResponsesReply:
    """One ``function_call`` output item (``arguments`` are JSON-encoded)."""
    item = {
        "type": "function_call",
        "id": _new_id("fc"),
        "call_id": call_id or _new_id("call"),
        "name": name,
        "arguments": json.dumps(dict(arguments)),
        "status": "completed",
    }
    return ResponsesReply(output=(item,), **options)


def exec_command_reply(
    cmd: str, *, workdir: str | None = None, call_id: str | None = None, **options: Any
) -> ResponsesReply:
    """Codex's shell tool: ``exec_command`` with ``{"cmd": cmd[, "workdir"]}``."""
    arguments: dict[str, Any] = {"cmd": cmd}
    if workdir is not None:
        arguments["workdir"] = workdir
    return function_call_reply(EXEC_TOOL, arguments, call_id=call_id, **options)


def output_text_reply(text: str, **options: Any) -> ResponsesReply:
    """A final assistant ``message`` item with one ``output_text`` part."""
    item = {
        "type": "message",
        "id": _new_id("msg"),
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }
    return ResponsesReply(output=(item,), **options)


def openai_error_reply(
    status: int,
    message: str | None = None,
    *,
    error_type: str | None = None,
    code: str | None = None,
    headers: Mapping[str, str] | None = None,
    delay: float = 0.0,
) -> ErrorReply:
    """An HTTP error with the OpenAI error JSON body."""
    kind = error_type or {
        400: "invalid_request_error",
        401: "invalid_request_error",
        429: "rate_limit_error",
    }.get(status, "server_error")
    body = {
        "error": {
            "message": message or f"fake {kind}",
            "type": kind,
            "param": None,
            "code": code,
        }
    }
    return ErrorReply(status=status, body=body, headers=dict(headers or {}), delay=delay)


def response_failed_reply(message: str = "fake failure", code: str = "server_error") -> SSEResponse:
    """HTTP 200 SSE ending in ``response.failed`` (a failed model turn)."""
    response = {"id": _new_id("resp"), "object": "response", "status": "failed"}
    return SSEResponse(
        events=(
            ("response.created", {"type": "response.created", "response": response}),
            (
                "response.failed",
                {
                    "type": "response.failed",
                    "response": {**response, "error": {"code": code, "message": message}},
                },
            ),
        )
    )


def delayed(reply: Reply, seconds: float) -> Reply:
    """The same reply, sent after ``seconds``."""
    return dataclasses.replace(reply, delay=seconds)


# ------------------------------------------------------------- chat builders
def chat_text_reply(text: str, **options: Any) -> ChatReply:
    """A chat completion whose message content is ``text``."""
    return ChatReply(content=text, **options)


# -------------------------------------------------------------- body helpers
def _input_items(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    items = body.get("input")
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def function_calls(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``function_call`` items already in ``body["input"]`` (the history)."""
    return [i for i in _input_items(body) if i.get("type") == "function_call"]


def function_call_outputs(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``function_call_output`` items in ``body["input"]`` (tool results)."""
    return [i for i in _input_items(body) if i.get("type") == "function_call_output"]


def offered_tool_names(body: Mapping[str, Any]) -> list[str]:
    """Names of the function tools in ``body["tools"]``."""
    names = []
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            names.append(str(tool.get("name") or tool.get("function", {}).get("name")))
    return names


def is_codex_main_request(body: Mapping[str, Any], marker_tool: str = EXEC_TOOL) -> bool:
    """True when the request offers ``exec_command`` (Codex's agent loop)."""
    return marker_tool in offered_tool_names(body)


# ------------------------------------------------------------------- scripts
def sequence_script(*replies: Reply, then: Reply | None = None) -> Responder:
    """Answer call ``i`` with ``replies[i]``; afterwards ``then`` (default: the last)."""
    if not replies:
        raise ValueError("sequence_script needs at least one reply")

    def responder(body: dict[str, Any], call_index: int) -> Reply:
        if call_index < len(replies):
            return replies[call_index]
        return then if then is not None else replies[-1]

    return responder


chat_sequence_script = sequence_script

CodexStep = str | ResponsesReply


def codex_steps_script(
    steps: Sequence[CodexStep],
    final_text: str = "Done.",
    *,
    main_agent_tool: str | None = EXEC_TOOL,
    side_text: str = "OK",
) -> Responder:
    """Script Codex by state: ``len(function_calls(body))`` picks the next step.

    A step is a shell command string (sent as ``exec_command {"cmd": step}``)
    or a ready :class:`ResponsesReply`. After the last step the model answers
    ``final_text``. Requests that do not offer ``main_agent_tool`` (side
    requests, e.g. compaction) get ``side_text``.
    """
    replies = [exec_command_reply(s) if isinstance(s, str) else s for s in steps]

    def responder(body: dict[str, Any], call_index: int) -> Reply:
        if main_agent_tool is not None and not is_codex_main_request(body, main_agent_tool):
            return output_text_reply(side_text)
        done = len(function_calls(body))
        if done < len(replies):
            return dataclasses.replace(replies[done], output=_fresh_ids(replies[done].output))
        return output_text_reply(final_text)

    return responder


def _fresh_ids(items: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    return tuple(
        {**item, "id": _new_id("fc"), "call_id": _new_id("call")}
        if item.get("type") == "function_call"
        else item
        for item in items
    )


# ------------------------------------------------------------ render: responses
def _response_object(reply: ResponsesReply, body: Mapping[str, Any], status: str) -> dict[str, Any]:
    usage = {
        "input_tokens": 100,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 20,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 120,
        **dict(reply.usage or {}),
    }
    done = status == "completed"
    return {
        "id": reply.response_id or _new_id("resp"),
        "object": "response",
        "created_at": int(time.time()),
        "status": status,
        "model": reply.model or str(body.get("model") or "gpt-fake"),
        "output": [dict(i) for i in reply.output] if done else [],
        "usage": usage if done else None,
        "error": None,
    }


def _item_events(index: int, item: Mapping[str, Any]) -> list[dict[str, Any]]:
    kind = item.get("type")
    events: list[dict[str, Any]] = []
    if kind == "message":
        text = "".join(p.get("text", "") for p in item.get("content", []) if isinstance(p, dict))
        added = {**item, "status": "in_progress", "content": []}
        part = {"type": "output_text", "text": "", "annotations": []}
        ids = {"item_id": item.get("id"), "output_index": index, "content_index": 0}
        events += [
            {"type": "response.output_item.added", "output_index": index, "item": added},
            {"type": "response.content_part.added", **ids, "part": part},
            {"type": "response.output_text.delta", **ids, "delta": text},
            {"type": "response.output_text.done", **ids, "text": text},
            {"type": "response.content_part.done", **ids, "part": {**part, "text": text}},
        ]
    elif kind == "function_call":
        added = {**item, "status": "in_progress", "arguments": ""}
        ids = {"item_id": item.get("id"), "output_index": index}
        events += [
            {"type": "response.output_item.added", "output_index": index, "item": added},
            {
                "type": "response.function_call_arguments.delta",
                **ids,
                "delta": item.get("arguments", ""),
            },
            {
                "type": "response.function_call_arguments.done",
                **ids,
                "arguments": item.get("arguments", ""),
            },
        ]
    else:
        events.append({"type": "response.output_item.added", "output_index": index, "item": item})
    events.append({"type": "response.output_item.done", "output_index": index, "item": dict(item)})
    return events


def responses_sse_events(reply: ResponsesReply, body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The full SSE event list (data dicts; each carries ``type``)."""
    final = _response_object(reply, body, "completed")
    start = {**_response_object(reply, body, "in_progress"), "id": final["id"]}
    events = [
        {"type": "response.created", "response": start},
        {"type": "response.in_progress", "response": start},
    ]
    for index, item in enumerate(reply.output):
        events.extend(_item_events(index, item))
    events.append({"type": "response.completed", "response": final})
    return [{**e, "sequence_number": n} for n, e in enumerate(events)]


def render_responses_reply(
    reply: ResponsesReply, body: Mapping[str, Any]
) -> JSONResponse | SSEResponse:
    """SSE unless the request said ``"stream": false``."""
    headers = {"x-request-id": _new_id("req"), **dict(reply.headers)}
    if body.get("stream") is False:
        final = _response_object(reply, body, "completed")
        return JSONResponse(final, headers=headers, delay=reply.delay)
    events = tuple((e["type"], e) for e in responses_sse_events(reply, body))
    return SSEResponse(
        events=events,
        headers=headers,
        delay=reply.delay,
        event_delay=reply.event_delay,
        cut_after=reply.cut_stream_after,
    )


# ----------------------------------------------------------------- render: chat
def render_chat_reply(reply: ChatReply, body: Mapping[str, Any]) -> JSONResponse | SSEResponse:
    """A ``chat.completion`` object, or ``chat.completion.chunk`` SSE + ``[DONE]``."""
    model = reply.model or str(body.get("model") or "gpt-fake")
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [dict(c) for c in reply.tool_calls]
    usage = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    usage.update(reply.usage or {})
    base = {"id": _new_id("chatcmpl"), "created": int(time.time()), "model": model}
    headers = {"x-request-id": _new_id("req"), **dict(reply.headers)}
    if body.get("stream") is not True:
        choice = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
        completion = {**base, "object": "chat.completion", "choices": [choice], "usage": usage}
        return JSONResponse(completion, headers=headers, delay=reply.delay)
    chunk = {**base, "object": "chat.completion.chunk"}
    delta_choice = {"index": 0, "delta": message, "finish_reason": None}
    stop_choice = {"index": 0, "delta": {}, "finish_reason": finish}
    events: tuple[tuple[str | None, Any], ...] = (
        (None, {**chunk, "choices": [delta_choice]}),
        (None, {**chunk, "choices": [stop_choice], "usage": usage}),
        (None, "[DONE]"),
    )
    return SSEResponse(events=events, headers=headers, delay=reply.delay)


# ---------------------------------------------------------------------- server
class FakeOpenAIServer(FakeServerBase):
    """Fake OpenAI API: Responses (Codex) and Chat Completions (distiller).

    ``responder`` scripts ``/v1/responses`` (default: ``output_text_reply("OK")``);
    ``chat_responder`` scripts ``/v1/chat/completions`` (default: "OK").
    ``api_base`` is ``base_url + "/v1"`` for Codex's ``base_url`` / OpenAI SDKs.
    """

    scripted_routes = (("POST", RESPONSES_PATH), ("POST", CHAT_PATH))

    def __init__(
        self, responder: Responder | None = None, chat_responder: Responder | None = None
    ) -> None:
        super().__init__()
        self.responder: Responder = responder or (lambda body, i: output_text_reply("OK"))
        self.chat_responder: Responder = chat_responder or (lambda body, i: chat_text_reply("OK"))

    @property
    def api_base(self) -> str:
        """``http://127.0.0.1:<port>/v1``."""
        return self.base_url + "/v1"

    def set_responder(self, responder: Responder) -> None:
        """Swap the ``/v1/responses`` script."""
        self.responder = responder

    def set_chat_responder(self, responder: Responder) -> None:
        """Swap the ``/v1/chat/completions`` script."""
        self.chat_responder = responder

    def responses_requests(self) -> list[RecordedRequest]:
        """Recorded ``POST /v1/responses`` requests."""
        return self.requests_to(RESPONSES_PATH)

    def chat_requests(self) -> list[RecordedRequest]:
        """Recorded ``POST /v1/chat/completions`` requests."""
        return self.requests_to(CHAT_PATH)

    def not_found_body(self, request: RecordedRequest) -> Any:
        return openai_error_reply(404, f"Not found: {request.method} {request.route}").body

    def route(self, request: RecordedRequest) -> WireReply | None:
        if request.method == "HEAD" and request.route == "/":
            return JSONResponse(None)
        if request.method != "POST" or request.route not in (RESPONSES_PATH, CHAT_PATH):
            return None
        if not isinstance(request.body, dict):
            return openai_error_reply(400, "fake server: body is not a JSON object")
        is_chat = request.route == CHAT_PATH
        script = self.chat_responder if is_chat else self.responder
        reply = script(request.body, request.call_index or 0)
        if isinstance(reply, ResponsesReply):
            return render_responses_reply(reply, request.body)
        if isinstance(reply, ChatReply):
            return render_chat_reply(reply, request.body)
        return reply
