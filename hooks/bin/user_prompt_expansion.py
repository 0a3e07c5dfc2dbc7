"""Hook entry point: `python -E <this file>`, as `skill-memory hooks install` writes it.

`-E` ignores PYTHONPATH, and a script's own folder (not the working directory) heads
sys.path, so no `memory.py` or `hooks.py` of the agent's project can shadow ours.
"""

import sys

try:
    from fireworks_skill_memory.hooks.user_prompt_expansion import main
except BaseException:  # noqa: BLE001 - a broken installation must not break the agent
    sys.exit(0)
sys.exit(main(sys.stdin, sys.stdout))
