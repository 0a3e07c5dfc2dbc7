"""Lessons, the markdown store, ranking, dedup and distillation (the core; never imports click)."""

__version__ = "0.2.0"
