"""fireworks-skill-memory: durable, task-aware memory of lessons per skill for coding agents.

The folders models/, index/, memory/, hooks/, codex/, mcpserver/, viewer/ and cli/ at the top
of the repository are this package's sub-packages (see pyproject.toml and
docs/architecture.md).
"""
