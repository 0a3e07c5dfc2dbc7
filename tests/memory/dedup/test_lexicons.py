"""Every word list and pattern shipped as data matches its own examples.

The lexicon files (TOML in the package, read by `memory.lexicon`) hold the word lists and
phrase patterns of the text rules; each entry carries at least one text it must match and
one it must not, checked here so that an edit to a list shows what it changes.
"""

from __future__ import annotations

from importlib import resources

import pytest

from fireworks_skill_memory.memory import lexicon

FILES = (
    ("fireworks_skill_memory.memory", "text_words.toml"),
    ("fireworks_skill_memory.memory.dedup", "lexicon.toml"),
)
ENTRIES = [
    (f"{filename}:{name}", entry)
    for package, filename in FILES
    for name, entry in lexicon.load(package, filename).items()
]


@pytest.mark.parametrize(("where", "entry"), ENTRIES, ids=[where for where, _ in ENTRIES])
def test_each_entry_matches_its_examples(where: str, entry: lexicon.Entry) -> None:
    assert entry.match and entry.no_match, f"{where}: needs a match and a no_match example"
    for text in entry.match:
        assert entry.matches(text), f"{where} should match {text!r}"
    for text in entry.no_match:
        assert not entry.matches(text), f"{where} should not match {text!r}"


@pytest.mark.parametrize(("package", "filename"), FILES)
def test_lexicon_files_are_package_data(package: str, filename: str) -> None:
    assert resources.files(package).joinpath(filename).is_file()


def test_antonym_pairs_are_in_the_word_list() -> None:
    entry = lexicon.load("fireworks_skill_memory.memory.dedup", "lexicon.toml")["antonym_pairs"]
    assert {w for pair in entry.extra["pairs"] for w in pair} == set(entry.words)


def test_a_malformed_entry_is_an_error() -> None:
    with pytest.raises(ValueError, match="pattern"):
        lexicon._entry("bad", {"pattern": 3}, "x")
    with pytest.raises(ValueError, match="words"):
        lexicon._entry("bad", {"words": 3}, "x")
