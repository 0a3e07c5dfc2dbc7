"""The failure glossary: its entries are well formed, and it finds lessons the error never names."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval import glossary
from fireworks_skill_memory.memory.retrieval.failure import failure_task, normalise_line
from fireworks_skill_memory.memory.retrieval.failure_ranking import failure_hits
from fireworks_skill_memory.memory.retrieval.glossary import (
    MAX_MATCHES,
    GlossaryError,
    all_symptoms,
    matching_symptoms,
)
from fireworks_skill_memory.memory.retrieval.glossary.families import (
    FILES,
    Family,
    all_families,
    parse_families,
)
from fireworks_skill_memory.memory.retrieval.glossary.vectors import (
    explanation_texts,
    explanation_vectors,
    vectors_path,
)
from fireworks_skill_memory.memory.retrieval.retriever import Retriever
from fireworks_skill_memory.memory.retrieval.vector_file import read_vectors
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import FakeEmbedder

SUCCESS_LINES = [
    "",
    "All 12 tests passed in 3 seconds",
    "Build succeeded",
    "Compiled successfully",
    "found 0 vulnerabilities",
    "Finished release [optimized] target(s)",
    "ok  github.com/acme/api/internal/store",
    "Apply complete! Resources: 3 added, 0 changed, 0 destroyed.",
    "Successfully installed requests idna",
    "Tests: 14 passed, 14 total",
]


def test_every_entry_is_well_formed() -> None:
    entries = all_symptoms()
    assert len(entries) >= 300
    assert len({entry.name for entry in entries}) == len(entries)
    for entry in entries:
        assert re.compile(entry.pattern, re.IGNORECASE)
        assert 10 <= len(entry.explains.split()) <= 60, entry.name


def test_no_entry_matches_a_success() -> None:
    for line in SUCCESS_LINES:
        assert matching_symptoms([line]) == [], line


def families_matching(line: str) -> set[str]:
    """The families whose pattern matches one output line, normalised as the failure path does."""
    found = matching_symptoms([normalise_line(line)], limit=len(all_symptoms()))
    return {entry.name for entry in found}


@pytest.mark.parametrize("family", all_families(), ids=lambda family: family.symptom.name)
def test_every_entry_matches_its_examples_and_not_its_near_misses(family: Family) -> None:
    name = family.symptom.name
    assert family.matches and family.misses
    for line in family.matches:
        assert name in families_matching(line), f"{name} should match: {line}"
    for line in family.misses:
        assert name not in families_matching(line), f"{name} should not match: {line}"


def test_the_data_files_are_read_in_order_once() -> None:
    assert [family.symptom for family in all_families()] == list(all_symptoms())
    files = [FILES.index(family.source) for family in all_families()]
    assert files == sorted(files) and set(files) == set(range(len(FILES)))
    assert all_symptoms() is all_symptoms()
    assert all_symptoms()[0].name == "python-module-not-found"


ENTRY = """
[[family]]
name = "demo"
pattern = '''(?-i:DemoError)'''
explains = "A demo."
matches = ["DemoError: boom"]
misses = ["OtherError: boom"]
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[family]\nname = 1", "demo.toml: not valid TOML"),
        ("[other]\nkey = 1", "demo.toml: expected only [[family]] items"),
        (ENTRY.replace("matches = ", "matchs = "), "family 1 ('demo'): unknown keys ['matchs']"),
        (ENTRY.replace('"DemoError: boom"', ""), "family 1 ('demo'): 'matches' must be"),
        (ENTRY.replace('explains = "A demo."', 'explains = ""'), "'explains' must be"),
        (ENTRY + "environment = 'yes'", "'environment' must be true or false"),
        (ENTRY + ENTRY.replace('"demo"', "2"), "family 2: 'name' must be a non-empty string"),
    ],
)
def test_a_malformed_data_file_names_the_file_and_the_entry(text: str, message: str) -> None:
    with pytest.raises(GlossaryError, match=re.escape(message)):
        parse_families("demo.toml", text)


def test_a_bad_pattern_names_the_file_and_the_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    families = parse_families("demo.toml", ENTRY.replace("(?-i:DemoError)", "(?-i:Demo("))
    monkeypatch.setattr(glossary, "all_families", lambda: families)
    glossary._compiled.cache_clear()
    try:
        with pytest.raises(GlossaryError, match=r"demo\.toml: family 'demo': bad pattern"):
            matching_symptoms(["DemoError: boom"])
    finally:
        monkeypatch.undo()
        glossary._compiled.cache_clear()


def test_a_well_formed_entry_is_parsed_into_a_symptom() -> None:
    (family,) = parse_families("demo.toml", ENTRY + "environment = true")
    assert family.symptom.name == "demo" and family.symptom.environment
    assert family.matches == ("DemoError: boom",) and family.source == "demo.toml"


def test_families_matching_later_lines_come_first_and_are_capped() -> None:
    lines = [
        "npm ci",
        "Error: listen EADDRINUSE: address already in use :::3000",
        "fatal error: concurrent map writes",
    ]
    found = matching_symptoms(lines)
    assert 1 < len(found) <= MAX_MATCHES
    assert re.search(found[0].pattern, lines[2], re.IGNORECASE)
    assert found[-1].environment  # the port in use is the earlier line
    assert len(matching_symptoms(lines * 10, limit=1)) == 1


GO_LESSONS = [
    "Guard a map shared between goroutines with a sync.Mutex, or use sync.Map.",
    "Name packages with short lowercase words, no underscores.",
    "Return early on errors to keep the happy path unindented.",
    "Write table-driven tests with t.Run for each case.",
    "Keep interfaces small and define them where they are used.",
    "Document every exported identifier with a comment starting with its name.",
]
DOCKER_LESSONS = [
    "Pin base images to a version tag, never latest.",
    "Order Dockerfile steps from least to most often changed to keep the cache.",
    "Run the container as a non-root user.",
    "Use multi-stage builds so the runtime image holds no compilers.",
]


@pytest.mark.real_model
@pytest.mark.slow
def test_real_model_explains_a_failure_through_its_family(
    tmp_path: Path, settings: Settings, real_embedder: EmbeddingModel
) -> None:
    store = Store(settings)
    for text in GO_LESSONS:
        add_lesson(store, "go", text, matcher=None)
    for text in DOCKER_LESSONS:
        add_lesson(store, "docker", text, matcher=None)
    retriever = Retriever(settings, real_embedder)
    race = failure_task(
        "go test ./internal/cache/...",
        "fatal error: concurrent map writes\n\ngoroutine 42 [running]:\n"
        "github.com/acme/api/internal/cache.(*Store).Put(...)\nFAIL\tgithub.com/acme/api",
    )
    shown = [hit.lesson.text for hit in failure_hits(retriever, ["go"], race)]
    assert shown and shown[0] == GO_LESSONS[0]
    daemon = failure_task(
        "docker compose up -d db",
        "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. "
        "Is the docker daemon running?",
    )
    assert failure_hits(retriever, ["docker"], daemon) == []


def test_explanation_vectors_are_embedded_once_and_read_back(settings: Settings) -> None:
    embedder = FakeEmbedder()
    first = explanation_vectors(settings, embedder)
    assert set(first) == set(explanation_texts()) and embedder.calls > 0
    path = Path(vectors_path(settings, embedder.model_id, explanation_texts()))
    assert path.exists()
    again = FakeEmbedder()
    second = explanation_vectors(settings, again)
    assert again.calls == 0
    assert all(np.array_equal(first[text], second[text]) for text in first)
    path.write_bytes(b"not an array")  # derived state: a damaged file is embedded again
    assert set(explanation_vectors(settings, FakeEmbedder())) == set(first)
    assert len(read_vectors(str(path), FakeEmbedder().dimension)) == len(first)


def test_pinned_vectors_are_never_embedded_again(settings: Settings) -> None:
    embedder = FakeEmbedder()
    retriever = Retriever(settings, embedder)
    text = explanation_texts()[0]
    retriever.pin_vectors({text: np.ones(embedder.dimension, dtype=np.float32)})
    vector = retriever.task_vector(text)
    assert embedder.calls == 0
    assert np.allclose(vector, np.ones(embedder.dimension) / np.sqrt(embedder.dimension))
