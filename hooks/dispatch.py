"""`skill-memory-hook <Event>`: one console script for every hook (used by the plugin).

Only the module of the named event is imported. Unknown events exit 0 silently, and so does
an event whose module cannot be imported (the hook's own guard logs everything after that).
The plugin runs it as `PYTHONPATH= skill-memory-hook <Event>`: a console script puts its own
folder, not the working directory, first on sys.path, and an empty PYTHONPATH is ignored, so
nothing of the agent's project can shadow the package.
"""

from __future__ import annotations

import importlib
import sys

MODULES = {
    "PreToolUse": "fireworks_skill_memory.hooks.pre_tool_use",
    "PostToolUse": "fireworks_skill_memory.hooks.post_tool_use",
    "PostToolUseFailure": "fireworks_skill_memory.hooks.post_tool_use_failure",
    "UserPromptSubmit": "fireworks_skill_memory.hooks.user_prompt_submit",
    "UserPromptExpansion": "fireworks_skill_memory.hooks.user_prompt_expansion",
    "SessionStart": "fireworks_skill_memory.hooks.session_start",
    "Stop": "fireworks_skill_memory.hooks.stop",
    "SessionEnd": "fireworks_skill_memory.hooks.stop",
}


def main(argv: list[str] | None = None) -> int:
    """Run the hook named by the first argument."""
    args = sys.argv[1:] if argv is None else argv
    module_name = MODULES.get(args[0]) if args else None
    if module_name is None:
        return 0
    try:
        module = importlib.import_module(module_name)
    except BaseException:  # noqa: BLE001 - a broken installation must not break the agent
        return 0
    result: int = module.main(sys.stdin, sys.stdout)
    return result


if __name__ == "__main__":
    sys.exit(main())
