"""retrieval.ranking: bounded HIT/age prior, no-task fallback, gate, embedding texts (fixtures)."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fireworks_skill_memory.memory.retrieval.ranking import (
    ALL_SKILLS_CANDIDATES,
    Candidates,
    RankingWeights,
    gate,
    hits_age_prior,
    hubness,
    lesson_embedding_texts,
    lexical_scores,
    pool_vectors,
    rank,
    task_embedding_texts,
)

TASK = "The background script polls with setInterval and stops after a while under Manifest V3."

TEXTS = [
    "Use chrome.alarms for scheduling tasks instead of setInterval in Manifest V3.",
    "Use descriptive names for variables and functions.",
    "Keep the popup UI small and fast.",
    "Document every permission in the README.",
]
TAGS = ["Browser API Usage", "Code Style", "UI", "Docs"]


def make(
    similarity: list[float],
    hits: list[float] | None = None,
    ages: list[float] | None = None,
    texts: list[str] | None = None,
    tags: list[str] | None = None,
    hub: list[float] | None = None,
) -> Candidates:
    n = len(similarity)
    return Candidates(
        texts=texts if texts is not None else TEXTS[:n],
        tags=tags if tags is not None else TAGS[:n],
        hits=np.asarray(hits if hits is not None else [1.0] * n),
        age_months=np.asarray(ages if ages is not None else [0.0] * n),
        similarity=np.asarray(similarity),
        hub=np.asarray(hub) if hub is not None else None,
    )


hit_values = st.one_of(
    st.integers(min_value=0, max_value=10**9).map(float),
    st.floats(min_value=0, max_value=1e12, allow_nan=False),
)
age_values = st.one_of(
    st.floats(min_value=0, max_value=1e4, allow_nan=False),
    st.just(math.nan),
    st.just(-3.0),
)


class TestBoundedPrior:
    @settings(max_examples=300, deadline=None)
    @given(
        hits_rel=hit_values,
        hits_unrel=hit_values,
        age_rel=age_values,
        age_unrel=age_values,
        sim_rel=st.floats(min_value=0.35, max_value=1.0),
        sim_unrel=st.floats(min_value=-0.2, max_value=0.3),
    )
    def test_relevant_lesson_beats_unrelated_whatever_hits_and_age(
        self,
        hits_rel: float,
        hits_unrel: float,
        age_rel: float,
        age_unrel: float,
        sim_rel: float,
        sim_unrel: float,
    ) -> None:
        # Candidate 0 is about the task (higher cosine, shares setInterval/Manifest); candidate
        # 1 is unrelated, however popular and fresh it is.
        c = make(
            [sim_rel, sim_unrel],
            hits=[hits_rel, hits_unrel],
            ages=[age_rel, age_unrel],
        )
        result = rank(c, TASK)
        assert list(result.order) == [0, 1]

    @settings(max_examples=200, deadline=None)
    @given(
        sims=st.lists(st.floats(min_value=-1, max_value=1), min_size=2, max_size=12),
        data=st.data(),
    )
    def test_prior_moves_scores_by_less_than_its_weight(
        self, sims: list[float], data: st.DataObject
    ) -> None:
        n = len(sims)
        hits = data.draw(st.lists(hit_values, min_size=n, max_size=n))
        ages = data.draw(st.lists(age_values, min_size=n, max_size=n))
        w = RankingWeights()
        texts = [f"lesson number {i}" for i in range(n)]
        result = rank(make(sims, hits, ages, texts, [""] * n), "unrelated words", w)
        relevance = result.scores - w.prior_weight * result.prior
        assert np.all(result.prior >= 0) and np.all(result.prior < 1)
        for a in range(n):
            for b in range(n):
                if relevance[a] >= relevance[b] + w.prior_weight:
                    assert list(result.order).index(a) < list(result.order).index(b)

    def test_prior_is_monotone_and_bounded(self) -> None:
        p = hits_age_prior(np.array([0, 1, 5, 100, 1e15]), np.zeros(5))
        assert np.all(np.diff(p) >= 0)
        assert np.all((p >= 0) & (p < 1))
        q = hits_age_prior(np.full(4, 3.0), np.array([0, 6, 24, 1e6]))
        assert np.all(np.diff(q) < 0) or np.all(np.diff(q) <= 0)
        assert q[0] > q[-1]

    def test_prior_handles_bad_inputs(self) -> None:
        p = hits_age_prior(np.array([-5.0, math.nan, 2.0]), np.array([math.nan, -1.0, math.inf]))
        assert np.all(np.isfinite(p)) and np.all((p >= 0) & (p < 1))


class TestNoTaskFallback:
    @pytest.mark.parametrize("task", [None, "", "   \n"])
    def test_order_is_hits_when_ages_equal(self, task: str | None) -> None:
        c = make([0.9, 0.1, 0.5, 0.2], hits=[1, 9, 12, 4], ages=[3, 3, 3, 3])
        result = rank(c, task)
        assert not result.has_task
        assert math.isnan(result.confidence)
        assert list(result.order) == [2, 1, 3, 0]  # similarity ignored

    def test_newer_first_when_hits_equal(self) -> None:
        c = make([0.9, 0.1, 0.5], hits=[5, 5, 5], ages=[24, 1, 6])
        assert list(rank(c, None).order) == [1, 2, 0]

    def test_order_follows_documented_prior(self) -> None:
        hits, ages = [1, 9, 9, 4], [0, 30, 2, 1]
        expected = np.argsort(-hits_age_prior(np.array(hits), np.array(ages)), kind="stable")
        assert list(rank(make([0.0] * 4, hits, ages), None).order) == list(expected)

    def test_fallback_without_similarity(self) -> None:
        c = Candidates(texts=TEXTS, tags=TAGS, hits=np.array([3, 1, 7, 2]), age_months=np.zeros(4))
        result = rank(c, TASK)
        assert not result.has_task
        assert list(result.order) == [2, 0, 3, 1]

    def test_gate_passes_every_candidate_in_no_task_order(self) -> None:
        c = make([0.0] * 4, hits=[1, 2, 3, 4])
        assert gate(rank(c, None)) == [3, 2, 1, 0]  # the caller caps it (SKILLS_INJECT_TOP)

    def test_stable_on_ties(self) -> None:
        c = make([0.0] * 4)
        assert list(rank(c, None).order) == [0, 1, 2, 3]


class TestGate:
    def test_irrelevant_candidates_inject_nothing(self) -> None:
        texts = ["Keep the popup UI small.", "Document permissions.", "Name things clearly."]
        c = make([0.12, 0.08, 0.05], texts=texts, tags=["UI", "Docs", "Style"])
        result = rank(c, "Set up push notifications with Firebase on iOS.")
        assert result.confidence < RankingWeights().gate_threshold
        assert gate(result) == []

    def test_relevant_candidate_is_injected_first(self) -> None:
        c = make([0.72, 0.30, 0.20, 0.15])
        result = rank(c, TASK)
        injected = gate(result)
        assert injected[:1] == [0]
        # Lessons far below the best one are cut.
        assert all(result.scores[i] >= result.scores[0] - 0.25 for i in injected)

    def test_max_inject_and_relative_cut(self) -> None:
        n = 8
        texts = [f"setInterval alarms note {i}" for i in range(n)]
        c = make([0.8 - 0.01 * i for i in range(n)], texts=texts, tags=[""] * n)
        w = RankingWeights(max_inject=3)
        assert gate(rank(c, TASK, w), w) == [0, 1, 2]
        w = RankingWeights(gate_relative_cut=0.015)
        assert gate(rank(c, TASK, w), w) == [0, 1]

    def test_empty_candidate_set(self) -> None:
        c = Candidates(texts=[], tags=[], hits=np.zeros(0), age_months=np.zeros(0))
        assert gate(rank(c, TASK)) == []
        assert gate(rank(c, None)) == []

    def test_lexical_evidence_raises_confidence(self) -> None:
        plain = make([0.4, 0.3], texts=["unrelated words", "other words"], tags=["", ""])
        shared = make([0.4, 0.3], texts=["setInterval Manifest", "other words"], tags=["", ""])
        assert rank(shared, TASK).confidence > rank(plain, TASK).confidence


class TestRankComponents:
    def test_hubness_penalises_generic_lesson(self) -> None:
        # Two lessons with the same cosine; the one close to all its siblings loses.
        c = make([0.5, 0.5, 0.1, 0.1], hub=[0.1, 0.8, 0.3, 0.3])
        result = rank(c, "nothing lexical here")
        assert list(result.order[:2]) == [0, 1]

    def test_hub_from_vectors(self) -> None:
        v = np.eye(4)[:, :4].astype(np.float64)
        v[1] = pool_vectors(np.array([1.0, 1.0, 1.0, 0.0]))
        c = Candidates(
            texts=TEXTS, tags=TAGS, hits=np.ones(4), age_months=np.zeros(4),
            similarity=np.array([0.5, 0.5, 0.0, 0.0]), vectors=v,
        )  # fmt: skip
        result = rank(c, "zz", RankingWeights(hub_k=3))
        assert result.hub[1] > result.hub[0]
        assert result.order[0] == 0

    def test_two_dimensional_similarity_is_averaged(self) -> None:
        c = make([0.0, 0.0])
        c2 = Candidates(
            texts=c.texts, tags=c.tags, hits=c.hits, age_months=c.age_months,
            similarity=np.array([[0.2, 0.6], [0.5, 0.5]]),
        )  # fmt: skip
        result = rank(c2, "zz")
        assert result.similarity == pytest.approx([0.4, 0.5])

    def test_shape_mismatch_raises(self) -> None:
        c = Candidates(
            texts=TEXTS, tags=TAGS, hits=np.ones(4), age_months=np.zeros(4),
            similarity=np.zeros(3),
        )  # fmt: skip
        with pytest.raises(ValueError, match="similarity"):
            rank(c, TASK)
        c = Candidates(texts=TEXTS, tags=TAGS, hits=np.ones(3), age_months=np.zeros(4))
        with pytest.raises(ValueError, match="hits and age_months"):
            rank(c, TASK)

    def test_lexical_scores_normalised_by_query_length(self) -> None:
        short = lexical_scores("setInterval", TEXTS, TAGS)
        assert short[0] > 0 and np.all(short[1:] == 0)
        padded = lexical_scores("setInterval " + " ".join(f"w{i}x" for i in range(15)), TEXTS)
        assert padded[0] < short[0]

    def test_tokens_cache_matches(self) -> None:
        from fireworks_skill_memory.memory.retrieval import lexical

        toks = [lexical.tokenize(f"{t} {x}") for t, x in zip(TAGS, TEXTS, strict=True)]
        a = lexical_scores(TASK, TEXTS, TAGS)
        b = lexical_scores(TASK, TEXTS, TAGS, tokens=toks)
        assert a == pytest.approx(b)


class TestHubness:
    def test_single_and_empty(self) -> None:
        assert hubness(np.zeros((0, 3))).shape == (0,)
        assert hubness(np.array([[1.0, 0.0]])) == pytest.approx([0.0])

    def test_mean_of_top_k(self) -> None:
        v = np.array([[1.0, 0.0], [0.0, 1.0], pool_vectors(np.array([1.0, 1.0]))])
        h = hubness(v, k=1)
        s = math.sqrt(0.5)
        assert h == pytest.approx([s, s, s])
        h2 = hubness(v, k=5)  # k clipped to n - 1
        assert h2 == pytest.approx([s / 2, s / 2, s])


class TestEmbeddingTexts:
    def test_lesson_texts(self) -> None:
        assert lesson_embedding_texts("Tag", "Do  this.\n") == ["Do this.", "Tag: Do this."]
        assert lesson_embedding_texts("", "Do this.") == ["Do this."]

    def test_short_task_is_one_string(self) -> None:
        assert task_embedding_texts("  Fix   the cache.  ") == ["Fix the cache."]
        assert task_embedding_texts("   ") == []

    def test_long_task_is_chunked_without_losing_words(self) -> None:
        sentence = "The worker keeps a queue of jobs and retries each one after failure. "
        task = sentence * 40
        chunks = task_embedding_texts(task)
        assert 1 < len(chunks) <= 6
        assert " ".join(chunks).split() == task.split()

    def test_one_huge_sentence(self) -> None:
        task = " ".join(f"w{i}" for i in range(150))
        chunks = task_embedding_texts(task)
        assert [len(c.split()) for c in chunks] == [60, 60, 30]

    def test_pool_vectors(self) -> None:
        v = pool_vectors(np.array([[3.0, 0.0], [0.0, 4.0]]))
        assert np.linalg.norm(v) == pytest.approx(1.0)
        assert pool_vectors(np.array([0.0, 2.0])) == pytest.approx([0.0, 1.0])
        assert pool_vectors(np.zeros(3)) == pytest.approx([0.0, 0.0, 0.0])


def test_all_skills_candidate_count() -> None:
    assert ALL_SKILLS_CANDIDATES >= 50


def test_imports_no_model_code() -> None:
    code = (
        "import sys, fireworks_skill_memory.memory.retrieval.ranking;"
        "print(sorted(k for k in sys.modules if k.split('.')[0] in "
        "('torch', 'sentence_transformers', 'lancedb', 'transformers')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
