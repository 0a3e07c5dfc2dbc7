"""The LLM backends of `models.llm`, offline: the real anthropic SDK and urllib against the
127.0.0.1 fakes, a stub `claude` script, and (marked e2e) the real `claude` CLI."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.models.errors import (
    BackendBadReply,
    BackendConnectionError,
    BackendError,
    BackendHTTPError,
    BackendRateLimited,
    BackendTimeout,
    BackendUnavailable,
)
from fireworks_skill_memory.models.llm import (
    AnthropicBackend,
    ClaudeCliBackend,
    NullBackend,
    OpenAIBackend,
    RetryPolicy,
    StructuredReply,
    StructuredRequest,
    make_backend,
)
from fireworks_skill_memory.models.llm.claude_cli import CliOutcome
from fireworks_skill_memory.models.llm.claude_env import CHILD_MARKER, child_env
from fireworks_skill_memory.models.llm.jsontext import extract_json_object
from fireworks_skill_memory.models.llm.openai_backend import proxies_for
from fireworks_skill_memory.models.llm.retry import parse_retry_after
from fireworks_skill_memory.models.llm.schema import empty_instance, validate_object
from tests.e2e_support import require_claude
from tests.fakes.messages_server import (
    DropConnection,
    FakeMessagesServer,
    MalformedReply,
    delayed,
    error_reply,
    offered_tool_names,
    overloaded_reply,
    rate_limit_reply,
    sequence_script,
    server_error_reply,
    text_reply,
    tool_use_reply,
)
from tests.fakes.responses_server import (
    FakeOpenAIServer,
    chat_text_reply,
    openai_error_reply,
)
from tests.fakes.responses_server import MalformedReply as OpenAIMalformed
from tests.fakes.responses_server import sequence_script as chat_script

REPO = Path(__file__).resolve().parents[2]
SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        "skills": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "skill": {"type": "string"},
                    "lessons": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["skill", "lessons"],
            },
        },
        "principles": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["skills", "principles"],
}
ANSWER = {
    "skills": [{"skill": "docker", "lessons": ["Pin base images by digest."]}],
    "principles": ["Read the error before retrying."],
}
REQUEST = StructuredRequest(
    system="You distil lessons from coding sessions.",
    user="SESSION-MATERIAL: docker build failed twice.",
    schema=SCHEMA,
    schema_name="record_lessons",
    model="claude-haiku-4-5",
    max_tokens=1500,
)


class Recorder:
    """Collects log lines and sleeps (without sleeping)."""

    def __init__(self) -> None:
        self.logs: list[str] = []
        self.sleeps: list[float] = []

    def policy(self, max_attempts: int = 3) -> RetryPolicy:
        return RetryPolicy(max_attempts=max_attempts, sleep=self.sleeps.append, rand=lambda: 0.0)


def anthropic_backend(
    server: FakeMessagesServer, recorder: Recorder, *, timeout: float = 5.0, attempts: int = 3
) -> AnthropicBackend:
    env = {"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": server.base_url}
    return AnthropicBackend.from_env(
        env,
        model="claude-haiku-4-5",
        timeout=timeout,
        retry=recorder.policy(attempts),
        logger=recorder.logs.append,
    )


def answer_reply(**options: Any) -> Any:
    return tool_use_reply("record_lessons", ANSWER, **options)


# ---------------------------------------------------------------- anthropic
def test_anthropic_tool_use_reply_parses_with_usage() -> None:
    recorder = Recorder()
    usage = {"input_tokens": 40, "cache_read_input_tokens": 900, "output_tokens": 55}
    with FakeMessagesServer(sequence_script(answer_reply(usage=usage))) as server:
        reply = anthropic_backend(server, recorder).complete(REQUEST)
        request = server.message_requests()[0]
    assert reply == StructuredReply(
        data=ANSWER,
        input_tokens=940,
        output_tokens=55,
        model="claude-haiku-4-5",
        backend="anthropic",
        cache_read_tokens=900,
    )
    assert request.header("authorization") == "Bearer sk-ant-test"
    assert recorder.logs == []


def test_anthropic_request_body_forces_the_tool_and_caches_the_system_prompt() -> None:
    with FakeMessagesServer(sequence_script(answer_reply())) as server:
        anthropic_backend(server, Recorder()).complete(REQUEST)
        body = server.bodies()[0]
    assert body["model"] == "claude-haiku-4-5"
    assert body["max_tokens"] == 1500
    assert body["tools"][0]["name"] == "record_lessons"
    assert body["tools"][0]["input_schema"] == SCHEMA
    assert body["tool_choice"] == {"type": "tool", "name": "record_lessons"}
    assert body["system"] == [
        {"type": "text", "text": REQUEST.system, "cache_control": {"type": "ephemeral"}}
    ]
    assert body["messages"] == [{"role": "user", "content": REQUEST.user}]
    assert "stream" not in body


def test_anthropic_429_with_retry_after_then_success_is_logged() -> None:
    recorder = Recorder()
    script = sequence_script(rate_limit_reply(retry_after=0.25), answer_reply())
    with FakeMessagesServer(script) as server:
        reply = anthropic_backend(server, recorder).complete(REQUEST)
        assert len(server.message_requests()) == 2
    assert reply.data == ANSWER
    assert recorder.sleeps == [0.25]
    assert len(recorder.logs) == 1
    assert "attempt 1/3" in recorder.logs[0] and "429" in recorder.logs[0]


def test_anthropic_529_every_time_is_rate_limited_after_max_attempts() -> None:
    recorder = Recorder()
    with FakeMessagesServer(sequence_script(overloaded_reply())) as server:
        with pytest.raises(BackendRateLimited) as caught:
            anthropic_backend(server, recorder, attempts=2).complete(REQUEST)
        assert len(server.message_requests()) == 2
    assert caught.value.status == 529
    assert "after 2 attempts" in str(caught.value)


def test_anthropic_500_every_time_is_http_error_after_max_attempts() -> None:
    recorder = Recorder()
    with FakeMessagesServer(sequence_script(server_error_reply(500))) as server:
        with pytest.raises(BackendHTTPError) as caught:
            anthropic_backend(server, recorder).complete(REQUEST)
        assert len(server.message_requests()) == 3
    assert type(caught.value) is BackendHTTPError
    assert caught.value.status == 500
    assert len(recorder.logs) == 2
    # exponential backoff without jitter (rand=0): 0.5 s, then 1 s
    assert recorder.sleeps == [0.5, 1.0]


def test_anthropic_400_is_not_retried() -> None:
    with FakeMessagesServer(sequence_script(error_reply(400, "bad schema"))) as server:
        with pytest.raises(BackendHTTPError) as caught:
            anthropic_backend(server, Recorder()).complete(REQUEST)
        assert len(server.message_requests()) == 1
    assert caught.value.status == 400 and "bad schema" in str(caught.value)


def test_anthropic_rejected_key_is_unavailable() -> None:
    with FakeMessagesServer(sequence_script(error_reply(401))) as server:
        with pytest.raises(BackendUnavailable, match="ANTHROPIC_API_KEY"):
            anthropic_backend(server, Recorder()).complete(REQUEST)
        assert len(server.message_requests()) == 1


def test_anthropic_delay_beyond_timeout_is_timeout() -> None:
    recorder = Recorder()
    slow = delayed(answer_reply(), 3.0)
    with FakeMessagesServer(sequence_script(slow)) as server:
        started = time.monotonic()
        with pytest.raises(BackendTimeout):
            anthropic_backend(server, recorder, timeout=0.3, attempts=2).complete(REQUEST)
        assert time.monotonic() - started < 2.5
        assert len(server.message_requests()) == 2


def test_anthropic_timeout_then_success_recovers() -> None:
    recorder = Recorder()
    script = sequence_script(delayed(answer_reply(), 3.0), answer_reply())
    with FakeMessagesServer(script) as server:
        reply = anthropic_backend(server, recorder, timeout=0.3).complete(REQUEST)
    assert reply.data == ANSWER
    assert "no answer within 0.3s" in recorder.logs[0]


def test_anthropic_dropped_connection_is_connection_error() -> None:
    with FakeMessagesServer(sequence_script(DropConnection())) as server:
        with pytest.raises(BackendConnectionError):
            anthropic_backend(server, Recorder(), attempts=2).complete(REQUEST)
        assert len(server.message_requests()) == 2


def test_anthropic_malformed_json_body_is_bad_reply() -> None:
    with FakeMessagesServer(sequence_script(MalformedReply())) as server:
        with pytest.raises(BackendBadReply):
            anthropic_backend(server, Recorder()).complete(REQUEST)
        assert len(server.message_requests()) == 1


def test_anthropic_non_json_content_type_is_bad_reply() -> None:
    page = MalformedReply(body=b"<html>proxy error</html>", content_type="text/html")
    with (
        FakeMessagesServer(sequence_script(page)) as server,
        pytest.raises(BackendBadReply, match="proxy error"),
    ):
        anthropic_backend(server, Recorder()).complete(REQUEST)


def test_anthropic_reply_without_tool_use_is_bad_reply() -> None:
    with (
        FakeMessagesServer(sequence_script(text_reply("Nothing to record."))) as server,
        pytest.raises(BackendBadReply, match="no 'record_lessons' tool call"),
    ):
        anthropic_backend(server, Recorder()).complete(REQUEST)


def test_anthropic_tool_input_not_matching_schema_is_bad_reply() -> None:
    wrong = tool_use_reply("record_lessons", {"skills": "docker", "principles": []})
    with (
        FakeMessagesServer(sequence_script(wrong)) as server,
        pytest.raises(BackendBadReply, match=r"\$\.skills is string, expected array"),
    ):
        anthropic_backend(server, Recorder()).complete(REQUEST)


def test_anthropic_missing_key_is_unavailable_without_a_request() -> None:
    with FakeMessagesServer(sequence_script(answer_reply())) as server:
        backend = make_backend("anthropic", model="m", env={"ANTHROPIC_BASE_URL": server.base_url})
        with pytest.raises(BackendUnavailable, match="ANTHROPIC_API_KEY"):
            backend.complete(REQUEST)
        assert server.requests == []


def test_anthropic_build_request_is_pure_and_uses_the_default_model() -> None:
    backend = AnthropicBackend(api_key="k", model="claude-default")
    built = backend.build_request(StructuredRequest("S", "U", SCHEMA, "record_lessons"))
    assert built == backend.build_request(StructuredRequest("S", "U", SCHEMA, "record_lessons"))
    assert built["model"] == "claude-default"
    assert built["max_tokens"] == 2000
    assert built["tool_choice"] == {"type": "tool", "name": "record_lessons"}
    json.dumps(built)  # plain data only


def test_anthropic_parse_response_pure() -> None:
    backend = AnthropicBackend(api_key="k", model="m")
    raw = {
        "model": "claude-haiku-4-5-20251001",
        "stop_reason": "tool_use",
        "content": [
            {"type": "text", "text": "Here you go."},
            {"type": "tool_use", "id": "t1", "name": "other", "input": {}},
            {"type": "tool_use", "id": "t2", "name": "record_lessons", "input": ANSWER},
        ],
        "usage": {"input_tokens": 10, "cache_creation_input_tokens": 5, "output_tokens": 7},
    }
    reply = backend.parse_response(raw, REQUEST)
    assert reply.data == ANSWER
    assert (reply.input_tokens, reply.output_tokens) == (15, 7)
    assert reply.model == "claude-haiku-4-5-20251001"
    empty = {**raw, "content": [{"type": "tool_use", "name": "record_lessons", "input": {}}]}
    with pytest.raises(BackendBadReply, match=r"\$\.skills is missing"):
        backend.parse_response(empty, REQUEST)
    truncated = {**raw, "content": [], "stop_reason": "max_tokens"}
    with pytest.raises(BackendBadReply, match="max_tokens"):
        backend.parse_response(truncated, REQUEST)
    with pytest.raises(BackendBadReply):
        backend.parse_response("<html>", REQUEST)


def test_empty_lists_are_a_valid_reply_not_an_error() -> None:
    nothing = tool_use_reply("record_lessons", {"skills": [], "principles": []})
    with FakeMessagesServer(sequence_script(nothing)) as server:
        reply = anthropic_backend(server, Recorder()).complete(REQUEST)
    assert reply.data == {"skills": [], "principles": []}


# ------------------------------------------------------------------- openai
def openai_backend(
    server: FakeOpenAIServer, recorder: Recorder, *, timeout: float = 5.0
) -> OpenAIBackend:
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": server.api_base, "OPENAI_MODEL": "gpt-x"}
    return OpenAIBackend.from_env(
        env, model="unused", timeout=timeout, retry=recorder.policy(), logger=recorder.logs.append
    )


def test_openai_success_and_request_body() -> None:
    script = chat_script(chat_text_reply(json.dumps(ANSWER), usage={"prompt_tokens": 70}))
    with FakeOpenAIServer(chat_responder=script) as server:
        reply = openai_backend(server, Recorder()).complete(REQUEST)
        request = server.chat_requests()[0]
    assert reply.data == ANSWER
    assert (reply.input_tokens, reply.output_tokens) == (70, 20)
    assert reply.backend == "openai" and reply.model == "gpt-x"
    assert request.header("authorization") == "Bearer sk-test"
    body = request.body
    assert body["model"] == "gpt-x"
    assert body["messages"] == [
        {"role": "system", "content": REQUEST.system},
        {"role": "user", "content": REQUEST.user},
    ]
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "record_lessons", "schema": SCHEMA, "strict": False},
    }


def test_openai_429_then_success() -> None:
    recorder = Recorder()
    limited = openai_error_reply(429, headers={"retry-after": "0.2"})
    script = chat_script(limited, chat_text_reply(json.dumps(ANSWER)))
    with FakeOpenAIServer(chat_responder=script) as server:
        reply = openai_backend(server, recorder).complete(REQUEST)
        assert len(server.chat_requests()) == 2
    assert reply.data == ANSWER
    assert recorder.sleeps == [0.2]
    assert "429" in recorder.logs[0]


def test_openai_500_every_time_and_429_every_time() -> None:
    with FakeOpenAIServer(chat_responder=chat_script(openai_error_reply(500))) as server:
        with pytest.raises(BackendHTTPError) as caught:
            openai_backend(server, Recorder()).complete(REQUEST)
        assert caught.value.status == 500 and len(server.chat_requests()) == 3
    with (
        FakeOpenAIServer(chat_responder=chat_script(openai_error_reply(429))) as server,
        pytest.raises(BackendRateLimited),
    ):
        openai_backend(server, Recorder()).complete(REQUEST)


def test_openai_fenced_content_is_parsed() -> None:
    fenced = f"Sure:\n```json\n{json.dumps(ANSWER)}\n```\n"
    with FakeOpenAIServer(chat_responder=chat_script(chat_text_reply(fenced))) as server:
        assert openai_backend(server, Recorder()).complete(REQUEST).data == ANSWER


def test_openai_malformed_content_and_body_are_bad_replies() -> None:
    prose = chat_text_reply("I could not find any lessons.")
    with FakeOpenAIServer(chat_responder=chat_script(prose)) as server:
        with pytest.raises(BackendBadReply, match="no JSON object"):
            openai_backend(server, Recorder()).complete(REQUEST)
        assert len(server.chat_requests()) == 1
    with (
        FakeOpenAIServer(chat_responder=chat_script(OpenAIMalformed())) as server,
        pytest.raises(BackendBadReply, match="not JSON"),
    ):
        openai_backend(server, Recorder()).complete(REQUEST)


def test_openai_timeout() -> None:
    slow = chat_script(chat_text_reply(json.dumps(ANSWER), delay=3.0))
    with FakeOpenAIServer(chat_responder=slow) as server:
        backend = openai_backend(server, Recorder(), timeout=0.3)
        with pytest.raises(BackendTimeout):
            backend.complete(REQUEST)


def test_openai_missing_key_is_unavailable_only_for_the_openai_host() -> None:
    backend = make_backend("openai", model="gpt-x", env={})
    with pytest.raises(BackendUnavailable, match="OPENAI_API_KEY"):
        backend.complete(REQUEST)
    script = chat_script(chat_text_reply(json.dumps(ANSWER)))
    with FakeOpenAIServer(chat_responder=script) as server:
        local = make_backend("openai", model="llama", env={"OPENAI_BASE_URL": server.api_base})
        assert local.complete(REQUEST).data == ANSWER
        request = server.chat_requests()[0]
    assert request.header("authorization") is None
    assert request.body["model"] == "llama"


def test_openai_model_choice() -> None:
    def model(name: str, env: dict[str, str]) -> str:
        return OpenAIBackend.from_env(env, model=name).model

    assert model("claude-haiku-4-5", {}) == "gpt-5.4"
    assert model("qwen3", {}) == "qwen3"
    assert model("claude-haiku-4-5", {"OPENAI_MODEL": "gpt-4.1-mini"}) == "gpt-4.1-mini"


def test_openai_parse_response_pure() -> None:
    backend = OpenAIBackend(api_key="k", model="gpt-x")
    refusal = {"choices": [{"message": {"role": "assistant", "content": None, "refusal": "no"}}]}
    with pytest.raises(BackendBadReply, match="refused"):
        backend.parse_response(refusal, REQUEST)
    with pytest.raises(BackendBadReply, match="no message"):
        backend.parse_response({"choices": []}, REQUEST)
    cached = {
        "choices": [{"message": {"content": json.dumps(ANSWER)}}],
        "usage": {"prompt_tokens": 9, "prompt_tokens_details": {"cached_tokens": 4}},
    }
    assert backend.parse_response(cached, REQUEST).cache_read_tokens == 4


def test_openai_proxies_come_from_env_and_skip_loopback() -> None:
    env = {"HTTPS_PROXY": "http://proxy:3128", "NO_PROXY": "internal.example"}
    assert proxies_for("https://api.openai.com/v1", env) == {"https": "http://proxy:3128"}
    assert proxies_for("http://127.0.0.1:9/v1", env) == {}
    assert proxies_for("https://llm.internal.example/v1", env) == {}


# --------------------------------------------------------------------- null
def test_null_backend_returns_the_empty_shape_without_a_call() -> None:
    reply = make_backend("null", model="none", env={}).complete(REQUEST)
    assert reply == StructuredReply(
        data={"skills": [], "principles": []},
        input_tokens=0,
        output_tokens=0,
        model="claude-haiku-4-5",
        backend="null",
    )
    assert NullBackend().build_request(REQUEST) == {"skills": [], "principles": []}


# --------------------------------------------------------- schema and text
def test_schema_validation_and_empty_instance() -> None:
    schema: dict[str, object] = {
        "type": "object",
        "properties": {
            "n": {"type": "integer"},
            "kind": {"enum": ["a", "b"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "extra": {"type": ["string", "null"]},
        },
        "required": ["n", "kind", "tags"],
    }
    assert validate_object({"n": 1, "kind": "a", "tags": ["x"], "extra": None}, schema)
    for bad, where in [
        ({"n": True, "kind": "a", "tags": []}, r"\$\.n is boolean"),
        ({"n": 1, "kind": "c", "tags": []}, r"\$\.kind is 'c'"),
        ({"n": 1, "kind": "a", "tags": [3]}, r"\$\.tags\[0\] is integer"),
        ({"n": 1, "kind": "a"}, r"\$\.tags is missing"),
    ]:
        with pytest.raises(BackendBadReply, match=where):
            validate_object(bad, schema)
    with pytest.raises(BackendBadReply, match="is array, expected a JSON object"):
        validate_object([], schema)
    assert empty_instance(schema) == {"n": 0, "kind": "a", "tags": []}


def test_extract_json_object_tolerates_fences_and_prose() -> None:
    assert extract_json_object('{"a": 1}') == {"a": 1}
    assert extract_json_object('```json\n{"a": 1}\n```') == {"a": 1}
    assert extract_json_object('Here: {"a": {"b": [1]}} done {"c": 2}') == {"a": {"b": [1]}}
    with pytest.raises(BackendBadReply):
        extract_json_object("[1, 2] and nothing else {")


def test_retry_policy_caps_retry_after_and_jitters_backoff() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=4.0, max_retry_after=30.0, rand=lambda: 1.0)
    assert policy.delay(1, 120.0) == 30.0
    assert policy.delay(1, 2.5) == 2.5
    assert [policy.delay(n, None) for n in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 2.0]
    assert parse_retry_after({"Retry-After": "7"}) == 7.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({"retry-after": "Thu, 01 Jan 1970 00:00:00 GMT"}) == 0.0
    assert parse_retry_after({}) is None


# --------------------------------------------------------------- factory
def test_make_backend_names_and_env() -> None:
    env = {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": "http://127.0.0.1:1"}
    anthropic = make_backend("anthropic", model="m", env=env, timeout=7, max_attempts=5)
    assert isinstance(anthropic, AnthropicBackend)
    assert (anthropic.base_url, anthropic.timeout, anthropic.retry.max_attempts) == (
        "http://127.0.0.1:1",
        7,
        5,
    )
    assert isinstance(make_backend("claude-cli", model="m", env={}), ClaudeCliBackend)
    assert isinstance(make_backend("openai", model="m", env={}), OpenAIBackend)
    assert isinstance(make_backend("null", model="m", env={}), NullBackend)
    with pytest.raises(BackendUnavailable, match="unknown LLM backend"):
        make_backend("auto", model="m", env={})


def test_importing_the_backends_does_not_import_anthropic() -> None:
    probe = (
        "import sys, fireworks_skill_memory.models.llm; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('anthropic', 'httpx2')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert out.stdout.strip() == "[]"


# --------------------------------------------------------- claude-cli (stub)
STUB = """#!{python}
import json, os, sys, time
argv = sys.argv[1:]
model = argv[argv.index("--model") + 1]
stdin = sys.stdin.read()
with open({log!r}, "a", encoding="utf-8") as log:
    log.write(json.dumps({{"argv": argv, "stdin": stdin, "env": dict(os.environ),
                          "cwd": os.getcwd()}}) + "\\n")
with open({scenario!r}, encoding="utf-8") as handle:
    steps = json.load(handle)
step = steps.get(model, steps.get("*"))
time.sleep(step.get("sleep", 0))
sys.stdout.write(step.get("stdout", ""))
sys.stderr.write(step.get("stderr", ""))
sys.exit(step.get("rc", 0))
"""


def cli_result(**fields: Any) -> str:
    """A `claude -p --output-format json` result line like 2.1.x prints."""
    result: dict[str, Any] = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "api_error_status": None,
        "result": "",
        "usage": {
            "input_tokens": 100,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 20,
            "output_tokens": 30,
        },
        "modelUsage": {"claude-haiku-4-5": {"inputTokens": 100}},
    }
    result.update(fields)
    return json.dumps(result)


class StubClaude:
    """A fake `claude` on a private PATH that answers per model and logs each call."""

    def __init__(self, tmp_path: Path) -> None:
        self.bin = tmp_path / "bin"
        self.bin.mkdir()
        self.home = tmp_path / "home"
        self.home.mkdir()
        self.scenario = tmp_path / "scenario.json"
        self.log = tmp_path / "calls.jsonl"
        script = self.bin / "claude"
        script.write_text(
            STUB.format(python=sys.executable, log=str(self.log), scenario=str(self.scenario))
        )
        script.chmod(0o755)
        self.env = {
            "PATH": f"{self.bin}:/usr/bin:/bin",
            "HOME": str(self.home),
            "ANTHROPIC_API_KEY": "sk-ant-stub",
            "OPENAI_API_KEY": "sk-must-not-leak",
            "SKILL_MEMORY_HOME": "/must/not/leak",
            "CLAUDECODE": "1",
            "CLAUDE_CODE_ENTRYPOINT": "cli",
        }

    def answer(self, steps: dict[str, dict[str, Any]]) -> None:
        """`steps` maps a model name (or "*") to stdout/stderr/rc/sleep."""
        self.scenario.write_text(json.dumps(steps))

    def calls(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def backend(self, recorder: Recorder | None = None, timeout: float = 20.0) -> ClaudeCliBackend:
        log: Callable[[str], None] | None = recorder.logs.append if recorder else None
        backend = make_backend("claude-cli", model="", env=self.env, timeout=timeout, logger=log)
        assert isinstance(backend, ClaudeCliBackend)
        return backend


@pytest.fixture
def stub(tmp_path: Path) -> StubClaude:
    return StubClaude(tmp_path)


def test_claude_cli_structured_output(stub: StubClaude) -> None:
    stub.answer({"*": {"stdout": cli_result(structured_output=ANSWER, result="{}")}})
    reply = stub.backend().complete(REQUEST)
    assert reply == StructuredReply(
        data=ANSWER,
        input_tokens=120,
        output_tokens=30,
        model="claude-haiku-4-5",
        backend="claude-cli",
        cache_read_tokens=20,
    )
    [call] = stub.calls()
    argv = call["argv"]
    assert argv[:3] == ["-p", "--output-format", "json"]
    assert argv[argv.index("--model") + 1] == "claude-haiku-4-5"
    assert argv[argv.index("--system-prompt") + 1] == REQUEST.system
    assert json.loads(argv[argv.index("--json-schema") + 1]) == SCHEMA
    assert argv[argv.index("--tools") + 1] == ""
    assert json.loads(argv[argv.index("--settings") + 1]) == {"disableAllHooks": True}
    assert "--no-session-persistence" in argv and "--strict-mcp-config" in argv
    assert REQUEST.user in call["stdin"] and '"principles"' in call["stdin"]
    assert REQUEST.user not in " ".join(argv)
    env = call["env"]
    assert env["ANTHROPIC_API_KEY"] == "sk-ant-stub"
    assert env["HOME"] == str(stub.home)
    for leaked in ("OPENAI_API_KEY", "SKILL_MEMORY_HOME", "CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"):
        assert leaked not in env
    assert env["CLAUDE_CODE_MAX_RETRIES"] == "2"
    assert env["CLAUDE_CODE_MAX_OUTPUT_TOKENS"] == "1500"
    assert env[CHILD_MARKER] == "1"
    assert Path(call["cwd"]) != stub.home


def test_claude_cli_result_text_with_code_fence(stub: StubClaude) -> None:
    fenced = f"Here are the lessons:\n```json\n{json.dumps(ANSWER)}\n```"
    stub.answer({"*": {"stdout": cli_result(result=fenced)}})
    assert stub.backend().complete(REQUEST).data == ANSWER


def test_claude_cli_falls_back_through_the_model_chain(stub: StubClaude) -> None:
    recorder = Recorder()
    missing = cli_result(is_error=True, api_error_status=404, result="There's an issue with ...")
    stub.answer(
        {
            "claude-future-9": {"stdout": missing, "rc": 1},
            "claude-haiku-4-5": {"stdout": "garbage", "rc": 0},
            "haiku": {"stdout": cli_result(structured_output=ANSWER)},
        }
    )
    request = StructuredRequest(
        REQUEST.system, REQUEST.user, SCHEMA, "record_lessons", "claude-future-9"
    )
    reply = stub.backend(recorder).complete(request)
    assert reply.data == ANSWER
    models = [c["argv"][c["argv"].index("--model") + 1] for c in stub.calls()]
    assert models == ["claude-future-9", "claude-haiku-4-5", "haiku"]
    assert len(recorder.logs) == 2 and "HTTP 404" in recorder.logs[0]


def test_claude_cli_all_models_fail_with_a_typed_error(stub: StubClaude) -> None:
    overloaded = cli_result(is_error=True, api_error_status=529, result="API Error: 529")
    stub.answer({"*": {"stdout": overloaded, "rc": 1}})
    with pytest.raises(BackendRateLimited) as caught:
        stub.backend().complete(REQUEST)
    assert caught.value.status == 529
    assert "every model failed" in str(caught.value) and "haiku:" in str(caught.value)
    assert len(stub.calls()) == 2  # claude-haiku-4-5, haiku (the requested one is the first)


def test_claude_cli_not_logged_in_stops_at_once(stub: StubClaude) -> None:
    login = cli_result(is_error=True, result="Not logged in · Please run /login")
    stub.answer({"*": {"stdout": login, "rc": 1}})
    with pytest.raises(BackendUnavailable, match="Not logged in"):
        stub.backend().complete(REQUEST)
    assert len(stub.calls()) == 1


def test_claude_cli_timeout_kills_and_stops(stub: StubClaude) -> None:
    stub.answer({"*": {"sleep": 30, "stdout": cli_result(structured_output=ANSWER)}})
    started = time.monotonic()
    with pytest.raises(BackendTimeout):
        stub.backend(timeout=1.0).complete(REQUEST)
    assert time.monotonic() - started < 10
    assert len(stub.calls()) == 1


def test_claude_cli_missing_executable_is_unavailable(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    backend = make_backend("claude-cli", model="m", env=env)
    with pytest.raises(BackendUnavailable, match="not on PATH"):
        backend.complete(REQUEST)


def test_claude_cli_old_version_is_unavailable(stub: StubClaude) -> None:
    stub.answer({"*": {"stderr": "error: unknown option '--json-schema'\n", "rc": 1}})
    with pytest.raises(BackendUnavailable, match="too old"):
        stub.backend().complete(REQUEST)


def test_claude_cli_parse_response_pure() -> None:
    backend = ClaudeCliBackend(env={}, model="m")
    ok = CliOutcome(0, "warming up\n" + cli_result(structured_output=ANSWER) + "\n", "")
    assert backend.parse_response(ok, REQUEST).data == ANSWER
    with pytest.raises(BackendBadReply, match="no JSON result"):
        backend.parse_response(CliOutcome(0, "hello", ""), REQUEST)
    with pytest.raises(BackendError, match="exited 2"):
        backend.parse_response(CliOutcome(2, "", "segfault"), REQUEST)
    timed_out = cli_result(is_error=True, result="Request timed out")
    with pytest.raises(BackendTimeout):
        backend.parse_response(CliOutcome(1, timed_out, ""), REQUEST)
    with pytest.raises(BackendUnavailable):
        backend.parse_response(
            CliOutcome(1, cli_result(is_error=True, api_error_status=401), ""), REQUEST
        )
    built = backend.build_request(REQUEST)
    assert [b.model for b in built] == ["claude-haiku-4-5", "haiku"]
    assert built == backend.build_request(REQUEST)


def test_child_env_is_minimal() -> None:
    env = child_env(
        {"PATH": "/bin", "AWS_REGION": "x", "GITHUB_TOKEN": "t", "ANTHROPIC_BASE_URL": "u"},
        timeout=12.5,
        max_attempts=1,
        max_tokens=99,
    )
    assert "GITHUB_TOKEN" not in env
    assert env["AWS_REGION"] == "x" and env["ANTHROPIC_BASE_URL"] == "u"
    assert env["API_TIMEOUT_MS"] == "12500" and env["CLAUDE_CODE_MAX_RETRIES"] == "0"


# ---------------------------------------------------------- claude-cli (real)
@pytest.mark.e2e
def test_claude_cli_backend_with_the_real_cli_offline(tmp_path: Path) -> None:
    claude = require_claude()
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    hook_fired = tmp_path / "hook-fired"
    hooks = {"Stop": [{"hooks": [{"type": "command", "command": f"touch {hook_fired}"}]}]}
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    cctmp = tmp_path / "cctmp"
    cctmp.mkdir()

    def responder(body: dict[str, Any], index: int) -> Any:
        if body.get("model") == "claude-retired-1":
            return error_reply(404, "model: claude-retired-1", error_type="not_found_error")
        if "StructuredOutput" in offered_tool_names(body):
            return tool_use_reply("StructuredOutput", ANSWER)
        return text_reply("OK")

    with FakeMessagesServer(responder) as server:
        env = {
            "PATH": f"{claude.parent}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(home),
            "TMPDIR": str(cctmp),
            "CLAUDE_CODE_TMPDIR": str(cctmp),
            "ANTHROPIC_BASE_URL": server.base_url,
            "ANTHROPIC_API_KEY": "sk-ant-e2e-fake-key",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "DISABLE_AUTOUPDATER": "1",
            "LANG": "C.UTF-8",
        }
        backend = make_backend("claude-cli", model="claude-haiku-4-5", env=env, timeout=90)
        reply = backend.complete(dataclasses.replace(REQUEST, model="claude-retired-1"))
        bodies = [b for b in server.bodies() if b.get("model") == "claude-haiku-4-5"]
        retired = [b for b in server.bodies() if b.get("model") == "claude-retired-1"]

    assert reply.data == ANSWER
    assert reply.backend == "claude-cli" and reply.model == "claude-haiku-4-5"
    assert reply.input_tokens >= 100 and reply.output_tokens > 0
    assert retired, "the requested model was tried first"
    body = bodies[0]
    assert offered_tool_names(body) == ["StructuredOutput"]
    assert body["tools"][0]["input_schema"] == SCHEMA
    assert REQUEST.system in json.dumps(body["system"])
    assert REQUEST.user in json.dumps(body["messages"])
    assert body["max_tokens"] == REQUEST.max_tokens
    assert "thinking" not in body
    assert not hook_fired.exists(), "the user's hooks must not run for the distiller"
    assert not (home / ".claude" / "projects").exists(), "no session transcript saved"
