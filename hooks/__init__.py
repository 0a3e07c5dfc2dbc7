"""Claude Code hook entry points: tiny stdlib-only commands that talk to the warm service."""
