"""The warm service: one process per memory home holding the model and the index.

`client` and `protocol` are standard library only (hooks import them on every tool call);
`server` imports the heavy libraries, in a background thread after it starts listening.
"""
