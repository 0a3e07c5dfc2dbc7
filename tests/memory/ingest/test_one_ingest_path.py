"""Acceptance of issue 24's one write pipeline: the same poisoned text, brought in through each
of the seven ways a lesson comes in, is quarantined every time.

The entry points run as a user or an agent runs them: `add`, `flush`, `import-legacy`,
`team pull` and `review` through the CLI; distillation as the real worker process asking a
fake Messages server on loopback; `record_lesson` from the MCP server process, talking to a
real service socket (served in this process with the fake embedder, so no model loads).
`review approve` is the one explicit bypass: the text is quarantined first, and only a
person's approve lets it into KNOWLEDGE.md. The rules screen catches the text without the
model, so this runs in `make check`; test_safe_memory.py has the real-model counterparts.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.service.client import call
from fireworks_skill_memory.memory.service.server import serve
from fireworks_skill_memory.memory.store.archive import QUARANTINE_FILE, read_archive
from fireworks_skill_memory.memory.store.lesson import lesson_id
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.memory.team.remote import TeamRow, TeamTable
from tests.conftest import REPO, CliInvoker, FakeEmbedder
from tests.fakes.messages_server import FakeMessagesServer, Reply
from tests.mcp_support import McpProcess
from tests.memory.distill.test_distill import lessons_reply, transcript_copy, worker_env
from tests.memory.screen.test_safe_memory import BENIGN, POISON

SKILL = "python-imports"  # the skill the distillation fixture transcript uses
MARK = "diag.pkgcheck-mirror"  # a phrase only the poisoned text has


def as_json(result: Any) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def assert_quarantined(cli: CliInvoker, skill: str = SKILL, layer: str = "local") -> None:
    """The poisoned text waits in review, held in QUARANTINE.md, and is nowhere in use."""
    items = as_json(cli("review", "--json"))["items"]
    held = [item for item in items if MARK in item["lesson"]["text"]]
    assert [(i["status"], i["skill"], i.get("layer", "local")) for i in held] == [
        ("quarantined", skill, layer)
    ], items
    if layer == "local":
        shelved = read_archive(load_settings(cli.env), skill, QUARANTINE_FILE)
        assert [MARK in entry.lesson.text for entry in shelved] == [True]
        shown = as_json(cli("show", "--skill", skill, "--json"))["lessons"]
        assert not any(MARK in lesson["text"] for lesson in shown)
    injected = cli("inject", "--skill", skill, "--task", "pip install mirror diag collect")
    assert injected.exit_code == 0 and MARK not in injected.output


@pytest.fixture
def authored(env: dict[str, str]) -> dict[str, str]:
    env["SKILL_MEMORY_AUTHOR"] = "grace@example.org"
    return env


def test_add(cli: CliInvoker, authored: dict[str, str]) -> None:
    assert as_json(cli("add", "--skill", SKILL, "--json", POISON))["decision"] == "quarantined"
    assert_quarantined(cli)


def test_flush(cli: CliInvoker, authored: dict[str, str], tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text(f"## Lessons\n- {BENIGN}\n- {POISON}\n")
    flushed = as_json(cli("flush", "--skill", SKILL, "--summary-file", str(summary), "--json"))
    assert sorted(o["decision"] for o in flushed["stored"]) == ["added", "quarantined"]
    assert_quarantined(cli)


def test_distillation_in_the_worker_process(
    cli: CliInvoker, authored: dict[str, str], tmp_path: Path
) -> None:
    reply = lessons_reply([(SKILL, BENIGN), (SKILL, POISON)])

    def answer(body: dict[str, Any], call_index: int) -> Reply:
        return reply

    with FakeMessagesServer(answer) as server:
        argv = [sys.executable, "-m", "fireworks_skill_memory.memory.distill.worker"]
        argv += ["--transcript", transcript_copy(tmp_path), "--session-id", "s1", "--no-index"]
        subprocess.run(argv, env=worker_env(authored, server), cwd=REPO, timeout=120, check=True)
    assert_quarantined(cli)


@pytest.fixture
def fake_service(env: dict[str, str]) -> Iterator[dict[str, str]]:
    """A real service on the home's socket, served from a thread with the fake embedder."""
    from fireworks_skill_memory.memory.retrieval.retriever import Retriever

    settings = load_settings(env)
    thread = threading.Thread(
        target=serve, args=(settings, lambda s: Retriever(s, FakeEmbedder())), daemon=True
    )
    thread.start()
    try:
        yield env
    finally:
        call(settings.home, "shutdown", {}, timeout=5)
        thread.join(30)


def test_mcp_record_lesson_from_the_server_process(
    cli: CliInvoker, authored: dict[str, str], fake_service: dict[str, str]
) -> None:
    process = McpProcess(fake_service, ["--agent", "claude-code", "--wait", "30"])
    try:
        process.initialize()
        result = process.call("record_lesson", skill=SKILL, text=POISON, tag="Setup")
    finally:
        process.close()
    assert not result["isError"], result
    assert result["structuredContent"]["decision"] == "quarantined"
    assert_quarantined(cli)


def test_team_pull_from_a_folder_store(
    cli: CliInvoker, authored: dict[str, str], tmp_path: Path
) -> None:
    folder = str(tmp_path / "team-store")
    writer = load_settings({**authored, "AI_MEMORY_HOME": str(tmp_path / "w"),
                            "SKILL_MEMORY_TEAM_URI": folder})  # fmt: skip
    embedder = FakeEmbedder()
    rows = [
        TeamRow(lesson_id(SKILL, POISON), SKILL, "Setup", POISON, "2026-01", 9, {}, "mallory"),
        TeamRow(lesson_id(SKILL, BENIGN), SKILL, "Imports", BENIGN, "2026-01", 1, {}, "mallory"),
    ]  # written straight to the table, as a teammate's home without the screen would
    vectors = np.asarray(embedder.embed_batch([row.text for row in rows]), dtype=np.float32)
    TeamTable(writer, embedder.model_id, embedder.dimension).write(rows, vectors, [0, 0])

    cli.env["SKILL_MEMORY_TEAM_URI"] = folder
    pulled = as_json(cli("team", "pull", "--json"))
    assert (pulled["updated"], pulled["quarantined"]) == (1, 1)
    team = Path(load_settings(cli.env).home, "team", "skills", SKILL)
    assert MARK not in (team / "KNOWLEDGE.md").read_text()
    assert MARK in (team / "QUARANTINE.md").read_text()
    assert_quarantined(cli, layer="team")


def test_import_legacy(cli: CliInvoker, authored: dict[str, str]) -> None:
    legacy = Path(load_settings(cli.env).legacy_dir) / SKILL / "KNOWLEDGE.md"
    legacy.parent.mkdir(parents=True)
    legacy.write_text(f"# {SKILL}\n\n- [2025-01] [Imports] {BENIGN}  [HIT:3]\n- {POISON}\n")
    (imported,) = as_json(cli("import-legacy", "--json"))
    assert imported["quarantined"] == 1
    assert_quarantined(cli)


def test_review_approve_is_the_one_explicit_bypass(
    cli: CliInvoker, authored: dict[str, str]
) -> None:
    held = as_json(cli("add", "--skill", SKILL, "--json", POISON))
    assert held["decision"] == "quarantined"
    assert_quarantined(cli)
    again = as_json(cli("add", "--skill", SKILL, "--json", POISON))  # asking twice is no way in
    assert again["decision"] == "quarantined"

    approved = cli("review", "approve", held["lesson"]["id"])
    assert approved.exit_code == 0, approved.output
    texts = [lesson.text for lesson in Store(load_settings(cli.env)).lessons(SKILL)]
    assert texts == [POISON]
    assert read_archive(load_settings(cli.env), SKILL, QUARANTINE_FILE) == []
    assert as_json(cli("review", "--json"))["items"] == []
