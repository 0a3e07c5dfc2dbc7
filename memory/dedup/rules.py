"""Pair decision for lesson dedup: is a candidate lesson the same lesson as an existing one?

Pure functions, standard library only (no numpy, no model): the caller embeds the two texts
and passes their cosine. :func:`decide_pair` returns a :class:`PairDecision` whose verdict is

* ``MERGE`` -- the candidate restates the existing lesson: bump its HIT, refresh its month and
  keep :func:`clearer_wording` of the two texts;
* ``GREY`` -- related, maybe the same: ask the LLM judge "same lesson?" when one is configured;
  without a judge, or when it fails, treat it as ``ADD`` (never lose information);
* ``ADD`` -- a different lesson: store the candidate as a new entry.

The rule, in order; the first step that applies decides and names itself in ``reason``:

1. ``exact`` / ``normalized-text``: the same text, or the same after :func:`normalize_text`
   (case, whitespace, punctuation, markdown backticks/emphasis, trailing period, entry
   markup) -> MERGE whatever the cosine.
2. Conflicts, cheap signs that two related texts state *different* facts. Small sentence
   encoders barely see them (all-MiniLM-L6-v2 scores "Use X" / "Do not use X" 0.98 and
   "timeout 30 s" / "timeout 60 s" 0.98), so any of them blocks an automatic merge; the pair
   goes to the judge (GREY) if its cosine reaches the grey band, else ADD:

   * ``number-mismatch``: both texts state numbers, not the same set (``30`` vs ``60``;
     ``48-128`` and ``48 and 128`` agree). A number on one side only is no conflict.
   * ``identifier-mismatch``: *each* text names something the other never mentions: code
     (backticked or quoted literals, ``camelCase``, ``snake_case``, ``dotted.names``,
     ``calls()``, ``/paths``, ``--flags``), ACRONYMS (spelled out counts as mentioned:
     RBAC = role-based access control) or capitalised names in mid-sentence (``with Jest`` vs
     ``with Vitest``). Extras on one side only are the more specific wording, no conflict.
   * ``command-mismatch``: each text names a command invocation the other does not (a known
     CLI tool and what follows it, backticked or not: ``git checkout -b`` vs ``git switch
     -c``, ``npm run build`` vs ``npm version patch``); one invocation that only adds
     arguments to the other (``npm install`` / ``npm install -D vitest``) is no conflict.
   * ``antonym``: one text has a word, the other its opposite and not the word itself
     (``un-``/``non-``/``in-``/``im-`` prefixes; always/never, enable/disable, sync/async,
     include/exclude, allow/deny, public/private, before/after, ...).
   * ``negation-mismatch``: one text is negated (not, no, never, n't, avoid, skip, without,
     ...), the other is not, and their content words are nearly the same (overlap >=
     ``negation_overlap``): one statement with opposite polarity. Rewordings that move the
     negation into the verb ("skip markdown" / "never output markdown") are not blocked.
   * ``preference-reversed``: "X over / instead of / rather than Y" against "Y ... X".

3. ``cosine>=M``: cosine >= ``merge`` -> MERGE.
4. ``cosine>=S+overlap>=O``: cosine >= ``support``, content-word overlap (soft Jaccard of
   stemmed content words, :func:`content_overlap`) >= ``overlap`` and at least ``min_shared``
   content words in common -> MERGE, unless one text states a number or code name the other
   lacks (``unshared-specifics`` -> GREY): with only a moderate cosine, words in common are
   the evidence, and specifics that are not shared weaken it.
5. ``grey-band``: cosine >= ``grey`` -> GREY.
6. ``below-band`` -> ADD.

Calibration: all-MiniLM-L6-v2 with normalized embeddings. The defaults sit inside flat regions
of the dev sweep (150 labelled lesson pairs), checked by cross-validation and against
within-skill neighbour pairs of a public lesson corpus; another encoder has another cosine
scale and needs its own :class:`DedupThresholds`.

Against a whole skill: look the candidate's :func:`normalize_text` up among the skill's
lessons first (a hit merges, no embedding needed); otherwise compute its cosine to every
lesson of the skill, call :func:`decide_pair` on the few most similar (top 3 by cosine is
plenty) and give the decisions to :func:`pick_merge_target`: text matches first, then the
highest cosine, so the HIT goes to the closest lesson; only that one lesson is bumped, even
when several qualify. With no MERGE, ask the judge about the GREY pairs, highest cosine first,
if a judge is configured; otherwise, or if it says no or fails, ADD.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT_THRESHOLDS",
    "DedupThresholds",
    "PairAnalysis",
    "PairDecision",
    "Verdict",
    "analyse_pair",
    "clearer_wording",
    "conflict_reason",
    "content_overlap",
    "decide_from_analysis",
    "decide_pair",
    "normalize_text",
    "pick_merge_target",
]


class Verdict(enum.Enum):
    """What to do with a candidate lesson relative to one existing lesson."""

    MERGE = "merge"
    GREY = "grey"
    ADD = "add"


@dataclass(frozen=True)
class DedupThresholds:
    """Thresholds of :func:`decide_pair` (cosines of normalized all-MiniLM-L6-v2 embeddings).

    Each default sits inside a flat region of the dev sweep (see the dedup report), not on
    the in-sample optimum.

    Attributes:
        merge: cosine from which a conflict-free pair merges on the cosine alone. 0.85: dev
            F1 is flat from 0.80 to 0.92 (the positives there also pass the overlap step);
            the highest conflict-free hard negative of the dev set is at 0.78.
        support: lowest cosine at which shared words can carry a merge. 0.55: dev F1 is flat
            from 0.50 to 0.55; just below the 99th percentile (~0.60) of the cosine between two
            different lessons of one skill.
        overlap: content-word overlap (:func:`content_overlap`) needed from ``support`` on.
            0.35: dev F1 is flat from 0.30 to 0.40; rewordings sit at 0.40 and above.
        min_shared: content words the two texts must have in common (matched both ways) for
            the overlap step: two shared words are a topic ("follow", "laravel"), not a
            lesson. 3: fewer lets short same-topic neighbours merge.
        grey: lower edge of the grey band, the judge's territory; below it a pair is ADD.
        negation_overlap: overlap from which a negation present on one side only is a
            conflict (near-identical wording with opposite polarity).
    """

    merge: float = 0.85
    support: float = 0.55
    overlap: float = 0.35
    min_shared: int = 3
    grey: float = 0.50
    negation_overlap: float = 0.75

    def __post_init__(self) -> None:
        if not -1.0 <= self.grey <= self.support <= self.merge <= 1.0:
            raise ValueError("thresholds must satisfy -1 <= grey <= support <= merge <= 1")
        if not 0.0 <= self.overlap <= 1.0 or not 0.0 <= self.negation_overlap <= 1.0:
            raise ValueError("overlap thresholds must lie in [0, 1]")
        if self.min_shared < 0:
            raise ValueError("min_shared must not be negative")


DEFAULT_THRESHOLDS = DedupThresholds()


@dataclass(frozen=True)
class PairDecision:
    """The verdict on one (existing, candidate) pair, with the cosine and a short reason."""

    verdict: Verdict
    similarity: float
    reason: str
    overlap: float = 0.0


# --------------------------------------------------------------------------- normalisation

_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "—": "-", "–": "-"})
# Entry markup around a lesson text: "- [YYYY-MM] [Tag] " (month and tag optional after a
# bullet; a bare "[YYYY-MM] [Tag] " prefix too) and a trailing "[HIT:N]".
_MONTH_TAG = r"(?:\[\d{4}-\d{2}\]\s*)?(?:\[[^\[\]]*\]\s*)?"
_META_PREFIX = re.compile(
    r"^\s*(?:[-*]\s+" + _MONTH_TAG + r"|\[\d{4}-\d{2}\]\s*(?:\[[^\[\]]*\]\s*)?)"
)
_HIT_SUFFIX = re.compile(r"\s*\[HIT:\s*\d+\]\s*$")


def _prep(text: str) -> str:
    """NFKC, typographic quotes/dashes folded, entry markup (bullet, month, tag, HIT) removed."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    text = _HIT_SUFFIX.sub("", text)
    return _META_PREFIX.sub("", text, count=1).strip()


def normalize_text(text: str) -> str:
    """Canonical form for exact dedup: two lessons with equal forms are the same lesson.

    Case-folded; entry markup (``- [YYYY-MM] [Tag]`` prefix, ``[HIT:N]`` suffix) removed;
    apostrophes and hyphens inside words dropped (``don't`` = ``dont``, ``re-run`` = ``rerun``);
    every other run of punctuation (markdown backticks and emphasis, a trailing period, quotes,
    brackets) and whitespace becomes one space. Digits and letters are never changed, so
    ``3.5`` and ``35`` stay different.
    """
    text = _prep(text).casefold()
    text = re.sub(r"(?<=\w)['-](?=\w)", "", text)
    return " ".join(re.sub(r"[\W_]+", " ", text).split())


# --------------------------------------------------------------------------- tokens

_STOPWORDS = frozenset(
    """
    a about above across after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each either
    etc even every few for from further get gets got had has have having here how however i if
    in into is it its itself just let me might more most must my need needs of off on once one
    only or other our out over own per please same shall should so some still such than that
    the their them then there these they this those though through to too under until up upon
    us very via was way we were what when where whether which while who whom why will with
    within would yet you your use uses using used make makes ensure always prefer eg ie like
    """.split()
)
# Negation, explicit (not, never, n't) or lexical (avoid, skip, unless, except): "skip
# markdown" and "never output markdown" have the same polarity. Comparatives ("X rather than
# Y", "X instead of Y") are not negations of the lesson; see _reversed_preference.
_NEGATORS = frozenset(
    """
    not no never nothing nobody neither nor cannot cant dont doesnt didnt isnt arent wasnt
    werent wont wouldnt shouldnt mustnt without avoid avoids avoiding skip skipping unless
    except
    """.split()
)
# Explicit opposite pairs (raw words and stems are both compared); prefix antonyms are handled
# separately. Before/after is in (the order of two steps is often the whole lesson); place
# words (inside/outside) are not: rewordings flip them together with a negation ("not inside
# the loop" = "outside the loop").
_ANTONYM_PAIRS: tuple[tuple[str, str], ...] = (
    ("always", "never"),
    ("enable", "disable"),
    ("enabled", "disabled"),
    ("allow", "deny"),
    ("allow", "forbid"),
    ("include", "exclude"),
    ("sync", "async"),
    ("synchronous", "asynchronous"),
    ("explicit", "implicit"),
    ("min", "max"),
    ("minimum", "maximum"),
    ("increase", "decrease"),
    ("true", "false"),
    ("required", "optional"),
    ("mandatory", "optional"),
    ("public", "private"),
    ("before", "after"),
    ("connect", "disconnect"),
    ("allow", "disallow"),
    ("continue", "discontinue"),
)
# prefix -> shortest base word it may negate ("in" + "line" is not an antonym).
_ANTONYM_PREFIXES: tuple[tuple[str, int], ...] = (("un", 4), ("non", 4), ("in", 5), ("im", 5))
_COMPARATORS = re.compile(r"\b(?:over|instead of|rather than)\b")
_CLAUSE_SPLIT = re.compile(r"[.;:,()!?\[\]]+|\s-\s")


def _stem(word: str) -> str:
    """Light suffix stemmer: plurals, -ing, -ed, -ly, -ation; a final "e" is dropped so that
    base/based, cache/caching, type/types meet. Never shortens a word below three letters."""
    if len(word) <= 3 or not word.isalpha():
        return word
    stem = word
    for suffix, repl in (
        ("ations", ""),
        ("ation", ""),
        ("ies", "y"),
        ("ied", "y"),
        ("ings", ""),
        ("ing", ""),
        ("edly", ""),
        ("ed", ""),
        ("ly", ""),
        ("sses", "ss"),
        ("xes", "x"),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) + len(repl) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                break
            stem = word[: -len(suffix)] + repl
            doubled = len(stem) >= 4 and stem[-1] == stem[-2] and stem[-1] not in "lsz"
            if doubled and suffix in ("ing", "ings", "ed", "edly"):
                stem = stem[:-1]  # running -> run, stopped -> stop
            break
    if len(stem) > 3 and stem.endswith("e"):
        stem = stem[:-1]
    return stem


def _words(text: str) -> list[str]:
    """Lower-case alphanumeric words; possessive 's dropped, apostrophes and ``non-``/``un-``
    hyphens joined (``don't`` -> ``dont``, ``non-blocking`` -> ``nonblocking``)."""
    text = _prep(text).casefold()
    text = re.sub(r"(?<=\w)'s\b", "", text)
    text = re.sub(r"(?<=\w)'(?=\w)", "", text)
    text = re.sub(r"\b(non|un)-(?=\w)", r"\1", text)
    return re.findall(r"[^\W_]+", text)


def _content(words: Iterable[str]) -> set[str]:
    return {_stem(w) for w in words if len(w) > 1 and w not in _STOPWORDS and w not in _NEGATORS}


def _soft_hits(a: set[str], b: set[str], prefix: int = 5) -> int:
    """Words of ``a`` found in ``b`` exactly or through a shared prefix of ``prefix`` letters."""
    hits = 0
    heads = {w[:prefix] for w in b if len(w) >= prefix}
    for w in a:
        if w in b or (len(w) >= prefix and w[:prefix] in heads):
            hits += 1
    return hits


def _overlap_and_shared(a: str, b: str) -> tuple[float, int]:
    ca, cb = _content(_words(a)), _content(_words(b))
    if not ca or not cb:
        return 0.0, 0
    hits_a, hits_b = _soft_hits(ca, cb), _soft_hits(cb, ca)
    return (hits_a + hits_b) / (len(ca) + len(cb)), min(hits_a, hits_b)


def content_overlap(a: str, b: str) -> float:
    """Soft Jaccard of the stemmed content words of two texts, in [0, 1].

    Content words are words of two or more characters that are not stopwords, generic
    imperatives ("use", "make", "ensure", "prefer") or negators. Two words match when equal
    after stemming or when they share their first five letters ("synchronizing" /
    "synchronization", "maintainable" / "maintainability"). The score is
    ``(hits(a in b) + hits(b in a)) / (|a| + |b|)``; 0.0 when either text has no content word.
    """
    return _overlap_and_shared(a, b)[0]


# --------------------------------------------------------------------------- conflicts

_NUMBER = re.compile(r"(?<![A-Za-z_])\d+(?:[.,]\d+)*|(?<=[A-Za-z_])\d+")


def _numbers(text: str) -> set[str]:
    out = set()
    for raw in _NUMBER.findall(_prep(text)):
        raw = raw.rstrip(".,")
        if re.fullmatch(r"\d{1,3}(?:,\d{3})+", raw):
            raw = raw.replace(",", "")
        out.add(raw.replace(",", "."))
    return out


_BACKTICK = re.compile(r"`([^`]+)`")
_QUOTED = re.compile(r"(?<![\w])[\"']([^\"'\n]{1,40})[\"'](?![\w])")
# Capitalised words that are emphasis or sentence openers, not names.
_NOT_NAMES = frozenset(
    """
    NOT NO NEVER ALWAYS MUST ALL DO DONT ONLY AND OR THE IMPORTANT NOTE WARNING SHOULD
    FORBIDDEN AVOID USE TODO OK YES A I IF IS IT BE OF ON IN TO AT AS BY FOR NEW MAY
    """.split()
)
_TOKEN_STRIP = "()[]{}<>,;:!?\"'`*“”‘’"
_ACRONYM = re.compile(r"[A-Z][A-Z0-9]{1,7}s?")
_CLAUSE_OPENERS = frozenset(".:;!?([{\"'-*>")  # after _prep: quotes and dashes are ASCII
_NAME = re.compile(r"(?<![\w.'`/@$-])([A-Z][a-z][A-Za-z0-9]*)(?![\w`(/-]|\.\w)")


_ABBREVIATIONS = frozenset({"e.g", "i.e", "a.k.a", "etc", "vs", "cf", "n.b"})


def _is_code_token(core: str) -> bool:
    """camelCase, snake_case, dotted.name, call(), /path, --flag, $var, @decorator, v2-style."""
    if len(core) < 2 or not re.search(r"[A-Za-z]", core) or core.casefold() in _ABBREVIATIONS:
        return False
    return bool(
        re.search(r"[a-z][A-Z]", core)
        or re.search(r"\w_\w", core)
        or re.search(r"[A-Za-z]\.[A-Za-z]", core)
        or re.search(r"\w\(", core)
        or core.startswith(("/", "./", "--", "~/", "$", "@", "."))
        or (re.search(r"[A-Za-z]\d|\d[A-Za-z]", core) is not None and not core[0].isdigit())
    )


def _key(raw: str) -> str:
    return re.sub(r"[\W_]+", "", raw.casefold())


@dataclass(frozen=True)
class _Specifics:
    """The specifics a lesson states: code names, ACRONYMS, Capitalised names, numbers."""

    code: frozenset[str]
    acronyms: frozenset[str]
    names: frozenset[str]
    numbers: frozenset[str]

    @property
    def identifiers(self) -> frozenset[str]:
        return self.code | self.acronyms | self.names


def _specifics(text: str) -> _Specifics:
    """Extract the specifics of a text; identifiers are lower-cased letters and digits only.

    Code names: backticked spans, short quoted literals and code-shaped tokens. Acronyms:
    2-8 capitals/digits (not emphasis such as NOT or MUST). Names: a capitalised word that
    does not open a sentence or clause (``Use Redis for ...``, ``with Vitest``): products and
    tools, whose substitution changes the lesson.
    """
    text = _prep(text)
    code: set[str] = set()
    acronyms: set[str] = set()
    names: set[str] = set()
    code.update(_key(span) for span in _BACKTICK.findall(text))
    rest = _BACKTICK.sub(" ", text)
    code.update(_key(span) for span in _QUOTED.findall(rest) if len(span.split()) <= 3)
    for tok in rest.split():
        core = tok.strip(_TOKEN_STRIP).rstrip(".")
        if _ACRONYM.fullmatch(core):
            if core.rstrip("s") not in _NOT_NAMES:
                acronyms.add(_key(core))
        elif _is_code_token(core):
            code.add(_key(core))
    for m in _NAME.finditer(rest):
        before = rest[: m.start()].rstrip()
        opens_clause = not before or before[-1] in _CLAUSE_OPENERS
        if not opens_clause and m.group(1).upper() not in _NOT_NAMES:
            names.add(_key(m.group(1)))

    def clean(keys: set[str]) -> frozenset[str]:
        return frozenset(k for k in keys if k and not k.isdigit())

    return _Specifics(clean(code), clean(acronyms), clean(names) - code, frozenset(_numbers(text)))


def _initialisms(words: Sequence[str], max_len: int = 6) -> set[str]:
    """Initials of consecutive words ("role based access control" -> rbac, ...)."""
    out = set()
    for i in range(len(words)):
        acc = ""
        for w in words[i : i + max_len]:
            acc += w[0]
            if len(acc) >= 2:
                out.add(acc)
    return out


def _mentions(key: str, compact: str, words: set[str], initials: set[str]) -> bool:
    if len(key) >= 4 and key in compact:
        return True
    return key in words or key in initials or (key.endswith("s") and key[:-1] in initials)


def _unmentioned(ids: set[str], other: str) -> set[str]:
    words = _words(other)
    compact = "".join(words)
    word_set = set(words)
    initials = _initialisms(words)
    return {k for k in ids if not _mentions(k, compact, word_set, initials)}


# --------------------------------------------------------------------------- commands

# Command-line tools whose invocations are lessons' specifics even without backticks
# ("Create branches with git switch -c"). Lower-case only: "Docker" in prose is the product.
_TOOLS = frozenset(
    """
    git gh npm npx yarn pnpm bun deno pip pip3 pipx uv poetry pipenv conda mamba pytest tox nox
    ruff black isort flake8 mypy pyright pylint twine docker docker-compose podman buildah
    kubectl helm kustomize minikube kind k9s terraform tofu terragrunt ansible ansible-playbook
    aws gcloud gsutil az brew apt apt-get dnf yum apk snap cargo rustup rustc gradle gradlew mvn
    sbt dotnet swift xcodebuild flutter dart eslint prettier tsc jest vitest playwright
    cypress webpack vite esbuild rollup curl wget ssh scp rsync ssh-keygen sed awk grep rg fd
    tar unzip chmod chown systemctl journalctl alembic psql pg_dump pg_restore mysql sqlite3
    redis-cli mongosh openssl nvm rbenv pyenv bundle gem rails rake composer php nginx
    pre-commit lsof netstat ss jq yq
    """.split()
)
# English words that are also tools: a command only when a flag follows ("go test -race").
_AMBIGUOUS_TOOLS = frozenset("go make find node python python3 java sort kill source top".split())
_COMMAND_END = frozenset(
    """
    to for in on before after so and or when with instead rather than the a an is are was
    were if from into that which then while because but until unless as at by of not never
    now no it its this your our their every each also only first again too be shows show
    does do doesnt dont will can must should runs works fails reaches has have had here there
    """.split()
)
_MAX_COMMAND_WORDS = 6
# Stands for a command in the text `_commands_and_rest` returns (no word character).
COMMAND_MARK = "\x00"


def _command_token(raw: str) -> tuple[str, str]:
    """(normalized token, the sentence punctuation that ends the command after it, or "")."""
    core = raw.strip("`\"'()[]{}<>*")
    stop = ""
    if len(core) > 1 and core[-1] in ".,;:!?" and not core.endswith(".."):
        stop = core[-1]
        core = core.rstrip(".,;:!?").rstrip("`\"')]}>")
    elif raw.rstrip().endswith((",", ";", ":", ")")):
        stop = raw.rstrip()[-1]
    return core.strip("<>"), stop


def _commands_and_rest(text: str) -> tuple[list[tuple[str, ...]], str]:
    """The command invocations a text names (tool, subcommands, flags, arguments) and the text
    with each replaced by `COMMAND_MARK`."""
    tokens = _prep(text).replace("`", " ` ").split()
    commands: list[tuple[str, ...]] = []
    rest: list[str] = []
    i = 0
    while i < len(tokens):
        tool, ends = _command_token(tokens[i])
        if tool not in _TOOLS and tool not in _AMBIGUOUS_TOOLS:
            rest.append(tokens[i])
            i += 1
            continue
        phrase, j = [tool], i + 1
        while not ends and j < len(tokens) and len(phrase) < _MAX_COMMAND_WORDS:
            if tokens[j] == "`":
                j += 1
                continue
            word, stop = _command_token(tokens[j])
            if not word or word[0].isupper() or word.casefold() in _COMMAND_END or word == "|":
                break
            phrase.append(word.casefold())
            ends = stop
            j += 1
        flagged = any(w.startswith("-") for w in phrase[1:])
        if tool in _AMBIGUOUS_TOOLS and not flagged:
            rest.append(tokens[i])
            i += 1
            continue
        commands.append(tuple(phrase))
        rest.append(COMMAND_MARK + ends)
        i = j
    return commands, " ".join(t for t in rest if t != "`")


def _commands(text: str) -> list[tuple[str, ...]]:
    return _commands_and_rest(text)[0]


def _compatible(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """One invocation is the other with more arguments ("npm install" / "npm install -D x")."""
    n = min(len(a), len(b))
    return [_key(w) for w in a[:n]] == [_key(w) for w in b[:n]]


def _command_mismatch(a: str, b: str) -> bool:
    """Each text names a command the other does not (``git checkout -b`` / ``git switch -c``)."""
    ca, cb = _commands(a), _commands(b)
    only_a = [x for x in ca if not any(_compatible(x, y) for y in cb)]
    only_b = [y for y in cb if not any(_compatible(x, y) for x in ca)]
    return bool(only_a and only_b)


def _antonym_hit(wa: set[str], wb: set[str]) -> str | None:
    only_a, only_b = wa - wb, wb - wa
    for x, y in _ANTONYM_PAIRS:
        if (x in only_a and y in only_b) or (y in only_a and x in only_b):
            return f"{x}/{y}"
    for prefix, min_base in _ANTONYM_PREFIXES:
        for base in only_a:
            if len(base) >= min_base and prefix + base in only_b:
                return f"{base}/{prefix}{base}"
        for base in only_b:
            if len(base) >= min_base and prefix + base in only_a:
                return f"{base}/{prefix}{base}"
    return None


def _negated(words: Sequence[str]) -> bool:
    return any(w in _NEGATORS for w in words)


def _preferences(text: str) -> list[tuple[set[str], set[str]]]:
    """(preferred, dispreferred) content-word sets of every "X over Y" clause."""
    out = []
    for clause in _CLAUSE_SPLIT.split(_prep(text).casefold()):
        m = _COMPARATORS.search(clause)
        if m is None:
            continue
        left = _content(_words(clause[: m.start()]))
        right = _content(_words(clause[m.end() :]))
        if left and right:
            out.append((left, right))
    return out


def _reversed_preference(a: str, b: str) -> bool:
    for la, ra in _preferences(a):
        for lb, rb in _preferences(b):
            if (la - ra) & (rb - lb) and (ra - la) & (lb - rb):
                return True
    return False


@dataclass(frozen=True)
class PairAnalysis:
    """Threshold-free lexical facts about a pair (see :func:`analyse_pair`).

    Attributes:
        text_match: ``"exact"``, ``"normalized-text"`` or None.
        overlap: :func:`content_overlap` of the two texts.
        shared: content words matched in both directions (the smaller of the two hit counts).
        conflict: ``number-mismatch``, ``identifier-mismatch``, ``command-mismatch``,
            ``antonym``, ``negation-mismatch``, ``preference-reversed`` or None (negation is
            judged with the ``negation_overlap`` given to :func:`analyse_pair`).
        unshared: numbers and code names that one text states and the other does not mention
            (acronyms and capitalised names are left out: a rewording often drops the topic,
            "Keep Dart lines short" / "Keep lines short").
    """

    text_match: str | None
    overlap: float
    shared: int
    conflict: str | None
    unshared: frozenset[str]


def analyse_pair(
    a: str, b: str, negation_overlap: float = DEFAULT_THRESHOLDS.negation_overlap
) -> PairAnalysis:
    """The lexical facts :func:`decide_pair` combines with the cosine (symmetric in a, b)."""
    if a.strip() == b.strip():
        return PairAnalysis("exact", 1.0, 0, None, frozenset())
    na, nb = normalize_text(a), normalize_text(b)
    if na and na == nb:
        return PairAnalysis("normalized-text", 1.0, 0, None, frozenset())
    overlap, shared = _overlap_and_shared(a, b)
    sa, sb = _specifics(a), _specifics(b)
    ua, ub = _unmentioned(set(sa.identifiers), b), _unmentioned(set(sb.identifiers), a)
    code = sa.code | sb.code
    unshared = frozenset((ua | ub) & code) | (sa.numbers ^ sb.numbers)
    conflict: str | None = None
    if sa.numbers and sb.numbers and sa.numbers != sb.numbers:
        conflict = "number-mismatch"
    elif ua and ub:
        conflict = "identifier-mismatch"
    elif _command_mismatch(a, b):
        conflict = "command-mismatch"
    else:
        wa, wb = _words(a), _words(b)
        if _antonym_hit({_stem(w) for w in wa} | set(wa), {_stem(w) for w in wb} | set(wb)):
            conflict = "antonym"
        elif _negated(wa) != _negated(wb) and overlap >= negation_overlap:
            conflict = "negation-mismatch"
        elif _reversed_preference(a, b):
            conflict = "preference-reversed"
    return PairAnalysis(None, overlap, shared, conflict, unshared)


def conflict_reason(a: str, b: str) -> str | None:
    """Why two related texts state different facts, or None (see the module docstring)."""
    return analyse_pair(a, b).conflict


def decide_pair(
    existing: str,
    candidate: str,
    cosine: float,
    t: DedupThresholds = DEFAULT_THRESHOLDS,
) -> PairDecision:
    """Decide whether ``candidate`` restates ``existing`` (see the module docstring).

    Args:
        existing: text of a lesson already stored in the skill.
        candidate: text of the lesson being offered to the same skill.
        cosine: cosine similarity of their normalized embeddings (all-MiniLM-L6-v2 scale).
        t: thresholds; the defaults are calibrated for all-MiniLM-L6-v2.

    Returns:
        A :class:`PairDecision`; ``reason`` names the rule that fired: ``exact``,
        ``normalized-text``, a conflict (``number-mismatch``, ``identifier-mismatch``,
        ``command-mismatch``, ``antonym``, ``negation-mismatch``, ``preference-reversed``),
        ``cosine>=0.85``,
        ``cosine>=0.55+overlap>=0.45``, ``unshared-specifics``, ``grey-band`` or
        ``below-band``. The verdict depends only on the unordered pair (it is symmetric in
        the two texts). A NaN cosine compares false everywhere and ends in ADD.
    """
    return decide_from_analysis(analyse_pair(existing, candidate, t.negation_overlap), cosine, t)


def decide_from_analysis(
    an: PairAnalysis, cosine: float, t: DedupThresholds = DEFAULT_THRESHOLDS
) -> PairDecision:
    """:func:`decide_pair` on a precomputed :class:`PairAnalysis` (for sweeps and batches)."""
    cos = float(cosine)
    if an.text_match is not None:
        return PairDecision(Verdict.MERGE, cos, an.text_match, an.overlap)
    if an.conflict is not None:
        verdict = Verdict.GREY if cos >= t.grey else Verdict.ADD
        return PairDecision(verdict, cos, an.conflict, an.overlap)
    if cos >= t.merge:
        return PairDecision(Verdict.MERGE, cos, f"cosine>={t.merge:.2f}", an.overlap)
    if cos >= t.support and an.overlap >= t.overlap and an.shared >= t.min_shared:
        if an.unshared:
            return PairDecision(Verdict.GREY, cos, "unshared-specifics", an.overlap)
        reason = f"cosine>={t.support:.2f}+overlap>={t.overlap:.2f}"
        return PairDecision(Verdict.MERGE, cos, reason, an.overlap)
    if cos >= t.grey:
        return PairDecision(Verdict.GREY, cos, "grey-band", an.overlap)
    return PairDecision(Verdict.ADD, cos, "below-band", an.overlap)


def pick_merge_target(decisions: Sequence[PairDecision]) -> int | None:
    """Index of the existing lesson to merge into, or None when no decision is MERGE.

    ``decisions[i]`` is the decision for existing lesson ``i``. Text matches (``exact``,
    ``normalized-text``) win over cosine merges; among the rest the highest cosine wins, then
    the higher overlap, then the lower index (the older entry, for determinism).
    """
    best: int | None = None
    best_key: tuple[int, float, float] = (-1, 0.0, 0.0)
    for i, d in enumerate(decisions):
        if d.verdict is not Verdict.MERGE:
            continue
        key = (int(d.reason in ("exact", "normalized-text")), d.similarity, d.overlap)
        if best is None or key > best_key:
            best, best_key = i, key
    return best


# --------------------------------------------------------------------------- wording

MIN_CLEAR_CHARS = 15
MAX_CLEAR_CHARS = 300


def _truncated(text: str) -> bool:
    s = text.rstrip()
    return s.endswith(("...", "…")) or s.count("`") % 2 == 1 or s.count("(") > s.count(")")


def _extra_specifics(text: str, other: str) -> int:
    """Identifiers and numbers of ``text`` that ``other`` does not state."""
    mine = _specifics(text)
    return len(_unmentioned(set(mine.identifiers), other)) + len(mine.numbers - _numbers(other))


def clearer_wording(existing: str, candidate: str) -> str:
    """The text to keep when the two lessons merge.

    The heuristic, first difference wins (ties keep ``existing``, so wording does not churn):

    1. not truncated (no trailing ``...``/``…``, balanced backticks and parentheses);
    2. within the length window ``MIN_CLEAR_CHARS``..``MAX_CLEAR_CHARS`` (15..300 characters):
       a fragment or an essay is harder to act on than a one-line rule;
    3. more specific: more identifiers, commands and numbers that the other text lacks
       (``Keep lines under 80 characters`` beats ``Keep lines short``).
    """
    e, c = _prep(existing), _prep(candidate)
    if _truncated(e) != _truncated(c):
        return candidate if _truncated(e) else existing

    def in_window(s: str) -> bool:
        return MIN_CLEAR_CHARS <= len(s) <= MAX_CLEAR_CHARS

    if in_window(e) != in_window(c):
        return candidate if in_window(c) else existing
    if _extra_specifics(c, e) > _extra_specifics(e, c):
        return candidate
    return existing
