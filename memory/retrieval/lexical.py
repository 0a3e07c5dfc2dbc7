"""Lexical matching for lesson ranking: a tokenizer and a small BM25 scorer.

Standard library only: this module is imported inside the hook process, where numpy is not
available. It scores a *small* candidate list (one skill's lessons, or the dense top-K of an
all-skills search), so it keeps no inverted index: each call tokenizes the query once and walks
the candidate token lists, which for 100 lessons takes a fraction of a millisecond once the
lessons are tokenized (tokenize them once and pass ``doc_tokens`` when scoring repeatedly).

Tokenizer (:func:`tokenize`):

* NFKC-normalised and lower-cased; words are maximal runs of unicode letters/digits, so
  ``idempotency_key``, ``re-render`` and ``div.card`` split into their parts;
* camelCase / PascalCase identifiers also contribute their parts (``useFormState`` gives
  ``useformstate``, ``use``, ``form``, ``state``);
* runs of CJK ideographs / kana / hangul become overlapping character bigrams;
* English stopwords (and one-character Latin tokens) are dropped;
* a light suffix stemmer (:func:`stem`) folds plurals and ``-ing`` / ``-ed`` / ``-ly`` forms.

BM25 (:func:`bm25_scores`) uses the usual Okapi form with ``k1`` and ``b`` and the
non-negative idf ``ln(1 + (N - df + 0.5) / (df + 0.5))``. Document frequencies can come from
the candidates themselves or from an external, larger collection (:func:`document_frequencies`
over the whole lesson store), which gives more stable idf for small skills.
"""

from __future__ import annotations

import math

TYPE_CHECKING = False  # the hook process imports this module: no typing, re or dataclasses
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "STOPWORDS",
    "TOKENIZER_VERSION",
    "DocumentFrequencies",
    "bm25_scores",
    "document_frequencies",
    "stem",
    "tokenize",
]

#: Changes whenever :func:`tokenize` gives different terms for some text (stored tokens, such
#: as the per-skill lexical cache, are rebuilt when it differs).
TOKENIZER_VERSION = 1

# Common English function words plus the pronouns/auxiliaries typical of task descriptions
# ("I need to ...", "how do I ...", "we want ..."). Content words stay even when frequent
# ("use", "test"): idf already discounts them.
STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all also am an and any are aren as at be because been
    before being below between both but by can cannot could couldn did didn do does doesn doing
    don down during each either etc even ever every few for from further get gets getting got had
    hadn has hasn have haven having he her here hers herself him himself his how however i if in
    into is isn it its itself just let ll me might more most must mustn my myself need needs no
    nor not now of off on once one only or other our ours ourselves out over own per please re
    really same shall she should shouldn so some still such than that the their theirs them
    themselves then there these they this those though through to too under until up upon us
    ve very via want wants was wasn way we were weren what when where whether which while who
    whom whose why will with within without won would wouldn yet you your yours yourself
    yourselves
    """.split()
)

#: Hiragana, katakana, CJK extension A, CJK unified, hangul syllables, CJK compatibility.
_CJK_RANGES = (
    (0x3040, 0x30FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7AF),
    (0xF900, 0xFAFF),
)
_CACHE_LIMIT = 65536


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _CJK_RANGES)


class _WordChars(dict):  # type: ignore[type-arg]
    """`str.translate` table: letters and digits stay, everything else becomes a space.

    A word is a maximal run of characters for which `str.isalnum()` holds (what the regular
    expression `[^\\W_]+` matches); entries are computed on first sight of a character.
    """

    def __missing__(self, code: int) -> str:
        char = chr(code)
        value = char if char.isalnum() else " "
        if len(self) < _CACHE_LIMIT:
            self[code] = value
        return value


_WORD_CHARS = _WordChars()


def _words(text: str) -> list[str]:
    """The words of a text: maximal runs of letters and digits (`_` separates)."""
    return text.translate(_WORD_CHARS).split()


_STEMS: dict[str, str] = {}


def stem(word: str) -> str:
    """Fold a lower-case English word to a crude stem (plurals, -ing, -ed, -ly, final -e).

    Deliberately light: it only has to make "raises"/"raise"/"raising", "re-renders"/
    "re-render" or "retried"/"retry" meet, and it must not merge unrelated short words, so words
    of four letters or fewer are kept as they are and a stem keeps at least three letters.
    """
    found = _STEMS.get(word)
    if found is None:
        found = _stem(word)
        if len(_STEMS) >= _CACHE_LIMIT:
            _STEMS.clear()
        _STEMS[word] = found
    return found


def _stem(word: str) -> str:
    n = len(word)
    if n <= 4 or not word.isalpha():
        return word
    if word.endswith(("ies", "ied")) and n > 5:
        return word[:-3] + "y"
    if word.endswith("ing") and n > 6:
        return _tidy(word[:-3])
    if word.endswith("ed") and n > 5:
        return _tidy(word[:-2])
    if word.endswith("ly") and n > 5:
        return _tidy(word[:-2])
    if word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("es") and (word[-3] in "sxz" or word[-4:-2] in ("ch", "sh")):
        return word[:-2]
    if word.endswith("s"):
        return _tidy(word[:-1])
    return _tidy(word)


def _tidy(s: str) -> str:
    """Drop a final "e" and undo a doubled final consonant ("stopp" -> "stop")."""
    if len(s) > 4 and s.endswith("e"):
        s = s[:-1]
    if len(s) >= 4 and s[-1] == s[-2] and s[-1] not in "lsz":
        s = s[:-1]
    return s


def tokenize(text: str, *, stopwords: frozenset[str] = STOPWORDS) -> list[str]:
    """Split ``text`` into stemmed, lower-case index terms (see the module docstring)."""
    if not text.isascii():
        import unicodedata

        text = unicodedata.normalize("NFKC", text)
    out: list[str] = []
    if stopwords is STOPWORDS:
        for raw in _words(text):
            out.extend(_word_terms(raw))
    else:
        for raw in _words(text):
            out.extend(_word_terms_uncached(raw, stopwords))
    return out


_TERMS: dict[str, tuple[str, ...]] = {}


def _word_terms(raw: str) -> tuple[str, ...]:
    found = _TERMS.get(raw)
    if found is None:
        found = _word_terms_uncached(raw, STOPWORDS)
        if len(_TERMS) >= _CACHE_LIMIT:
            _TERMS.clear()
        _TERMS[raw] = found
    return found


def _word_terms_uncached(raw: str, stopwords: frozenset[str]) -> tuple[str, ...]:
    """Terms of one word: itself (stemmed) and, for camelCase, its parts; CJK as bigrams."""
    out: list[str] = []
    if not raw.isascii() and any(_is_cjk(char) for char in raw):
        _cjk_terms(raw, stopwords, out)
        return tuple(out)
    low = raw.lower()
    if len(low) >= 2 and low not in stopwords:
        out.append(stem(low))
    if low != raw and not raw.isupper():
        parts = camel_parts(raw)
        if len(parts) > 1:
            for p in parts:
                pl = p.lower()
                if len(pl) >= 2 and pl not in stopwords:
                    out.append(stem(pl))
    return tuple(out)


def _run_end(word: str, start: int, low: str, high: str) -> int:
    """End of the run of characters in `low`..`high` that starts at `start`."""
    end = start
    while end < len(word) and low <= word[end] <= high:
        end += 1
    return end


def camel_parts(word: str) -> list[str]:
    """camelCase / PascalCase parts: "useFormState" -> use/Form/State, "HTTPError" -> HTTP/Error.

    The ASCII upper-case runs, capitalised or lower-case ASCII words and runs of decimal digits
    of `word`, in order; any other character separates (the regular expression
    `[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\\d+`, found left to right).
    """
    parts: list[str] = []
    i, n = 0, len(word)
    while i < n:
        char = word[i]
        if "A" <= char <= "Z":
            upper_end = _run_end(word, i, "A", "Z")
            followed_by_lower = upper_end < n and "a" <= word[upper_end] <= "z"
            if followed_by_lower and upper_end - i >= 2:
                end = upper_end - 1  # the last capital starts the next part
            elif followed_by_lower:
                end = _run_end(word, upper_end, "a", "z")
            else:
                end = upper_end
        elif "a" <= char <= "z":
            end = _run_end(word, i, "a", "z")
        elif char.isdecimal():
            end = i + 1
            while end < n and word[end].isdecimal():
                end += 1
        else:
            i += 1
            continue
        parts.append(word[i:end])
        i = end
    return parts


def _cjk_terms(run: str, stopwords: frozenset[str], out: list[str]) -> None:
    """Append character bigrams of CJK stretches, and other letters in the run as words."""
    start = 0
    n = len(run)
    while start < n:
        end = start
        cjk = _is_cjk(run[start])
        while end < n and _is_cjk(run[end]) == cjk:
            end += 1
        segment = run[start:end]
        if not cjk:
            _add_word(segment, stopwords, out)
        elif len(segment) == 1:
            out.append(segment)
        else:
            out.extend(segment[i : i + 2] for i in range(len(segment) - 1))
        start = end


def _add_word(word: str, stopwords: frozenset[str], out: list[str]) -> None:
    w = word.lower()
    if len(w) >= 2 and w not in stopwords:
        out.append(stem(w))


class DocumentFrequencies:
    """Document frequencies of terms over a collection of ``n_docs`` documents.

    A slotted class, not a dataclass: the hook process imports this module.
    """

    __slots__ = ("df", "n_docs")

    def __init__(self, n_docs: int, df: Mapping[str, int]) -> None:
        self.n_docs = n_docs
        self.df = df

    def idf(self, term: str) -> float:
        """BM25 idf, ``ln(1 + (N - df + 0.5) / (df + 0.5))`` (never negative)."""
        d = self.df.get(term, 0)
        return math.log(1.0 + (self.n_docs - d + 0.5) / (d + 0.5))


def document_frequencies(docs: Iterable[Sequence[str]]) -> DocumentFrequencies:
    """Count, for each term, how many of the tokenized ``docs`` contain it."""
    df: dict[str, int] = {}
    n = 0
    for toks in docs:
        n += 1
        for t in set(toks):
            df[t] = df.get(t, 0) + 1
    return DocumentFrequencies(n_docs=n, df=df)


def bm25_scores(
    query: str | Sequence[str],
    docs: Sequence[str] | None = None,
    *,
    doc_tokens: Sequence[Sequence[str]] | None = None,
    frequencies: DocumentFrequencies | None = None,
    k1: float = 1.2,
    b: float = 0.75,
) -> list[float]:
    """BM25 score of each candidate document for ``query``.

    Args:
        query: the query text, or its tokens (from :func:`tokenize`).
        docs: candidate texts; tokenized here unless ``doc_tokens`` is given.
        doc_tokens: pre-tokenized candidates (same order as the result).
        frequencies: document frequencies for idf; defaults to those of the candidates.
            Pass :func:`document_frequencies` of the whole lesson store for stabler idf.
        k1: term-frequency saturation.
        b: length normalisation (0 = none, 1 = full), relative to the candidates' mean length.

    Returns:
        One non-negative float per candidate (0.0 when no query term occurs in it).
    """
    if doc_tokens is None:
        if docs is None:
            raise ValueError("bm25_scores needs docs or doc_tokens")
        doc_tokens = [tokenize(d) for d in docs]
    q_terms = tokenize(query) if isinstance(query, str) else list(query)
    n = len(doc_tokens)
    if n == 0:
        return []
    q_unique = list(dict.fromkeys(q_terms))
    if not q_unique:
        return [0.0] * n
    freq = frequencies if frequencies is not None else document_frequencies(doc_tokens)
    idf = {t: freq.idf(t) for t in q_unique}
    lengths = [len(toks) for toks in doc_tokens]
    avgdl = (sum(lengths) / n) or 1.0
    qset = set(q_unique)
    out: list[float] = []
    for toks, dl in zip(doc_tokens, lengths, strict=True):
        tf: dict[str, int] = {}
        for t in toks:
            if t in qset:
                tf[t] = tf.get(t, 0) + 1
        if not tf:
            out.append(0.0)
            continue
        norm = k1 * (1.0 - b + b * dl / avgdl)
        s = 0.0
        for t, f in tf.items():
            s += idf[t] * f * (k1 + 1.0) / (f + norm)
        out.append(s)
    return out
