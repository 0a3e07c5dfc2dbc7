"""Tests of the three-way decision (memory.dedup.supersede), its matcher wiring and its eval.

Hand-written pairs only (never the dev eval lines). The pure function gets its cosine by
hand; the real_model tests run the same kind of pairs through SemanticMatcher.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.dedup.evaluation import (
    PairOutcome,
    SupersedePair,
    decide_pairs,
    read_pairs,
    supersede_report,
)
from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher, outweighs
from fireworks_skill_memory.memory.dedup.rules import Verdict, decide_pair
from fireworks_skill_memory.memory.dedup.supersede import (
    Decision,
    decide_supersession,
)
from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import FakeEmbedder

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
        "Build the new services on Node 20.",
        "The billing service is still on Node 16; build it with Node 16 until it is ported.",
    ),
    (
        "Create indexes on large tables with `CREATE INDEX CONCURRENTLY`.",
        "After creating an index on a large table, run `ANALYZE` so the planner uses it.",
    ),
    (
        "Never give the `DATABASE_URL` secret a `PUBLIC_` prefix.",
        "Give the analytics id a `PUBLIC_` prefix so the browser bundle can read it.",
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


# Wordings of the generalised rules (issue 12 follow-up): commands without backticks, "end
# of life" / "legacy" / "instead of" / "not X" phrasings; cosines are the real model's.
RETIRED_SUBJECT = [
    (
        "Run the docs build on Hugo 0.92.",
        "Run the docs build on Hugo 0.128; Hugo 0.92 is obsolete.",
        0.95,
    ),
    (
        "Deploy the site with the surge CLI.",
        "Deploy the site with wrangler pages deploy; surge is the legacy path.",
        0.65,
    ),
    (
        "Store feature flags in the settings table.",
        "Store feature flags in LaunchDarkly instead of the settings table.",
        0.83,
    ),
    (
        "Install the CLI globally with npm install -g ourcli.",
        "Run the CLI through npx ourcli, not npm install -g: global installs drift.",
        0.70,
    ),
    (
        "Give the build job 2 CPUs.",
        "Give the build job 6 CPUs; 2 timed out on the asset step.",
        0.73,
    ),
    ("Unstage a file with git reset file.", "Unstage a file with git restore --staged file.", 0.75),
]
SIDE_BY_SIDE = [
    (
        "Deploy the workers with kubectl apply -k overlays/prod.",
        "Deploy the cron jobs with helm upgrade instead of kubectl apply; the chart covers "
        "their schedules.",
        0.56,
    ),
    (
        "Indent YAML files with 2 spaces.",
        "Indent Go files with tabs, not spaces; gofmt enforces it.",
        0.50,
    ),
    (
        "Run alembic upgrade head on deploy.",
        "alembic upgrade head breaks when two heads exist; merge them with alembic merge first.",
        0.72,
    ),
    ("Before a release, run npm run build.", "Before a release, run npm run lint.", 0.76),
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


@pytest.mark.parametrize(("old", "new", "cosine"), RETIRED_SUBJECT)
def test_a_new_lesson_retiring_the_old_subject_supersedes(
    old: str, new: str, cosine: float
) -> None:
    decision = decide_supersession(old, new, cosine)
    assert decision.decision is Decision.SUPERSEDE, decision


@pytest.mark.parametrize(("old", "new", "cosine"), SIDE_BY_SIDE)
def test_another_case_or_step_named_beside_the_old_one_is_kept(
    old: str, new: str, cosine: float
) -> None:
    for delta in (-0.1, 0.0, 0.1):
        decision = decide_supersession(old, new, cosine + delta)
        assert decision.decision is Decision.KEEP_BOTH, (delta, decision)


@pytest.mark.parametrize(("old", "new", "cosine"), RESTATED)
def test_restatements_naming_commands_or_alternatives_merge(
    old: str, new: str, cosine: float
) -> None:
    assert decide_supersession(old, new, cosine).decision is Decision.MERGE


def test_a_changed_command_never_merges_even_at_a_high_cosine() -> None:
    old, new = (
        "Check out a new branch with git checkout -b.",
        "Check out a new branch with git switch -c.",
    )
    assert decide_pair(old, new, 0.95).reason == "command-mismatch"
    assert decide_supersession(old, new, 0.95).decision is Decision.SUPERSEDE
    # the same task done by another command at a middling cosine: in doubt, keep both
    assert decide_supersession(old, new, 0.5).decision is Decision.KEEP_BOTH


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "Add the test runner with npm install.",
            "Add the test runner with npm install -D vitest.",
        ),
        (
            "Make sure to go to the settings page first.",
            "Go to the settings page first, make sure of it.",
        ),
    ],
)
def test_more_arguments_or_english_words_are_no_command_conflict(a: str, b: str) -> None:
    assert decide_pair(a, b, 0.9).reason != "command-mismatch"


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


def test_each_guard_names_itself() -> None:
    assert decide_supersession(*KEEP_BOTH[0], 0.97).reason == "platform"
    condition = decide_supersession(
        "For the public API, the rate limit is 100 requests per minute.",
        "For internal services, the rate limit is now 1000 requests per minute.",
        0.95,
    )
    assert (condition.decision, condition.reason) == (Decision.KEEP_BOTH, "condition")
    assert condition.unclear
    parallel = decide_supersession(
        "Build the services on Node 20.",
        "The billing service is still on Node 16, which is deprecated; build it with Node 16.",
        0.9,
    )
    assert (parallel.decision, parallel.reason) == (Decision.KEEP_BOTH, "parallel")
    step = decide_supersession(*KEEP_BOTH[3], 0.97)
    assert step.decision is Decision.KEEP_BOTH


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
    assert decide_supersession(old, new, 0.8).decision is Decision.KEEP_BOTH


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


def test_matcher_keeps_both_and_asks_no_judge_across_platforms() -> None:
    asked: list[tuple[str, str]] = []

    def judge(a: str, b: str) -> bool:
        asked.append((a, b))
        return True

    old, new = _lesson(KEEP_BOTH[0][0]), _lesson(KEEP_BOTH[0][1])
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
    old_lesson, new_lesson = _lesson(old), _lesson(new)
    match = SemanticMatcher(real_embedder)([old_lesson], new_lesson)
    decided = (
        Decision.MERGE
        if match.target_id
        else Decision.SUPERSEDE
        if match.supersedes
        else Decision.KEEP_BOTH
    )
    assert decided is expected, match


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [(o, n, Decision.SUPERSEDE) for o, n, _ in RETIRED_SUBJECT]
    + [(o, n, Decision.KEEP_BOTH) for o, n, _ in SIDE_BY_SIDE]
    + [(o, n, Decision.MERGE) for o, n, _ in RESTATED],
)
def test_real_model_generalised_decisions(
    real_embedder: EmbeddingModel, old: str, new: str, expected: Decision
) -> None:
    match = SemanticMatcher(real_embedder)([_lesson(old)], _lesson(new))
    decided = (
        Decision.MERGE
        if match.target_id
        else Decision.SUPERSEDE
        if match.supersedes
        else Decision.KEEP_BOTH
    )
    assert decided is expected, match


@pytest.mark.real_model
def test_real_model_supersedes_only_the_outdated_neighbour(real_embedder: EmbeddingModel) -> None:
    outdated = _lesson("The upload endpoint accepts files up to 10 MB.")
    other = _lesson("The upload endpoint needs a bearer token in the Authorization header.")
    new = _lesson("The upload endpoint now accepts files up to 50 MB.")
    match = SemanticMatcher(real_embedder)([other, outdated], new)
    assert match.supersedes == outdated.id and match.target_id is None
