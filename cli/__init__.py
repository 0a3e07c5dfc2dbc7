"""The `skill-memory` command line (click); every command is a thin call into the core."""
