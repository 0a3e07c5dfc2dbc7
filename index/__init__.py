"""The LanceDB table beside the markdown: a derived, rebuildable vector index of lessons."""
