"""`skill-memory-hook <Event>`: one console script for every hook (used by the plugin).

Only the module of the named event is imported. Unknown events exit 0 silently.
"""

from __future__ import annotations

import importlib
import sys

MODULES = {
    "PreToolUse": "hooks.pre_tool_use",
    "PostToolUse": "hooks.post_tool_use",
    "PostToolUseFailure": "hooks.post_tool_use_failure",
    "UserPromptSubmit": "hooks.user_prompt_submit",
    "UserPromptExpansion": "hooks.user_prompt_expansion",
    "SessionStart": "hooks.session_start",
    "Stop": "hooks.stop",
    "SessionEnd": "hooks.stop",
}


def main(argv: list[str] | None = None) -> int:
    """Run the hook named by the first argument."""
    args = sys.argv[1:] if argv is None else argv
    module_name = MODULES.get(args[0]) if args else None
    if module_name is None:
        return 0
    module = importlib.import_module(module_name)
    result: int = module.main(sys.stdin, sys.stdout)
    return result


if __name__ == "__main__":
    sys.exit(main())
