"""Feedback on lessons (helped, wrong, confirmed) and staleness after a SKILL.md change:
what the ledger records, what moves to the archive, and how the ranking treats them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.errors import InvalidInput, NotFound
from fireworks_skill_memory.memory.ingest import add_lesson, review
from fireworks_skill_memory.memory.retrieval.records import Hit
from fireworks_skill_memory.memory.retrieval.retriever import Retriever
from fireworks_skill_memory.memory.retrieval.standing import by_standing
from fireworks_skill_memory.memory.store.ledger import read_ledger
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import CliInvoker

SKILL = "demo"


def skill_md(settings: Settings, text: str) -> Path:
    folder = Path(settings.environ["HOME"]) / ".claude" / "skills" / SKILL
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "SKILL.md"
    path.write_text(text)
    return path


def test_helped_raises_the_hit_and_clears_a_dispute(store: Store, settings: Settings) -> None:
    lesson = add_lesson(store, SKILL, "Run the migrations before the dev server").lesson
    store.feedback(lesson.id, "wrong", note="it failed anyway")
    assert store.standings(SKILL) == {lesson.id: "disputed"}
    outcome = store.feedback(lesson.id, "helped")
    assert outcome.lesson.hits == 2
    assert store.lessons(SKILL)[0].hits == 2
    assert store.standings(SKILL) == {}
    record = read_ledger(settings, SKILL).get(lesson.id)
    assert record is not None and record.helped == 1 and record.disputes == ()


def test_wrong_twice_archives_with_the_evidence(store: Store, settings: Settings) -> None:
    lesson = add_lesson(store, SKILL, "The export API returns CSV").lesson
    first = store.feedback(lesson.id, "wrong", note="it returned JSON")
    assert (first.standing, first.archived) == ("disputed", False)
    second = store.feedback(lesson.id, "wrong", note="JSON again in v2")
    assert second.archived
    assert store.lessons(SKILL) == []
    (item,) = review.review_items(store)
    assert item.status == "archived"
    assert "it returned JSON" in item.reason and "JSON again in v2" in item.reason
    assert [d.note for d in item.record.disputes] == ["it returned JSON", "JSON again in v2"]  # type: ignore[union-attr]
    review.restore(store, lesson.id)
    assert [x.text for x in store.lessons(SKILL)] == [lesson.text]


def test_a_helped_between_two_wrongs_keeps_the_lesson(store: Store) -> None:
    lesson = add_lesson(store, SKILL, "Pin the base image digest").lesson
    store.feedback(lesson.id, "wrong")
    store.feedback(lesson.id, "helped")
    assert not store.feedback(lesson.id, "wrong").archived


def test_feedback_on_an_unknown_id_or_rating_fails_clearly(store: Store) -> None:
    lesson = add_lesson(store, SKILL, "A lesson").lesson
    with pytest.raises(NotFound):
        store.feedback("0000000000", "helped")
    with pytest.raises(InvalidInput, match="unknown rating"):
        store.feedback(lesson.id, "great")


def test_a_changed_skill_md_makes_older_lessons_unverified(
    store: Store, settings: Settings
) -> None:
    path = skill_md(settings, "# demo\nUse v1 of the API.\n")
    old = add_lesson(store, SKILL, "Call the v1 endpoint with a token").lesson
    assert store.standings(SKILL) == {}
    path.write_text("# demo\nUse v2 of the API.\n")
    assert store.standings(SKILL) == {old.id: "unverified"}
    newer = add_lesson(store, SKILL, "Send the token as a bearer header").lesson
    assert newer.id not in store.standings(SKILL)
    (item,) = review.review_items(store)
    assert (item.status, item.id) == ("unverified", old.id)
    store.feedback(old.id, "confirmed", source="review")
    assert store.standings(SKILL) == {}


def test_a_lesson_without_a_skill_md_is_never_unverified(store: Store) -> None:
    add_lesson(store, SKILL, "No SKILL.md anywhere")
    assert store.standings(SKILL) == {}


def hit(text: str, score: float) -> Hit:
    return Hit(Lesson(text, skill=SKILL), score)


def test_disputed_lessons_go_last_and_unverified_ones_lose_a_little() -> None:
    a, b, c, d = hit("a", 0.90), hit("b", 0.80), hit("c", 0.78), hit("d", 0.50)
    assert by_standing([a, b, c, d], {}) == [a, b, c, d]
    assert by_standing([a, b, c, d], {a.lesson.id: "disputed"}) == [b, c, d, a]
    assert by_standing([a, b, c, d], {b.lesson.id: "unverified"}) == [a, c, b, d]
    standings = {a.lesson.id: "disputed", d.lesson.id: "unverified"}
    assert by_standing([a, b, c, d], standings) == [b, c, d, a]  # never below a disputed one


def test_the_retriever_ranks_a_disputed_lesson_below_the_others(
    store: Store, settings: Settings, fake_embedder: EmbeddingModel
) -> None:
    texts = [
        "Run pytest with -x to stop at the first failure",
        "Run pytest with --lf to rerun the last failures",
        "Run pytest with -k to select tests by name",
    ]
    ids = [add_lesson(store, SKILL, text).lesson.id for text in texts]
    retriever = Retriever(settings, fake_embedder)
    first = retriever.search("run pytest failures", skill=SKILL)[0].lesson.id
    store.feedback(first, "wrong", note="misled")
    again = retriever.search("run pytest failures", skill=SKILL)
    assert again[-1].lesson.id == first
    assert {hit.lesson.id for hit in again} == set(ids)


def test_show_json_marks_unverified_lessons_after_a_skill_md_change(
    cli: CliInvoker, env: dict[str, str]
) -> None:
    settings = load_settings(env)
    path = skill_md(settings, "# demo\nv1\n")
    cli("add", "--skill", SKILL, "Call the v1 endpoint with a token")
    path.write_text("# demo\nv2\n")
    (lesson,) = json.loads(cli("show", "--skill", SKILL, "--json").output)["lessons"]
    assert lesson["standing"] == "unverified"
    assert "(unverified)" in cli("show", "--skill", SKILL).output
    assert cli("review", "confirm", lesson["id"]).exit_code == 0
    (lesson,) = json.loads(cli("show", "--skill", SKILL, "--json").output)["lessons"]
    assert lesson["standing"] == "current"


@pytest.mark.real_model
@pytest.mark.slow
def test_wrong_twice_stops_the_injection_and_helped_adds_one_hit(
    cli_real: CliInvoker,
) -> None:
    task = "container cannot reach a service running on the host"
    wrong = "Use host.docker.internal to reach services on the host from a container"
    other = "Add --add-host=host.docker.internal:host-gateway on Linux so that name resolves"
    ids = [
        json.loads(cli_real("add", "--skill", SKILL, "--json", text).output)["lesson"]["id"]
        for text in (wrong, other)
    ]
    for unrelated in ("Pin the base image by digest", "Use multi-stage builds for small images"):
        cli_real("add", "--skill", SKILL, unrelated)
    before = json.loads(cli_real("inject", "--skill", SKILL, "--task", task, "--json").output)
    assert ids[0] in [lesson["id"] for lesson in before["lessons"]]

    helped = json.loads(cli_real("feedback", ids[1], "--helped", "--json").output)
    assert helped["lesson"]["hits"] == 2

    first = json.loads(cli_real("feedback", ids[0], "--wrong", "--note", "v2", "--json").output)
    assert first["standing"] == "disputed" and not first["archived"]
    second = cli_real("feedback", ids[0], "--wrong", "--note", "still wrong")
    assert second.exit_code == 0 and "archived" in second.output
    after = json.loads(cli_real("inject", "--skill", SKILL, "--task", task, "--json").output)
    assert ids[0] not in [lesson["id"] for lesson in after["lessons"]]
    items = json.loads(cli_real("review", "--json").output)["items"]
    assert [(item["id"], item["status"]) for item in items] == [(ids[0], "archived")]
    assert "still wrong" in items[0]["reason"]


def test_an_unreadable_ledger_costs_the_feedback_order_not_the_answer(
    store: Store, settings: Settings, fake_embedder: EmbeddingModel
) -> None:
    from fireworks_skill_memory.memory.store.ledger import ledger_path

    lesson = add_lesson(store, SKILL, "Run pytest with -x to stop at the first failure").lesson
    store.feedback(lesson.id, "wrong")
    Path(ledger_path(settings, SKILL)).unlink()
    Path(ledger_path(settings, SKILL)).mkdir()  # reading it now raises IsADirectoryError
    hits = Retriever(settings, fake_embedder).search("pytest failure", skill=SKILL)
    assert [hit.lesson.id for hit in hits] == [lesson.id]


def test_show_json_answers_without_provenance_when_the_ledger_is_unreadable(
    cli: CliInvoker, env: dict[str, str]
) -> None:
    from fireworks_skill_memory.memory.store.ledger import ledger_path

    cli("add", "--skill", SKILL, "Pin the base image by digest")
    path = Path(ledger_path(load_settings(env), SKILL))
    path.unlink()
    path.mkdir()
    result = cli("show", "--skill", SKILL, "--json")
    assert result.exit_code == 0, result.output
    (lesson,) = json.loads(result.output)["lessons"]
    assert lesson["provenance"] is None and lesson["standing"] == "current"
