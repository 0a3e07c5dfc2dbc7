"""Turning a finished session into lessons: request, worker, flush."""
