"""Tests of the dedup view of the decision (memory.dedup.rules) and of the conflict
detectors (memory.dedup.conflicts), on hand-written fixtures.

Cosines are given by hand: the modules never embed, the caller passes the cosine. The
thresholds are the shipped ones (memory/dedup/thresholds.toml, fitted by `eval cv`).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fireworks_skill_memory.memory.dedup.decision import MatchThresholds, shipped_thresholds
from fireworks_skill_memory.memory.dedup.features import pair_features
from fireworks_skill_memory.memory.dedup.rules import (
    PairDecision,
    Verdict,
    clearer_wording,
    conflict_reason,
    content_overlap,
    decide_pair,
    normalize_text,
    pick_merge_target,
)

T = shipped_thresholds()

# --------------------------------------------------------------------------- normalize_text


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Use `uv` for dependency management.", "use uv for dependency management"),
        ("  Prefer   composition\tover inheritance ", "prefer composition over inheritance."),
        ("Don't log secrets.", "dont log secrets"),
        ("**Always** pin the Node version!", "always pin the node version"),
        (
            "- [2025-06] [Tooling] Run `ruff check` before commit.  [HIT:7]",
            "Run ruff check before commit",
        ),
        ("Re-run the failing test.", "rerun the failing test"),
        ("Use “smart quotes” — carefully.", 'use "smart quotes" - carefully'),
    ],
)
def test_normalize_text_equates_cosmetic_variants(a: str, b: str) -> None:
    assert normalize_text(a) == normalize_text(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Set the timeout to 3.5 seconds.", "Set the timeout to 35 seconds."),
        ("Use composition over inheritance.", "Use inheritance over composition."),
        ("Do not cache tokens.", "Do cache tokens."),
    ],
)
def test_normalize_text_keeps_meaningful_differences(a: str, b: str) -> None:
    assert normalize_text(a) != normalize_text(b)


# --------------------------------------------------------------------------- text matches


def test_exact_match_merges_whatever_the_cosine() -> None:
    d = decide_pair("Use uv for dependency management.", "Use uv for dependency management.", 0.1)
    assert d.verdict is Verdict.MERGE
    assert d.reason == "exact"
    assert d.similarity == pytest.approx(0.1)


def test_normalized_match_merges_whatever_the_cosine() -> None:
    d = decide_pair("Use `uv` for dependency management.", "use uv for dependency management", 0.0)
    assert d.verdict is Verdict.MERGE
    assert d.reason == "normalized-text"


# --------------------------------------------------------------------------- conflicts

NEVER_MERGE = [
    # (existing, candidate, expected reason)
    (
        "Set the request timeout to 30 seconds.",
        "Set the request timeout to 60 seconds.",
        "number-mismatch",
    ),
    ("Keep GIFs under 3 seconds.", "Keep GIFs under 30 seconds.", "number-mismatch"),
    ("Pin Node to 18 in CI.", "Pin Node to 20 in CI.", "number-mismatch"),
    ("Wait 30 s for the pods.", "Wait 30 min for the pods.", "number-mismatch"),
    ("Enable strict mode in tsconfig.", "Disable strict mode in tsconfig.", "antonym"),
    (
        "Models shared between related features.",
        "Models shared between unrelated features.",
        "antonym",
    ),
    ("Run migrations before deploying.", "Run migrations after deploying.", "antonym"),
    ("Use synchronous file IO in the CLI.", "Use asynchronous file IO in the CLI.", "antonym"),
    (
        "Use `thiserror` for library errors.",
        "Use `anyhow` for library errors.",
        "identifier-mismatch",
    ),
    ("Run unit tests with Jest.", "Run unit tests with Vitest.", "identifier-mismatch"),
    (
        "Use Redis for caching session data.",
        "Use Memcached for caching session data.",
        "identifier-mismatch",
    ),
    (
        "Integrate SAST into the CI pipeline.",
        "Integrate DAST into the CD pipeline.",
        "identifier-mismatch",
    ),
]


@pytest.mark.parametrize(("a", "b", "reason"), NEVER_MERGE)
@pytest.mark.parametrize("cosine", [0.99, 0.9, 0.7, 0.4])
def test_conflicts_never_merge(a: str, b: str, reason: str, cosine: float) -> None:
    for x, y in ((a, b), (b, a)):
        d = decide_pair(x, y, cosine)
        assert d.verdict is not Verdict.MERGE
        assert d.verdict is (Verdict.GREY if cosine >= T.grey else Verdict.ADD)
    assert conflict_reason(a, b) == reason


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "Use React.lazy for route-level code splitting.",
            "Do not use React.lazy for route-level code splitting.",
        ),
        ("Mock the network in unit tests.", "Never mock the network in unit tests."),
    ],
)
def test_a_reversal_never_merges(a: str, b: str) -> None:
    # the same statement with opposite polarity is supersede evidence, decided before merging
    for x, y in ((a, b), (b, a)):
        d = decide_pair(x, y, 0.97)
        assert (d.verdict, d.reason) == (Verdict.GREY, "reversed")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # the same numbers written differently, or in other units
        ("Keep the palette between 48 and 128 colours.", "Colors: 48-128 (fewer = smaller file)."),
        ("Wait 2 minutes for the pods to settle.", "Wait 120 s for the pods to settle."),
        ("The daemon holds about 400 MB.", "The daemon holds roughly 0.4 GB."),
        # a number on one side only: the more specific wording of the same lesson
        ("Keep Dart lines short.", "Keep Dart lines under 80 characters."),
        # negation on both sides, or moved into the verb
        (
            "Never keep a blocking lock held across an await.",
            "Do not hold blocking locks across `.await`.",
        ),
        # an acronym spelled out on the other side
        (
            "Gate sensitive operations behind role-based access control.",
            "Implement RBAC for sensitive operations.",
        ),
        # an identifier on one side only
        (
            "Use ctx.waitUntil() for async post-response work.",
            "Keep async post-response work alive with `ctx.waitUntil()`.",
        ),
        (
            "Lazy-load route components for code splitting.",
            "Use `React.lazy` for route component code splitting.",
        ),
    ],
)
def test_benign_differences_are_not_conflicts(a: str, b: str) -> None:
    assert conflict_reason(a, b) is None
    assert decide_pair(a, b, 0.9).verdict is Verdict.MERGE


# --------------------------------------------------------------------------- cosine bands


def test_high_cosine_merges() -> None:
    d = decide_pair(
        "Extract reusable logic into custom hooks.", "Put reusable logic in custom hooks.", 0.9
    )
    assert d.verdict is Verdict.MERGE
    assert d.reason == f"cosine>={T.merge:.2f}"


def test_support_band_merges_on_shared_words() -> None:
    a = "Guard data shared with interrupts using critical sections, atomics or queues."
    b = "Protect shared data with critical sections, atomics, or queues."
    assert content_overlap(a, b) >= T.overlap
    d = decide_pair(a, b, (T.support + T.merge) / 2)
    assert d.verdict is Verdict.MERGE
    assert d.reason == f"cosine>={T.support:.2f}+overlap>={T.overlap:.2f}"


def test_grey_band_returns_grey() -> None:
    a = "The helper scripts are huge; run them as black boxes instead of reading them."
    b = "These tools can be very large and pollute your context window."
    d = decide_pair(a, b, (T.grey + T.support) / 2)
    assert d.verdict is Verdict.GREY
    assert d.reason == "grey-band"
    # a moderate cosine without enough shared words is grey too
    d = decide_pair(a, b, (T.support + T.merge) / 2)
    assert d.verdict is Verdict.GREY
    assert d.reason == "grey-band"


def test_below_band_adds() -> None:
    d = decide_pair("Use isort for import sorting.", "Keep styles close to components.", 0.2)
    assert d.verdict is Verdict.ADD
    assert d.reason == "below-band"


def test_topic_words_alone_do_not_merge() -> None:
    # two shared content words ("follow", "laravel") are a topic, not a lesson
    a, b = "Follow Laravel best practices.", "Follow Laravel conventions."
    assert pair_features(a, b, 0.75).shared < T.min_shared
    assert decide_pair(a, b, (T.support + T.merge) / 2).verdict is Verdict.GREY


def test_unshared_specifics_block_support_merges_only() -> None:
    a = "Always include all index fields in the index name, e.g. `by_field1_and_field2`."
    b = "Always include every index field in the name of the index."
    assert pair_features(a, b, 0.70).unshared
    support_band = (T.support + T.merge) / 2
    assert decide_pair(a, b, support_band).reason == "unshared-specifics"
    assert decide_pair(a, b, support_band).verdict is Verdict.GREY
    assert decide_pair(a, b, 0.90).verdict is Verdict.MERGE


def test_nan_cosine_never_merges_without_text_match() -> None:
    d = decide_pair("Use uv.", "Use pip-tools for locking.", math.nan)
    assert d.verdict is Verdict.ADD


# --------------------------------------------------------------------------- thresholds


def test_custom_thresholds_change_the_reason_string() -> None:
    t = MatchThresholds(merge=0.9, support=0.6, overlap=0.5, grey=0.4)
    d = decide_pair("Extract reusable logic into hooks.", "Use hooks for reusable logic.", 0.95, t)
    assert d.reason == "cosine>=0.90"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"merge": 0.5, "support": 0.6},
        {"grey": 0.7, "support": 0.6},
        {"overlap": 1.5},
        {"reversal_coverage": -0.1},
        {"min_shared": -1},
    ],
)
def test_inconsistent_thresholds_are_rejected(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        MatchThresholds(**kwargs)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- merge target


def _d(verdict: Verdict, cos: float, reason: str = "x", overlap: float = 0.5) -> PairDecision:
    return PairDecision(verdict, cos, reason, overlap)


def test_pick_merge_target_prefers_text_match_then_cosine() -> None:
    assert pick_merge_target([]) is None
    assert pick_merge_target([_d(Verdict.GREY, 0.8), _d(Verdict.ADD, 0.2)]) is None
    assert pick_merge_target([_d(Verdict.MERGE, 0.86), _d(Verdict.MERGE, 0.93)]) == 1
    assert pick_merge_target([_d(Verdict.MERGE, 0.99), _d(Verdict.MERGE, 0.4, "exact")]) == 1
    assert pick_merge_target([_d(Verdict.MERGE, 0.9), _d(Verdict.MERGE, 0.9)]) == 0


# --------------------------------------------------------------------------- clearer_wording


@pytest.mark.parametrize(
    ("existing", "candidate", "expected"),
    [
        # more specific: a number, an identifier, a command
        ("Keep Dart lines short.", "Keep Dart lines under 80 characters.", "candidate"),
        ("Keep Dart lines under 80 characters.", "Keep Dart lines short.", "existing"),
        ("Run the linter before committing.", "Run `ruff check` before committing.", "candidate"),
        # not truncated
        (
            "Use `ctx.waitUntil()` for async work that...",
            "Use ctx.waitUntil() for async post-response work.",
            "candidate",
        ),
        # within the length window
        ("Cache.", "Cache expensive lookups per request.", "candidate"),
        (
            "Cache expensive lookups per request. " * 12,
            "Cache expensive lookups per request.",
            "candidate",
        ),
        # a tie keeps the existing wording
        (
            "Extract reusable logic into custom hooks.",
            "Use custom hooks for reusable logic.",
            "existing",
        ),
    ],
)
def test_clearer_wording(existing: str, candidate: str, expected: str) -> None:
    want = existing if expected == "existing" else candidate
    assert clearer_wording(existing, candidate) == want


# --------------------------------------------------------------------------- properties

VOCAB = [
    "use", "never", "not", "always", "avoid", "cache", "tokens", "the", "in", "for", "tests",
    "`uv`", "`pip`", "Redis", "Jest", "30", "60", "seconds", "before", "after", "enable",
    "disable", "related", "unrelated", "over", "inheritance", "composition", "RBAC", "ctx.wait()",
    "route", "components", "lazy", "data", "shared", "features", "with", "errors", "library",
]  # fmt: skip
texts = st.lists(st.sampled_from(VOCAB), min_size=1, max_size=12).map(" ".join)
cosines = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)
cosmetic = st.sampled_from(
    [str.upper, str.lower, lambda s: s + ".", lambda s: f"  {s}  ", lambda s: s.replace(" ", "  ")]
)


@settings(max_examples=300, deadline=None)
@given(texts, cosmetic, cosines)
def test_cosmetic_variants_merge_symmetrically(text: str, change: object, cos: float) -> None:
    other = change(text)  # type: ignore[operator]
    for x, y in ((text, other), (other, text)):
        d = decide_pair(x, y, cos)
        assert d.verdict is Verdict.MERGE
        assert d.reason in ("exact", "normalized-text")


@settings(max_examples=400, deadline=None)
@given(texts, texts, cosines)
def test_verdict_is_symmetric(a: str, b: str, cos: float) -> None:
    assert decide_pair(a, b, cos).verdict is decide_pair(b, a, cos).verdict


@settings(max_examples=400, deadline=None)
@given(texts, texts, st.floats(min_value=-1.0, max_value=T.grey, exclude_max=True))
def test_never_merge_below_grey_without_text_match(a: str, b: str, cos: float) -> None:
    d = decide_pair(a, b, cos)
    if normalize_text(a) != normalize_text(b):
        assert d.verdict is Verdict.ADD


@settings(max_examples=300, deadline=None)
@given(texts, texts, cosines, cosines)
def test_merge_is_monotonic_in_cosine(a: str, b: str, c1: float, c2: float) -> None:
    lo, hi = min(c1, c2), max(c1, c2)
    if decide_pair(a, b, lo).verdict is Verdict.MERGE:
        assert decide_pair(a, b, hi).verdict is Verdict.MERGE
