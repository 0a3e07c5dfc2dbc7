"""`eval cv`: every quality component cross-validated on the dev sets, in one run.

Each component lives in its own module of this package and offers
`report(context, ablations=..., progress=...) -> ComponentReport`. The suite imports the
modules it is asked for (the model and the data are shared through one `Context`), so a run
of one component pays for nothing else.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from fireworks_skill_memory.memory.evaluation.cv import ComponentReport, Progress
from fireworks_skill_memory.memory.evaluation.data import EvalData
from fireworks_skill_memory.models.embedders import EmbeddingModel

#: component name -> module of this package that reports it, in the order `eval cv` prints.
COMPONENTS = {
    "retrieval": "retrieval",
    "failures": "failures",
    "dedup": "dedup",
    "supersession": "supersession",
    "poisoning": "poisoning",
}


@dataclass(frozen=True)
class Context:
    """What every component reads: the data, the (caching) embedder, the environment."""

    data: EvalData
    embedder: EmbeddingModel
    environ: dict[str, str] = field(default_factory=dict)


class Reporter(Protocol):
    def __call__(
        self, context: Context, *, ablations: bool, progress: Progress | None
    ) -> ComponentReport: ...


def reporter(name: str) -> Reporter:
    """The `report` function of a component's module."""
    module = importlib.import_module(f"{__package__}.{COMPONENTS[name]}")
    found: Reporter = module.report
    return found


def run(
    context: Context,
    names: Sequence[str] = tuple(COMPONENTS),
    *,
    ablations: bool = True,
    progress: Progress | None = None,
) -> list[ComponentReport]:
    """Cross-validate the named components, in the suite's order."""
    chosen = [name for name in COMPONENTS if name in set(names)]
    return [reporter(name)(context, ablations=ablations, progress=progress) for name in chosen]
