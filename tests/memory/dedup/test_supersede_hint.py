"""The distiller settles unclear supersessions in the proposal call (`replaces`), never a
clear keep-both; without its word, both lessons stay."""

from __future__ import annotations

from pathlib import Path

import pytest

from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher
from fireworks_skill_memory.memory.distill.request import parse_response
from fireworks_skill_memory.memory.ingest import add_lesson, review
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import Match, Store
from fireworks_skill_memory.models.llm.base import StructuredReply
from tests.conftest import FakeEmbedder
from tests.fakes.messages_server import FakeMessagesServer, record_lessons_reply
from tests.memory.distill.test_distill import SKILL, by_tool, run, settings_with, transcript_copy

OLD = "Run the deploy script with 4 workers and 2 retries on CI."
# unclear locally: two values changed at once (another case, or an update?)
NEW = "Run the deploy script with 8 workers and 3 retries on CI."
OTHER = "Pin the base image by digest in the CI Dockerfile."


def lesson(text: str, hits: int = 1) -> Lesson:
    return Lesson(text, tag="CI", month="2026-01", hits=hits, skill=SKILL)


def test_settle_turns_an_unclear_pair_into_a_supersession() -> None:
    matcher = SemanticMatcher(FakeEmbedder())
    old, new = lesson(OLD), lesson(NEW)
    kept = matcher([old], new)
    assert kept.target_id is None and kept.supersedes is None
    settled = matcher.settle(old, new, kept)
    assert settled.supersedes == old.id and "distiller: replaces" in settled.reason


def test_settle_leaves_a_clear_decision_alone() -> None:
    matcher = SemanticMatcher(FakeEmbedder())
    old, other = lesson(OLD), lesson(OTHER)
    match = matcher([old], other)
    assert matcher.settle(old, other, match) == match
    merged = Match(old.id, "exact", 1.0, OLD)
    assert matcher.settle(old, lesson(OLD), merged) == merged


def test_settle_contests_instead_when_the_old_lesson_has_far_more_evidence() -> None:
    matcher = SemanticMatcher(FakeEmbedder())
    old, new = lesson(OLD, hits=9), lesson(NEW)
    settled = matcher.settle(old, new, matcher([old], new))
    assert settled.contested == old.id and settled.supersedes is None


def test_the_reply_carries_a_well_formed_replaces_id_only() -> None:
    data = {
        "lessons": [
            {"skill": SKILL, "tag": "CI", "text": NEW, "evidence": "E1", "replaces": "ABCDEF0123"},
            {"skill": SKILL, "tag": "CI", "text": OTHER, "evidence": "E1", "replaces": "nope"},
        ],
        "global": [],
    }
    reply = StructuredReply(data=data, input_tokens=1, output_tokens=1, model="m", backend="t")
    first, second = parse_response(reply, [SKILL], per_skill=3, global_max=2)
    assert (first.replaces, second.replaces) == ("abcdef0123", None)


@pytest.mark.parametrize("says_replaces", [True, False], ids=["replaces", "silent"])
def test_a_distillation_supersedes_only_on_the_distillers_word(
    env: dict[str, str], tmp_path: Path, says_replaces: bool
) -> None:
    settings = settings_with(env)
    store = Store(settings)
    old = add_lesson(store, SKILL, OLD, "CI").lesson
    item = {"skill": SKILL, "tag": "CI", "text": NEW, "evidence": "E1"}
    if says_replaces:
        item["replaces"] = old.id
    with FakeMessagesServer(by_tool(record_lessons_reply([item]))) as server:
        result = run(settings, server, transcript_copy(tmp_path))
        body = server.bodies()[0]["messages"][0]["content"]
    assert result.status == "stored", result.reason
    assert f"id={old.id}" in body  # the existing lessons are listed with their ids
    texts = [x.text for x in store.lessons(SKILL)]
    if says_replaces:
        assert texts == [NEW]
        (item_,) = review.review_items(store)
        assert item_.status == "superseded" and item_.id == old.id
    else:
        assert texts == [OLD, NEW]
