"""In-process ranking for a hook when the service cannot answer in time.

Lexical (BM25 over `tag text`, idf from the skill's own lessons) plus the bounded HIT/age
order to break ties, straight from the markdown. Coarser than the semantic ranking, so
it injects fewer lessons and only on a clear word match. Standard library only.
"""

from __future__ import annotations

import math

from memory.config import Settings

MIN_MATCH = 0.9  # BM25 / sqrt(query terms) of the best lesson needed to inject anything
RELATIVE = 0.5  # others must score at least this share of the best
MAX_LESSONS = 3


def lexical_injection(settings: Settings, skill: str, task: str, by: str) -> str | None:
    """Rank the skill's lessons lexically for `task` and frame the best ones."""
    import time

    from memory import lexical
    from memory.inject import Hit, by_hits_and_age, frame
    from memory.knowledge_files import read_doc
    from memory.usage import record_injection

    lessons = read_doc(settings, skill).lessons()
    if not lessons:
        return None
    ordered = by_hits_and_age(lessons, time.strftime("%Y-%m"))
    if not task.strip():
        hits = ordered[: settings.inject_top]
    else:
        terms = list(dict.fromkeys(lexical.tokenize(task)))
        scores = lexical.bm25_scores(
            terms, [f"{h.lesson.tag or ''} {h.lesson.text}" for h in ordered]
        )
        scale = math.sqrt(len(terms)) or 1.0
        best = max(scores, default=0.0) / scale
        if best < MIN_MATCH:
            return None
        ranked = sorted(range(len(ordered)), key=lambda i: -scores[i])
        hits = [
            Hit(ordered[i].lesson, scores[i] / scale)
            for i in ranked[:MAX_LESSONS]
            if scores[i] / scale >= best * RELATIVE
        ]
    text, kept, _ = frame(
        skill, hits, max_tokens=settings.inject_tokens, ranked_for_task=bool(task.strip())
    )
    record_injection(settings, skill, [hit.lesson.id for hit in kept], by)
    return text or None
