"""Dedup policy: does a new lesson restate, outdate or add to the ones a skill has?

For a candidate and the skill's lessons: exact or normalized-text match -> merge; otherwise
the three-way decision of `memory.dedup.supersede` (built on the pair rule of
`memory.dedup.rules`) on the nearest lessons by cosine (plain text embeddings, the scale the
thresholds were calibrated on): MERGE merges (HIT + 1, clearer wording, month refreshed);
SUPERSEDE adds the candidate and names the nearest outdated lesson in `Match.supersedes`
(or in `Match.contested` when that lesson has much stronger evidence, see
`outweighs`); KEEP_BOTH adds, after asking the judge ("same lesson?") about a grey-band
pair when one is configured. Nothing is ever dropped on a doubt.

`Store.add` calls the matcher with no lock held and may call it again when the skill changed
meanwhile, so vectors and judge verdicts are cached by text: a second call embeds only the
lessons it has not seen and asks the judge nothing twice. The model loads on the first
embedding, so an empty skill or an exact repeat never loads it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.dedup.decision import (
    Decision,
    MatchThresholds,
    Supersession,
    Verdict,
    decide,
    shipped_thresholds,
)
from fireworks_skill_memory.memory.dedup.evidence import GUARDS
from fireworks_skill_memory.memory.dedup.features import pair_features
from fireworks_skill_memory.memory.dedup.rules import clearer_wording
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import Match, Matcher, exact_matcher

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.models.embedders import EmbeddingModel

Judge = Callable[[str, str], "bool | None"]
NEAREST = 5
VECTOR_CACHE = 4096
# "The newer lesson wins unless the older has much stronger evidence": an outdated-looking
# lesson with at least CONTESTED_MIN_HITS HITs and CONTESTED_RATIO times the candidate's is
# kept and the pair marked for review instead. Five HITs is five sessions that re-learned it.
CONTESTED_MIN_HITS = 5
CONTESTED_RATIO = 3


def outweighs(old: Lesson, new: Lesson) -> bool:
    """True when ``old`` has much stronger evidence (HITs) than ``new``."""
    return old.hit_count >= CONTESTED_MIN_HITS and old.hit_count >= CONTESTED_RATIO * max(
        new.hit_count, 1
    )


class SemanticMatcher:
    """A `Matcher` that compares embeddings, with an optional LLM judge for the grey band."""

    def __init__(
        self,
        embedder: EmbeddingModel,
        judge: Judge | None = None,
        thresholds: MatchThresholds | None = None,
    ) -> None:
        self.embedder = embedder
        self.judge = judge
        self.thresholds = thresholds or shipped_thresholds()
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._verdicts: dict[tuple[str, str], bool | None] = {}

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if missing:
            for text, vector in zip(missing, self.embedder.embed_batch(missing), strict=True):
                self._vectors[text] = vector
        while len(self._vectors) > VECTOR_CACHE:
            self._vectors.popitem(last=False)
        return np.stack([self._vectors[t] for t in texts])

    def _ask_judge(self, judge: Judge, existing: str, candidate: str) -> bool | None:
        key = (existing, candidate)
        if key not in self._verdicts:
            if len(self._verdicts) >= VECTOR_CACHE:
                self._verdicts.clear()
            self._verdicts[key] = judge(existing, candidate)
        return self._verdicts[key]

    def decide(self, existing: Lesson, candidate: Lesson, similarity: float) -> Supersession:
        """The three-way decision for one (existing, candidate) pair at a known cosine."""
        features = pair_features(
            existing.text,
            candidate.text,
            similarity,
            old_month=existing.month,
            new_month=candidate.month,
        )
        return decide(features, self.thresholds)

    def __call__(self, existing: Sequence[Lesson], candidate: Lesson) -> Match:
        exact = exact_matcher(existing, candidate)
        if exact.target_id is not None or not existing:
            return exact
        vectors = self._embed([candidate.text, *(lesson.text for lesson in existing)])
        similarities = vectors[1:] @ vectors[0]
        nearest = sorted(range(len(existing)), key=lambda i: -float(similarities[i]))[:NEAREST]
        best = float(similarities[nearest[0]])
        grey_reason = None
        outdated: tuple[Lesson, Supersession] | None = None
        for i in nearest:
            target = existing[i]
            decision = self.decide(target, candidate, float(similarities[i]))
            if decision.decision is Decision.MERGE:
                wording = clearer_wording(target.text, candidate.text)
                return Match(target.id, decision.reason, decision.similarity, wording)
            if decision.decision is Decision.SUPERSEDE:
                outdated = outdated or (target, decision)
                continue
            if (
                decision.dedup_verdict is not Verdict.GREY
                or decision.reason in GUARDS
                or grey_reason is not None
            ):
                continue
            if self.judge is None:
                grey_reason = "grey-band, no judge"
                continue
            # one judge call per candidate: the nearest grey-band lesson is the likeliest twin
            verdict = self._ask_judge(self.judge, target.text, candidate.text)
            if verdict:
                wording = clearer_wording(target.text, candidate.text)
                return Match(target.id, "judge:same", decision.similarity, wording)
            grey_reason = "judge:different" if verdict is False else "grey-band, judge failed"
        if outdated is not None:
            return _supersession_match(outdated[0], candidate, outdated[1])
        if grey_reason is not None:
            return Match(None, grey_reason, best)
        return Match(None, "below-band", best)

    def settle(self, old: Lesson, candidate: Lesson, match: Match) -> Match:
        """`match`, or a supersession when the distiller said `candidate` replaces `old` and
        the local decision on that pair was unclear (a clear keep-both or merge stands)."""
        if match.target_id is not None or match.supersedes or match.contested:
            return match
        vectors = self._embed([candidate.text, old.text])
        decision = self.decide(old, candidate, float(vectors[1] @ vectors[0]))
        if not decision.unclear or decision.decision is Decision.MERGE:
            return match
        settled = Supersession(
            Decision.SUPERSEDE,
            f"distiller: replaces; {decision.reason}",
            decision.similarity,
            False,
            decision.dedup_verdict,
        )
        return _supersession_match(old, candidate, settled)


def _supersession_match(old: Lesson, candidate: Lesson, decision: Supersession) -> Match:
    if outweighs(old, candidate):
        reason = f"contested ({decision.reason}): the old lesson has {old.hit_count} HITs"
        return Match(None, reason, decision.similarity, contested=old.id)
    return Match(None, f"supersedes ({decision.reason})", decision.similarity, supersedes=old.id)


def matcher_for(settings: Settings, judge: Judge | None = None) -> Matcher:
    """The matcher `add` and `flush` use: semantic with the configured embedding model.

    Nothing loads here: the model loads on the first embedding the matcher needs.
    """
    from fireworks_skill_memory.memory.embedding import embedder_for

    return SemanticMatcher(embedder_for(settings), judge)
