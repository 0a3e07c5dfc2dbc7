"""The failure task text (normaliser) and the failure gate, on small fixtures of our own."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from fireworks_skill_memory.memory.retrieval import lexical
from fireworks_skill_memory.memory.retrieval.failure import (
    FAILURE_HEADING,
    TASK_WORDS,
    failure_block,
    failure_task,
    normalise_line,
)
from fireworks_skill_memory.memory.retrieval.failure_ranking import failure_weights, rank_scope
from fireworks_skill_memory.memory.retrieval.glossary import all_symptoms, matching_symptoms
from fireworks_skill_memory.memory.retrieval.ranking import Features, RankingWeights
from fireworks_skill_memory.memory.retrieval.retriever import (
    ScopeCandidates,
    Task,
    scope_features,
    task_text,
)
from tests.conftest import CliInvoker, write_eval_corpus


# ---- normaliser -------------------------------------------------------------------------
def test_noise_is_removed() -> None:
    line = (
        "2024-11-05T09:41:27.123Z [1730801122.301145882] build 0x7ffd5b3e finished in 21.9s"
        " at 12:01:44 (8/11) 45% id=3c9d7b1e04a2 ━━━━━━━━━━ [=====>    ]"
    )
    cleaned = normalise_line(line)
    for noise in ("2024", "09:41", "1730801122", "0x7ffd", "21.9s", "12:01", "8/11", "45%"):
        assert noise not in cleaned
    assert "3c9d7b1e04a2" not in cleaned and "━" not in cleaned and "====" not in cleaned
    assert "build" in cleaned and "finished" in cleaned


def test_positions_and_temporary_paths_go_but_the_meaningful_path_stays() -> None:
    cleaned = normalise_line(
        '  File "/home/ana/shop/app/models.py", line 88, in load_rows'
        " /tmp/pytest-of-ana/pytest-12/test_x0/data.csv src/api/normalize.ts:14:36"
    )
    assert "line 88" not in cleaned and "ana" not in cleaned and "pytest-of" not in cleaned
    assert ":14" not in cleaned and ":36" not in cleaned
    assert "app/models.py" in cleaned and "load_rows" in cleaned
    assert "src/api/normalize.ts" in cleaned


def test_error_signal_is_kept() -> None:
    cleaned = normalise_line(
        "npm error code EBADENGINE --omit=dev TS2345 E0382 HTTP/2 504"
        ' psycopg2.errors.UndefinedTable: relation "events" does not exist'
    )
    for kept in ("EBADENGINE", "--omit=dev", "TS2345", "E0382", "504", "UndefinedTable"):
        assert kept in cleaned
    assert "does not exist" in cleaned


def test_failure_task_keeps_the_command_and_the_error_lines() -> None:
    output = "\n".join(
        [
            "Collecting packages ...",
            *[f"  downloading chunk {i} of 400 [{'#' * (i % 30)}]" for i in range(400)],
            "Traceback (most recent call last):",
            '  File "/home/dev/app/main.py", line 3, in <module>',
            '  File "/home/dev/app/db.py", line 41, in connect',
            '  File "/usr/lib/python3.12/socket.py", line 962, in getaddrinfo',
            "ConnectionRefusedError: [Errno 111] Connection refused",
        ]
    )
    task = failure_task("python app/main.py --port 8080", output)
    assert task.startswith("python app/main.py --port 8080")
    assert "ConnectionRefusedError" in task and "Connection refused" in task
    assert "socket.py" not in task  # only the first stack frame is kept
    assert "downloading" not in task


def test_failure_task_is_capped_and_empty_for_nothing() -> None:
    assert failure_task("", "") == ""
    long_error = "\n".join(f"error: missing field number{i} in record" for i in range(500))
    task = failure_task("load --all", long_error)
    assert task.startswith("load --all\n")
    assert len(task.split("\n")[1].split()) <= TASK_WORDS
    one_long_line = "error: " + " ".join(f"field{i}" for i in range(500))
    long_task = failure_task("load", one_long_line)
    assert len(long_task.split("\n")[1].split()) == TASK_WORDS


def test_the_task_is_the_command_then_the_error_lines() -> None:
    task = failure_task("docker build -t api .", "npm error code EBADENGINE\nexit code 1")
    command, error = task.split("\n")
    assert command == "docker build -t api ."
    assert "EBADENGINE" in error and "docker" not in error


def test_normalised_text_matches_the_lesson_lexically() -> None:
    """What the normaliser keeps is what BM25 needs: the error's own words."""
    task = failure_task(
        "docker build -t api .",
        "#7 12.84 npm error code EBADENGINE\n#7 12.84 npm error engine Unsupported engine\n",
    )
    terms = set(lexical.tokenize(task))
    assert set(lexical.tokenize("EBADENGINE unsupported engine npm")) <= terms
    assert not any(term.isdigit() and len(term) > 2 for term in terms)


# ---- failure block ----------------------------------------------------------------------
def test_failure_block_has_its_own_heading() -> None:
    text, kept, kept_global = failure_block(
        ["- (a1) [Docker] Pin the node engine"], [], max_tokens=400
    )
    assert text.splitlines()[0] == FAILURE_HEADING
    assert "Pin the node engine" in text and (kept, kept_global) == (1, 0)
    assert failure_block([], [], max_tokens=400) == ("", 0, 0)


# ---- failure ranking ----------------------------------------------------------------------
DIMENSIONS = 4


def _scope(texts: list[str], vectors: np.ndarray) -> ScopeCandidates:
    from fireworks_skill_memory.index.table import Row
    from fireworks_skill_memory.memory.store.lesson import Lesson

    lessons = [Lesson(text=text, tag="", month="2026-01", hits=1, skill="node") for text in texts]
    rows = [Row(f"n{i}", "node", "", text, "2026-01", 1, i, "", "") for i, text in enumerate(texts)]
    return ScopeCandidates(
        rows=rows,
        lessons=lessons,
        vectors=vectors,
        hub=np.zeros(len(texts)),
        tokens=[lexical.tokenize(text) for text in texts],
        ages=np.zeros(len(texts)),
    )


class FixedRetriever:
    """One scope's lessons and a vector per embedded text: the failure text gets `whole`,
    a glossary explanation `explained`."""

    def __init__(self, scope: ScopeCandidates, whole: list[float], explained: list[float]):
        self.scope, self.whole, self.explained = scope, whole, explained
        self.embedded: list[Task] = []

    def candidates(self, skill: str | None) -> ScopeCandidates:
        return self.scope

    def task_vector(self, task: Task) -> np.ndarray:
        self.embedded.append(task)
        explanations = {family.explains for family in all_symptoms()}
        vector = self.explained if task in explanations else self.whole
        return np.asarray(vector) / np.linalg.norm(vector)

    def query_features(self, candidates: ScopeCandidates, task: Task) -> Features | None:
        text = task_text(task)
        assert text is not None
        return scope_features(candidates, self.task_vector(task), text, RankingWeights())


DOUBLE_FREE = "free(): double free detected in tcache 2\nAborted (core dumped)"
PORT_IN_USE = "Error: listen EADDRINUSE: address already in use :::3000"
WEIGHTS = failure_weights()


def test_the_glossary_knows_both_kinds_of_fixture_failure() -> None:
    code = matching_symptoms(failure_task("./app", DOUBLE_FREE).split("\n"))
    assert code and not code[0].environment
    machine = matching_symptoms(failure_task("npm start", PORT_IN_USE).split("\n"))
    assert machine and machine[0].environment


def test_the_failure_text_is_embedded_whole() -> None:
    scope = _scope(["prune the docker build cache", "pin the node engines"], np.eye(2, DIMENSIONS))
    retriever = FixedRetriever(scope, [0.0, 1.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0])
    task = failure_task("docker build .", "npm error code EBADENGINE")
    ranking = rank_scope(retriever, "node", task)
    assert task in retriever.embedded
    assert ranking.ranked[0].lesson.text == "pin the node engines"


def test_the_explanation_finds_the_lesson_that_shares_no_word_with_the_error() -> None:
    texts = ["prefer std::vector to C arrays", "follow the rule of five", "name headers .hpp"]
    scope = _scope(texts, np.eye(3, DIMENSIONS))
    retriever = FixedRetriever(scope, [1.0, 0.2, 0.0, 1.0], [0.0, 1.0, 0.0, 0.0])
    task = failure_task("./build/tests/buffer_test", DOUBLE_FREE)
    ranking = rank_scope(retriever, "node", task)
    assert ranking.ranked[0].lesson.text == "follow the rule of five"  # the explanation's pick
    assert [hit.lesson.text for hit in ranking.injected] == ["follow the rule of five"]


def test_no_family_and_a_middling_match_injects_nothing() -> None:
    middling = WEIGHTS.ranking.gate_threshold - 0.05
    vectors = np.asarray([[middling, np.sqrt(1 - middling**2), 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]])
    scope = _scope(["rotate the logs weekly", "keep the cache warm"], vectors)
    retriever = FixedRetriever(scope, [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0])
    ranking = rank_scope(retriever, "node", failure_task("make", "make: *** [all] Stop"))
    assert ranking.confidence < WEIGHTS.ranking.gate_threshold and ranking.injected == []


def test_at_most_max_inject_close_lessons_are_shown() -> None:
    scope = _scope([f"lesson {i}" for i in range(5)], np.tile([1.0, 0.0, 0.0, 0.0], (5, 1)))
    retriever = FixedRetriever(scope, [1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0])
    ranking = rank_scope(retriever, "node", failure_task("./app", DOUBLE_FREE))
    assert len(ranking.injected) == WEIGHTS.ranking.max_inject


def test_a_failure_of_the_machine_gets_no_credit_from_its_explanation() -> None:
    scope = _scope(["start the dev server on a free port"], np.eye(1, DIMENSIONS))
    retriever = FixedRetriever(scope, [1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0])
    machine = rank_scope(retriever, "node", failure_task("npm start", PORT_IN_USE))
    code = rank_scope(retriever, "node", failure_task("./app", DOUBLE_FREE))
    credit = WEIGHTS.ranking.gate_evidence_weight  # times an explanation cosine of 1.0 here
    assert credit > 0
    assert machine.confidence == pytest.approx(code.confidence - credit, abs=0.05)


# ---- eval retrieval on failure queries --------------------------------------------------
def test_eval_retrieval_accepts_failure_queries(cli: CliInvoker, tmp_path: Path) -> None:
    lessons = [
        ("node-001", "Disk", "npm ENOSPC no space left on device: prune the docker build cache"),
        ("node-002", "Engines", "EBADENGINE means the node version is outside package engines"),
        ("node-003", "Style", "name React components in PascalCase"),
    ]
    corpus = write_eval_corpus(tmp_path, "node", lessons)
    queries = [
        {
            "qid": "f1",
            "skill": "node",
            "command": "npm ci",
            "error": "npm ERR! code ENOSPC\nnpm ERR! ENOSPC: no space left on device, write",
            "relevant": ["node-001"],
            "kind": "direct",
        },
        {
            "qid": "f2",
            "skill": "node",
            "command": "make release",
            "error": "make: *** [Makefile:12: release] Error 2",
            "relevant": [],
            "kind": "none",
        },
    ]
    path = tmp_path / "errors.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in queries))
    run_out, ranking_out = tmp_path / "run.jsonl", tmp_path / "ranking.jsonl"
    result = cli(
        "eval",
        "retrieval",
        "--corpus",
        str(corpus),
        "--queries",
        str(path),
        "--run-out",
        str(run_out),
        "--ranking-out",
        str(ranking_out),
        "--json",
    )
    figures = json.loads(result.output)
    assert set(figures) == {"hits", "bm25", "dense", "ours"}
    assert set(figures["ours"]["injected"]) == {"all", "direct", "none"}
    ranking = {r["qid"]: r["ranked"] for r in map(json.loads, ranking_out.read_text().splitlines())}
    assert ranking["f1"][0] == "node-001" and len(ranking["f1"]) == 3
    run = {r["qid"]: r["ranked"] for r in map(json.loads, run_out.read_text().splitlines())}
    assert len(run["f1"]) <= 2 and run["f2"] == []


def test_the_eval_builds_the_task_text_as_the_hook_does() -> None:
    from fireworks_skill_memory.memory.retrieval.evaluation import query_task

    failure = {"qid": "x", "command": "npm ci", "error": "npm ERR! code ENOSPC"}
    assert query_task(failure) == failure_task("npm ci", "npm ERR! code ENOSPC")
    assert query_task({"qid": "y", "task": "deploy"}) == "deploy"


def test_versions_stay_whole() -> None:
    cleaned = normalise_line('Actual: {"npm":"10.9.2","node":"v23.6.1"} after 0.214 python3.12')
    assert "10.9.2" in cleaned and "v23.6.1" in cleaned and "python3.12" in cleaned
    assert "0.214" not in cleaned
