"""Secret redaction for every piece of text that leaves the user's control."""
