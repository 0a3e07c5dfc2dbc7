"""retrieval.lexical: tokenizer, stemmer and the small BM25 scorer (hand-made fixtures only)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from fireworks_skill_memory.memory.retrieval import lexical
from fireworks_skill_memory.memory.retrieval.lexical import (
    STOPWORDS,
    DocumentFrequencies,
    bm25_scores,
    document_frequencies,
    stem,
    tokenize,
)

LESSONS = [
    "Always run `browser-use state` before clicking to get current element indices.",
    "Use chrome.alarms for scheduling tasks instead of setInterval in Manifest V3.",
    "Raise domain exceptions (InsufficientFundsError), not HTTPException, in services.",
    "Prefer smart pointers (std::unique_ptr) over raw new/delete.",
    "Use descriptive test names that explain the expected behaviour.",
]


class TestTokenize:
    def test_lowercases_and_drops_stopwords(self) -> None:
        assert tokenize("The Cache is NOT working for me") == ["cach", "work"]

    def test_single_letters_dropped_numbers_kept(self) -> None:
        assert tokenize("a b 402 f64 x") == ["402", "f64"]

    def test_splits_punctuation_snake_and_kebab(self) -> None:
        assert tokenize("idempotency_key re-render div.card") == [
            "idempotency",
            "key",
            "render",
            "div",
            "card",
        ]

    def test_camel_case_keeps_whole_and_parts(self) -> None:
        assert tokenize("useFormState") == ["useformstat", "use", "form", "stat"]
        assert tokenize("HTTPException") == ["httpexception", "http", "exception"]

    def test_all_caps_not_split(self) -> None:
        assert tokenize("JSON API") == ["json", "api"]

    def test_plural_and_verb_forms_meet(self) -> None:
        forms = ["raise", "raises", "raised", "raising"]
        assert {tokenize(f)[0] for f in forms} == {"rais"}
        assert tokenize("retries")[0] == tokenize("retried")[0] == "retry"
        assert tokenize("re-renders") == tokenize("re-render")

    def test_unicode_nfkc_and_accents(self) -> None:
        # Full-width letters fold to ASCII; accented words stay words.
        assert tokenize("Ｆｕｌｌ ｗｉｄｔｈ café") == ["full", "width", "café"]

    def test_cjk_bigrams(self) -> None:
        assert tokenize("缓存失效") == ["缓存", "存失", "失效"]
        assert tokenize("用") == ["用"]
        assert tokenize("redis缓存") == ["redis", "缓存"]

    def test_empty_and_symbols(self) -> None:
        assert tokenize("") == []
        assert tokenize("  --- !!! ") == []

    def test_custom_stopwords(self) -> None:
        assert tokenize("the cache", stopwords=frozenset({"cache"})) == ["the"]

    def test_stopwords_are_lower_case_words(self) -> None:
        assert all(w == w.lower() and w.isalpha() for w in STOPWORDS)


class TestStem:
    @pytest.mark.parametrize(
        ("word", "expected"),
        [
            ("tests", "test"),
            ("mocking", "mock"),
            ("stopped", "stop"),
            ("running", "run"),
            ("indices", "indic"),
            ("class", "class"),
            ("status", "status"),
            ("analysis", "analysis"),
            ("passes", "pass"),
            ("caches", "cach"),
            ("quickly", "quick"),
            ("use", "use"),
            ("fill", "fill"),
            ("filled", "fill"),
            ("v5", "v5"),
        ],
    )
    def test_cases(self, word: str, expected: str) -> None:
        assert stem(word) == expected

    def test_short_words_untouched(self) -> None:
        for w in ("bus", "is", "has", "uses", "git"):
            assert stem(w) == w


class TestBM25:
    def test_empty_candidates(self) -> None:
        assert bm25_scores("anything", []) == []

    def test_no_query_terms_gives_zeros(self) -> None:
        assert bm25_scores("the of and", LESSONS) == [0.0] * len(LESSONS)

    def test_matching_lesson_scores_highest(self) -> None:
        scores = bm25_scores("my setInterval polling stops under Manifest V3", LESSONS)
        assert max(range(len(scores)), key=scores.__getitem__) == 1
        assert scores[0] == 0.0

    def test_non_negative(self) -> None:
        docs = ["cache cache cache", "cache", "cache miss"]
        assert all(s >= 0 for s in bm25_scores("cache", docs))

    def test_rare_term_outweighs_common_term(self) -> None:
        docs = ["test names test", "test alarms", "test pointers", "test services"]
        scores = bm25_scores(["test", "alarm"], docs)
        assert scores[1] > scores[0]

    def test_doc_tokens_equal_docs(self) -> None:
        toks = [tokenize(d) for d in LESSONS]
        assert bm25_scores("raise HTTPException", LESSONS) == bm25_scores(
            "raise HTTPException", doc_tokens=toks
        )

    def test_query_tokens_accepted(self) -> None:
        q = tokenize("smart pointers")
        assert bm25_scores(q, LESSONS) == bm25_scores("smart pointers", LESSONS)

    def test_external_frequencies_change_idf(self) -> None:
        toks = [tokenize(d) for d in LESSONS]
        local = bm25_scores("test names", doc_tokens=toks)
        # In a big external collection "test" is everywhere, so it should count for less.
        ext = DocumentFrequencies(n_docs=1000, df={"test": 900, "name": 5})
        external = bm25_scores("test names", doc_tokens=toks, frequencies=ext)
        assert local[4] > 0 and external[4] > 0
        assert external[4] != local[4]

    def test_document_frequencies_counts_once_per_doc(self) -> None:
        freq = document_frequencies([["a", "a", "b"], ["b"], []])
        assert freq.n_docs == 3
        assert dict(freq.df) == {"a": 1, "b": 2}
        assert freq.idf("b") < freq.idf("a") < freq.idf("zzz")

    def test_b_zero_ignores_length(self) -> None:
        docs = ["cache", "cache plus many other unrelated words here"]
        s = bm25_scores("cache", docs, b=0.0)
        assert s[0] == pytest.approx(s[1])
        s = bm25_scores("cache", docs, b=1.0)
        assert s[0] > s[1]

    def test_needs_docs(self) -> None:
        with pytest.raises(ValueError, match="docs or doc_tokens"):
            bm25_scores("x")

    def test_fast_on_100_lessons(self) -> None:
        docs = [f"{LESSONS[i % len(LESSONS)]} variant {i} with someExtraWords" for i in range(100)]
        toks = [tokenize(d) for d in docs]
        bm25_scores("element indices change after clicking", doc_tokens=toks)  # warm up
        t = time.perf_counter()
        for _ in range(20):
            bm25_scores("element indices change after clicking", doc_tokens=toks)
        per_call = (time.perf_counter() - t) / 20
        assert per_call < 0.01  # ~0.4 ms on a dev machine; generous for loaded CI


def test_standard_library_only() -> None:
    """The hook imports this module where numpy is not allowed."""
    code = (
        "import json, sys; import fireworks_skill_memory.memory.retrieval.lexical as m; "
        "m.bm25_scores('a b', ['a b c']);"
        "print(json.dumps(sorted(k for k in sys.modules if k.split('.')[0] in "
        "('numpy', 'torch', 'sentence_transformers'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out.strip().splitlines()[-1]) == []


def test_public_names() -> None:
    for name in lexical.__all__:
        assert hasattr(lexical, name)
