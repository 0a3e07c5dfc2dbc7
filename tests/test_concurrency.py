"""Many processes writing the same skill at once: nothing is lost, the file always parses."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.markdown_store import Store

WRITER = """
import sys
from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
store = Store(load_settings())
worker = int(sys.argv[1])
for n in range(10):
    add_lesson(store, "shared", f"worker {worker} lesson {n}: distinct text", "Load")
"""


@pytest.mark.slow
def test_eight_processes_adding_ten_lessons_each(settings: Settings, env: dict[str, str]) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(worker)], env=env)
        for worker in range(8)
    ]
    assert [proc.wait(timeout=120) for proc in procs] == [0] * 8
    store = Store(settings)
    path = Path(store.knowledge_path("shared"))
    lessons = KnowledgeDoc.parse(path.read_text(), "shared").lessons()
    assert len(lessons) == 80
    assert {lesson.text for lesson in lessons} == {
        f"worker {w} lesson {n}: distinct text" for w in range(8) for n in range(10)
    }
    assert not [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")]


# ---- the console script, the real model, eight processes at once ---------------------------

SCRIPT = str(Path(sys.executable).parent / "skill-memory")
TOPICS = (
    "docker build",
    "database migration",
    "browser download",
    "pytest fixture",
    "git rebase",
    "kubernetes rollout",
    "npm install",
    "terraform plan",
    "nginx reload",
    "redis failover",
)


def _race_text(worker: int, n: int) -> str:
    # no two lines share two of their three numbers: the decision neither merges two of them
    # nor reads one as the other with a changed value
    return (
        f"Worker {worker} note {n + 10}: the {TOPICS[n]} step needed "
        f"{100 + 10 * worker + n} retries"
    )


def _skill_memory(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SCRIPT, *args], env=env, capture_output=True, text=True, timeout=900, check=False
    )


def _race(env: dict[str, str]) -> list[subprocess.CompletedProcess[str]]:
    """8 processes at a time, each running `skill-memory add` 10 times in a row."""
    results: list[subprocess.CompletedProcess[str]] = []

    def worker(number: int) -> None:
        for n in range(10):
            results.append(
                _skill_memory(
                    env, "add", "--skill", "race", "--tag", f"W{number}", _race_text(number, n)
                )
            )

    threads = [threading.Thread(target=worker, args=(number,)) for number in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _assert_all_eighty(
    env: dict[str, str], results: list[subprocess.CompletedProcess[str]]
) -> None:
    errors = [line for r in results for line in r.stderr.splitlines() if line.strip()]
    assert errors == []
    assert [r.returncode for r in results] == [0] * 80
    assert all(r.stdout.startswith("added ") for r in results)
    shown = json.loads(_skill_memory(env, "show", "--skill", "race", "--json").stdout)
    assert len(shown["lessons"]) == 80
    assert {lesson["text"] for lesson in shown["lessons"]} == {
        _race_text(w, n) for w in range(8) for n in range(10)
    }
    folder = Path(shown["path"]).parent
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.real_model
@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_eighty_cli_adds_from_eight_processes_without_the_service(env: dict[str, str]) -> None:
    assert _skill_memory(env, "service", "status").returncode == 3  # every process loads the model
    _assert_all_eighty(env, _race(env))


@pytest.mark.real_model
@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_eighty_cli_adds_from_eight_processes_with_the_service(env: dict[str, str]) -> None:
    assert _skill_memory(env, "service", "start").returncode == 0
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            status = _skill_memory(env, "service", "status", "--json")
            if status.returncode == 0 and json.loads(status.stdout).get("ready"):
                break
            time.sleep(0.5)
        else:
            pytest.fail("the service did not get ready in 300 s")
        _assert_all_eighty(env, _race(env))
        assert _skill_memory(env, "service", "status").returncode == 0
    finally:
        _skill_memory(env, "service", "stop")
