"""Offline evaluation: the dev sets read once, cross-validation folds, and each component's
fit-and-score (`skill-memory eval cv`). Every fitted threshold and weight comes from here."""
