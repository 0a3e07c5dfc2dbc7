"""Faults of the warm service, with real processes and the real model (issue 18, items 2 and 5).

- A service that started while its model was missing, or its index damaged, becomes ready
  once the home is repaired, without a restart.
- A service that holds the home but does not answer (SIGSTOP) is reported as such, and the
  CLI answers in-process instead of waiting for it; after SIGCONT everything works again.
No markdown byte changes while any of this happens.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.hook_support import (
    READY_TIMEOUT,
    cli,
    injections,
    service_env,
    service_status,
    start_service,
    stop_process,
    wait_ready,
    wait_until,
)

pytestmark = [pytest.mark.real_model, pytest.mark.slow]

HEAL_TIMEOUT = 30.0  # the acceptance: ready within 30 s of the repair
ANSWER_TIMEOUT = 60.0  # ~10 s on an idle machine (a model load); generous for a busy one
LESSONS = [
    ("Schema", "Run the database migrations before deploying the new application version"),
    ("Rollback", "Keep the previous release image tagged so a rollback takes one command"),
    ("Lunch", "The office cafeteria serves vegetarian lasagna on Fridays"),
]
RELEVANT = LESSONS[0][1]


def markdown(home: Path) -> dict[str, bytes]:
    """Every markdown file of the home, byte for byte."""
    return {str(path): path.read_bytes() for path in sorted(home.rglob("*.md"))}


def state(env: Mapping[str, str]) -> tuple[int, dict[str, Any]]:
    return service_status(env)


@contextlib.contextmanager
def service(env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """A real service process for the env's home; never left stopped or running."""
    process = start_service(env)
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGCONT)
        cli(env, "service", "stop", "--timeout", "20")
        stop_process(process)


def home_with_lessons(tmp_path: Path, **extra: str) -> tuple[dict[str, str], Path]:
    home = tmp_path / "memory"
    (tmp_path / "user").mkdir()
    env = service_env(home, tmp_path / "user", **extra)
    store = Store(load_settings(env))
    for tag, text in LESSONS:
        add_lesson(store, "deploy-checks", text, tag, matcher=None)
    return env, home


def wait_state(
    env: Mapping[str, str], wanted: str, timeout: float, process: subprocess.Popen[bytes]
) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    def reached() -> bool:
        seen.update(state(env)[1])
        return seen.get("state") == wanted

    wait_until(reached, timeout, f"service {wanted}", process)
    return seen


# ---- a failed load heals ------------------------------------------------------------------
def test_a_service_started_without_its_model_is_ready_once_the_model_is_back(
    tmp_path: Path,
) -> None:
    from fireworks_skill_memory.models.bundled import bundled_model_dir

    model = tmp_path / "models" / "mini"
    model.parent.mkdir()
    env, home = home_with_lessons(tmp_path, SKILL_MEMORY_EMBED_MODEL=str(model))
    before = markdown(home)
    with service(env) as process:
        failed = wait_state(env, "failed", READY_TIMEOUT, process)
        code, report = state(env)
        assert code == 5 and report["pid"] == process.pid
        assert "mini" in failed["error"] and failed["retry_in"] is not None
        text = cli(env, "service", "status").stdout
        assert text.startswith("running, failed: ") and "retrying" in text

        os.symlink(bundled_model_dir(), model)  # the model is restored
        wait_state(env, "ready", HEAL_TIMEOUT, process)
        code, report = state(env)
        assert (code, report["pid"], report["model_id"]) == (0, process.pid, str(model))
        injected = cli(env, "inject", "--skill", "deploy-checks", "--task", "deploy new release")
        assert injected.returncode == 0 and RELEVANT in injected.stdout
        assert injections(home)[-1]["by"] == "cli"  # ranked by the service
    assert markdown(home) == before


def test_a_service_started_on_a_damaged_index_is_ready_after_reindex(tmp_path: Path) -> None:
    env, home = home_with_lessons(tmp_path)
    assert cli(env, "reindex").returncode == 0
    damaged = [path for path in (home / "index").rglob("*.lance") if path.is_file()]
    assert damaged
    for path in damaged:
        path.write_bytes(b"")
    before = markdown(home)
    with service(env) as process:
        # the load fails (or the index layer already degrades around the damage)
        wait_until(
            lambda: state(env)[1].get("state") in ("failed", "ready"),
            READY_TIMEOUT,
            "load attempted",
            process,
        )
        assert cli(env, "reindex").returncode == 0
        wait_state(env, "ready", HEAL_TIMEOUT, process)
        assert state(env)[1]["pid"] == process.pid
        injected = cli(env, "inject", "--skill", "deploy-checks", "--task", "deploy new release")
        assert injected.returncode == 0 and RELEVANT in injected.stdout
    assert markdown(home) == before


# ---- a hung service ------------------------------------------------------------------------
def test_a_sigstopped_service_is_reported_and_the_cli_does_not_wait_for_it(
    tmp_path: Path,
) -> None:
    env, home = home_with_lessons(tmp_path)
    with service(env) as process:
        wait_ready(env, process)
        before = markdown(home)
        logged = len(injections(home))
        os.kill(process.pid, signal.SIGSTOP)
        try:
            code, report = state(env)
            assert code == 6
            assert (report["state"], report["pid"], report["stopped"]) == (
                "not_responding",
                process.pid,
                True,
            )
            assert cli(env, "service", "status").stdout.startswith(
                f"not responding (pid {process.pid}, stopped)"
            )

            task = "deploy the new release to production"
            inject = cli(
                env, "inject", "--skill", "deploy-checks", "--task", task, timeout=ANSWER_TIMEOUT
            )
            assert inject.returncode == 0 and RELEVANT in inject.stdout
            search = cli(env, "search", "database migrations", timeout=ANSWER_TIMEOUT)
            assert search.returncode == 0 and RELEVANT in search.stdout
            add = cli(
                env,
                "add",
                "--skill",
                "release-notes",
                "Write the release notes before tagging the release",
                timeout=ANSWER_TIMEOUT,
            )
            assert add.returncode == 0 and "added" in add.stdout

            start = cli(env, "service", "start")
            assert start.returncode == 6 and f"not responding (pid {process.pid}" in start.stdout
            assert process.poll() is None
            assert len(injections(home)) == logged  # nothing went through the service
        finally:
            os.kill(process.pid, signal.SIGCONT)

        wait_state(env, "ready", HEAL_TIMEOUT, process)
        assert state(env)[0] == 0
        again = cli(env, "inject", "--skill", "deploy-checks", "--task", task)
        assert again.returncode == 0 and RELEVANT in again.stdout
        assert injections(home)[-1]["by"] == "cli" and len(injections(home)) == logged + 1
        release = home / "skills" / "release-notes" / "KNOWLEDGE.md"
        assert markdown(home) == {**before, str(release): release.read_bytes()}

        os.kill(process.pid, signal.SIGSTOP)  # and `service stop` ends a stopped service
        stopped = cli(env, "service", "stop", "--json")
        assert stopped.returncode == 0 and json.loads(stopped.stdout)["stopped"] is True
        assert process.wait(timeout=30) is not None
        assert state(env)[0] == 3
