"""The poisoning screen: lessons whose effect is risky are quarantined when written."""

from fireworks_skill_memory.memory.screen.judge import make_screen_judge
from fireworks_skill_memory.memory.screen.screen import (
    RULES_SCREEN,
    Screen,
    ScreenJudge,
    ScreenVerdict,
    Trust,
    screen_for,
)

__all__ = [
    "RULES_SCREEN",
    "Screen",
    "ScreenJudge",
    "ScreenVerdict",
    "Trust",
    "make_screen_judge",
    "screen_for",
]
