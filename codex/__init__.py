"""Codex CLI adapter: hooks, AGENTS.md block and the explicit inject/checkpoint/flush flow."""
