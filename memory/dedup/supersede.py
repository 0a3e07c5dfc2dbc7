"""Three-way decision for a new lesson against an existing one: merge, supersede or keep both.

Pure functions, standard library only: the caller embeds the two texts and passes their
cosine. :func:`decide_supersession` returns a :class:`Supersession`:

* ``MERGE`` -- the new lesson restates the old one (the dedup rule of
  :mod:`memory.dedup.rules` says MERGE and nothing below objects);
* ``SUPERSEDE`` -- the same subject with a changed fact: a version, flag, default, limit,
  path, command or API changed, or the advice was reversed or corrected; the old lesson is
  outdated;
* ``KEEP_BOTH`` -- related, both still true (another platform, condition, version in
  parallel, a complementary step), or unrelated, or in doubt.

What matters most is never losing a current lesson, so every step leans to ``KEEP_BOTH``:

1. ``exact`` / ``normalized-text`` -> MERGE.
2. Scope guards (each names itself in ``reason``), signs that the two lessons hold side by
   side: ``platform`` (each names an OS, architecture, shell or runner the other lacks),
   ``condition`` (both open with a scope clause, "On X," / "In X," / "For X," / "If X," /
   "When X,", and the scopes differ), ``parallel`` (the new one says the old case is "still"
   there, or "not yet" moved), ``next-step`` (the new one opens with "After ...", "Once
   ...": a step that follows the old one). A ``platform`` guard turns any verdict into
   KEEP_BOTH; the others only hold back supersede evidence (a paraphrase may reword a
   scope).
3. Supersede evidence, in this order:

   * ``reversed``: the new text negates (not, never, don't, avoid, stop doing, cannot) a
     clause whose content words and names the old text states positively (or the other way
     round): the reversal itself shows the subject is the same;
   * ``retired``: a clause of the new text says the old one's own subject (its numbers,
     names, commands or, with none, its words) is outdated: "16 is end of life", "webpack
     is the legacy setup", "400 proved too big", "--x was never valid"; a harm ("60 caused
     logouts") counts when the texts also state different values;
   * ``replaced``: the new text names the old subject as the thing to stop using, "X
     instead of / rather than / in place of Y", "X, not Y", where X brings at most one new
     plain word besides its new names and commands ("tmp_path instead of tmpdir", "npm ci in
     CI, not npm install", but not "the cron jobs with kubectl instead of helm"). Both count
     from the low cosine ``retired_subject``: naming the old subject shows it is the same;
     only what the old lesson affirms in its first sentence is its subject;
   * ``marker:<words>``: the new text says the fact changed and the old one does not
     ("no longer", "now", "deprecated", "renamed", "removed", "was dropped", "is gone",
     "retired", "unmaintained", "replaced by", "migrated", "after the upgrade", "lowered
     to", "stop doing", "was wrong", "actually"); it counts when the pair is on one subject
     (cosine >= ``subject``);
   * ``changed-value``: the texts disagree on numbers, names or commands (a dedup conflict,
     ``git checkout -b`` / ``git switch -c`` too, backticks or not) and are otherwise
     nearly the same words at a high cosine (>= ``changed_value``; >= ``changed_command``
     for a command, which is most of a short lesson's words).

4. Otherwise the dedup rule: MERGE stays MERGE, unless the new text denies a clause of the
   old (``denied-clause``), is its next step while the old orders no steps (``next-step``),
   or opens with what to do when something fails that the old never mentions
   (``on-failure``), or names the old subject as the thing to stop using while changing
   more than that (``disowned``): those keep both. GREY and ADD become KEEP_BOTH. Different commands
   never merge (the dedup rule's ``command-mismatch``).

``unclear`` marks the pairs an LLM could settle: supersede evidence held back by a guard or a
weak subject, supersessions resting on a single weak marker, and conflicting pairs at a high
cosine that no rule explains.

Months and tags: a "new" lesson dated before the old one never supersedes it (it is the
older knowledge, recorded late); equal tags lower the subject cosine a little.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from fireworks_skill_memory.memory.dedup.rules import (
    COMMAND_MARK,
    DEFAULT_THRESHOLDS,
    DedupThresholds,
    PairAnalysis,
    Verdict,
    analyse_pair,
    decide_from_analysis,
)
from fireworks_skill_memory.memory.dedup.rules import (
    _command_mismatch as command_mismatch,
)
from fireworks_skill_memory.memory.dedup.rules import (
    _commands_and_rest as commands_and_rest,
)
from fireworks_skill_memory.memory.dedup.rules import (
    _compatible as compatible_commands,
)
from fireworks_skill_memory.memory.dedup.rules import (
    _content as content_words,
)
from fireworks_skill_memory.memory.dedup.rules import (
    _numbers as numbers_of,
)
from fireworks_skill_memory.memory.dedup.rules import (
    _prep as prep,
)
from fireworks_skill_memory.memory.dedup.rules import (
    _soft_hits as soft_hits,
)
from fireworks_skill_memory.memory.dedup.rules import (
    _specifics as specifics,
)
from fireworks_skill_memory.memory.dedup.rules import (
    _unmentioned as unmentioned,
)
from fireworks_skill_memory.memory.dedup.rules import (
    _words as words_of,
)

__all__ = [
    "DEFAULT_SUPERSEDE_THRESHOLDS",
    "GUARDS",
    "Decision",
    "Supersession",
    "SupersessionThresholds",
    "decide_supersession",
]


class Decision(enum.Enum):
    """What a new lesson does to an existing one."""

    MERGE = "merge"
    SUPERSEDE = "supersede"
    KEEP_BOTH = "keep_both"


@dataclass(frozen=True)
class SupersessionThresholds:
    """Thresholds of :func:`decide_supersession` (all-MiniLM-L6-v2 cosines).

    Attributes:
        subject: cosine from which a change marker in the new text counts (one subject).
        subject_same_tag: the same when both lessons carry the same tag.
        changed_value: cosine from which near-identical wording with different numbers or
            names is a changed value.
        changed_command: the same for a changed command (``git checkout -b`` -> ``git switch
            -c``): commands are much of a short lesson, so its cosine drops further.
        changed_overlap: content-word overlap of the two texts, specifics left out, needed
            for ``changed-value``.
        retired_subject: cosine from which the new text retiring the old one's own subject
            ("16 is end of life", "X instead of tmpdir") counts: naming it is the evidence.
        reversal_coverage: share of the negated clause's content words the other text states.
        reversal_shared: content words the negated clause must share with the other text.
        veto_coverage: the same share for a denial in any clause (a contrast ", never X", a
            purpose clause), which only stops a merge.
        unclear_cosine: cosine from which an unexplained conflict is left to the LLM.
        dedup: the merge rule's thresholds.
    """

    subject: float = 0.50
    subject_same_tag: float = 0.45
    changed_value: float = 0.80
    changed_command: float = 0.60
    changed_overlap: float = 0.85
    retired_subject: float = 0.35
    reversal_coverage: float = 0.45
    reversal_shared: int = 2
    veto_coverage: float = 0.70
    unclear_cosine: float = 0.75
    dedup: DedupThresholds = DEFAULT_THRESHOLDS


DEFAULT_SUPERSEDE_THRESHOLDS = SupersessionThresholds()


@dataclass(frozen=True)
class Supersession:
    """The decision on one (old, new) pair, why, and whether an LLM could settle it."""

    decision: Decision
    reason: str
    similarity: float
    unclear: bool = False
    dedup_verdict: Verdict = Verdict.ADD


# --------------------------------------------------------------------------- markers

# Phrases saying a fact changed; they count only when the new text has them and the old not.
_CHANGE_MARKERS = re.compile(
    r"\b(?:"
    r"no longer|not any ?more|anymore|no more|now|nowadays|as of|"
    r"deprecat\w*|retired|discontinued|unmaintained|superseded|migrated|upgraded|"
    r"(?:was|were|is|are|been|got) (?:\w+ )?(?:renamed|removed|replaced|dropped|retired)|"
    r"(?:renamed|removed|dropped) (?:in|since|from|to) |replaced by|replaces|"
    r"(?:is|are|was|were|has been|have been) (?:gone|lowered|raised|changed|reduced|"
    r"increased|disabled|enabled|turned off)|"
    r"(?:lowered|raised|reduced|increased|bumped|changed|switched|moved) (?:\w+ ){0,3}"
    r"(?:to|from)|"
    r"after (?:the |our |we )?(?:upgrad|migrat|switch|mov)\w*|"
    r"since (?:v?\d|version|release|the upgrade|\w+ (?:were|was) )|"
    r"since the (?:\w+ )?(?:release|upgrade|migration)|correction|"
    r"stop(?:ped)? \w+ing|"
    r"(?:was|were|is) (?:wrong|incorrect|mistaken|a mistake)|contrary to"
    r")",
    re.IGNORECASE,
)
# "... is not supported there yet", "still on the legacy cluster": the old case still exists.
_PARALLEL = re.compile(r"\b(?:still|not (?:\w+ ){0,3}yet|legacy \w+ (?:cluster|app|repo))\b", re.I)
_PLATFORMS = {
    "macos": "macos",
    "mac": "macos",
    "osx": "macos",
    "darwin": "macos",
    "linux": "linux",
    "windows": "windows",
    "win32": "windows",
    "wsl": "wsl",
    "debian": "debian",
    "ubuntu": "ubuntu",
    "fedora": "fedora",
    "centos": "centos",
    "rhel": "rhel",
    "arm64": "arm64",
    "aarch64": "arm64",
    "graviton": "arm64",
    "amd64": "amd64",
    "x86": "amd64",
    "intel": "amd64",
    "powershell": "powershell",
    "cmd": "cmd",
    "zsh": "zsh",
    "bash": "bash",
    "ios": "ios",
    "android": "android",
    "enterprise": "enterprise",
}
_SCOPE_OPENER = re.compile(
    r"^(?:on|in|for|with|when|if|inside|within|under|while|during)\b([^,;:]{3,90}),", re.I
)
_REVERSAL_NEGATORS = frozenset(
    """
    not no never cannot cant dont doesnt didnt isnt arent wasnt werent wont shouldnt mustnt
    avoid avoids stop stopped
    """.split()
)
# Sentence-level segments; inside one, clause boundaries. A clause opened by a subordinating
# word (purpose, condition, relative) or a contrast after a comma (", not X", ", never Y")
# does not carry the lesson's polarity: "Set X so the run doesn't stop" affirms X.
_SEGMENT_SPLIT = re.compile(r"(?<=[\w)\]`'\"])[.;:!?](?=\s|$)|\s[-—]\s|\n")
_CLAUSE_SPLIT = re.compile(
    r",|\(|\)|\b(?=so (?:that|the|an?|it|its|you|they|we|one|your|our|their|this|these|those|"
    r"each|every|no|nothing|any)\b)|\b(?=(?:because|or|otherwise|unless|until|since|which|that|who|where|when|"
    r"if|while|whereas|although|though|instead of|rather than|than)\b)",
    re.IGNORECASE,
)
_SUBORDINATE = re.compile(
    r"^\s*(?:so|because|or|otherwise|unless|until|since|which|that|who|where|when|if|while|"
    r"whereas|although|though|instead of|rather than|than|not|never|no|without|and not)\b",
    re.IGNORECASE,
)
_CODE_SPAN = re.compile(r"`[^`]*`")
# "must not exceed 80" = "at most 80": a bound, not a denial.
_BOUND = re.compile(
    r"\b(?:not|never|no|n't)\s+(?:\w+\s+)?(?:exceed\w*|go (?:over|beyond)|more than|"
    r"longer than|larger than|greater than|bigger than|over|above|beyond)\b",
    re.IGNORECASE,
)
_SQL_NOT = re.compile(r"\bNOT (?=[A-Z]{2,}\b)")  # NOT NULL, NOT VALID: keywords, not negation
# "stop using X" denies X; "-x stops at the first failure" does not.
_STOP_NOT_DENIAL = re.compile(r"\bstop(?:s|ped)?\b(?!\s+\w+ing\b)", re.IGNORECASE)
_QUOTED_SPAN = re.compile(r"(?<![\w])[\"']([^\"'\n]{1,60})[\"'](?![\w])")


def _markers(text: str) -> set[str]:
    return {m.group(0).casefold().strip() for m in _CHANGE_MARKERS.finditer(prep(text))}


def _new_markers(old: str, new: str) -> list[str]:
    return sorted(_markers(new) - _markers(old))


def _platforms(text: str) -> set[str]:
    return {_PLATFORMS[w] for w in words_of(text) if w in _PLATFORMS}


def _scope(text: str) -> set[str] | None:
    m = _SCOPE_OPENER.match(prep(text))
    return None if m is None else content_words(words_of(m.group(1)))


GUARDS = frozenset({"platform", "condition", "parallel", "next-step"})
# "After creating the index, run ANALYZE": a step that follows the old lesson's, not a change
# (but "After the upgrade to v15 ..." is a change marker).
_NEXT_STEP = re.compile(
    r"^(?:after|once|then|next|afterwards|finally)(?=[\s,])"
    r"(?!\s+(?:the\s+|our\s+|we\s+)?(?:upgrad|migrat|switch|mov))",
    re.IGNORECASE,
)


# The old lesson already orders steps: "After X, Y" may be its rewording, not a next step.
_SEQUENCE_WORD = re.compile(r"\b(?:after|once|then|afterwards|finally)\b", re.IGNORECASE)


_FAILURE = (
    r"(fail\w*|break\w*|error\w*|crash\w*|times? out|timed out|hang\w*|conflict\w*|"
    r"is missing|are missing|goes wrong)"
)
# "If X fails, ...", "X breaks when ...": what to do in a failure case.
_FAILURE_CASE = re.compile(
    r"^(?:if|when|whenever)\b[^,;:]{0,80}\b" + _FAILURE + r"\b[^,;:]{0,40},|"
    r"\b" + _FAILURE + r"\s+(?:when|if|whenever)\b",
    re.IGNORECASE,
)


def _follow_up(old: str, new: str, guard: str | None) -> str | None:
    """Why a new lesson that looks like a restatement is the old one's next step or what to
    do when it fails ("If X fails, ..." where the old never mentions failing), or None."""
    if guard == "next-step" and not _SEQUENCE_WORD.search(prep(old)):
        return guard
    m = _FAILURE_CASE.search(prep(new))
    failure = m and (m.group(1) or m.group(2))
    if not failure or any(w.startswith(failure.casefold()[:4]) for w in words_of(old)):
        return None
    return "on-failure"


def _guard(old: str, new: str) -> str | None:
    """Why both lessons can hold side by side, or None."""
    po, pn = _platforms(old), _platforms(new)
    if po - pn and pn - po:
        return "platform"
    so, sn = _scope(old), _scope(new)
    if so is not None and sn is not None and so - sn and sn - so:
        return "condition"
    if _PARALLEL.search(prep(new)) and not _PARALLEL.search(prep(old)):
        return "parallel"
    if _NEXT_STEP.match(prep(new)):
        return "next-step"
    return None


# --------------------------------------------------------------------------- reversal


def _split_outside_code(text: str, pattern: re.Pattern[str]) -> list[str]:
    """``pattern.split`` that never cuts inside a backticked span."""
    masked = _CODE_SPAN.sub(lambda m: "x" * len(m.group(0)), text)
    parts, start = [], 0
    for m in pattern.finditer(masked):
        parts.append(text[start : m.start()])
        start = m.end()
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


@dataclass(frozen=True)
class _Clause:
    words: tuple[str, ...]
    negated: bool
    text: str


def _clauses(text: str, asserting_only: bool = True) -> list[_Clause]:
    """The clauses of a text; with ``asserting_only``, those that carry a sentence's polarity
    (the first of each sentence and the non-subordinate ones)."""
    return [
        clause
        for segment in _split_outside_code(prep(text), _SEGMENT_SPLIT)
        for clause in _segment_clauses(segment, asserting_only)
    ]


def _segment_clauses(segment: str, asserting_only: bool) -> list[_Clause]:
    out = []
    for i, part in enumerate(_split_outside_code(segment, _CLAUSE_SPLIT)):
        if asserting_only and i > 0 and _SUBORDINATE.match(part):
            continue
        bare = _QUOTED_SPAN.sub(" ", _CODE_SPAN.sub(" ", part))
        bare = _BOUND.sub(" ", _SQL_NOT.sub(" ", _STOP_NOT_DENIAL.sub(" ", bare)))
        negated = any(w in _REVERSAL_NEGATORS for w in words_of(bare))
        if words := words_of(part):
            out.append(_Clause(tuple(words), negated, part))
    return out


def _reverses(
    negating: str, stating: str, t: SupersessionThresholds, asserting_only: bool = True
) -> bool:
    """True when a clause of ``negating`` denies one that ``stating`` affirms.

    With ``asserting_only`` only the clauses that carry a sentence's polarity count on the
    denying side (a purpose clause "so it doesn't X" or a contrast ", not Y" do not).
    """
    stated_clauses = _clauses(stating, asserting_only=False)
    stated = content_words(w for c in stated_clauses for w in c.words)
    coverage = t.reversal_coverage if asserting_only else t.veto_coverage
    for clause in _clauses(negating, asserting_only):
        if not clause.negated or not stated_clauses:
            continue
        if unmentioned(set(specifics(clause.text).identifiers), stating):
            continue  # the denial is about something the other lesson never names
        said = content_words(clause.words)
        shared = soft_hits(said, stated)
        if shared < t.reversal_shared or shared < coverage * len(said):
            continue
        touched = [c for c in stated_clauses if soft_hits(content_words(c.words), said)]
        if touched and not any(
            c.negated
            for c in touched
            if soft_hits(content_words(c.words), said) >= t.reversal_shared
        ):
            return True
    return False


def _reversed(old: str, new: str, t: SupersessionThresholds, asserting_only: bool = True) -> bool:
    return _reverses(new, old, t, asserting_only) or _reverses(old, new, t, asserting_only)


# --------------------------------------------------------------------------- retired subject

# "<subject> is legacy / end of life / obsolete / too small": the subject is outdated.
_RETIRED = re.compile(
    r"\b(?:(?:is|are|was|were|has been|have been|became|becomes|got)\s+"
    r"(?:now\s+|being\s+|officially\s+|already\s+)?(?:the\s+|an?\s+)?"
    r"(?:legacy|obsolete|deprecated|outdated|unmaintained|unsupported|abandoned|retired|dead|"
    r"gone|removed|dropped|superseded|end[- ]of[- ]life|eol|the old way|too \w+)|"
    r"reach(?:es|ed)?\s+(?:its\s+)?(?:end[- ]of[- ]life|eol)|"
    r"(?:is|are|was|were)\s+(?:wrong|incorrect|mistaken|a mistake|invalid|never valid)|"
    r"(?:does|do|did)\s*(?:not|n't)\s+exist|"
    r"proved\s+(?:to be\s+)?too\s+\w+)\b",
    re.IGNORECASE,
)
# "<old value> caused rebalances": a harm counts only when the new text states another value.
_HARMED = re.compile(
    r"\b(?:caused|causes|killed|kills|broke|breaks|crashed|overloaded|leaked|hung|hangs|"
    r"times out|timed out|failed|fails)\b",
    re.IGNORECASE,
)
# "X instead of Y", "X, not Y": Y is what to stop using.
_INSTEAD = re.compile(r"\b(?:instead of|rather than|in place of|replac(?:es|ing))\s+", re.I)
_NOT_OLD = re.compile(r",\s*(?:and\s+)?not\s+", re.I)
_Y_END = re.compile(r",|\s(?:which|that|because|so|since|as|when|if|for)\s", re.I)
_COMMA = re.compile(",")
# "X instead of Y" retires Y when X brings one new term (the replacement); with more ("the
# cron jobs with kubectl instead of helm", "Makefiles with tabs, not spaces") it may be
# another case.
_REPLACEMENT_TERMS = 1
_PREFER_OVER = re.compile(r"^(\s*prefer\b.*?)\s+over\b.*$", re.IGNORECASE)
# Words a retired subject may add to the old lesson's names: "the 4.x line is obsolete".
_GENERIC_NOUNS = frozenset(
    content_words(
        words_of(
            "line series release version setup path flag option default value setting image "
            "runtime tool package cli command approach"
        )
    )
)
_GENERIC_VERBS = frozenset(content_words(words_of("run execute call invoke keep do try go")))
_NEGATED_SUBJECT = re.compile(r"\b(?:not|never|no)\b|n't\b", re.I)


@dataclass(frozen=True)
class _Terms:
    """What a span of text names: content words, numbers, identifiers and commands."""

    words: set[str]
    numbers: set[str]
    identifiers: set[str]
    commands: list[tuple[str, ...]]


def _terms(text: str) -> _Terms:
    commands, rest = commands_and_rest(text)
    named = specifics(rest)
    ids = set(named.identifiers)
    # the words of a name ("tmp", "path" of tmp_path) are the name, not plain words
    plain = {w for w in content_words(words_of(rest)) if not any(w in key for key in ids)}
    return _Terms(plain - set(named.numbers), set(numbers_of(rest)), ids, commands)


def _in_old(span: _Terms, old: str, old_terms: _Terms) -> tuple[int, bool]:
    """(old terms the span names, whether its specifics all come from the old text)."""
    hits = soft_hits(span.words, old_terms.words)
    ids_known = not unmentioned(span.identifiers, old)
    nums_known = not span.numbers or bool(span.numbers & old_terms.numbers)
    cmds = [c for c in span.commands if any(compatible_commands(c, o) for o in old_terms.commands)]
    known = ids_known and nums_known and len(cmds) == len(span.commands)
    named = len(span.identifiers) + len(span.numbers) + len(cmds)
    return hits + (named if known else 0), known


def _names_old_subject(span: str, old: str, old_terms: _Terms) -> bool:
    """True when ``span`` names what the old text states: its numbers, names, commands and
    words (generic nouns aside: "the 4.x line", "the default 500")."""
    terms = _terms(span)
    hits, known = _in_old(terms, old, old_terms)
    if not known or hits == 0:
        return False
    unknown = terms.words - _GENERIC_NOUNS
    known_words = soft_hits(unknown, content_words(words_of(old))) == len(unknown)
    if terms.numbers or terms.identifiers or terms.commands:
        return known_words
    return known_words and bool(unknown)


def _novel(span: str, old: str, old_terms: _Terms) -> tuple[int, int]:
    """(new specifics, new plain content words) of ``span`` against the old text."""
    terms = _terms(span)
    specific = len(unmentioned(terms.identifiers, old)) + len(terms.numbers - old_terms.numbers)
    specific += sum(
        1 for c in terms.commands if not any(compatible_commands(c, o) for o in old_terms.commands)
    )
    words = terms.words - _GENERIC_VERBS
    return specific, len(words) - soft_hits(words, old_terms.words)


def _main_statement(text: str) -> str:
    """What a lesson tells to do: the affirmed clauses of its first sentence (reasons, extras,
    "rather than Y" and denials left out)."""
    segments = _split_outside_code(prep(text), _SEGMENT_SPLIT)
    if not segments:
        return text
    clauses = _segment_clauses(segments[0], asserting_only=True)
    affirmed = " ".join(_PREFER_OVER.sub(r"\1", c.text) for c in clauses if not c.negated)
    return affirmed or segments[0]


def _retires_old_subject(old: str, new: str, value_changed: bool) -> str | None:
    """How the new text retires the old one's subject: ``retired`` when it says it is
    outdated ("16 is end of life", "400 proved too big"), ``replaced`` when it names it as
    the thing to stop using and brings one replacement ("tmp_path instead of tmpdir", "npm
    ci in CI, not npm install"), ``disowned`` when it names it so but changes more than the
    replacement (another case, maybe); else None."""
    old = _main_statement(old)
    old_terms = _terms(old)
    disowned = False
    for segment in _split_outside_code(prep(new), _SEGMENT_SPLIT):
        for clause in _split_outside_code(segment, _COMMA):
            m = _RETIRED.search(clause) or (_HARMED.search(clause) if value_changed else None)
            if m is None or _NEGATED_SUBJECT.search(clause[: m.start()]):
                continue
            if _names_old_subject(clause[: m.start()], old, old_terms):
                return "retired"
        for pattern in (_INSTEAD, _NOT_OLD):
            m = pattern.search(segment)
            dropped = _Y_END.split(segment[m.end() :], maxsplit=1)[0] if m else ""
            if m is None or not _names_old_subject(dropped, old, old_terms):
                continue
            new_specifics, new_words = _novel(segment[: m.start()], old, old_terms)
            if 1 <= new_specifics + new_words <= _REPLACEMENT_TERMS:
                return "replaced"
            disowned = True
    return "disowned" if disowned else None


# --------------------------------------------------------------------------- changed value

_SPECIFIC_TOKEN = re.compile(r"`[^`]*`|\S*\d\S*")


def _masked_overlap(old: str, new: str) -> float:
    """Content-word overlap once code spans, commands and numbers are removed from both."""
    a = content_words(words_of(_SPECIFIC_TOKEN.sub(" ", commands_and_rest(old)[1])))
    b = content_words(words_of(_SPECIFIC_TOKEN.sub(" ", commands_and_rest(new)[1])))
    if not a or not b:
        return 0.0
    return (soft_hits(a, b) + soft_hits(b, a)) / (len(a) + len(b))


# "Create branches with git switch -c", "Use kubectl logs -p to ...": the command is how a
# task is done, so another command for the same task replaces it; in "Before a release, run
# npm run lint" the command is the task, and another one is another step.
_INSTRUMENT = re.compile(
    r"\b(?:with|using|via|through|use|by)\s*" + COMMAND_MARK + r"|" + COMMAND_MARK + r"\s+to\s+\w",
    re.IGNORECASE,
)


def _changed_instrument(old: str, new: str) -> bool:
    """The two texts do one task with different commands."""
    if not command_mismatch(old, new):
        return False
    return all(_INSTRUMENT.search(commands_and_rest(text)[1]) for text in (old, new))


# --------------------------------------------------------------------------- decision


_VALUE_CONFLICTS = frozenset({"number-mismatch", "identifier-mismatch", "antonym"})
_STATED_VALUE_CONFLICTS = frozenset({"number-mismatch", "identifier-mismatch", "command-mismatch"})


def _same_tag(old_tag: str | None, new_tag: str | None) -> bool:
    return bool(old_tag and new_tag and old_tag.strip().casefold() == new_tag.strip().casefold())


def _one_number_changed(old: str, new: str) -> bool:
    """True when one number replaces one other (a value changed); two or more differing
    numbers name another case ("worker 3 ... 134" against "worker 5 ... 154")."""
    from fireworks_skill_memory.memory.dedup.rules import _specifics

    before, after = _specifics(old).numbers, _specifics(new).numbers
    return len(before - after) <= 1 and len(after - before) <= 1


def _supersede_evidence(
    old: str, new: str, cos: float, an: PairAnalysis, subject: float, t: SupersessionThresholds
) -> tuple[str, bool] | None:
    """(reason, weak) of the strongest sign that ``new`` outdates ``old``, or None."""
    if _reversed(old, new, t):
        return "reversed", False
    if cos >= t.retired_subject:
        value_changed = an.conflict in _STATED_VALUE_CONFLICTS
        retired = _retires_old_subject(old, new, value_changed)
        if retired is not None and retired != "disowned":
            return retired, False
    markers = _new_markers(old, new)
    if markers and cos >= subject:
        weak = markers == ["now"] and an.conflict is None
        return "marker:" + ",".join(markers), weak
    changed = (
        an.conflict in _VALUE_CONFLICTS
        and cos >= t.changed_value
        and (an.conflict != "number-mismatch" or _one_number_changed(old, new))
    ) or (cos >= t.changed_command and _changed_instrument(old, new))
    if changed and _masked_overlap(old, new) >= t.changed_overlap:
        return "changed-value", False
    if markers:
        return "marker:" + ",".join(markers) + " (weak subject)", True
    return None


def decide_supersession(
    old: str,
    new: str,
    cosine: float,
    *,
    old_tag: str | None = None,
    new_tag: str | None = None,
    old_month: str | None = None,
    new_month: str | None = None,
    t: SupersessionThresholds = DEFAULT_SUPERSEDE_THRESHOLDS,
) -> Supersession:
    """Merge, supersede or keep both for a new lesson against an old one (module docstring).

    Args:
        old: text of the lesson the skill already has.
        new: text of the lesson being added.
        cosine: cosine of their normalized embeddings (all-MiniLM-L6-v2 scale).
        old_tag, new_tag: the lessons' tags, if any (equal tags: a slightly lower
            ``subject`` cosine).
        old_month, new_month: ``YYYY-MM``; a new lesson dated before the old one never
            supersedes it.
        t: thresholds.
    """
    cos = float(cosine)
    an = analyse_pair(old, new, t.dedup.negation_overlap)
    dedup = decide_from_analysis(an, cos, t.dedup)
    if an.text_match is not None:
        return Supersession(Decision.MERGE, an.text_match, cos, False, dedup.verdict)
    guard = _guard(old, new)
    subject = t.subject_same_tag if _same_tag(old_tag, new_tag) else t.subject
    evidence = _supersede_evidence(old, new, cos, an, subject, t)
    if guard is not None and (guard == "platform" or evidence is not None):
        unclear = evidence is not None or dedup.verdict is Verdict.MERGE
        return Supersession(Decision.KEEP_BOTH, guard, cos, unclear, dedup.verdict)
    if evidence is not None:
        reason, weak = evidence
        if reason.endswith("(weak subject)"):
            return Supersession(Decision.KEEP_BOTH, reason, cos, True, dedup.verdict)
        if old_month and new_month and new_month < old_month:
            return Supersession(Decision.KEEP_BOTH, reason + ", new is older", cos, True)
        return Supersession(Decision.SUPERSEDE, reason, cos, weak, dedup.verdict)
    if dedup.verdict is Verdict.MERGE:
        if _reversed(old, new, t, asserting_only=False):
            return Supersession(Decision.KEEP_BOTH, "denied-clause", cos, True, dedup.verdict)
        if (step := _follow_up(old, new, guard)) is not None:
            return Supersession(Decision.KEEP_BOTH, step, cos, True, dedup.verdict)
        if _retires_old_subject(old, new, value_changed=False) == "disowned":
            return Supersession(Decision.KEEP_BOTH, "disowned", cos, True, dedup.verdict)
        return Supersession(Decision.MERGE, dedup.reason, cos, False, dedup.verdict)
    unclear = an.conflict is not None and cos >= t.unclear_cosine
    return Supersession(Decision.KEEP_BOTH, dedup.reason, cos, unclear, dedup.verdict)
