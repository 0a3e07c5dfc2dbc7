"""End to end, on the real model: a session where `pytest` fails with an import error and the
same command passes after the fix gives a `verified` lesson; one where the fix was never
confirmed gives an `unverified guess`. The distiller is the fake Messages server; the
sessions are the recorded Claude transcript with its failing and fixing calls rewritten to
the pytest ones (the lines' format stays the CLI's own)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.distill.request import SCHEMA_NAME
from fireworks_skill_memory.memory.distill.run import distill_session
from fireworks_skill_memory.models.embedders import EmbeddingModel
from fireworks_skill_memory.models.llm import AnthropicBackend, RetryPolicy
from tests.conftest import FIXTURES, CliInvoker
from tests.fakes.messages_server import FakeMessagesServer, tool_use_reply

pytestmark = [pytest.mark.real_model, pytest.mark.slow]

RECORDED = FIXTURES / "sessions" / "claude_transcript.jsonl"
SKILL = "python-imports"
FAILING = "python3 -c 'import nosuchmod'"
PYTEST = "pytest -q tests"
FIX = "printf '[pytest]\\npythonpath = src\\n' > pytest.ini"
PYTEST_ERROR = (
    "Exit code 2\n" + "=" * 36 + " ERRORS " + "=" * 36 + "\n"
    "_____________________ ERROR collecting tests/test_app.py _____________________\n"
    "ImportError while importing test module '/tmp/fsm-e2e/proj/tests/test_app.py'.\n"
    "tests/test_app.py:1: in <module>\n    from app import main\n"
    "E   ModuleNotFoundError: No module named 'app'\n"
    "1 error in 0.05s"
)
LESSON = (
    "pytest fails with ModuleNotFoundError for a src layout: set pythonpath = src in "
    "pytest.ini instead of editing sys.path."
)


def _walk_content(line: dict[str, Any]) -> list[dict[str, Any]]:
    message = line.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return (
        [block for block in content if isinstance(block, dict)] if isinstance(content, list) else []
    )


def pytest_session(path: Path, session_id: str, *, confirmed: bool) -> None:
    """The recorded session with `pytest -q tests` failing, then `FIX`; with `confirmed`,
    the same `pytest -q tests` passes after it."""
    lines = [json.loads(line) for line in RECORDED.read_text().splitlines() if line.strip()]
    failing_id = fix_id = ""
    for line in lines:
        for block in _walk_content(line):
            if block.get("type") == "tool_use" and block.get("name") == "Bash":
                if block["input"]["command"] == FAILING:
                    failing_id, block["input"]["command"] = block["id"], PYTEST
                else:
                    fix_id, block["input"]["command"] = block["id"], FIX
    assert failing_id and fix_id
    rerun: list[dict[str, Any]] = []
    for position, line in enumerate(lines):
        for block in _walk_content(line):
            if block.get("type") != "tool_result":
                continue
            if block["tool_use_id"] == failing_id:
                block["content"] = PYTEST_ERROR
                line["toolUseResult"] = "Error: " + PYTEST_ERROR
            elif block["tool_use_id"] == fix_id:
                block["content"] = "(Bash completed with no output)"
                line["toolUseResult"] = {"stdout": "", "stderr": "", "interrupted": False}
                if confirmed:
                    use = next(
                        copy.deepcopy(earlier)
                        for earlier in lines[:position]
                        if any(b.get("id") == fix_id for b in _walk_content(earlier))
                    )
                    (call,) = [b for b in _walk_content(use) if b.get("type") == "tool_use"]
                    call.update(id="toolu_rerun", input={"command": PYTEST})
                    result = copy.deepcopy(line)
                    (answer,) = _walk_content(result)
                    answer.update(tool_use_id="toolu_rerun", content="3 passed in 0.04s")
                    result["toolUseResult"] = {"stdout": "3 passed in 0.04s", "stderr": ""}
                    rerun = [position + 1, use, result]
    if rerun:
        at = rerun[0]
        lines[at:at] = rerun[1:]
    for line in lines:
        if "sessionId" in line:
            line["sessionId"] = session_id
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


@pytest.fixture
def distiller() -> Iterator[FakeMessagesServer]:
    reply = tool_use_reply(
        SCHEMA_NAME,
        {
            "lessons": [{"skill": SKILL, "tag": "pytest", "text": LESSON, "evidence": "E1"}],
            "global": [],
        },
    )
    with FakeMessagesServer(lambda body, index: reply) as server:
        yield server


def distil_and_show(
    env: dict[str, str],
    tmp_path: Path,
    server: FakeMessagesServer,
    embedder: EmbeddingModel,
    *,
    confirmed: bool,
) -> dict[str, Any]:
    name = "confirmed" if confirmed else "unconfirmed"
    home_env = {**env, "AI_MEMORY_HOME": str(tmp_path / name), "MIN_TOOL_CALLS": "2"}
    transcript = tmp_path / f"{name}.jsonl"
    pytest_session(transcript, f"session-{name}", confirmed=confirmed)
    backend = AnthropicBackend.from_env(
        {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": server.base_url},
        model="claude-haiku-4-5",
        timeout=10.0,
        retry=RetryPolicy(max_attempts=2, sleep=lambda seconds: None, rand=lambda: 0.0),
    )
    result = distill_session(
        load_settings(home_env),
        str(transcript),
        f"session-{name}",
        agent="claude",
        backend=backend,
        embedder=embedder,
    )
    assert result.status == "stored", result.reason
    assert [outcome.action for outcome in result.outcomes] == ["added"]
    shown = CliInvoker(home_env)("show", "--skill", SKILL, "--json")
    assert shown.exit_code == 0, shown.output
    (lesson,) = json.loads(shown.output)["lessons"]
    assert lesson["text"] == LESSON
    return dict(lesson["evidence"])


def test_a_fix_confirmed_by_the_same_command_is_verified(
    env: dict[str, str],
    tmp_path: Path,
    distiller: FakeMessagesServer,
    real_embedder: EmbeddingModel,
) -> None:
    evidence = distil_and_show(env, tmp_path, distiller, real_embedder, confirmed=True)
    assert evidence == {
        "kind": "verified",
        "command": PYTEST,
        "exit_status": 2,
        "error": "E ModuleNotFoundError: No module named 'app'",
        "fixed_by": PYTEST,
        "helped": 0,
    }


def test_a_fix_never_confirmed_is_an_unverified_guess(
    env: dict[str, str],
    tmp_path: Path,
    distiller: FakeMessagesServer,
    real_embedder: EmbeddingModel,
) -> None:
    evidence = distil_and_show(env, tmp_path, distiller, real_embedder, confirmed=False)
    assert evidence["kind"] == "unverified guess"
    assert evidence["command"] == PYTEST and evidence["exit_status"] == 2
    assert "fixed_by" not in evidence
