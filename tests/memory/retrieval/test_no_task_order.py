"""One order without a task: the CLI, the warm service and the hook's fallback agree.

`memory.retrieval.prior.order_without_task` (the bounded HIT/age prior) is the only function that
orders a skill's lessons when there is no task text. The unit tests check that every caller
goes through it; the `real_model` test runs one payload through a real service process and
then, with the service stopped, through the hook's in-process fallback, and compares.
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fireworks_skill_memory.hooks import install as installer
from fireworks_skill_memory.hooks import pre_tool_use
from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.retrieval.inject import by_hits_and_age
from fireworks_skill_memory.memory.retrieval.prior import (
    PriorWeights,
    hits_age_prior,
    months_between,
    order_without_task,
    prior_weights,
)
from fireworks_skill_memory.memory.retrieval.ranking import (
    Candidates,
    RankingWeights,
    gate,
    rank,
)
from fireworks_skill_memory.memory.store.eviction import lesson_value
from fireworks_skill_memory.memory.store.lesson import Lesson, age_in_months
from tests.hook_support import (
    claude_sample,
    cli,
    injections,
    run_command,
    run_main,
    running_service,
    service_env,
)


def month_ago(months: int, today: date | None = None) -> str:
    """`YYYY-MM` of the month `months` before today's."""
    today = today or date.today()
    total = today.year * 12 + today.month - 1 - months
    return f"{total // 12:04d}-{total % 12 + 1:02d}"


# (tag, text, HIT count or None, age in months or None) -- B and A are the example of the
# issue: the eviction value (hits - age penalty) puts A first, the bounded prior B.
LESSONS = [
    ("A", "One confirmation this month", 1, 0),
    ("B", "Ten confirmations two years ago", 10, 24),
    ("C", "Three confirmations half a year ago", 3, 6),
    ("D", "Fifty confirmations ten years ago", 50, 120),
    ("E", "Two confirmations last month", 2, 1),
    ("F", "A line someone wrote by hand, without month or HIT", None, None),
    ("G", "Ten confirmations two years ago, written second", 10, 24),
]


def knowledge_md(today: date | None = None) -> str:
    lines = ["# demo — experience", "", "## Entries", ""]
    for tag, text, hits, age in LESSONS:
        month = f"[{month_ago(age, today)}] " if age is not None else ""
        suffix = f"  [HIT:{hits}]" if hits is not None else ""
        lines.append(f"- {month}[{tag}] {text}{suffix}")
    return "\n".join(lines) + "\n"


def write_demo(settings: Settings) -> Path:
    path = Path(settings.skills_dir) / "demo" / "KNOWLEDGE.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(knowledge_md(), encoding="utf-8")
    return path


def expected_tags() -> list[str]:
    hits = [1 if h is None else h for _, _, h, _ in LESSONS]
    ages = [0 if a is None else a for _, _, _, a in LESSONS]
    return [LESSONS[i][0] for i in order_without_task(hits, ages)]


def tags_in(text: str) -> list[str]:
    return re.findall(r"^- \([0-9a-f]{10}\) \[(\w)\] ", text, flags=re.M)


# ---- the order itself -------------------------------------------------------------------
def test_the_bounded_prior_is_the_order_and_the_eviction_value_is_not() -> None:
    """10 hits at 24 months vs 1 hit at 0 months: the issue's example."""
    assert order_without_task([10, 1], [24, 0]) == [0, 1]
    today = "2026-06"
    old = Lesson("ten", hits=10, month=month_ago(24, date(2026, 6, 1)))
    new = Lesson("one", hits=1, month=today)
    assert lesson_value(new, today) > lesson_value(old, today)  # eviction keeps `new` longer
    assert [hit.lesson for hit in by_hits_and_age([new, old], today)] == [old, new]


def test_expected_order_of_the_fixture() -> None:
    assert expected_tags() == ["D", "B", "G", "E", "C", "A", "F"]


lessons_strategy = st.lists(
    st.tuples(
        st.one_of(st.none(), st.integers(0, 80)),
        st.one_of(st.none(), st.integers(0, 200)),
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(lessons_strategy)
def test_every_no_task_path_orders_alike(rows: list[tuple[int | None, int | None]]) -> None:
    today = date(2026, 6, 1)
    lessons = [
        Lesson(f"lesson {i}", hits=h, month=None if a is None else month_ago(a, today))
        for i, (h, a) in enumerate(rows)
    ]
    hits = [lesson.hit_count for lesson in lessons]
    ages = [months_between(lesson.month, "2026-06") for lesson in lessons]
    expected = order_without_task(hits, ages)
    by_cli = [hit.lesson for hit in by_hits_and_age(lessons, "2026-06")]
    assert by_cli == [lessons[i] for i in expected]
    candidates = Candidates(
        texts=[lesson.text for lesson in lessons],
        tags=[""] * len(lessons),
        hits=np.asarray(hits, dtype=float),
        age_months=np.asarray(ages, dtype=float),
    )
    result = rank(candidates, None)
    assert list(result.order) == expected == gate(result)


@settings(max_examples=300, deadline=None)
@given(
    st.floats(allow_nan=True, allow_infinity=True), st.floats(allow_nan=True, allow_infinity=True)
)
def test_the_prior_stays_in_its_bounds(hits: float, age: float) -> None:
    value = hits_age_prior(hits, age)
    assert 0.0 <= value < 1.0


def test_overrides_of_the_prior_reach_every_path(env: dict[str, str]) -> None:
    settings = load_settings({**env, "SKILL_MEMORY_RANKING": "recency_share=0.9,hits_half=50"})
    weights = prior_weights(settings)
    assert (weights.hits_half, weights.recency_share) == (50, 0.9)
    assert order_without_task([10, 1], [24, 0], weights) == [1, 0]  # recency now dominates
    ranking = RankingWeights(hits_half=50, recency_share=0.9)
    assert vars_of(ranking.prior) == vars_of(weights)


def vars_of(weights: PriorWeights) -> tuple[float, float, float]:
    return (weights.hits_half, weights.age_half_life_months, weights.recency_share)


month_text = st.text(st.sampled_from("0123456789-٠١٢٣x "), max_size=8)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.none(), month_text), month_text)
def test_months_between_is_age_in_months(month: str | None, today: str) -> None:
    assert months_between(month, today) == age_in_months(month, today)


# ---- the paths, in process --------------------------------------------------------------
def no_task_payload(root: Path) -> dict[str, object]:
    payload = claude_sample("PreToolUse(Skill)", root)
    payload.update(session_id="no-task", tool_input={"skill": "demo"}, transcript_path="")
    return payload


def test_the_hook_fallback_and_the_cli_inject_in_the_prior_order(
    tmp_path: Path, settings: Settings, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_demo(settings)
    stamp = Path(settings.run_dir) / "spawn.stamp"
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text("test: no service spawn")
    code, out = run_main(pre_tool_use, no_task_payload(tmp_path))
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert code == 0 and tags_in(text) == expected_tags()
    assert injections(Path(settings.home))[-1]["by"] == "PreToolUse:Skill:fallback"
    done = cli(env, "inject", "--skill", "demo", "--json")
    assert done.returncode == 0, done.stderr
    assert [item["tag"] for item in json.loads(done.stdout)["lessons"]] == expected_tags()


# ---- the real service and the fallback, as processes ------------------------------------
@pytest.mark.slow
@pytest.mark.real_model
def test_the_service_and_the_fallback_inject_the_same_block(tmp_path: Path) -> None:
    """One no-task PreToolUse through the real service, then with the service stopped."""
    env = service_env(tmp_path / "memory", tmp_path / "user", SKILL_MEMORY_HOOK_BUDGET_MS="60000")
    (tmp_path / "user").mkdir()
    settings = load_settings(env)
    write_demo(settings)
    installer.install(str(tmp_path / "settings.json"), home=settings.home)
    data = json.loads((tmp_path / "settings.json").read_text())
    command = data["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    payload = no_task_payload(tmp_path)
    with running_service(env):
        served = run_command(command, payload, env, tmp_path)
        assert injections(Path(settings.home))[-1]["by"] == "PreToolUse:Skill"
    stamp = Path(settings.run_dir) / "spawn.stamp"
    stamp.write_text("test: the service stays down")
    fallback = run_command(command, payload, env, tmp_path)
    assert injections(Path(settings.home))[-1]["by"] == "PreToolUse:Skill:fallback"
    assert (served.returncode, served.stderr) == (fallback.returncode, fallback.stderr) == (0, b"")
    text = json.loads(served.stdout)["hookSpecificOutput"]["additionalContext"]
    assert tags_in(text) == expected_tags()
    assert fallback.stdout == served.stdout
