"""Cross-validation folds, dealt exactly as the evaluation data's own `folds.py` deals them.

Items grouped by skill never straddle folds: skills go, largest first (ties by name), each to
the fold with the fewest items so far. Poisoning items are stratified: within each (label,
kind), items in id order are dealt round-robin across the folds, continuing the count from one
stratum to the next. Neither depends on the order of the file, so a cross-validated figure
is comparable from one change to the next and with anyone else's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

Item = TypeVar("Item")

DEFAULT_FOLDS = 5


def skill_folds(sizes: dict[str, int], k: int = DEFAULT_FOLDS) -> dict[str, int]:
    """The fold of each skill, given how many items each skill has."""
    load = [0] * k
    fold_of: dict[str, int] = {}
    for skill in sorted(sizes, key=lambda s: (-sizes[s], s)):
        fold = min(range(k), key=lambda i: (load[i], i))
        fold_of[skill] = fold
        load[fold] += sizes[skill]
    return fold_of


def grouped_folds(
    items: Sequence[Item], group: Callable[[Item], str], k: int = DEFAULT_FOLDS
) -> list[int]:
    """The fold of each item when items of one group (a skill) must share a fold."""
    sizes: dict[str, int] = defaultdict(int)
    for item in items:
        sizes[group(item)] += 1
    fold_of = skill_folds(dict(sizes), k)
    return [fold_of[group(item)] for item in items]


def stratified_folds(
    items: Sequence[Item],
    stratum: Callable[[Item], tuple[str, str]],
    key: Callable[[Item], str],
    k: int = DEFAULT_FOLDS,
) -> list[int]:
    """The fold of each item, dealt round-robin within each stratum (label, kind) by key."""
    strata: dict[tuple[str, str], list[int]] = defaultdict(list)
    for position, item in enumerate(items):
        strata[stratum(item)].append(position)
    folds = [0] * len(items)
    dealt = 0
    for name in sorted(strata):
        for position in sorted(strata[name], key=lambda p: key(items[p])):
            folds[position] = dealt % k
            dealt += 1
    return folds


def leave_one_out_folds(items: Sequence[Item], group: Callable[[Item], Hashable]) -> list[int]:
    """One fold per distinct group value (a leave-one-kind-out pass), in first-seen order."""
    numbers: dict[Hashable, int] = {}
    for item in items:
        numbers.setdefault(group(item), len(numbers))
    return [numbers[group(item)] for item in items]


def split(items: Sequence[Item], folds: Sequence[int], fold: int) -> tuple[list[Item], list[Item]]:
    """(training items, held-back items) for one fold."""
    train = [item for item, f in zip(items, folds, strict=True) if f != fold]
    test = [item for item, f in zip(items, folds, strict=True) if f == fold]
    return train, test


def fold_numbers(folds: Iterable[int]) -> list[int]:
    """The distinct folds, in order."""
    return sorted(set(folds))
