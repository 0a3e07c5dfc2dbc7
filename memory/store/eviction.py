"""Which lessons leave a full file: the original tool's value rule, unchanged.

value = hits - max(0, (age_in_months - 3) * 0.5); the lowest values go first and,
among equal values, the entry that comes first in the file (the older one).
"""

from __future__ import annotations

from collections.abc import Sequence

from fireworks_skill_memory.memory.store.lesson import Lesson, age_in_months

GRACE_MONTHS = 3
AGE_PENALTY_PER_MONTH = 0.5


def lesson_value(lesson: Lesson, today_month: str) -> float:
    """How much a lesson is worth keeping."""
    age = age_in_months(lesson.month, today_month)
    return lesson.hit_count - max(0.0, (age - GRACE_MONTHS) * AGE_PENALTY_PER_MONTH)


def to_evict(lessons: Sequence[Lesson], limit: int, today_month: str) -> list[int]:
    """Positions (into `lessons`) to drop so that at most `limit` remain."""
    excess = len(lessons) - limit
    if excess <= 0:
        return []
    order = sorted(
        range(len(lessons)), key=lambda pos: (lesson_value(lessons[pos], today_month), pos)
    )
    return sorted(order[:excess])
