"""The viewer with a damaged index (issue 26): the lessons still show, read from the markdown,
the overview says the index is being rebuilt, and it is; search answers once it is.

Driven over HTTP (a viewer on a loopback port); the index is broken the ways
tests/index/test_faults_index.py breaks it; the fake embedder keeps the rebuild fast.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex
from fireworks_skill_memory.viewer.data import index_problem
from tests.conftest import FakeEmbedder
from tests.index.test_faults_index import damage, damaged_copies
from tests.viewer_support import DOCKER_LESSONS, GIT_LESSONS, request, running_viewer, seed

REBUILDING = "it is being rebuilt from the markdown"


def markdown(home: str) -> dict[str, bytes]:
    return {str(path): path.read_bytes() for path in sorted(Path(home).rglob("*.md"))}


@pytest.mark.parametrize("how", ["truncated", "deleted", "emptied"])
def test_a_damaged_index_still_shows_the_lessons_and_is_rebuilt(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setattr(
        "fireworks_skill_memory.models.embedders.load_embedder", lambda *a, **k: FakeEmbedder()
    )
    seed(settings)
    MemoryIndex(settings, FakeEmbedder()).reindex()
    damage(settings, how)
    assert index_problem(settings) is not None
    before = markdown(settings.home)

    with running_viewer(settings) as viewer:
        overview = request(viewer, "GET", "/")
        assert overview.status == 200
        assert REBUILDING in overview.body and "The index cannot be read" in overview.body
        assert ">git<" in overview.body and ">docker<" in overview.body
        skill = request(viewer, "GET", "/skill?s=git")
        assert skill.status == 200
        for _, text in GIT_LESSONS:  # from the markdown, whatever the index holds
            assert text in skill.body

        deadline = time.monotonic() + 60
        while index_problem(settings) is not None:
            assert time.monotonic() < deadline, "the index was not rebuilt"
            time.sleep(0.1)
        assert damaged_copies(settings)  # moved aside, never deleted
        deadline = time.monotonic() + 60
        while REBUILDING in (overview := request(viewer, "GET", "/")).body:
            assert time.monotonic() < deadline, "the overview still says rebuilding"
            time.sleep(0.1)
        assert overview.status == 200
        found = request(viewer, "GET", "/search?q=docker+layer+cache+requirements")
        assert found.status == 200 and DOCKER_LESSONS[1][1] in found.body
        assert "cannot be read" not in found.body  # searched the rebuilt index
    assert markdown(settings.home) == before
