"""The labelled evaluation sets, parsed once into typed records.

The files and their formats are those of the project's evaluation data (its README):
`corpus/lessons.jsonl` and `corpus/skills/`, `queries_dev.jsonl` (task queries),
`errors_dev.jsonl` (failure queries), `dedup_domain_dev.jsonl`, `supersede_dev.jsonl` and
`poison_dev.jsonl`. `EvalData` reads each the first time a component asks for it; a missing
or malformed file is an `InvalidInput` naming it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.retrieval.evaluation import read_jsonl

Record = TypeVar("Record")

FILES = {
    "corpus": "corpus/lessons.jsonl",
    "queries": "queries_dev.jsonl",
    "errors": "errors_dev.jsonl",
    "dedup": "dedup_domain_dev.jsonl",
    "supersede": "supersede_dev.jsonl",
    "poison": "poison_dev.jsonl",
}


@dataclass(frozen=True)
class CorpusLesson:
    id: str
    skill: str
    tag: str
    text: str
    month: str
    hits: int


@dataclass(frozen=True)
class TaskQuery:
    qid: str
    skill: str | None
    """None: a search across every skill."""
    task: str
    relevant: tuple[str, ...]
    """Lesson ids, best first; empty when nothing in the skill helps."""
    kind: str


@dataclass(frozen=True)
class FailureQuery:
    qid: str
    skill: str
    command: str
    error: str
    relevant: tuple[str, ...]
    kind: str


@dataclass(frozen=True)
class DedupPair:
    a: str
    b: str
    same: bool
    kind: str
    skill: str
    """The skill of `a` (the part of its id before the last '-'): the folds' group."""


@dataclass(frozen=True)
class PairLesson:
    tag: str
    text: str
    month: str


@dataclass(frozen=True)
class SupersedePair:
    id: str
    skill: str
    old: PairLesson
    new: PairLesson
    label: str
    """merge, supersede or keep_both."""
    kind: str


@dataclass(frozen=True)
class PoisonItem:
    id: str
    skill: str
    tag: str
    text: str
    poison: bool
    kind: str


class EvalData:
    """The evaluation sets under one folder, each read on first use."""

    def __init__(self, root: str) -> None:
        if not os.path.isdir(root):
            raise InvalidInput(f"{root} is not a folder of evaluation data")
        self.root = root

    def path(self, name: str) -> str:
        return os.path.join(self.root, FILES[name])

    @property
    def corpus_dir(self) -> str:
        return os.path.join(self.root, "corpus")

    def _read(self, name: str, parse: Callable[[Mapping[str, Any]], Record]) -> list[Record]:
        path = self.path(name)
        records = []
        for number, item in enumerate(read_jsonl(path), 1):
            try:
                records.append(parse(item))
            except (KeyError, TypeError, ValueError) as error:
                raise InvalidInput(f"{path}: item {number}: {error!r}") from None
        return records

    @cached_property
    def corpus(self) -> list[CorpusLesson]:
        return self._read(
            "corpus",
            lambda d: CorpusLesson(
                str(d["id"]), str(d["skill"]), str(d.get("tag") or ""), str(d["text"]),
                str(d.get("month") or ""), int(d.get("hits") or 0),
            ),
        )  # fmt: skip

    @cached_property
    def task_queries(self) -> list[TaskQuery]:
        return self._read(
            "queries",
            lambda d: TaskQuery(
                str(d["qid"]), d.get("skill") or None, str(d["task"]),
                tuple(map(str, d["relevant"])), str(d["kind"]),
            ),
        )  # fmt: skip

    @cached_property
    def failure_queries(self) -> list[FailureQuery]:
        return self._read(
            "errors",
            lambda d: FailureQuery(
                str(d["qid"]), str(d["skill"]), str(d.get("command") or ""), str(d["error"]),
                tuple(map(str, d["relevant"])), str(d["kind"]),
            ),
        )  # fmt: skip

    @cached_property
    def dedup_pairs(self) -> list[DedupPair]:
        return self._read(
            "dedup",
            lambda d: DedupPair(
                str(d["a"]), str(d["b"]), bool(int(d["label"])), str(d.get("kind") or ""),
                str(d.get("a_id") or "").rsplit("-", 1)[0] or "?",
            ),
        )  # fmt: skip

    @cached_property
    def supersede_pairs(self) -> list[SupersedePair]:
        def lesson(d: Mapping[str, Any]) -> PairLesson:
            return PairLesson(str(d.get("tag") or ""), str(d["text"]), str(d.get("month") or ""))

        return self._read(
            "supersede",
            lambda d: SupersedePair(
                str(d["id"]), str(d["skill"]), lesson(d["old"]), lesson(d["new"]),
                str(d["label"]), str(d.get("kind") or ""),
            ),
        )  # fmt: skip

    @cached_property
    def poison_items(self) -> list[PoisonItem]:
        return self._read(
            "poison",
            lambda d: PoisonItem(
                str(d["id"]), str(d.get("skill") or ""), str(d.get("tag") or ""),
                str(d["text"]), str(d["label"]) == "poison", str(d["kind"]),
            ),
        )  # fmt: skip
