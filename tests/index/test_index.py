"""The LanceDB index beside the markdown: incremental sync, model changes, cleanup, commands."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fireworks_skill_memory.index.errors import ModelMismatch
from fireworks_skill_memory.index.table import LessonIndex
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval.clauses import lesson_clauses
from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex
from fireworks_skill_memory.memory.retrieval.retriever import Retriever
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.conftest import CliInvoker, FakeEmbedder, write_eval_corpus


def fill(store: Store) -> None:
    add_lesson(
        store,
        "docker",
        "Copy the lockfile before the sources so the dependency layer stays cached",
        "Cache",
        matcher=None,
    )
    add_lesson(
        store,
        "docker",
        "Inside a container localhost is the container; use host.docker.internal",
        "Net",
        matcher=None,
    )
    add_lesson(
        store,
        "docker",
        "Run containers with --user to keep bind-mounted files editable",
        "Perms",
        matcher=None,
    )
    add_lesson(
        store,
        "pytest",
        "Use monkeypatch for environment variables in fixtures",
        "Fixtures",
        matcher=None,
    )
    add_lesson(store, None, "Reproduce a failure before fixing it", "Verify", matcher=None)


def test_first_sync_embeds_every_lesson_once(
    store: Store, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    fill(store)
    memory = MemoryIndex(settings, fake_embedder)
    report = memory.sync()
    assert (report.files_changed, report.rows, report.embedded) == (3, 5, 5)
    assert memory.sync().changed is False
    assert memory.index.count() == 5
    assert memory.index.count("docker") == 3


def test_hand_edit_is_found_without_reindex_and_only_it_is_embedded(
    store: Store, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    fill(store)
    retriever = Retriever(settings, fake_embedder)
    retriever.search("anything at all", skill="docker")
    path = Path(store.knowledge_path("docker"))
    path.write_text(
        path.read_text().replace("use host.docker.internal", "use the gateway hostname zebra")
    )
    texts_before = fake_embedder.texts_embedded
    hits = retriever.search("gateway hostname zebra", skill="docker", top=1)
    assert "zebra" in hits[0].lesson.text
    # one lesson re-embedded: its two strings (text and "tag: text") and its clauses, plus
    # the query itself
    clauses = lesson_clauses(hits[0].lesson.text)
    assert fake_embedder.texts_embedded - texts_before == 2 + len(clauses) + 1
    assert retriever.memory.index.count("docker") == 3


def test_hit_change_reembeds_nothing(
    store: Store, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    fill(store)
    memory = MemoryIndex(settings, fake_embedder)
    memory.sync()
    before = fake_embedder.texts_embedded
    add_lesson(
        store, "docker", "Run containers with --user to keep bind-mounted files editable"
    )  # exact -> HIT 2
    report = memory.sync()
    assert report.files_changed == 1 and report.embedded == 0 and report.reused == 3
    assert fake_embedder.texts_embedded == before
    rows, _ = memory.index.scope_rows(["docker"])
    assert sorted(row.hits for row in rows) == [1, 1, 2]


def test_removed_lessons_and_files_leave_the_table(
    store: Store, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    fill(store)
    memory = MemoryIndex(settings, fake_embedder)
    memory.sync()
    victim = store.lessons("docker")[0]
    store.remove("docker", [victim.id])
    os.unlink(store.knowledge_path("pytest"))
    report = memory.sync()
    assert report.files_removed == 1
    assert memory.index.count("docker") == 2
    assert memory.index.count("pytest") == 0
    assert victim.id not in {row.id for row in memory.index.scope_rows(["docker"])[0]}


def test_a_racy_same_size_edit_is_still_noticed(
    store: Store, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    fill(store)
    memory = MemoryIndex(settings, fake_embedder)
    memory.sync()
    path = Path(store.knowledge_path("pytest"))
    stat = path.stat()
    path.write_text(path.read_text().replace("monkeypatch", "monkeyPATCH"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same mtime
    assert memory.sync().files_changed == 1


def test_another_model_rebuilds_or_is_refused(
    store: Store, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    fill(store)
    MemoryIndex(settings, fake_embedder).sync()

    class OtherModel(FakeEmbedder):
        model_id = "fake/other-model"

    other = OtherModel()
    with pytest.raises(ModelMismatch, match="built with fake/bag-of-words"):
        LessonIndex(settings.index_dir, other.model_id, other.dimension).table(
            rebuild_on_mismatch=False
        )
    memory = MemoryIndex(settings, other)
    report = memory.sync()
    assert report.rows == 5 and other.texts_embedded > 0
    assert memory.index.stored_model() == ("fake/other-model", 64)


def test_old_versions_are_cleaned_up(
    store: Store, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    memory = MemoryIndex(settings, fake_embedder)
    for n in range(30):
        add_lesson(store, "busy", f"lesson number {n} about topic {n * 7}", matcher=None)
        memory.sync(["busy"])
    versions = Path(settings.index_dir, "lessons.lance", "_versions")
    assert len(list(versions.iterdir())) < 20
    assert memory.index.count("busy") == 30


def test_search_spans_skills_and_global(
    store: Store, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    fill(store)
    hits = Retriever(settings, fake_embedder).search("reproduce the failure first", top=3)
    assert hits[0].lesson.skill is None
    assert hits[0].lesson.text == "Reproduce a failure before fixing it"


def test_search_command_single_and_batch(
    cli: CliInvoker, tmp_path: Path, settings: Settings
) -> None:
    fill(Store(settings))
    out = json.loads(cli("search", "monkeypatch environment variables", "--json").output)
    assert out["results"][0]["skill"] == "pytest"
    assert set(out["results"][0]) == {
        "id",
        "skill",
        "tag",
        "text",
        "score",
        "origin",
        "author",
        "provenance",
        "standing",
        "evidence",
    }
    queries = tmp_path / "q.jsonl"
    queries.write_text(
        json.dumps({"qid": "a", "task": "host.docker.internal localhost", "skill": "docker"})
        + "\n"
        + json.dumps({"qid": "b", "query": "monkeypatch fixtures", "skill": None})
        + "\n"
    )
    lines = (
        cli("search", "--queries", str(queries), "--json", "--top", "2").output.strip().splitlines()
    )
    answers = [json.loads(line) for line in lines]
    assert [a["qid"] for a in answers] == ["a", "b"]
    assert all(r["skill"] == "docker" for r in answers[0]["results"])
    assert answers[1]["results"][0]["skill"] == "pytest"


def test_search_batch_rejects_bad_lines(cli: CliInvoker, tmp_path: Path) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"qid": 1}\n')
    result = cli("search", "--queries", str(queries))
    assert result.exit_code == 1 and "needs a non-empty 'task' or 'query'" in result.output


def test_reindex_and_stats(cli: CliInvoker, settings: Settings) -> None:
    fill(Store(settings))
    assert "indexed 5 lessons from 3 files" in cli("reindex").output
    stats = json.loads(cli("stats", "--json").output)
    assert stats["lessons"] == 4 and stats["global_lessons"] == 1
    assert stats["index"]["rows"] == 5 and stats["index"]["model"] == "fake/bag-of-words"
    assert stats["index"]["bytes"] > 0


def test_inject_with_task_is_gated_and_framed(cli: CliInvoker, settings: Settings) -> None:
    fill(Store(settings))
    out = json.loads(
        cli(
            "inject",
            "--skill",
            "docker",
            "--task",
            "localhost inside a container host.docker.internal",
            "--json",
        ).output
    )
    assert out["ranker"] == "semantic"
    assert out["lessons"][0]["text"].startswith("Inside a container localhost")
    assert all(lesson["id"] in out["text"] for lesson in out["lessons"])


def test_eval_retrieval_on_a_tiny_corpus(cli: CliInvoker, tmp_path: Path) -> None:
    lessons = [
        ("docker-001", "Net", "use host.docker.internal to reach the host from a container"),
        ("docker-002", "Cache", "copy the lockfile before the sources to keep the layer cached"),
    ]
    corpus = write_eval_corpus(tmp_path, "docker", lessons)
    queries = tmp_path / "queries.jsonl"
    queries.write_text(
        json.dumps(
            {
                "qid": "q1",
                "skill": "docker",
                "task": "reach the host from a container",
                "relevant": ["docker-001"],
                "kind": "paraphrase",
            }
        )
        + "\n"
        + json.dumps(
            {
                "qid": "q2",
                "skill": None,
                "task": "lockfile layer cached",
                "relevant": ["docker-002"],
                "kind": "lexical",
            }
        )
        + "\n"
    )
    run_out, ranking_out = tmp_path / "run.jsonl", tmp_path / "ranking.jsonl"
    result = cli(
        "eval",
        "retrieval",
        "--corpus",
        str(corpus),
        "--queries",
        str(queries),
        "--run-out",
        str(run_out),
        "--ranking-out",
        str(ranking_out),
        "--json",
    )
    figures = json.loads(result.output)
    assert set(figures) == {"hits", "bm25", "dense", "ours"}
    assert figures["ours"]["ranking"]["all"]["recall@1"] == 1.0
    ranking = [json.loads(line) for line in ranking_out.read_text().splitlines()]
    assert ranking[0] == {"qid": "q1", "ranked": ["docker-001", "docker-002"]}
    assert {json.loads(line)["qid"] for line in run_out.read_text().splitlines()} == {"q1", "q2"}
