"""The local web viewer (`skill-memory ui`): see, search, review and correct the memory in a
browser, served on 127.0.0.1 only, behind a per-run token, with every write through the store."""
