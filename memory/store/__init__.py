"""The markdown store: lesson records, knowledge documents, files and locks."""
