"""Tests for the offline test infrastructure: fake model servers and CLI harness.

The SDK tests are fast and need nothing but the venv. The ``e2e`` tests install
the real ``claude`` / ``codex`` CLIs from npm (cached) and skip with the reason
when that is impossible; deselect them with ``-m "not e2e"``.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import anthropic
import pytest

from tests.e2e_support import (
    HookRecorder,
    codex_hook_inventory,
    hooks_config,
    require_claude,
    require_codex,
    run_claude,
    run_codex,
    trust_codex_hooks,
)
from tests.fakes.messages_server import (
    DropConnection,
    FakeMessagesServer,
    MalformedReply,
    MessageReply,
    claude_skill_script,
    delayed,
    overloaded_reply,
    rate_limit_reply,
    sequence_script,
    server_error_reply,
    text_reply,
    tool_use_names,
    tool_use_reply,
)
from tests.fakes.responses_server import (
    FakeOpenAIServer,
    chat_text_reply,
    codex_steps_script,
    exec_command_reply,
    function_calls,
    output_text_reply,
)

WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Weather for a city",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
}
USER_HI = [{"role": "user", "content": "hi"}]


def _client(server: FakeMessagesServer, **options: Any) -> anthropic.Anthropic:
    options.setdefault("max_retries", 2)
    return anthropic.Anthropic(base_url=server.base_url, api_key="sk-ant-test", **options)


def _create(client: anthropic.Anthropic, **kwargs: Any) -> Any:
    return client.messages.create(model="claude-test", max_tokens=64, messages=USER_HI, **kwargs)


def _http(url: str, *, method: str = "GET", body: Any = None) -> tuple[int, dict[str, str], bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _sse_data(raw: bytes) -> list[Any]:
    out = []
    for line in raw.decode().splitlines():
        if line.startswith("data: "):
            payload = line[len("data: ") :]
            out.append(payload if payload == "[DONE]" else json.loads(payload))
    return out


# ------------------------------------------------------- Messages API + SDK
def test_sdk_parses_tool_use_reply_with_tools_and_tool_choice() -> None:
    script = sequence_script(tool_use_reply("get_weather", {"city": "Paris"}))
    with FakeMessagesServer(script) as server:
        message = _create(
            _client(server),
            tools=[WEATHER_TOOL],
            tool_choice={"type": "tool", "name": "get_weather"},
        )
        (request,) = server.message_requests()
    assert message.stop_reason == "tool_use"
    block = message.content[0]
    assert block.type == "tool_use" and block.name == "get_weather"
    assert block.input == {"city": "Paris"}
    assert request.body["tool_choice"] == {"type": "tool", "name": "get_weather"}
    assert request.body["tools"][0]["name"] == "get_weather"
    assert request.call_index == 0


def test_sdk_streaming_accumulates_text_and_tool_input() -> None:
    reply = tool_use_reply("get_weather", {"city": "Oslo", "days": [1, 2]}, text="Checking.")
    with FakeMessagesServer(sequence_script(reply)) as server:
        client = _client(server)
        with client.messages.stream(model="m", max_tokens=64, messages=USER_HI) as stream:
            final = stream.get_final_message()
        assert server.message_requests()[0].body["stream"] is True
    assert [b.type for b in final.content] == ["text", "tool_use"]
    assert final.content[0].text == "Checking."
    assert final.content[1].input == {"city": "Oslo", "days": [1, 2]}
    assert final.stop_reason == "tool_use"


def test_sdk_retries_429_then_succeeds() -> None:
    script = sequence_script(rate_limit_reply(retry_after=0.01), text_reply("after retry"))
    with FakeMessagesServer(script) as server:
        message = _create(_client(server))
        requests = server.message_requests()
    assert message.content[0].text == "after retry"
    assert [r.call_index for r in requests] == [0, 1]
    assert requests[1].header("x-stainless-retry-count") == "1"


def test_sdk_raises_internal_server_error_when_retries_exhausted() -> None:
    fast = {"retry-after": "0.01"}
    with FakeMessagesServer(sequence_script(server_error_reply(headers=fast))) as server:
        with pytest.raises(anthropic.InternalServerError) as info:
            _create(_client(server, max_retries=2))
        assert len(server.message_requests()) == 3
    assert info.value.status_code == 500


def test_sdk_maps_529_to_overloaded_error() -> None:
    server = FakeMessagesServer(sequence_script(overloaded_reply()))
    with server, pytest.raises(anthropic.OverloadedError):
        _create(_client(server, max_retries=0))


def test_sdk_times_out_on_delayed_reply_and_server_stops_promptly() -> None:
    started = time.monotonic()
    server = FakeMessagesServer(sequence_script(delayed(text_reply("late"), 30)))
    with server, pytest.raises(anthropic.APITimeoutError):
        _create(_client(server, max_retries=0, timeout=0.3))
    assert time.monotonic() - started < 10


def test_sdk_connection_faults_raise() -> None:
    server = FakeMessagesServer(sequence_script(DropConnection()))
    with server, pytest.raises(anthropic.APIConnectionError):
        _create(_client(server, max_retries=0))
    # anthropic 2.x lets the JSON decoding error through unwrapped.
    server = FakeMessagesServer(sequence_script(MalformedReply()))
    with server, pytest.raises((ValueError, anthropic.APIError)):
        _create(_client(server, max_retries=0))


def test_messages_server_routes_and_binding() -> None:
    with FakeMessagesServer() as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        status, _, _ = _http(server.base_url + "/", method="HEAD")
        assert status == 200
        status, _, raw = _http(server.base_url + "/v1/models")
        assert status == 404 and json.loads(raw)["error"]["type"] == "not_found_error"
        status, _, raw = _http(
            server.base_url + "/v1/messages/count_tokens?beta=true",
            method="POST",
            body={"messages": USER_HI},
        )
        assert status == 200 and json.loads(raw)["input_tokens"] > 0
        status, _, raw = _http(
            server.base_url + "/v1/messages?beta=true",
            method="POST",
            body={"model": "m", "messages": USER_HI},
        )
        assert status == 200 and json.loads(raw)["content"][0]["text"] == "OK"
        assert [r.route for r in server.requests] == [
            "/",
            "/v1/models",
            "/v1/messages/count_tokens",
            "/v1/messages",
        ]
        assert server.message_requests()[0].query == {"beta": ["true"]}
        port = server.port
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_responder_exception_becomes_500_and_is_recorded() -> None:
    def broken(body: dict[str, Any], call_index: int) -> Any:
        raise KeyError("oops")

    with FakeMessagesServer(broken) as server:
        with pytest.raises(anthropic.InternalServerError):
            _create(_client(server, max_retries=0))
        assert isinstance(server.responder_errors[0], KeyError)


def test_claude_skill_script_decides_by_state() -> None:
    script = claude_skill_script("demo", then_read_path="/abs/notes.txt", final_text="bye")
    main_tools = [{"name": "Skill"}, {"name": "Read"}]
    body: dict[str, Any] = {"tools": main_tools, "messages": [{"role": "user", "content": "go"}]}

    def answer(request: dict[str, Any]) -> MessageReply:
        reply = script(request, 7)  # call_index is ignored: state decides
        assert isinstance(reply, MessageReply)
        return reply

    first = answer(body)
    assert first.content[-1]["input"] == {"skill": "demo"}
    body["messages"].append({"role": "assistant", "content": list(first.content)})
    assert tool_use_names(body) == ["Skill"]
    second = answer(body)
    assert second.content[-1]["input"] == {"file_path": "/abs/notes.txt"}
    body["messages"].append({"role": "assistant", "content": list(second.content)})
    assert answer(body).content[0]["text"] == "bye"
    assert answer({"tools": [{"name": "Read"}], "messages": []}).content[0]["text"] == "OK"


# ------------------------------------------------------------- OpenAI fakes
def test_responses_sse_stream_and_codex_script() -> None:
    script = codex_steps_script(["cat notes.txt"], final_text="done")
    tools = [{"type": "function", "name": "exec_command"}]
    with FakeOpenAIServer(script) as server:
        url = server.api_base + "/responses"
        status, headers, raw = _http(
            url, method="POST", body={"model": "gpt", "stream": True, "tools": tools, "input": []}
        )
        assert status == 200 and headers["Content-Type"].startswith("text/event-stream")
        events = _sse_data(raw)
        assert events[0]["type"] == "response.created"
        assert events[-1]["type"] == "response.completed"
        done = [e["item"] for e in events if e["type"] == "response.output_item.done"]
        assert done[0]["name"] == "exec_command"
        assert json.loads(done[0]["arguments"]) == {"cmd": "cat notes.txt"}
        history = [done[0], {"type": "function_call_output", "call_id": done[0]["call_id"]}]
        _, _, raw = _http(url, method="POST", body={"model": "g", "tools": tools, "input": history})
        final = [e for e in _sse_data(raw) if e["type"] == "response.output_item.done"]
        assert final[0]["item"]["content"][0]["text"] == "done"
        assert len(function_calls(server.responses_requests()[1].body)) == 1


def test_chat_completions_json_and_stream() -> None:
    with FakeOpenAIServer(chat_responder=lambda body, i: chat_text_reply(f"lesson {i}")) as server:
        url = server.api_base + "/chat/completions"
        status, _, raw = _http(url, method="POST", body={"model": "m", "messages": USER_HI})
        completion = json.loads(raw)
        assert status == 200 and completion["object"] == "chat.completion"
        assert completion["choices"][0]["message"]["content"] == "lesson 0"
        assert completion["choices"][0]["finish_reason"] == "stop"
        _, _, raw = _http(
            url, method="POST", body={"model": "m", "messages": USER_HI, "stream": True}
        )
        chunks = _sse_data(raw)
        assert chunks[0]["choices"][0]["delta"]["content"] == "lesson 1"
        assert chunks[-1] == "[DONE]"
        status, _, raw = _http(server.api_base + "/responses")
        assert status == 404 and "error" in json.loads(raw)


def test_exec_command_reply_shape() -> None:
    (item,) = exec_command_reply("ls", workdir="/w").output
    assert item["type"] == "function_call" and item["name"] == "exec_command"
    assert json.loads(item["arguments"]) == {"cmd": "ls", "workdir": "/w"}
    assert output_text_reply("x").output[0]["content"][0] == {
        "type": "output_text",
        "text": "x",
        "annotations": [],
    }


# ------------------------------------------------------------ real CLIs (npm)
def _project_with_skill(root: Path, skill: str) -> Path:
    proj = root / "proj"
    skill_dir = proj / ".claude" / "skills" / skill
    skill_dir.mkdir(parents=True)
    (skill_dir / "SKILL.md").write_text(
        f"---\nname: {skill}\ndescription: Demo skill\n---\n\nSKILL-BODY-MARKER for {skill}\n"
    )
    return proj


@pytest.mark.e2e
def test_claude_cli_pretooluse_context_reaches_next_request(tmp_path: Path) -> None:
    claude = require_claude()
    proj = _project_with_skill(tmp_path, "demo")
    recorder = HookRecorder(tmp_path / "hooks", contexts={"PreToolUse": "MARKER-123"})
    settings = hooks_config(recorder, ["PreToolUse", "Stop"], matcher="Skill")
    with FakeMessagesServer(claude_skill_script("demo", final_text="FINAL-OK")) as server:
        run = run_claude(
            tmp_path,
            "run demo",
            base_url=server.base_url,
            cwd=proj,
            settings=settings,
            claude_bin=claude,
        )
        run.check()
        bodies = server.bodies()
    assert server.responder_errors == []
    assert run.result is not None and run.result["result"] == "FINAL-OK"
    before = [b for b in bodies if "Skill" not in tool_use_names(b)]
    after = [b for b in bodies if "Skill" in tool_use_names(b)]
    assert before and after
    assert not any("MARKER-123" in json.dumps(b) for b in before)
    assert "MARKER-123" in json.dumps(after[0]["messages"])  # the very next request
    pre = [r for r in recorder.records() if r["event"] == "PreToolUse"]
    assert pre and pre[0]["stdin"]["tool_name"] == "Skill"
    assert pre[0]["stdin"]["tool_input"] == {"skill": "demo"}
    assert run.transcript_path is not None and run.transcript_path.exists()


@pytest.mark.e2e
def test_codex_cli_hook_context_reaches_next_request(tmp_path: Path) -> None:
    codex = require_codex()
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "notes.txt").write_text("CODEX-NOTES hello\n")
    codex_home = tmp_path / "home" / ".codex"
    codex_home.mkdir(parents=True)
    recorder = HookRecorder(
        tmp_path / "hooks", contexts={"PreToolUse": "MARKER-PRE", "PostToolUse": "MARKER-POST"}
    )
    hooks = hooks_config(recorder, ["PreToolUse", "PostToolUse"], matcher="Bash")
    (codex_home / "hooks.json").write_text(json.dumps(hooks))
    with FakeOpenAIServer(codex_steps_script(["cat notes.txt"], "FINAL-OK")) as server:
        run = run_codex(
            tmp_path,
            "show notes",
            base_url=server.api_base,
            codex_home=codex_home,
            cwd=proj,
            bypass_hook_trust=True,
            codex_bin=codex,
        )
        run.check()
        bodies = [r.body for r in server.responses_requests()]
    assert run.final_message == "FINAL-OK"
    assert [len(function_calls(b)) for b in bodies] == [0, 1]
    assert "MARKER-PRE" not in json.dumps(bodies[0])
    assert "MARKER-PRE" in json.dumps(bodies[1]["input"])
    assert "MARKER-POST" in json.dumps(bodies[1]["input"])
    post = next(r["stdin"] for r in recorder.records() if r["event"] == "PostToolUse")
    assert post["tool_name"] == "Bash" and post["tool_input"] == {"command": "cat notes.txt"}
    assert "CODEX-NOTES hello" in post["tool_response"]
    assert run.rollout_path is not None and run.rollout_path.name.endswith(f"{run.thread_id}.jsonl")


@pytest.mark.e2e
def test_codex_hooks_need_trust_persisted_in_config_toml(tmp_path: Path) -> None:
    codex = require_codex()
    proj = tmp_path / "proj"
    proj.mkdir()
    codex_home = tmp_path / "home" / ".codex"
    codex_home.mkdir(parents=True)
    recorder = HookRecorder(tmp_path / "hooks")
    (codex_home / "hooks.json").write_text(json.dumps(hooks_config(recorder, ["Stop"])))
    with FakeOpenAIServer(codex_steps_script([], "hi")) as server:

        def run(prompt: str) -> None:
            run_codex(
                tmp_path,
                prompt,
                base_url=server.api_base,
                codex_home=codex_home,
                cwd=proj,
                codex_bin=codex,
            ).check()

        run("hello")
        assert recorder.events() == []  # untrusted hooks silently do not run
        trusted = trust_codex_hooks(codex_home, proj, codex_bin=codex)
        assert [h["key"] for h in trusted] == [f"{codex_home.resolve()}/hooks.json:stop:0:0"]
        config = (codex_home / "config.toml").read_text()
        assert f'trusted_hash = "{trusted[0]["currentHash"]}"' in config
        inventory = codex_hook_inventory(codex_home, proj, codex_bin=codex)
        assert [h["trustStatus"] for h in inventory] == ["trusted"]
        run("hello again")
    assert recorder.events() == ["Stop"]
