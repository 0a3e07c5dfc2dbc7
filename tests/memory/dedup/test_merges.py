"""`memory.dedup.rules.merges` (what team push and the team layer ask) says MERGE exactly when
`decide_pair` does: it only skips the supersession evidence for pairs the merge rule keeps
apart, which that evidence could never have merged."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fireworks_skill_memory.memory.dedup.rules import DEFAULT_THRESHOLDS as T
from fireworks_skill_memory.memory.dedup.rules import Verdict, decide_pair, merges
from tests.memory.dedup.test_dedup_rules import NEVER_MERGE, VOCAB
from tests.memory.dedup.test_supersede import KEEP_BOTH, MERGE, SUPERSEDE

PAIRS = [(a, b) for a, b in (*SUPERSEDE, *KEEP_BOTH, *MERGE)] + [(a, b) for a, b, _ in NEVER_MERGE]
BANDS = (0.0, T.grey, (T.grey + T.support) / 2, T.support, (T.support + T.merge) / 2, T.merge, 1.0)


@pytest.mark.parametrize("cosine", BANDS)
def test_merges_agrees_with_decide_pair_on_labelled_pairs(cosine: float) -> None:
    for old, new in PAIRS:
        for a, b in ((old, new), (new, old)):
            assert merges(a, b, cosine) is (decide_pair(a, b, cosine).verdict is Verdict.MERGE)
    assert any(merges(a, b, 1.0) for a, b in PAIRS)  # both answers are seen
    assert not all(merges(a, b, 1.0) for a, b in PAIRS)


texts = st.lists(st.sampled_from(VOCAB), min_size=1, max_size=12).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(texts, texts, st.floats(min_value=-1.0, max_value=1.0, allow_nan=False))
def test_merges_agrees_with_decide_pair(a: str, b: str, cosine: float) -> None:
    assert merges(a, b, cosine) is (decide_pair(a, b, cosine).verdict is Verdict.MERGE)
