"""Team memory: lessons shared through a LanceDB table at a URI the team chooses (issue 13)."""
