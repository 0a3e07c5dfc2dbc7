"""Where a scope's knowledge lives and how it is read (the read side of the store).

Kept apart from `memory.store.markdown_store` so a hook that only reads one skill's lessons (the
in-process fallback) does not pay for the store's write-side records; the markdown parser
is imported only when a document is read.
"""

from __future__ import annotations

import os

from fireworks_skill_memory.memory.store.skill_names import skill_dirname

TYPE_CHECKING = False  # the hook's in-process fallback imports this module
if TYPE_CHECKING:
    from fireworks_skill_memory.memory.config import Settings
    from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc

KNOWLEDGE_FILE = "KNOWLEDGE.md"
CHECKPOINTS_FILE = "CHECKPOINTS.md"


def knowledge_path(settings: Settings, skill: str | None) -> str:
    """The home file of a skill's lessons (global lessons when `skill` is None)."""
    if skill is None:
        return settings.global_file
    return os.path.join(settings.skills_dir, skill_dirname(skill), KNOWLEDGE_FILE)


def legacy_path(settings: Settings, skill: str) -> str:
    """The original tool's Claude-runtime file of a skill."""
    return os.path.join(settings.legacy_dir, skill_dirname(skill), KNOWLEDGE_FILE)


def source_path(settings: Settings, skill: str | None) -> tuple[str, bool] | None:
    """(path, is_legacy) of the file a scope is read from: the home file, else the legacy one."""
    path = knowledge_path(settings, skill)
    if os.path.isfile(path):
        return path, False
    if skill is not None:
        legacy = legacy_path(settings, skill)
        if os.path.isfile(legacy):
            return legacy, True
    return None


def source_text(settings: Settings, skill: str | None) -> tuple[str, str] | None:
    """(path, text) of the file a scope is read from, or None when there is none."""
    from fireworks_skill_memory.memory.store.files import read_text

    found = source_path(settings, skill)
    if found is None:
        return None
    text = read_text(found[0])
    return None if text is None else (found[0], text)


def read_doc(settings: Settings, skill: str | None) -> KnowledgeDoc:
    """A scope's document (empty when it has no file). Never creates anything."""
    from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc

    source = source_text(settings, skill)
    if source is None:
        return KnowledgeDoc(skill=skill)
    return KnowledgeDoc.parse(source[1], skill)
