"""Task-aware ranking of a skill's lessons, and the gate that decides what to inject.

Formula
-------
For one query (the agent's task text) and ``n`` candidate lessons, lesson ``i`` gets::

    relevance_i = cos_i - HUB * hub_i + LEX * lex_i
    score_i     = relevance_i + PRIOR * prior_i            (prior_i in [0, 1))

with the tuned defaults ``HUB = 0.4``, ``LEX = 0.01``, ``PRIOR = 0.01`` (:class:`RankingWeights`).

* ``cos_i`` -- cosine between the task vector and the lesson vector (all-MiniLM-L6-v2,
  normalised); within one skill, the larger of that and the lesson's best clause's cosine
  (:mod:`.clauses`), while the gate's confidence reads the whole-lesson cosine
  (``Candidates.gate_similarity``). The lesson vector is the normalised mean of the embeddings of
  :func:`lesson_embedding_texts` (the bare text and ``"tag: text"``); the task vector is the
  normalised mean of the embeddings of :func:`task_embedding_texts` (see :func:`pool_vectors`).
* ``hub_i`` -- *hubness* of the lesson (:func:`hubness`): its mean cosine to its ``hub_k = 10``
  nearest fellow candidates. Generic lessons ("use descriptive test names") sit close to many of
  their siblings and to almost any task about the skill; subtracting a share of their
  neighbourhood similarity (CSLS-style hubness reduction) lets the specific lesson that matches
  the task win. It depends only on the lessons, so callers compute it once per skill.
* ``lex_i`` -- BM25 (``k1 = 1.2``, ``b = 0.3``) of the task against ``tag + " " + text`` with idf
  from the candidates themselves (words the whole skill shares count for little), divided by
  the square root of the number of distinct query terms so that it does not grow with the
  length of the task (:func:`lexical_scores`).
* ``prior_i`` -- :func:`hits_age_prior`, ``(1 - R) * h / (h + H0) + R * 0.5 ** (age / T)`` with
  ``H0 = 5`` hits, ``T = 12`` months, ``R = 0.3``: saturating in the HIT count, decaying with
  age, always in ``[0, 1)`` (the formula lives in :mod:`.prior`, standard library only,
  so the hook's in-process fallback orders by the very same function).

Why the HIT/age term is bounded
-------------------------------
``PRIOR * prior_i`` lies in ``[0, PRIOR)``. HIT counts grow with use, not with relevance to the
current task, so they must never beat the task signal: a lesson whose relevance is higher by at
least ``PRIOR`` (a hundredth of a cosine) always ranks above another, whatever the HIT counts and
ages are. The prior only orders near-ties -- and it is the whole order when there is no task text
(:func:`rank` then returns :func:`.prior.order_without_task`, the one no-task order every
path uses).

Gate
----
Whether anything is injected is decided per query from a confidence::

    confidence = max_i(cos_i - HUB * hub_i) + GATE_LEX * max_i(lex_i)

Nothing is injected when ``confidence < GATE_THRESHOLD`` (0.50, with ``GATE_LEX = 0.2``);
otherwise the top lessons whose score is within ``GATE_RELATIVE_CUT`` (0.25) of the best one are
injected, at most ``MAX_INJECT`` (5). The dense part alone separates poorly (tasks about the
skill that no lesson covers still reach cosines like covered ones); a word shared with one
lesson but not with the rest of the skill (high skill-local BM25) is the stronger evidence that
some lesson is about *this* problem.

Integration
-----------
* Per lesson, embed every string of :func:`lesson_embedding_texts` and store
  :func:`pool_vectors` of them (one 384-d vector per lesson).
* Per query, embed every string of :func:`task_embedding_texts` (one string for a short task, a
  few sentence chunks for a long one) and pool them the same way.
* Skill-scoped: pass all lessons of the skill. All skills: take the ``ALL_SKILLS_CANDIDATES``
  (100) lessons with the highest cosine first and pass those (hubness within those candidates).
* :func:`hubness` is a small matrix product: run numpy with a single BLAS thread
  (``OPENBLAS_NUM_THREADS=1``) in latency-sensitive processes, or cache it per skill.

numpy only (and :mod:`memory.retrieval.lexical`, standard library); no model code here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from fireworks_skill_memory.memory.retrieval import lexical
from fireworks_skill_memory.memory.retrieval.fitted import fitted
from fireworks_skill_memory.memory.retrieval.prior import (
    AGE_HALF_LIFE_MONTHS,
    HITS_HALF,
    PRIOR_WEIGHT,
    RECENCY_SHARE,
    PriorWeights,
    order_without_task,
)
from fireworks_skill_memory.memory.retrieval.prior import hits_age_prior as prior_of

__all__ = [
    "ALL_SKILLS_CANDIDATES",
    "Candidates",
    "Features",
    "RankedResult",
    "RankingWeights",
    "features",
    "gate",
    "hits_age_prior",
    "hubness",
    "lesson_embedding_texts",
    "lexical_scores",
    "pool_vectors",
    "rank",
    "score",
    "task_embedding_texts",
]

FloatArray = npt.NDArray[np.float64]

#: For an all-skills search, how many lessons (by plain cosine) to rerank.
ALL_SKILLS_CANDIDATES = 100

#: A task longer than this many words is embedded as several chunks (MiniLM truncates at 256
#: word pieces and was trained on short texts).
_CHUNK_WORDS = 60
#: At most this many chunks are embedded per task (query-time budget).
_MAX_CHUNKS = 6


def _task(key: str) -> Callable[[], float]:
    """The default of a weight fitted for task ranking (`memory.retrieval.fitted`)."""
    return lambda: float(fitted("task", key))


@dataclass(frozen=True)
class RankingWeights:
    """Every tunable of :func:`rank` and :func:`gate`; by default the task ranking's.

    The weights and the gate are fitted by `eval cv` and read from `weights.toml`
    (`memory.retrieval.fitted`); the BM25, hubness-neighbourhood and prior constants are the
    formula's fixed shape.
    """

    hub_weight: float = field(default_factory=_task("hub_weight"))
    """HUB: share of a lesson's neighbourhood similarity subtracted from its cosine."""
    hub_k: int = 10
    """Neighbours averaged for the hubness (fewer when there are fewer candidates)."""
    lexical_weight: float = field(default_factory=_task("lexical_weight"))
    """LEX: weight of the length-normalised skill-local BM25 in the relevance."""
    bm25_k1: float = 1.2
    """BM25 term-frequency saturation."""
    bm25_b: float = 0.3
    """BM25 length normalisation (lessons are short and of similar length)."""
    prior_weight: float = PRIOR_WEIGHT
    """PRIOR: the most the HIT/age prior can add to a score (a hundredth of a cosine)."""
    hits_half: float = HITS_HALF
    """H0: HIT count at which the HIT part of the prior reaches half its maximum."""
    age_half_life_months: float = AGE_HALF_LIFE_MONTHS
    """T: age at which the recency part of the prior halves."""
    recency_share: float = RECENCY_SHARE
    """R: share of the prior given to recency (the rest goes to HIT count)."""
    gate_threshold: float = field(default_factory=_task("gate_threshold"))
    """GATE_THRESHOLD: minimum confidence for injecting anything."""
    gate_lexical_weight: float = field(default_factory=_task("gate_lexical_weight"))
    """GATE_LEX: weight of the best lexical match in the confidence."""
    gate_relative_cut: float = field(default_factory=_task("gate_relative_cut"))
    """GATE_RELATIVE_CUT: inject lessons whose score is within this of the best one."""
    max_inject: int = 5
    """MAX_INJECT: most lessons injected for one task."""
    gate_evidence_weight: float = 0.0
    """GATE_EVIDENCE: weight of the best match of `Features.evidence` in the confidence."""

    @property
    def prior(self) -> PriorWeights:
        """The HIT/age prior's share of these weights."""
        return PriorWeights(self.hits_half, self.age_half_life_months, self.recency_share)


@dataclass(frozen=True)
class Candidates:
    """What the caller supplies for one query: ``n`` candidate lessons, as plain arrays.

    ``similarity`` is the cosine between the task vector and each lesson vector, shape ``(n,)``
    (a 2-D ``(n, m)`` array, one column per task vector, is averaged over columns); it may be
    ``None`` only when there is no task. ``vectors`` (``(n, d)``, normalised) is used to compute
    the hubness when ``hub`` is not given; with neither, the hubness term is left out.
    """

    texts: Sequence[str]
    tags: Sequence[str]
    hits: npt.ArrayLike
    age_months: npt.ArrayLike
    similarity: npt.ArrayLike | None = None
    vectors: npt.ArrayLike | None = None
    hub: npt.ArrayLike | None = None
    tokens: Sequence[Sequence[str]] | None = None
    """Pre-tokenized ``lexical.tokenize(tag + " " + text)`` per lesson (optional cache)."""
    gate_similarity: npt.ArrayLike | None = None
    """The cosine the gate's confidence reads, when it is not ``similarity`` (the ranking may
    take a lesson's best clause, `memory.retrieval.clauses`; whether to inject at all reads the
    whole-lesson cosine)."""


@dataclass(frozen=True)
class RankedResult:
    """Ranking of one query's candidates; arrays are indexed by candidate, not by rank."""

    order: npt.NDArray[np.intp]
    """Candidate indices, best first."""
    scores: FloatArray
    """Final score per candidate (``relevance + PRIOR * prior``)."""
    similarity: FloatArray
    """``cos_i`` (zeros when there is no task)."""
    hub: FloatArray
    """``hub_i`` (zeros when not available)."""
    lexical: FloatArray
    """``lex_i`` (zeros when there is no task)."""
    prior: FloatArray
    """``prior_i`` in ``[0, 1)``."""
    confidence: float
    """Gate confidence; ``nan`` when there is no task (the fallback order is used)."""
    has_task: bool = field(default=True)


def lesson_embedding_texts(tag: str, text: str) -> list[str]:
    """Strings to embed for one lesson; store :func:`pool_vectors` of their embeddings."""
    text = " ".join(text.split())
    tag = " ".join(tag.split())
    if not tag:
        return [text]
    return [text, f"{tag}: {text}"]


_SENTENCE_RE: re.Pattern[str] | None = None


def task_embedding_texts(task: str) -> list[str]:
    """Strings to embed for a task; pool their embeddings with :func:`pool_vectors`.

    A task of up to ``_CHUNK_WORDS`` (60) words is embedded whole. A longer one is split at
    sentence ends (and a very long sentence every ``_CHUNK_WORDS`` words) and consecutive pieces
    are packed into chunks of at most ``_CHUNK_WORDS`` words, so that nothing is cut off by the
    model's input limit. If that gives more than ``_MAX_CHUNKS`` (6) chunks, neighbouring chunks
    are merged evenly to stay within the query-time budget. Every word is kept, in order.
    """
    global _SENTENCE_RE
    words = task.split()
    if len(words) <= _CHUNK_WORDS:
        return [" ".join(words)] if words else []
    if _SENTENCE_RE is None:
        _SENTENCE_RE = re.compile(r"(?<=[.!?;])\s+|\n\s*\n")
    pieces: list[list[str]] = []
    for sent in _SENTENCE_RE.split(task):
        sw = sent.split()
        for i in range(0, len(sw), _CHUNK_WORDS):
            pieces.append(sw[i : i + _CHUNK_WORDS])
    chunks: list[list[str]] = []
    for p in pieces:
        if chunks and len(chunks[-1]) + len(p) <= _CHUNK_WORDS:
            chunks[-1].extend(p)
        elif p:
            chunks.append(list(p))
    if len(chunks) > _MAX_CHUNKS:
        per = math.ceil(len(chunks) / _MAX_CHUNKS)
        chunks = [[w for c in chunks[i : i + per] for w in c] for i in range(0, len(chunks), per)]
    return [" ".join(c) for c in chunks]


def pool_vectors(vectors: npt.ArrayLike) -> FloatArray:
    """Normalised mean of embedding rows (``(m, d)`` -> ``(d,)``); a 1-D input is normalised."""
    v = np.asarray(vectors, dtype=np.float64)
    if v.ndim == 2:
        v = v.mean(axis=0)
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


def hubness(vectors: npt.ArrayLike, k: int = 10) -> FloatArray:
    """Mean cosine of each row to its ``k`` most similar other rows (0 for a single row).

    Rows must be normalised. Cost ``O(n^2 d)``: about 1 ms for 100 lessons of 384 dims.
    """
    v = np.asarray(vectors, dtype=np.float64)
    n = v.shape[0]
    if n < 2:
        return np.zeros(n)
    kk = max(1, min(k, n - 1))
    sims = v @ v.T
    np.fill_diagonal(sims, -np.inf)
    top = np.partition(sims, n - kk, axis=1)[:, n - kk :]
    result: FloatArray = top.mean(axis=1)
    return result


def hits_age_prior(
    hits: npt.ArrayLike,
    age_months: npt.ArrayLike,
    weights: RankingWeights | None = None,
) -> FloatArray:
    """Bounded usefulness prior in ``[0, 1)``: ``(1-R) h/(h+H0) + R 0.5**(age/T)``.

    Negative HIT counts and ages count as 0; NaN ages count as very old. Used (times
    ``prior_weight``) as a tie-breaker in :func:`rank`; element by element it is
    :func:`memory.retrieval.prior.hits_age_prior`, the function the no-task order sorts by.
    """
    w = (weights or RankingWeights()).prior
    h, a = np.broadcast_arrays(
        np.asarray(hits, dtype=np.float64), np.asarray(age_months, dtype=np.float64)
    )
    values = [prior_of(float(x), float(y), w) for x, y in zip(h.ravel(), a.ravel(), strict=True)]
    prior: FloatArray = np.asarray(values, dtype=np.float64).reshape(h.shape)
    return prior


def lexical_scores(
    task: str,
    texts: Sequence[str],
    tags: Sequence[str] | None = None,
    *,
    tokens: Sequence[Sequence[str]] | None = None,
    weights: RankingWeights | None = None,
) -> FloatArray:
    """``lex_i``: skill-local BM25 of ``task`` vs ``tag + " " + text``, over sqrt(#query terms)."""
    w = weights or RankingWeights()
    if tokens is None:
        tg = tags if tags is not None else [""] * len(texts)
        tokens = [lexical.tokenize(f"{t} {x}") for t, x in zip(tg, texts, strict=True)]
    q_terms = list(dict.fromkeys(lexical.tokenize(task)))
    if not q_terms or not tokens:
        return np.zeros(len(tokens))
    raw = lexical.bm25_scores(q_terms, doc_tokens=tokens, k1=w.bm25_k1, b=w.bm25_b)
    return np.asarray(raw, dtype=np.float64) / math.sqrt(len(q_terms))


@dataclass(frozen=True)
class Features:
    """What the formula reads for one query over ``n`` candidates, indexed by candidate.

    Computed once per query (:func:`features`); :func:`score` turns them into a ranking for
    given weights, so the evaluation can try many weights on the same features and the
    product ranks with the very same function.
    """

    similarity: FloatArray
    """``cos_i``: the whole-lesson cosine (the gate reads it)."""
    best_clause: FloatArray
    """The larger of ``cos_i`` and the lesson's best clause's cosine (the clause view)."""
    hub: FloatArray
    lexical: FloatArray
    prior: FloatArray
    evidence: FloatArray | None = None
    """A second cosine per lesson that only the gate reads (a failure's glossary explanations):
    its best match, less hubness, adds ``GATE_EVIDENCE`` times itself to the confidence."""


def features(c: Candidates, task: str, weights: RankingWeights | None = None) -> Features:
    """The formula's inputs for a task (``c.similarity`` must be given)."""
    w = weights or RankingWeights()
    n = len(c.texts)
    assert c.similarity is not None
    sim = np.asarray(c.similarity, dtype=np.float64)
    if sim.ndim == 2:
        sim = sim.mean(axis=1)
    if sim.shape != (n,):
        raise ValueError(f"similarity must have {n} rows, got shape {sim.shape}")
    if c.hub is not None:
        hub = np.asarray(c.hub, dtype=np.float64)
    elif c.vectors is not None:
        hub = hubness(c.vectors, w.hub_k)
    else:
        hub = np.zeros(n)
    whole = sim
    if c.gate_similarity is not None:
        whole = np.asarray(c.gate_similarity, dtype=np.float64).reshape(n)
    return Features(
        similarity=whole,
        best_clause=sim,
        hub=hub,
        lexical=lexical_scores(task, c.texts, c.tags, tokens=c.tokens, weights=w),
        prior=hits_age_prior(np.asarray(c.hits, dtype=np.float64), c.age_months, w),
    )


def score(f: Features, weights: RankingWeights | None = None) -> RankedResult:
    """Rank by ``cos - HUB * hub + LEX * lex + PRIOR * prior`` and compute the gate confidence."""
    w = weights or RankingWeights()
    dense = f.best_clause - w.hub_weight * f.hub
    scores = dense + w.lexical_weight * f.lexical + w.prior_weight * f.prior
    order = np.argsort(-scores, kind="stable")
    gate_dense = f.similarity - w.hub_weight * f.hub
    confidence = (
        float(gate_dense.max() + w.gate_lexical_weight * f.lexical.max())
        if len(scores)
        else math.nan
    )
    if f.evidence is not None and w.gate_evidence_weight and len(scores):
        confidence += w.gate_evidence_weight * float(np.max(f.evidence - w.hub_weight * f.hub))
    return RankedResult(
        order=order,
        scores=scores,
        similarity=f.best_clause,
        hub=f.hub,
        lexical=f.lexical,
        prior=f.prior,
        confidence=confidence,
        has_task=True,
    )


def rank(c: Candidates, task: str | None, weights: RankingWeights | None = None) -> RankedResult:
    """Rank candidates for ``task`` (see the module docstring for the formula).

    With no task text (``None``, empty or blank) or no similarity, the order is
    :func:`.prior.order_without_task` and ``confidence`` is NaN (the gate then passes
    every candidate through in that order). Ties keep the candidates' input order.
    """
    w = weights or RankingWeights()
    n = len(c.texts)
    hits = np.asarray(c.hits, dtype=np.float64)
    ages = np.asarray(c.age_months, dtype=np.float64)
    if hits.shape != (n,) or ages.shape != (n,) or len(c.tags) != n:
        raise ValueError(
            f"tags, hits and age_months must have {n} entries like texts, got "
            f"{len(c.tags)}, {hits.shape} and {ages.shape}"
        )
    has_task = bool(task and task.strip()) and c.similarity is not None
    if not has_task or n == 0:
        prior = hits_age_prior(hits, ages, w)
        zeros = np.zeros(n)
        order = np.asarray(order_without_task(hits.tolist(), ages.tolist(), w.prior), dtype=np.intp)
        return RankedResult(
            order=order,
            scores=w.prior_weight * prior,
            similarity=zeros,
            hub=zeros,
            lexical=zeros,
            prior=prior,
            confidence=math.nan,
            has_task=False,
        )
    assert task is not None
    return score(features(c, task, w), w)


def gate(result: RankedResult, weights: RankingWeights | None = None) -> list[int]:
    """Candidate indices worth injecting, in rank order; possibly empty.

    No task: every candidate, in the no-task order (the caller caps the count with
    ``SKILLS_INJECT_TOP``). Otherwise nothing when the confidence is below
    ``gate_threshold``, else the top lessons whose score is within ``gate_relative_cut`` of the
    best, at most ``max_inject``.
    """
    w = weights or RankingWeights()
    order = [int(i) for i in result.order]
    if not order:
        return []
    if not result.has_task:
        return order
    if not result.confidence >= w.gate_threshold:
        return []
    best = float(result.scores[order[0]])
    return [i for i in order[: w.max_inject] if result.scores[i] >= best - w.gate_relative_cut]
