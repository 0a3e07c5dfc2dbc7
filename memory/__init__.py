"""Lessons, the markdown store, ranking, dedup and distillation (the core; never imports click)."""
