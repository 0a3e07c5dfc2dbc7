"""Domain errors of the memory core. The CLI turns them into one-line messages (exit 1)."""

from __future__ import annotations


class SkillMemoryError(Exception):
    """Base class of every error the memory core raises on purpose."""


class InvalidSkillName(SkillMemoryError):
    """A skill name that is empty, too long, or could escape the memory home."""


class InvalidLesson(SkillMemoryError):
    """Lesson text that is empty, multi-line garbage, or too long to store."""


class InvalidInput(SkillMemoryError):
    """A file, payload or argument the user supplied that cannot be used."""


class LockTimeout(SkillMemoryError):
    """A file lock could not be taken within its timeout."""


class ConfigError(SkillMemoryError):
    """An environment variable or setting with a value that cannot be used."""


class NotFound(SkillMemoryError):
    """A skill, lesson or file that does not exist."""
