"""Ranking and injection: the index sync, the retriever, lexical search, usage."""
