"""Reading agent sessions: transcripts, their tails and the skills they used."""
