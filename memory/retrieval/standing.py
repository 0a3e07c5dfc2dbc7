"""Feedback, staleness and evidence in the ranking: a disputed lesson ranks below every
undisputed one, an unverified one (its SKILL.md changed since) a little lower than its score
says, and an unverified guess never above a verified (or helped) lesson of similar relevance.

The standings come from the lesson ledger beside the markdown; they are cached until the
ledger, the knowledge file or the skill's SKILL.md changes. `standing_order` is the one
rule, on plain scores: the service orders its `Hit`s with it (`by_standing`), the hook's
in-process fallback its lexical picks (so this module imports only the standard library at
import time).
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False  # the hook's fallback imports this module
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from fireworks_skill_memory.memory.retrieval.records import Hit
    from fireworks_skill_memory.memory.store.markdown_store import Store

# Subtracted from an unverified lesson's score (scores are on the cosine scale): enough to
# let a current lesson of nearly the same score go first, never enough to pass a clear winner.
UNVERIFIED_DEMOTION = 0.05
# "Similar relevance" for evidence: a guess scoring at most this much above a supported
# lesson goes below it (the same scale and size as the demotion; the evaluation data holds
# no evidence, so it cannot be fitted yet).
EVIDENCE_MARGIN = 0.05
SUPPORTED, GUESSED = "supported", "guessed"  # `memory.store.evidence.support`
SKILL_MD_RECHECK = 30.0


def by_standing(
    hits: Sequence[Hit], standings: Mapping[str, str], supports: Mapping[str, str] | None = None
) -> list[Hit]:
    """`hits` reordered: undisputed first (unverified ones demoted), disputed last, and no
    unverified guess above a supported lesson of similar relevance (`supports`: id ->
    `supported` or `guessed`, `Store.supports`)."""
    if not standings and not supports:
        return list(hits)
    order = standing_order(
        [hit.score for hit in hits],
        [standings.get(hit.lesson.id, "current") for hit in hits],
        [(supports or {}).get(hit.lesson.id, "") for hit in hits],
    )
    return [hits[i] for i in order]


def standing_order(
    scores: Sequence[float], standings: Sequence[str], supports: Sequence[str] = ()
) -> list[int]:
    """Positions of ranked items (best first, with their scores and standings) reordered:
    undisputed first, disputed last; when one is unverified, the undisputed are ordered by
    score with UNVERIFIED_DEMOTION taken off each unverified one. Then `evidence_order`."""
    order = _by_standing(scores, standings)
    if GUESSED not in supports or SUPPORTED not in supports:
        return order
    # a disputed lesson's evidence moves nothing: it stays below every undisputed one
    marks = [s if standings[i] != "disputed" else "" for i, s in enumerate(supports)]
    return [order[i] for i in evidence_order([scores[p] for p in order], [marks[p] for p in order])]


def evidence_order(scores: Sequence[float], supports: Sequence[str]) -> list[int]:
    """Positions of ranked items reordered so that no `guessed` one stays above a
    `supported` one scoring at most EVIDENCE_MARGIN less: the guess moves to just below the
    lowest such lesson. Everything else keeps its order."""
    order = list(range(len(scores)))
    for guess in reversed(range(len(scores))):  # bottom-up, so each guess moves once
        if supports[guess] != GUESSED:
            continue
        at = order.index(guess)
        below = [
            k
            for k in range(at + 1, len(order))
            if supports[order[k]] == SUPPORTED
            and scores[guess] - scores[order[k]] <= EVIDENCE_MARGIN
        ]
        if below:
            order.insert(below[-1], order.pop(at))
    return order


def _by_standing(scores: Sequence[float], standings: Sequence[str]) -> list[int]:
    demote = "unverified" in standings

    def key(position: int) -> tuple[bool, float, int]:
        standing = standings[position]
        if not demote:  # only disputed ones move: the ranking's own order stays
            return (standing == "disputed", 0.0, position)
        demotion = UNVERIFIED_DEMOTION if standing == "unverified" else 0.0
        return (standing == "disputed", -(scores[position] - demotion), position)

    return sorted(range(len(scores)), key=key)


class StandingCache:
    """Each scope's standings, read again only when one of the files behind them changed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # (which, scope) -> (the files' stat keys, the map read from them)
        self._cache: dict[tuple[str, str | None], tuple[tuple[object, ...], dict[str, str]]] = {}
        # where each skill's SKILL.md is, looked up again after SKILL_MD_RECHECK seconds (a
        # plugin skill's lookup walks the plugin folders: not on every injection)
        self._skill_md: dict[str, tuple[float, str | None]] = {}

    def get(self, skill: str | None) -> dict[str, str]:
        """id -> `unverified` or `disputed` for the scope's lessons that are not current."""
        return self._cached("standings", skill, self.store.standings)

    def supports(self, skill: str | None) -> dict[str, str]:
        """id -> `supported` or `guessed` for the scope's lessons whose evidence counts."""
        return self._cached("supports", skill, self.store.supports)

    def _cached(
        self, which: str, skill: str | None, read: Callable[[str | None], dict[str, str]]
    ) -> dict[str, str]:
        key = self._key(skill)
        cached = self._cache.get((which, skill))
        if cached is not None and cached[0] == key:
            return cached[1]
        try:
            found = read(skill)
        except OSError:  # an unreadable ledger costs the feedback order, never the answer
            return {}
        self._cache[(which, skill)] = (key, found)
        return found

    def _key(self, skill: str | None) -> tuple[object, ...]:
        from fireworks_skill_memory.memory.store.ledger import ledger_path

        settings = self.store.settings
        skill_md = None if skill is None else self._skill_md_path(skill)
        paths = [ledger_path(settings, skill), self.store.knowledge_path(skill), skill_md]
        return tuple(_stamp(path) for path in paths)

    def _skill_md_path(self, skill: str) -> str | None:
        from fireworks_skill_memory.memory.skill_files import skill_md_path

        now = time.monotonic()
        found = self._skill_md.get(skill)
        if found is None or now - found[0] > SKILL_MD_RECHECK:
            found = (now, skill_md_path(skill, self.store.settings.environ))
            self._skill_md[skill] = found
        return found[1]


def _stamp(path: str | None) -> tuple[int, int, int] | None:
    if path is None:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)
