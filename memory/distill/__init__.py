"""Turning a finished session into lessons: material, request, run, spend, state, worker, flush."""
