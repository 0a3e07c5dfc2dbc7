"""The screen's rules: structural checks first, then the risk of what the lesson asks for.

`screen_rules` reads a lesson (its text, then its tag) and returns the first risk found, or
None. `off` names parts to switch off (effect families, `hidden content`, `spoofed markup`,
the `negation guard`): `eval cv` does so to measure what each part is worth.
"""

from __future__ import annotations

from collections.abc import Iterable

from fireworks_skill_memory.memory.screen.effects import FAMILIES, NEGATION_GUARD, Risk, risks
from fireworks_skill_memory.memory.screen.parse import Reading, read
from fireworks_skill_memory.memory.screen.structure import HIDDEN, SPOOF, hidden, spoof
from fireworks_skill_memory.memory.screen.text import visible

KINDS = (
    "override", "exfiltrate", "destructive", "permission", "conceal",
    "persistence", "hidden", "spoof", "supplychain",
)  # fmt: skip
RULE_PARTS = (HIDDEN, SPOOF, *FAMILIES, NEGATION_GUARD)

RuleHit = Risk  # the name earlier callers import


def screen_rules(tag: str | None, text: str, off: Iterable[str] = ()) -> Risk | None:
    """The first risk a lesson (its text, then its tag) carries, or None."""
    off = frozenset(off)
    for part in (text, tag or ""):
        if not part:
            continue
        if HIDDEN not in off:
            found = hidden(part)
            if found is not None:
                return found
        if SPOOF not in off:
            found = spoof(part)
            if found is not None:
                return found
        found_risks = risks(read(visible(part)), off)
        if found_risks:
            return found_risks[0]
    return None


def reading(tag: str | None, text: str) -> Reading:
    """The parse of a lesson's tag and text together (for trust: does it ask for an action)."""
    return read(visible(f"{tag}: {text}" if tag else text))
