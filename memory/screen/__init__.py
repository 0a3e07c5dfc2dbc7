"""The poisoning screen: lessons that try to instruct the agent are quarantined when written."""

from fireworks_skill_memory.memory.screen.judge import make_screen_judge
from fireworks_skill_memory.memory.screen.screen import (
    RULES_SCREEN,
    Screen,
    ScreenJudge,
    ScreenVerdict,
    screen_for,
)

__all__ = [
    "RULES_SCREEN",
    "Screen",
    "ScreenJudge",
    "ScreenVerdict",
    "make_screen_judge",
    "screen_for",
]
