"""Tests of the three-way decision (memory.dedup.decision, through memory.dedup.supersede),
its matcher wiring and its eval.

Hand-written pairs only (never the dev eval lines). The pure function gets its cosine by
hand, or its features directly; the real_model tests run pairs through SemanticMatcher.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.dedup.decision import (
    PARTS,
    Decision,
    Verdict,
    decide,
    shipped_thresholds,
    thresholds_from,
)
from fireworks_skill_memory.memory.dedup.features import PairFeatures
from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher, outweighs
from fireworks_skill_memory.memory.dedup.supersede import decide_supersession
from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.evaluation.dedup_pairs import (
    PairOutcome,
    SupersedePair,
    decide_pairs,
    read_pairs,
    supersede_report,
)
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import Match
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import FakeEmbedder

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

SUPERSEDE = [
    (
        "Run the linter with `eslint --ext .ts src`.",
        "ESLint 9 removed `--ext`; the linter now reads file globs from eslint.config.js, "
        "so run plain `eslint src`.",
    ),
    (
        "Set `max_connections = 100` in postgresql.conf for the reporting database.",
        "Set `max_connections = 250` in postgresql.conf for the reporting database.",
    ),
    (
        "Commit the generated `schema.graphql` file so reviewers see API changes.",
        "Do not commit the generated `schema.graphql` file: it caused constant merge "
        "conflicts. CI regenerates it on every build.",
    ),
    (
        "Call `client.fetch_all()` to page through search results.",
        "`client.fetch_all()` was renamed to `client.iter_pages()` in SDK 3.0; the old name "
        "raises AttributeError when you page through search results.",
    ),
    (
        "The upload endpoint accepts files up to 10 MB.",
        "The upload endpoint now accepts files up to 50 MB.",
    ),
    (
        "Send build notifications with the `slack-notify` action.",
        "The `slack-notify` action is deprecated and unmaintained; send build notifications "
        "with `slackapi/slack-github-action` instead.",
    ),
]
KEEP_BOTH = [
    (
        "On macOS, install ffmpeg with `brew install ffmpeg` before running the encoder.",
        "On Ubuntu, install ffmpeg with `apt-get install ffmpeg` before running the encoder.",
    ),
    (
        "For the public API, set the rate limit to 100 requests per minute.",
        "For internal services, set the rate limit to 1000 requests per minute.",
    ),
    (
        "Indent YAML files with 2 spaces.",
        "Indent Go files with tabs, not spaces; gofmt enforces it.",
    ),
]
MERGE = [
    (
        "Run `terraform fmt -recursive` before committing.",
        "Before committing, run `terraform fmt -recursive`.",
    ),
    (
        "Add the CDN host to `images.remotePatterns`, or remote images fail to load.",
        "Remote images fail to load until the CDN host is added to `images.remotePatterns`.",
    ),
]


RESTATED = [
    (
        "Add dev tools with npm install.",
        "Add dev tools with npm install -D so they stay out of production.",
        0.78,
    ),
    (
        "Prefer Poetry over pipenv for new projects.",
        "Use Poetry rather than pipenv when starting a project.",
        0.90,
    ),
]


@pytest.mark.parametrize(("old", "new", "cosine"), RESTATED)
def test_restatements_naming_commands_or_alternatives_merge(
    old: str, new: str, cosine: float
) -> None:
    assert decide_supersession(old, new, cosine).decision is Decision.MERGE


def test_a_replacement_the_old_lesson_already_disfavours_is_no_change() -> None:
    old = "Use tmp_path for temporary files rather than tmpdir."
    new = "Temporary files go in tmp_path instead of tmpdir."
    assert decide_supersession(old, new, 0.9).decision is Decision.MERGE


def test_retiring_something_the_old_lesson_only_mentions_in_passing_is_no_supersession() -> None:
    old = "Read the version with importlib.metadata; a hand-kept VERSION constant drifted."
    new = "The VERSION constant is obsolete; read the version with importlib.metadata."
    assert decide_supersession(old, new, 0.8).decision is not Decision.SUPERSEDE


def test_a_parallel_case_that_calls_the_old_version_end_of_life_is_kept() -> None:
    old = "Build the API image on Node 20."
    new = "The billing service is still on Node 16, which is end of life; build it on Node 16."
    assert decide_supersession(old, new, 0.8).decision is Decision.KEEP_BOTH


# --------------------------------------------------------------------------- pure function


@pytest.mark.parametrize(("old", "new"), SUPERSEDE)
def test_a_changed_fact_on_one_subject_supersedes(old: str, new: str) -> None:
    decision = decide_supersession(old, new, 0.85)
    assert decision.decision is Decision.SUPERSEDE, decision


@pytest.mark.parametrize(("old", "new"), KEEP_BOTH)
def test_lessons_that_hold_side_by_side_are_kept(old: str, new: str) -> None:
    for cosine in (0.6, 0.7, 0.8):
        decision = decide_supersession(old, new, cosine)
        assert decision.decision is Decision.KEEP_BOTH, (cosine, decision)


@pytest.mark.parametrize(("old", "new"), MERGE)
def test_restatements_merge(old: str, new: str) -> None:
    assert decide_supersession(old, new, 0.9).decision is Decision.MERGE


def test_exact_repeat_merges_whatever_the_cosine() -> None:
    text = "Pin the base image by digest."
    decision = decide_supersession(text, text, 0.1)
    assert (decision.decision, decision.reason) == (Decision.MERGE, "exact")


def test_the_condition_guard_names_itself() -> None:
    condition = decide_supersession(
        "For the public API, the rate limit is 100 requests per minute.",
        "For internal services, the rate limit is now 1000 requests per minute.",
        0.95,
    )
    assert (condition.decision, condition.reason) == (Decision.KEEP_BOTH, "condition")
    assert condition.unclear


def test_a_change_marker_needs_one_subject() -> None:
    old = "Store session tokens in Redis."
    new = "We no longer deploy on Fridays."
    far = decide_supersession(old, new, 0.2)
    assert far.decision is Decision.KEEP_BOTH
    near = decide_supersession(
        "Deploy on Fridays after the freeze review.", "We no longer deploy on Fridays.", 0.7
    )
    assert near.decision is Decision.SUPERSEDE


def test_supersede_evidence_held_back_by_a_guard_is_unclear() -> None:
    old = "On Linux, run the agent with `--mode=fast`."
    new = "On Windows, `--mode=fast` is deprecated; run the agent with `--mode=auto`."
    decision = decide_supersession(old, new, 0.9)
    assert decision.decision is Decision.KEEP_BOTH and decision.unclear


def test_a_denial_about_something_the_old_lesson_never_names_is_no_reversal() -> None:
    old = "Give the analytics key the `NEXT_PUBLIC_` prefix."
    new = "Never give `API_SECRET` the `NEXT_PUBLIC_` prefix."
    assert decide_supersession(old, new, 0.6).decision is not Decision.SUPERSEDE


def test_a_purpose_clause_does_not_reverse_the_lesson() -> None:
    old = "Set `fail-fast: false` so one failing job doesn't cancel the others."
    new = "One failing job cancels the others unless you set `fail-fast: false`."
    assert decide_supersession(old, new, 0.88).decision is not Decision.SUPERSEDE


def test_a_bound_is_not_a_negation() -> None:
    old = "Keep commit subjects to at most 72 characters."
    new = "Commit subjects must not exceed 72 characters."
    assert decide_supersession(old, new, 0.9).decision is not Decision.SUPERSEDE


def test_sql_not_null_is_not_a_negation() -> None:
    old = "Add the column as nullable first, then backfill it."
    new = "Add the column as `NOT NULL` with a default, then backfill it."
    assert decide_supersession(old, new, 0.8).reason != "reversed"


def test_a_new_lesson_dated_before_the_old_one_never_supersedes() -> None:
    old, new = SUPERSEDE[1]
    decision = decide_supersession(old, new, 0.99, old_month="2026-05", new_month="2025-01")
    assert decision.decision is Decision.KEEP_BOTH and decision.unclear


def test_dedup_verdict_is_carried_for_the_judge() -> None:
    decision = decide_supersession(
        "Prefer small focused pull requests.", "Split big changes into reviewable parts.", 0.6
    )
    assert decision.decision is Decision.KEEP_BOTH
    assert decision.dedup_verdict is Verdict.GREY


# --------------------------------------------------------------------------- matcher


def _lesson(text: str, hits: int | None = None) -> Lesson:
    return Lesson(text=text, tag="Limits", month="2025-01", hits=hits, skill="api")


def test_matcher_names_the_outdated_lesson() -> None:
    old, new = _lesson(SUPERSEDE[1][0]), _lesson(SUPERSEDE[1][1])
    match = SemanticMatcher(FakeEmbedder())([old], new)
    assert match.target_id is None
    assert match.supersedes == old.id and match.contested is None
    assert match.reason.startswith("supersedes")


def test_matcher_contests_a_lesson_with_much_stronger_evidence() -> None:
    old, new = _lesson(SUPERSEDE[1][0], hits=9), _lesson(SUPERSEDE[1][1])
    match = SemanticMatcher(FakeEmbedder())([old], new)
    assert match.target_id is None and match.supersedes is None
    assert match.contested == old.id


@pytest.mark.parametrize(
    ("old_hits", "new_hits", "expected"),
    [(None, None, False), (4, 1, False), (5, 1, True), (5, 2, False), (6, 2, True)],
)
def test_outweighs_needs_five_hits_and_three_times_the_new(
    old_hits: int | None, new_hits: int | None, expected: bool
) -> None:
    assert outweighs(_lesson("a", old_hits), _lesson("b", new_hits)) is expected


def test_matcher_keeps_both_and_asks_no_judge_when_a_guard_holds() -> None:
    asked: list[tuple[str, str]] = []

    def judge(a: str, b: str) -> bool:
        asked.append((a, b))
        return True

    old = _lesson("For the public API, the rate limit is 100 requests per minute.")
    new = _lesson("For internal services, the rate limit is now 1000 requests per minute.")
    match = SemanticMatcher(FakeEmbedder(), judge)([old], new)
    assert match.target_id is None and match.supersedes is None and not asked


def test_matcher_still_merges_restatements() -> None:
    old, new = _lesson(MERGE[0][0]), _lesson(MERGE[0][1])
    match = SemanticMatcher(FakeEmbedder())([old], new)
    assert match.target_id == old.id and match.supersedes is None


# --------------------------------------------------------------------------- evaluation


def _pairs_file(tmp_path: Path) -> Path:
    rows = [
        {
            "id": f"p{i}",
            "skill": "s",
            "old": {"tag": "T", "text": old, "month": "2025-01"},
            "new": {"tag": "T", "text": new, "month": "2025-06"},
            "label": label,
            "kind": label,
        }
        for i, (label, (old, new)) in enumerate(
            [("supersede", SUPERSEDE[1]), ("keep_both", KEEP_BOTH[0]), ("merge", MERGE[0])]
        )
    ]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_report_counts_lost_and_retired(tmp_path: Path) -> None:
    pairs = read_pairs(str(_pairs_file(tmp_path)))
    outcomes = [
        PairOutcome("p0", "supersede", "", None),
        PairOutcome("p1", "supersede", "", None),  # a current lesson archived: lost
        PairOutcome("p2", "keep_both", "", None),
    ]
    report = supersede_report(pairs, outcomes)
    assert report.confusion["keep_both"]["supersede"] == 1
    assert (report.overall.lost, report.overall.retired, report.overall.outdated) == (1, 1, 1)
    assert report.by_kind["merge"].correct == 0
    assert report.decided == {"merge": 0, "supersede": 2, "keep_both": 1}


def test_decide_pairs_through_the_matcher(tmp_path: Path) -> None:
    pairs = read_pairs(str(_pairs_file(tmp_path)))
    decisions = [o.decision for o in decide_pairs(pairs, FakeEmbedder())]
    assert decisions == ["supersede", "keep_both", "merge"]


def test_unlabelled_pairs_are_decided_but_not_scored() -> None:
    pair = SupersedePair("x", _lesson("a b c"), _lesson("d e f"))
    report = supersede_report([pair], [PairOutcome("x", "keep_both", "", None)])
    assert report.overall.n == 0 and report.decided["keep_both"] == 1


@pytest.mark.parametrize(
    "line",
    ["not json", "[1]", '{"old": {"text": "a"}}', '{"old": {"text": "a"}, "new": {"text": ""}}'],
)
def test_bad_pair_lines_name_the_line(tmp_path: Path, line: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"bad\.jsonl:1"):
        read_pairs(str(path))


# --------------------------------------------------------------------------- real model


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [(o, n, Decision.SUPERSEDE) for o, n in SUPERSEDE]
    + [(o, n, Decision.KEEP_BOTH) for o, n in KEEP_BOTH]
    + [(o, n, Decision.MERGE) for o, n in MERGE],
)
def test_real_model_decisions_through_the_matcher(
    real_embedder: EmbeddingModel, old: str, new: str, expected: Decision
) -> None:
    match = SemanticMatcher(real_embedder)([_lesson(old)], _lesson(new))
    assert _decided(match) is expected, match


def _decided(match: Match) -> Decision:
    if match.target_id:
        return Decision.MERGE
    return Decision.SUPERSEDE if match.supersedes else Decision.KEEP_BOTH


# Written for these tests (not from any eval set): one pair of each decision.
REAL_MODEL_PAIRS = [
    (
        "Pin the Docker base image by digest so rebuilds stay reproducible.",
        "For reproducible rebuilds, pin the Docker base image to a digest.",
        Decision.MERGE,
    ),
    (
        "The API gateway rejects request bodies larger than 2 MB.",
        "The API gateway now rejects request bodies larger than 8 MB.",
        Decision.SUPERSEDE,
    ),
    (
        "Cache npm downloads in CI with actions/cache keyed on package-lock.json.",
        "Run npm ci instead of npm install in CI so the lockfile is respected.",
        Decision.KEEP_BOTH,
    ),
]


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("old", "new", "expected"), REAL_MODEL_PAIRS, ids=["restatement", "changed", "related"]
)
def test_real_model_merges_supersedes_or_keeps(
    real_embedder: EmbeddingModel, old: str, new: str, expected: Decision
) -> None:
    match = SemanticMatcher(real_embedder)([_lesson(old)], _lesson(new))
    assert _decided(match) is expected, match


@pytest.mark.real_model
def test_real_model_supersedes_only_the_outdated_neighbour(real_embedder: EmbeddingModel) -> None:
    outdated = _lesson("The upload endpoint accepts files up to 10 MB.")
    other = _lesson("The upload endpoint needs a bearer token in the Authorization header.")
    new = _lesson("The upload endpoint now accepts files up to 50 MB.")
    match = SemanticMatcher(real_embedder)([other, outdated], new)
    assert match.supersedes == outdated.id and match.target_id is None


# --------------------------------------------------------------------------- pure decision

T = shipped_thresholds()


def _features(cosine: float, **facts: object) -> PairFeatures:
    return PairFeatures(similarity=cosine, text_match=None, **facts)  # type: ignore[arg-type]


def test_a_conflict_blocks_a_merge_at_any_cosine_unless_switched_off() -> None:
    f = _features(0.99, overlap=0.9, shared=6, conflicts=frozenset({"identifier-mismatch"}))
    assert decide(f, T).decision is Decision.KEEP_BOTH
    assert decide(f, T, frozenset({"identifier-mismatch"})).decision is Decision.MERGE


def test_the_merge_rule_bands() -> None:
    above = _features(T.merge, overlap=0.0)
    assert decide(above, T).decision is Decision.MERGE
    band = (T.support + T.merge) / 2
    shared = _features(band, overlap=T.overlap, shared=T.min_shared)
    assert decide(shared, T).decision is Decision.MERGE
    assert decide(shared, T, frozenset({"overlap step"})).decision is Decision.KEEP_BOTH
    specific = _features(band, overlap=T.overlap, shared=T.min_shared, unshared=True)
    assert decide(specific, T).reason == "unshared-specifics"
    few = _features(band, overlap=T.overlap, shared=T.min_shared - 1)
    assert decide(few, T).dedup_verdict is Verdict.GREY


def test_evidence_comes_before_the_merge_rule() -> None:
    reversed_ = _features(0.95, reversal=T.reversal_coverage, overlap=0.9, shared=5)
    assert decide(reversed_, T).decision is Decision.SUPERSEDE
    weak = _features(0.95, reversal=T.reversal_coverage / 2, overlap=0.9, shared=5)
    assert decide(weak, T).decision is Decision.MERGE
    marked = _features(T.subject, markers=("no longer",))
    assert (decide(marked, T).decision, decide(marked, T).reason) == (
        Decision.SUPERSEDE,
        "marker:no longer",
    )
    far = _features(T.subject - 0.1, markers=("no longer",))
    assert decide(far, T).decision is Decision.KEEP_BOTH and decide(far, T).unclear


def test_a_changed_value_needs_a_conflict_a_cosine_and_the_same_other_words() -> None:
    facts = {
        "conflicts": frozenset({"number-mismatch"}),
        "one_number_changed": True,
        "masked_overlap": T.changed_overlap,
    }
    assert decide(_features(T.changed_value, **facts), T).reason == "changed-value"
    assert decide(_features(T.changed_value - 0.05, **facts), T).decision is Decision.KEEP_BOTH
    two_numbers = {**facts, "one_number_changed": False}
    assert decide(_features(T.changed_value, **two_numbers), T).decision is Decision.KEEP_BOTH
    reworded = {**facts, "masked_overlap": T.changed_overlap - 0.1}
    assert decide(_features(T.changed_value, **reworded), T).decision is Decision.KEEP_BOTH


def test_a_guard_or_an_older_date_holds_evidence_back_as_unclear() -> None:
    guarded = _features(0.9, markers=("now",), guards=frozenset({"condition"}))
    assert (decide(guarded, T).decision, decide(guarded, T).reason) == (
        Decision.KEEP_BOTH,
        "condition",
    )
    assert decide(guarded, T).unclear
    older = _features(0.9, markers=("deprecated",), new_is_older=True)
    assert decide(older, T).decision is Decision.KEEP_BOTH and decide(older, T).unclear


# One feature set per part on which the part changes the decision.
PART_EXAMPLES = {
    "number-mismatch": _features(0.9, conflicts=frozenset({"number-mismatch"})),
    "identifier-mismatch": _features(0.9, conflicts=frozenset({"identifier-mismatch"})),
    "antonym": _features(0.9, conflicts=frozenset({"antonym"})),
    "condition": _features(0.9, markers=("now",), guards=frozenset({"condition"})),
    "reversed": _features(0.6, reversal=1.0),
    "markers": _features(0.6, markers=("no longer",)),
    "changed-value": _features(
        0.95,
        conflicts=frozenset({"antonym"}),
        masked_overlap=1.0,
    ),
    "overlap step": _features((T.support + T.merge) / 2, overlap=1.0, shared=T.min_shared),
    "unshared-specifics": _features(
        (T.support + T.merge) / 2, overlap=1.0, shared=T.min_shared, unshared=True
    ),
}


@pytest.mark.parametrize("part", PARTS)
def test_every_part_can_be_switched_off_and_matters(part: str) -> None:
    f = PART_EXAMPLES[part]
    assert decide(f, T) != decide(f, T, frozenset({part}))


def test_the_shipped_thresholds_are_fitted_by_eval_cv() -> None:
    text = resources.files("fireworks_skill_memory.memory.dedup").joinpath("thresholds.toml")
    header = text.read_text(encoding="utf-8").split("[thresholds]")[0]
    assert "eval cv" in header and "cross-validated" in header
    assert shipped_thresholds() == thresholds_from(
        tomllib.loads(text.read_text(encoding="utf-8"))["thresholds"]
    )


def test_thresholds_from_a_table_are_checked() -> None:
    assert thresholds_from({"merge": 0.9}).merge == 0.9
    with pytest.raises(ValueError, match="unknown"):
        thresholds_from({"merge": 0.9, "typo": 1})
    with pytest.raises(ValueError, match="number"):
        thresholds_from({"merge": "high"})
