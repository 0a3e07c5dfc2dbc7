"""The hook path of issue 24: the caller's settings, and a fallback that orders like the service.

- A service answers each hook with the hook's own `SKILLS_INJECT_TOP`, token cap and
  ranking weights (the HOOK frame carries them), and refuses a hook whose folders are not its
  own, which then answers in-process. The service runs in a thread of this process (fake
  embedder) and the hooks are real processes running the installed command; the `slow` test
  does the same with the real service process and model.
- The in-process fallback ranks what the service ranks: the skill's own lessons and the
  pulled team layer's (a restatement of an own lesson dropped, the team marker on the tag),
  disputed lessons last and unverified ones lower, from its cache as from the markdown.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.cli.service_main import hook_handler
from fireworks_skill_memory.hooks import install as installer
from fireworks_skill_memory.hooks.dispatch import MODULES
from fireworks_skill_memory.hooks.fallback import lexical_injection
from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval import lexical_cache
from fireworks_skill_memory.memory.retrieval.layers import team_settings
from fireworks_skill_memory.memory.retrieval.retriever import Retriever
from fireworks_skill_memory.memory.service import client, server
from fireworks_skill_memory.memory.service.protocol import caller_settings, settings_text
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.conftest import FakeEmbedder
from tests.hook_support import (
    claude_sample,
    injections,
    running_service,
    service_env,
)

SKILL = "demo"
LESSONS = [
    ("Build cache", "Copy the dependency manifest before the source tree for the build cache"),
    ("Tests", "Run pytest with -x to stop at the first failing test"),
    ("Release", "Tag the release only after the changelog is merged"),
    ("Images", "Pin the base image digest in CI"),
]
OLD_NS = 10**18  # a file this old is never racily clean


def add_lessons(settings: Settings) -> list[str]:
    store = Store(settings)
    return [add_lesson(store, SKILL, text, tag, matcher=None).lesson.id for tag, text in LESSONS]


def skill_payload(root: Path, args: str | None = None) -> dict[str, Any]:
    payload = claude_sample("PreToolUse(Skill)", root)
    payload["tool_input"] = {"skill": SKILL, **({"args": args} if args else {})}
    payload["session_id"] = f"hook-path-{os.urandom(4).hex()}"  # no prompts: no task
    return payload


def bullet_ids(text: str) -> list[str]:
    return [
        line.split(" ", 2)[1].strip("()") for line in text.splitlines() if line.startswith("- (")
    ]


def run_hook(env: dict[str, str], payload: dict[str, Any], cwd: Path) -> str:
    """The installed PreToolUse command as a real process: its additional context."""
    argv = shlex.split(installer.hook_command(installer.HOOKS[0]), comments=True)
    done = subprocess.run(
        argv,
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    if not done.stdout:
        return ""
    text: str = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    return text


# ---- the caller's settings --------------------------------------------------------------
def test_caller_settings_take_the_answer_settings_and_refuse_other_folders(
    settings: Settings, env: dict[str, str]
) -> None:
    assert caller_settings(settings, "") is settings
    assert caller_settings(settings, settings_text(settings)) is settings
    hook = load_settings(
        {
            **env,
            "SKILLS_INJECT_TOP": "3",
            "SKILL_MEMORY_INJECT_TOKENS": "90",
            "SKILL_MEMORY_RANKING": "gate_threshold=0.4,hub_k=4",
        }
    )
    answer = caller_settings(settings, settings_text(hook))
    assert answer is not None and answer.home == settings.home
    assert (answer.inject_top, answer.inject_tokens) == (3, 90)
    assert answer.ranking_overrides == {"gate_threshold": 0.4, "hub_k": 4.0}
    elsewhere = load_settings({**env, "AI_MEMORY_SKILLS_DIR": str(Path(settings.home) / "x")})
    assert caller_settings(settings, settings_text(elsewhere)) is None
    assert caller_settings(settings, "inject_top=3\n") is None  # not whole settings
    assert caller_settings(settings, settings_text(hook).replace("=3\n", "=zero\n")) is None


@pytest.fixture
def thread_service(settings: Settings) -> Iterator[Settings]:
    """The warm service of the home in a thread of this process (fake embedder), started
    with `SKILLS_INJECT_TOP=1`; yields the settings it was started with."""
    started = load_settings({**settings.environ, "SKILLS_INJECT_TOP": "1"})
    handlers = {
        event: __import__(name, fromlist=["handle"]).handle for event, name in MODULES.items()
    }
    thread = threading.Thread(
        target=server.serve,
        args=(started, lambda s: Retriever(s, FakeEmbedder()), hook_handler(handlers)),
        daemon=True,
    )
    thread.start()
    try:
        deadline = 60.0
        while client.probe(settings.home).state != client.READY:
            deadline -= 0.1
            assert deadline > 0, "the service did not get ready"
            threading.Event().wait(0.1)
        yield started
    finally:
        client.try_call(settings.home, "shutdown", timeout=2.0)
        thread.join(timeout=30)


def test_a_hook_is_answered_with_its_own_top_not_the_services(
    tmp_path: Path, env: dict[str, str], settings: Settings, thread_service: Settings
) -> None:
    ids = add_lessons(settings)
    hook_env = {**env, "SKILL_MEMORY_HOOK_BUDGET_MS": "30000"}  # never late: this is no bench
    assert thread_service.inject_top == 1
    three = run_hook({**hook_env, "SKILLS_INJECT_TOP": "3"}, skill_payload(tmp_path), tmp_path)
    assert len(bullet_ids(three)) == 3
    assert set(bullet_ids(three)) <= set(ids)
    two = run_hook({**hook_env, "SKILLS_INJECT_TOP": "2"}, skill_payload(tmp_path), tmp_path)
    assert bullet_ids(two) == bullet_ids(three)[:2]
    assert [r["by"] for r in injections(Path(settings.home))] == ["PreToolUse:Skill"] * 2


def test_a_hook_with_other_folders_answers_in_process(
    tmp_path: Path, env: dict[str, str], settings: Settings, thread_service: Settings
) -> None:
    add_lessons(settings)
    other = tmp_path / "other-skills"
    add_lesson(
        Store(load_settings({**env, "AI_MEMORY_SKILLS_DIR": str(other)})),
        SKILL,
        "Only in the other skills folder: check the other folder first",
        "Other",
    )
    hook_env = {**env, "SKILL_MEMORY_HOOK_BUDGET_MS": "30000", "AI_MEMORY_SKILLS_DIR": str(other)}
    text = run_hook(hook_env, skill_payload(tmp_path), tmp_path)
    assert "Only in the other skills folder" in text  # the hook's own folder, ranked by itself
    assert [r["by"] for r in injections(Path(settings.home))] == ["PreToolUse:Skill:fallback"]


@pytest.mark.real_model
@pytest.mark.slow
def test_the_real_service_answers_each_hook_with_its_own_top(tmp_path: Path) -> None:
    """`python -m cli.service_main` started with SKILLS_INJECT_TOP=1, hooks with 3 and 2."""
    home, user = tmp_path / "memory", tmp_path / "user"
    user.mkdir()
    env = service_env(home, user)
    settings = load_settings(env)
    ids = add_lessons(settings)
    with running_service({**env, "SKILLS_INJECT_TOP": "1"}):
        hook_env = {**env, "SKILL_MEMORY_HOOK_BUDGET_MS": "30000"}
        three = run_hook({**hook_env, "SKILLS_INJECT_TOP": "3"}, skill_payload(tmp_path), tmp_path)
        two = run_hook({**hook_env, "SKILLS_INJECT_TOP": "2"}, skill_payload(tmp_path), tmp_path)
    assert len(bullet_ids(three)) == 3 and set(bullet_ids(three)) <= set(ids)
    assert bullet_ids(two) == bullet_ids(three)[:2]
    assert [r["by"] for r in injections(home)] == ["PreToolUse:Skill"] * 2


# ---- the fallback orders like the service -------------------------------------------------
def skill_md(settings: Settings, text: str) -> Path:
    folder = Path(settings.environ["HOME"]) / ".claude" / "skills" / SKILL
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "SKILL.md"
    path.write_text(text)
    return path


def age(path: Path) -> None:
    """Make a file old enough for its lexical cache to be written."""
    os.utime(path, ns=(OLD_NS, OLD_NS))


def knowledge(settings: Settings) -> Path:
    return Path(settings.skills_dir) / SKILL / "KNOWLEDGE.md"


def service_text(settings: Settings, task: str | None = None) -> str:
    return Retriever(settings, FakeEmbedder()).inject(SKILL, task).text


def test_without_a_task_the_fallback_shows_what_the_service_shows(settings: Settings) -> None:
    page = skill_md(settings, "# demo\nv1\n")
    ids = add_lessons(settings)
    store = Store(settings)
    store.feedback(ids[0], "wrong", note="misled")  # disputed: last
    page.write_text("# demo\nv2\n")  # every lesson so far is unverified now
    add_lesson(store, SKILL, "Prune the builder cache weekly", "Disk", matcher=None)  # current
    team = Store(team_settings(settings))
    add_lesson(team, SKILL, "Cache the pip wheels between CI runs", "CI", matcher=None)
    add_lesson(team, SKILL, LESSONS[2][1], LESSONS[2][0], matcher=None)  # restates an own lesson
    age(knowledge(settings))
    age(page)

    expected = service_text(settings)
    fallback = lexical_injection(settings, SKILL, "")
    assert fallback.text == expected
    shown = bullet_ids(expected)
    assert shown[-1] == ids[0]  # the disputed one
    assert shown[0] == Store(settings).lessons(SKILL)[-1].id  # the only current own lesson
    assert expected.count(LESSONS[2][1]) == 1  # the team restatement is not shown again
    assert "[team \u00b7 CI] Cache the pip wheels" in expected
    # from the cache now, the same; and a new dispute is seen at once
    assert Path(lexical_cache.cache_path(settings, SKILL)).is_file()
    assert lexical_injection(settings, SKILL, "").text == expected
    store.feedback(ids[1], "wrong", note="misled too")
    assert bullet_ids(lexical_injection(settings, SKILL, "").text)[-2:] == [ids[0], ids[1]]
    assert lexical_injection(settings, SKILL, "").text == service_text(settings)


def test_with_a_task_the_fallback_puts_a_disputed_match_last(settings: Settings) -> None:
    add_lessons(settings)
    store = Store(settings)
    first = add_lesson(store, SKILL, "Docker build cache: copy the manifest first", "Docker").lesson
    second = add_lesson(
        store, SKILL, "Docker layers: order them for the build cache", "Docker"
    ).lesson
    age(knowledge(settings))
    task = "speed up the docker build cache"
    before = bullet_ids(lexical_injection(settings, SKILL, task).text)
    assert {first.id, second.id} <= set(before) and len(before) > 1
    store.feedback(before[0], "wrong", note="misled")
    after = bullet_ids(lexical_injection(settings, SKILL, task).text)
    assert after == [*before[1:], before[0]]


def test_the_fallback_reads_team_lessons_from_their_own_cache(settings: Settings) -> None:
    add_lessons(settings)
    add_lesson(
        Store(team_settings(settings)), SKILL, "Cache the pip wheels in CI", "CI", matcher=None
    )
    age(knowledge(settings))
    age(Path(team_settings(settings).skills_dir) / SKILL / "KNOWLEDGE.md")
    text = lexical_injection(settings, SKILL, "cache the pip wheels").text
    assert "[team \u00b7 CI] Cache the pip wheels in CI" in text
    assert Path(lexical_cache.cache_path(settings, SKILL, "team")).is_file()
    assert lexical_injection(settings, SKILL, "cache the pip wheels").text == text
