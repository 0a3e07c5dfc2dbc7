"""Feedback and staleness in the ranking: a disputed lesson ranks below every undisputed one,
an unverified one (its SKILL.md changed since) a little lower than its score says.

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
    from collections.abc import Mapping, Sequence

    from fireworks_skill_memory.memory.retrieval.records import Hit
    from fireworks_skill_memory.memory.store.markdown_store import Store

# Subtracted from an unverified lesson's score (scores are on the cosine scale): enough to
# let a current lesson of nearly the same score go first, never enough to pass a clear winner.
UNVERIFIED_DEMOTION = 0.05
SKILL_MD_RECHECK = 30.0


def by_standing(hits: Sequence[Hit], standings: Mapping[str, str]) -> list[Hit]:
    """`hits` reordered: undisputed first (unverified ones demoted), disputed last."""
    if not standings:
        return list(hits)
    order = standing_order(
        [hit.score for hit in hits], [standings.get(hit.lesson.id, "current") for hit in hits]
    )
    return [hits[i] for i in order]


def standing_order(scores: Sequence[float], standings: Sequence[str]) -> list[int]:
    """Positions of ranked items (best first, with their scores and standings) reordered:
    undisputed first, disputed last; when one is unverified, the undisputed are ordered by
    score with UNVERIFIED_DEMOTION taken off each unverified one."""
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
        self._cache: dict[str | None, tuple[tuple[object, ...], dict[str, str]]] = {}
        # where each skill's SKILL.md is, looked up again after SKILL_MD_RECHECK seconds (a
        # plugin skill's lookup walks the plugin folders: not on every injection)
        self._skill_md: dict[str, tuple[float, str | None]] = {}

    def get(self, skill: str | None) -> dict[str, str]:
        """id -> `unverified` or `disputed` for the scope's lessons that are not current."""
        key = self._key(skill)
        cached = self._cache.get(skill)
        if cached is not None and cached[0] == key:
            return cached[1]
        try:
            standings = self.store.standings(skill)
        except OSError:  # an unreadable ledger costs the feedback order, never the answer
            return {}
        self._cache[skill] = (key, standings)
        return standings

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
