"""The viewer's promotion page: the proposal as a diff with an approve button that posts with
the CSRF token (the review actions' rules); a stale proposal is refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.ingest.promotion import propose
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.viewer.server import ViewerServer
from tests.viewer_support import request, running_viewer

SKILL_MD = b"---\nname: git\n---\n\n# Git\n"
PROVEN = "Use git switch -c to create and check out a new branch"


@pytest.fixture
def skill_md(settings: Settings) -> Path:
    path = Path(settings.environ["HOME"]) / ".claude" / "skills" / "git" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(SKILL_MD)
    store = Store(settings)
    lesson_id = add_lesson(store, "git", PROVEN, "Branches").lesson.id
    add_lesson(store, "git", "Run git rebase --continue after fixing each conflict", "Rebase")
    for _ in range(2):
        store.feedback(lesson_id, "helped")
    return path


@pytest.fixture
def viewer(settings: Settings, skill_md: Path) -> Iterator[ViewerServer]:
    with running_viewer(settings) as server:
        yield server


def _form(settings: Settings, viewer: ViewerServer, **extra: str) -> dict[str, str]:
    proposal = propose(Store(settings), "git")
    return {
        "id": ",".join(proposal.ids),
        "skill": "git",
        "skill_md_hash": proposal.skill_md_hash or "",
        "next": "/promote?s=git",
        **extra,
    }


def test_the_page_shows_the_diff_and_an_approve_form(
    viewer: ViewerServer, settings: Settings
) -> None:
    page = request(viewer, "GET", "/promote?s=git")
    assert page.status == 200
    assert f"+- **Branches:** {PROVEN}" in page.body.replace("&quot;", '"')
    assert 'action="/action/promote"' in page.body and viewer.viewer.guard.csrf in page.body
    listing = request(viewer, "GET", "/promote")
    assert listing.status == 200 and PROVEN in listing.body
    assert 'href="/promote?s=git"' in request(viewer, "GET", "/skill?s=git").body


def test_approve_needs_the_csrf_token_and_then_writes_skill_md(
    viewer: ViewerServer, settings: Settings, skill_md: Path
) -> None:
    for csrf in (None, "wrong"):
        form = _form(settings, viewer) if csrf is None else _form(settings, viewer, csrf=csrf)
        assert request(viewer, "POST", "/action/promote", form=form).status == 403
    assert skill_md.read_bytes() == SKILL_MD
    form = _form(settings, viewer, csrf=viewer.viewer.guard.csrf)
    answer = request(viewer, "POST", "/action/promote", form=form)
    assert answer.status == 303 and "done=promoted" in answer.headers["Location"]
    assert skill_md.read_bytes().startswith(SKILL_MD)
    assert PROVEN in skill_md.read_text()
    assert PROVEN not in (Path(Store(settings).knowledge_path("git"))).read_text()


def test_a_stale_proposal_is_refused(
    viewer: ViewerServer, settings: Settings, skill_md: Path
) -> None:
    form = _form(settings, viewer, csrf=viewer.viewer.guard.csrf)
    skill_md.write_bytes(SKILL_MD + b"\nedited by hand\n")
    answer = request(viewer, "POST", "/action/promote", form=form)
    assert answer.status == 303 and "failed=" in answer.headers["Location"]
    assert skill_md.read_bytes() == SKILL_MD + b"\nedited by hand\n"
