"""The failure glossary: families of tool failures, how their output reads, what explains them.

An error output rarely shares words with the lesson that explains it ("free(): double free
detected" against "use the Rule of Five"), and the small embedding model knows little about
error semantics. Each `Symptom` pairs a pattern that recognises a family of failures with a
text naming its usual causes and the practices that prevent them, in the words lessons use.
The failure ranking embeds the matched texts as a second view of the failure
(`memory.retrieval.failure_ranking`).

The entries were written from general knowledge of each ecosystem's errors, not from the
evaluation failures, so that their measured effect stands for unseen failures. They live in the
package's TOML data files, each with output lines it must and must not match
(`memory.retrieval.glossary.families`).
"""

from __future__ import annotations

import re
from functools import cache

from fireworks_skill_memory.memory.retrieval.glossary.families import (
    Family,
    GlossaryError,
    all_families,
)
from fireworks_skill_memory.memory.retrieval.glossary.symptom import Symptom

__all__ = ["MAX_MATCHES", "GlossaryError", "Symptom", "all_symptoms", "matching_symptoms"]

MAX_MATCHES = 3  # the most families one failure is explained by (the latest lines first)


@cache
def all_symptoms() -> tuple[Symptom, ...]:
    """Every entry of the glossary, in a fixed order (read from the data files once)."""
    return tuple(family.symptom for family in all_families())


@cache
def _compiled() -> tuple[tuple[Symptom, re.Pattern[str]], ...]:
    return tuple((family.symptom, _compile(family)) for family in all_families())


def _compile(family: Family) -> re.Pattern[str]:
    try:
        return re.compile(family.symptom.pattern, re.IGNORECASE)
    except re.error as error:
        name = family.symptom.name
        raise GlossaryError(f"{family.source}: family {name!r}: bad pattern: {error}") from error


def matching_symptoms(lines: list[str], limit: int = MAX_MATCHES) -> list[Symptom]:
    """The families whose pattern matches the failure's lines, those matching later lines first.

    `lines` are the normalised command and output lines (`memory.retrieval.failure`); the end
    of an output says the most, so an entry whose last match is later comes first.
    """
    text = "\n".join(lines)
    found: list[tuple[int, int, Symptom]] = []
    for order, (entry, pattern) in enumerate(_compiled()):
        last = -1
        for match in pattern.finditer(text):
            last = match.start()
        if last >= 0:
            found.append((last, -order, entry))
    found.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [entry for _, _, entry in found[:limit]]
