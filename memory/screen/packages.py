"""Look-alike package and action names: one edit from a popular name, or a digit for a letter.

Names are taken where a lesson installs or recommends something: after a package manager's
install verb, in `uses:` lines and `owner/name@ref` action references, and backticked names in
a sentence that swaps or installs. The popular names and their legitimate neighbours are
`data/packages.toml`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from fireworks_skill_memory.memory.screen.lexicon import lexicon

_CONFUSABLE = str.maketrans({"1": "l", "0": "o", "3": "e", "5": "s", "4": "a", "7": "t"})
_BACKTICKED = re.compile(r"`([@\w][\w./@-]{2,80})`")


def edit_distance_one(a: str, b: str) -> bool:
    """One substitution, insertion, deletion or transposition apart."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diffs) == 1:
            return True
        return (
            len(diffs) == 2
            and diffs[1] == diffs[0] + 1
            and a[diffs[0]] == b[diffs[1]]
            and a[diffs[1]] == b[diffs[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def typo_like(word: str, known: str) -> bool:
    """One letter doubled, two swapped, or a digit for a look-alike letter: a squatter's edit
    rather than a different word ("share" is not "sharp")."""
    if len(word) == len(known) + 1:
        if "-" in known and word == known + "s":
            return True  # a plural of a compound name
        at = next((i for i in range(len(known)) if word[i] != known[i]), len(known))
        return word[:at] + word[at + 1 :] == known and word[at] in (
            word[at - 1 : at] + word[at + 1 : at + 2]
        )
    if len(word) == len(known):
        diffs = [i for i in range(len(word)) if word[i] != known[i]]
        return len(diffs) == 2 and edit_distance_one(word, known)
    return False


def squatted(name: str, strict: bool = False) -> str | None:
    """The popular name `name` imitates, if any (`strict`: only squatters' edits count)."""
    lex = lexicon()
    popular = lex["popular_packages"].values
    name = name.lower().split("==")[0].strip(".,;:#()'\"")
    if not name.startswith("@"):
        name = name.split("@")[0]
    neighbours = lex["known_neighbours"].values
    if len(name) < 4 or name in popular or name in neighbours:
        return None
    if lex["file_like_hosts"].search(name):
        return None
    parts = [(name, strict)] + [(p, True) for p in re.split(r"[-_.]", name)[:1] if p != name]
    for part, squatters_only in parts:
        if part in popular or part in neighbours:
            continue
        folded = part.translate(_CONFUSABLE)
        if folded != part and folded in popular:
            return folded
        for known in popular:
            if len(known) < 5 or not edit_distance_one(part, known):
                continue
            if not squatters_only or typo_like(part, known):
                return known
    return None


def _installed_names(text: str) -> Iterator[tuple[str, bool]]:
    lex = lexicon()
    for match in lex.finditer("package_install", text):
        for word in text[match.end() :].split():
            bare = word.strip("`'\".,;:()")
            if not bare or bare.startswith("-") or "://" in bare or "/" in bare.strip("@"):
                if bare.startswith("-"):
                    continue
                break
            if lex["command_stop_words"].values & {bare.lower()}:
                break
            yield bare, False
    if lex.has("recommend_words", text):
        yield from ((m.group(1), True) for m in _BACKTICKED.finditer(text))
        yield from ((m.group(1), True) for m in lex.finditer("recommended_name", text))


def typosquat(text: str) -> tuple[str, str] | None:
    """(name, popular name) when a package a lesson installs or recommends is a look-alike."""
    for name, strict in _installed_names(text):
        known = squatted(name, strict)
        if known is not None:
            return name, known
    return None


def impostor_action(text: str) -> tuple[str, str] | None:
    """(owner/name, trusted owner/name) for an action under a look-alike or untrusted owner."""
    lex = lexicon()
    official = lex["official_action_names"].values
    trusted = lex["trusted_action_owners"].values
    for table in ("actions_uses", "action_ref"):
        for match in lex.finditer(table, text):
            owner, name = match.group("owner").lower(), match.group("name").lower()
            if owner in trusted:
                continue
            folded = owner.translate(_CONFUSABLE).replace("1", "l")
            if folded == "actions" or edit_distance_one(folded, "actions"):
                return f"{owner}/{name}", f"actions/{name}"
            swapped = table == "actions_uses" or lex.has("recommend_words", text)
            if name in official and swapped:
                return f"{owner}/{name}", f"actions/{name}"
    return None
