"""Failure-time injection in the PostToolUseFailure and PostToolUse hooks.

The payloads are the recorded shapes (Claude's PostToolUseFailure and Bash PostToolUse,
Codex's Bash PostToolUse with a string `tool_response`). The handlers run as the service runs
them (`cli.service_main.hook_handler`, the real `hooks.warm.WarmRanker`) over a retriever with
the fake embedder; the real model's behaviour is in the `real_model` tests at the end.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from fireworks_skill_memory.hooks import post_tool_use, post_tool_use_failure
from fireworks_skill_memory.hooks.failure_flow import called_command
from fireworks_skill_memory.hooks.state import SessionState
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval.failure import FAILURE_HEADING
from fireworks_skill_memory.memory.retrieval.retriever import Retriever
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import FakeEmbedder
from tests.hook_support import injections, run_in_service, run_main, session_payload

SKILL = "python-imports"
EXPLAINS = (
    "ModuleNotFoundError No module named nosuchmod: the package is not installed in the active"
    " virtual environment; put the module folder on PYTHONPATH"
)
OTHER = [
    "Tag the release only after the changelog is merged",
    "Prefer dataclasses with frozen=True for records passed between packages",
    "Keep commit subjects under seventy two characters",
]


@pytest.fixture
def seeded(settings: Settings) -> dict[str, str]:
    """The skill's lessons, by text -> id."""
    store = Store(settings)
    ids = {}
    for text in [EXPLAINS, *OTHER]:
        outcome = add_lesson(store, SKILL, text, matcher=None)
        ids[text] = outcome.lesson.id
    return ids


Run = Callable[[ModuleType, Mapping[str, Any]], tuple[int, str]]


def _warm(settings: Settings, embedder: EmbeddingModel) -> Run:
    retriever = Retriever(settings, embedder)
    return lambda module, payload: run_in_service(module, payload, retriever, settings)


@pytest.fixture
def warm(settings: Settings) -> Run:
    """Runs a hook as inside the warm service (fake embedder)."""
    return _warm(settings, FakeEmbedder())


def _activate(settings: Settings, payload: dict[str, Any], skill: str = SKILL) -> None:
    SessionState(settings.sessions_dir, payload["session_id"]).mark_active(skill)


def _context(out: str, event: str) -> str:
    output = json.loads(out)["hookSpecificOutput"]
    assert output["hookEventName"] == event
    text: str = output["additionalContext"]
    return text


def test_claude_failure_injects_the_lesson_that_explains_it(
    tmp_path: Path, settings: Settings, seeded: dict[str, str], warm: Run
) -> None:
    failure = session_payload("claude", tmp_path, "PostToolUseFailure")
    _activate(settings, failure)
    code, out = warm(post_tool_use_failure, failure)
    assert code == 0
    text = _context(out, "PostToolUseFailure")
    assert text.splitlines()[0] == FAILURE_HEADING
    assert seeded[EXPLAINS] in text and not any(seeded[o] in text for o in OTHER)
    logged = injections(Path(settings.home))
    assert [(r["skill"], r["ids"], r["by"]) for r in logged] == [
        (SKILL, [seeded[EXPLAINS]], "PostToolUseFailure")
    ]
    assert logged[0]["session"] == failure["session_id"]
    # the seed is still kept for the distiller
    seeds = SessionState(settings.sessions_dir, failure["session_id"]).folder
    assert seeds is not None and (Path(seeds) / "seeds.jsonl").exists()


def test_a_lesson_is_shown_once_per_session(
    tmp_path: Path, settings: Settings, seeded: dict[str, str], warm: Run
) -> None:
    failure = session_payload("claude", tmp_path, "PostToolUseFailure")
    _activate(settings, failure)
    assert seeded[EXPLAINS] in warm(post_tool_use_failure, failure)[1]
    assert warm(post_tool_use_failure, failure) == (0, "")
    other_session = {**failure, "session_id": "another-session"}
    _activate(settings, other_session)
    assert seeded[EXPLAINS] in warm(post_tool_use_failure, other_session)[1]


def test_nothing_without_an_active_skill_or_an_explaining_lesson(
    tmp_path: Path, settings: Settings, seeded: dict[str, str], warm: Run
) -> None:
    failure = session_payload("claude", tmp_path, "PostToolUseFailure")
    assert warm(post_tool_use_failure, failure) == (0, "")  # no skill used yet
    _activate(settings, failure)
    unexplained = {
        **failure,
        "tool_input": {"command": "curl -sS https://status.example.test"},
        "error": "Exit code 6\ncurl: (6) Could not resolve host: status.example.test",
    }
    assert warm(post_tool_use_failure, unexplained) == (0, "")
    assert injections(Path(settings.home)) == []


def test_interrupts_inject_nothing(
    tmp_path: Path, settings: Settings, seeded: dict[str, str], warm: Run
) -> None:
    failure = session_payload("claude", tmp_path, "PostToolUseFailure")
    _activate(settings, failure)
    assert warm(post_tool_use_failure, {**failure, "is_interrupt": True}) == (0, "")


def test_without_the_service_a_failure_injects_nothing(
    tmp_path: Path, settings: Settings, seeded: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "fireworks_skill_memory.memory.service.client.start_detached", lambda *a, **k: None
    )
    failure = session_payload("claude", tmp_path, "PostToolUseFailure")
    _activate(settings, failure)
    assert run_main(post_tool_use_failure, failure) == (0, "")
    assert injections(Path(settings.home)) == []


def test_codex_failing_bash_output_injects_through_post_tool_use(
    tmp_path: Path, settings: Settings, seeded: dict[str, str], warm: Run
) -> None:
    failing = session_payload("codex", tmp_path, "PostToolUse", 1)
    failing["tool_input"] = {"command": "python3 -c 'import nosuchmod'"}
    failing["tool_response"] = (
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        "ModuleNotFoundError: No module named 'nosuchmod'\n"
    )
    _activate(settings, failing)
    code, out = warm(post_tool_use, failing)
    assert code == 0 and seeded[EXPLAINS] in _context(out, "PostToolUse")
    assert injections(Path(settings.home))[0]["by"] == "PostToolUse"


def test_claude_bash_error_dict_injects_through_post_tool_use(
    tmp_path: Path, settings: Settings, seeded: dict[str, str], warm: Run
) -> None:
    failing = session_payload("claude", tmp_path, "PostToolUse")
    failing["tool_name"] = "Bash"
    failing["tool_input"] = {"command": "python3 -c 'import nosuchmod'"}
    failing["tool_response"] = {
        "stdout": "",
        "stderr": "ModuleNotFoundError: No module named 'nosuchmod'",
        "interrupted": False,
        "isImage": False,
    }
    _activate(settings, failing)
    assert seeded[EXPLAINS] in _context(warm(post_tool_use, failing)[1], "PostToolUse")


def test_a_skill_read_or_loaded_makes_the_skill_active(tmp_path: Path, settings: Settings) -> None:
    loaded = session_payload("claude", tmp_path, "PostToolUse")
    loaded = {**loaded, "tool_name": "Skill", "tool_input": {"skill": "demo:deploy"}}
    assert run_main(post_tool_use, loaded) == (0, "")
    state = SessionState(settings.sessions_dir, loaded["session_id"])
    assert state.active_skill_dirs() == ["demo__deploy"]


def test_called_command_of_each_tool_shape() -> None:
    assert called_command("Bash", {"command": "make test"}) == "make test"
    assert called_command("exec_command", {"cmd": "cargo build"}) == "cargo build"
    assert called_command("local_shell", {"command": ["ls", "-la"]}) == "ls -la"
    assert called_command("Read", {"file_path": "/src/app.py"}) == "Read /src/app.py"
    assert called_command("mcp__db__query", None) == "mcp__db__query"


# ---- the real model ---------------------------------------------------------------------
REAL_LESSONS = {
    "docker": [
        "When a container is OOMKilled (exit code 137), raise the memory limit in the compose"
        " file or lower the JVM heap; do not just restart it",
        "Copy package.json before the source tree so the npm install layer stays cached",
        "Use multi-stage builds to keep compilers out of the runtime image",
        "Pin base images to a digest, not to latest",
    ],
    "postgresql": [
        "Run migrations in order: a 'relation does not exist' error after deploy means the"
        " migration that creates the table has not run yet",
        "Add indexes concurrently on large tables to avoid long locks",
        "Use connection pooling (pgbouncer) instead of raising max_connections",
    ],
}


@pytest.fixture
def real_warm(settings: Settings, real_embedder: EmbeddingModel) -> tuple[dict[str, str], Run]:
    """The real lessons' ids by text, and a runner as inside the warm service (real model)."""
    store = Store(settings)
    ids = {}
    for skill, texts in REAL_LESSONS.items():
        for text in texts:
            ids[text] = add_lesson(store, skill, text, matcher=None).lesson.id
    return ids, _warm(settings, real_embedder)


@pytest.mark.real_model
@pytest.mark.slow
def test_real_model_injects_the_lesson_that_explains_a_failure(
    tmp_path: Path, settings: Settings, real_warm: tuple[dict[str, str], Run]
) -> None:
    failure = session_payload("claude", tmp_path, "PostToolUseFailure")
    for skill in REAL_LESSONS:
        _activate(settings, failure, skill)
    oom = {
        **failure,
        "tool_input": {"command": "docker compose up worker"},
        "error": "Exit code 1\nworker-1  | Killed\nworker-1 exited with code 137 (OOMKilled)",
    }
    ids, run = real_warm
    text = _context(run(post_tool_use_failure, oom)[1], "PostToolUseFailure")
    assert ids[REAL_LESSONS["docker"][0]] in text
    assert not any(ids[t] in text for t in REAL_LESSONS["docker"][1:])
    assert [i["by"] for i in injections(Path(settings.home))] == ["PostToolUseFailure"]


@pytest.mark.real_model
@pytest.mark.slow
def test_real_model_injects_nothing_for_an_unexplained_failure(
    tmp_path: Path, settings: Settings, real_warm: tuple[dict[str, str], Run]
) -> None:
    failure = session_payload("claude", tmp_path, "PostToolUseFailure")
    for skill in REAL_LESSONS:
        _activate(settings, failure, skill)
    for command, error in [
        ("git push origin main", "Exit code 128\nfatal: could not read Username for github"),
        ("ls reports/", "Exit code 2\nls: cannot access 'reports/': No such file or directory"),
        ("python3 app.py", "Exit code 1\nKeyError: 'customer_email'"),
    ]:
        unexplained = {**failure, "tool_input": {"command": command}, "error": error}
        assert real_warm[1](post_tool_use_failure, unexplained) == (0, "")
    assert injections(Path(settings.home)) == []
