"""The glossary's data files: one TOML file per group of ecosystems, read once and checked.

Each `[[family]]` item holds a `Symptom`'s fields and its examples: output lines, as the tool
prints them, that its pattern must match (`matches`) and must not match (`misses`) once
normalised as the failure path normalises them (`memory.retrieval.failure.normalise_line`).
The tests check every example; the loader checks only the form, so a damaged file fails with
its name and the entry's.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources

from fireworks_skill_memory.memory.errors import SkillMemoryError
from fireworks_skill_memory.memory.retrieval.glossary.symptom import Symptom

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

PACKAGE = "fireworks_skill_memory.memory.retrieval.glossary"
FILES = (  # the order of `all_symptoms()`: it breaks ties between matches and keys the vectors
    "python_data.toml",
    "web_js.toml",
    "systems_infra.toml",
    "coverage_apps.toml",
    "coverage_systems.toml",
)
_KEYS = frozenset({"name", "pattern", "explains", "environment", "matches", "misses"})


class GlossaryError(SkillMemoryError):
    """A glossary data file that cannot be read as families (names the file and the entry)."""


@dataclass(frozen=True)
class Family:
    """One glossary entry as its data file holds it: the symptom and its examples."""

    symptom: Symptom
    matches: tuple[str, ...]
    """Output lines the pattern matches once normalised (at least one)."""
    misses: tuple[str, ...]
    """Near misses the pattern must not match once normalised (at least one)."""
    source: str
    """The data file it was read from, e.g. "python_data.toml"."""


@cache
def all_families() -> tuple[Family, ...]:
    """Every family of every data file, in the files' order; names are unique."""
    folder = resources.files(PACKAGE)
    families = tuple(
        family
        for name in FILES
        for family in parse_families(name, folder.joinpath(name).read_text(encoding="utf-8"))
    )
    seen: dict[str, str] = {}
    for family in families:
        name = family.symptom.name
        if name in seen:
            raise GlossaryError(f"{family.source}: family {name!r} is also in {seen[name]}")
        seen[name] = family.source
    return families


def parse_families(source: str, text: str) -> tuple[Family, ...]:
    """The families of one data file's text; `source` names the file in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise GlossaryError(f"{source}: not valid TOML: {error}") from error
    items = data.get("family")
    if set(data) != {"family"} or not isinstance(items, list) or not items:
        raise GlossaryError(f"{source}: expected only [[family]] items, found {sorted(data)}")
    return tuple(_family(source, number, item) for number, item in enumerate(items, 1))


def _family(source: str, number: int, item: object) -> Family:
    where = f"{source}: family {number}"
    if not isinstance(item, dict):
        raise GlossaryError(f"{where}: not a table")
    if isinstance(item.get("name"), str):
        where += f" ({item['name']!r})"
    unknown = sorted(set(item) - _KEYS)
    if unknown:
        raise GlossaryError(f"{where}: unknown keys {unknown}")
    environment = item.get("environment", False)
    if not isinstance(environment, bool):
        raise GlossaryError(f"{where}: 'environment' must be true or false")
    symptom = Symptom(
        name=_text(where, item, "name"),
        pattern=_text(where, item, "pattern"),
        explains=_text(where, item, "explains"),
        environment=environment,
    )
    return Family(symptom, _lines(where, item, "matches"), _lines(where, item, "misses"), source)


def _text(where: str, item: dict[str, object], key: str) -> str:
    value = item.get(key)
    if not isinstance(value, str) or not value.strip():
        raise GlossaryError(f"{where}: '{key}' must be a non-empty string")
    return value


def _lines(where: str, item: dict[str, object], key: str) -> tuple[str, ...]:
    value = item.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise GlossaryError(f"{where}: '{key}' must be a non-empty list of strings")
    return tuple(value)
