"""Does a new lesson restate, contradict or add to the ones a skill has?"""
