"""The dedup and supersession components of `eval cv`: one joint fit of the decision's
thresholds on precomputed pair features (hand-made features here, no model, no eval data)."""

from __future__ import annotations

import sys

from fireworks_skill_memory.memory.dedup.decision import Decision, MatchThresholds
from fireworks_skill_memory.memory.dedup.features import PairFeatures
from fireworks_skill_memory.memory.evaluation.cv import ComponentReport, Figure, Measure
from fireworks_skill_memory.memory.evaluation.matching import (
    DEDUP,
    SUPERSESSION,
    MatchCase,
    MatchComponent,
    Tally,
    _plateau_middle,
    fit,
    tally,
    thresholds_toml,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def case(source: str, label: str, cosine: float, skill: str = "s", **facts: object) -> MatchCase:
    features = PairFeatures(similarity=cosine, text_match=None, **facts)  # type: ignore[arg-type]
    return MatchCase(source, skill, label, label, features)


def test_tally_counts_lost_retired_merged_and_false_merges() -> None:
    found = Tally()
    found.add(case(DEDUP, "merge", 0.9), Decision.MERGE)
    found.add(case(DEDUP, "add", 0.9), Decision.MERGE)  # a false merge
    found.add(case(DEDUP, "add", 0.1), Decision.KEEP_BOTH)
    found.add(case(SUPERSESSION, "keep_both", 0.9), Decision.SUPERSEDE)  # lost
    found.add(case(SUPERSESSION, "supersede", 0.9), Decision.SUPERSEDE)
    found.add(case(SUPERSESSION, "merge", 0.9), Decision.KEEP_BOTH)
    m = found.measures()
    assert (m["f1"], m["false merge"], m["precision"], m["recall"]) == (2 / 3, 0.5, 0.5, 1.0)
    assert (m["lost"], m["retired"], m["merged"], m["kept both"]) == (1 / 3, 1.0, 0.0, 0.0)
    # one false merge of two distinct pairs and one lost of three pairs miss their goals
    assert found.objective()[0] == -2.0


def test_plateau_middle_takes_the_middle_of_the_longest_best_run() -> None:
    values = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    scores = [(0.0, 1.0), (0.0, 2.0), (0.0, 2.0), (0.0, 2.0), (0.0, 1.0), (0.0, 2.0)]
    assert _plateau_middle(values, scores) == 0.3


def test_fit_keeps_false_merges_within_the_goal_and_merges_the_rest() -> None:
    cases = [case(DEDUP, "merge", 0.70 + 0.02 * i, overlap=0.0) for i in range(10)]
    cases += [case(DEDUP, "add", 0.006 * i, overlap=0.0) for i in range(100)]
    cases += [case(DEDUP, "add", 0.80, overlap=0.0)]  # a distinct pair inside the positives
    t = fit(cases, frozenset())
    found = tally(cases, t, frozenset()).measures()
    assert found["false merge"] <= 0.01
    assert found["recall"] >= 0.5


def test_folds_deal_each_set_by_skill_on_its_own() -> None:
    cases = [case(DEDUP, "add", 0.1, skill=f"d{i % 7}") for i in range(20)]
    cases += [case(SUPERSESSION, "merge", 0.1, skill=f"s{i % 6}") for i in range(15)]
    component = MatchComponent(DEDUP, (), cases)
    folds = component.folds(cases)
    for source in (DEDUP, SUPERSESSION):
        by_skill: dict[str, set[int]] = {}
        for item, fold in zip(cases, folds, strict=True):
            if item.source == source:
                by_skill.setdefault(item.skill, set()).add(fold)
        assert all(len(found) == 1 for found in by_skill.values())
        assert len({f for found in by_skill.values() for f in found}) == 5


def test_thresholds_file_says_how_it_was_produced() -> None:
    fitted = {"merge": 0.8, "support": 0.6, "min_shared": 3}
    figure = Figure(Measure("f1"), 0.97, 0.95, (0.9, 1.0))
    report = ComponentReport(DEDUP, "5 folds", 150, (figure,), fitted=fitted)
    text = thresholds_toml([report], "skill-memory eval cv --data <eval> --component dedup")
    assert "eval cv" in text and "f1 0.970 / 0.950" in text
    assert MatchThresholds(**tomllib.loads(text)["thresholds"]).support == 0.6
