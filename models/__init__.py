"""Embedding models and LLM backends (heavy libraries are imported inside functions only)."""
