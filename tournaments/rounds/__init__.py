"""tournaments.rounds (placeholder docstring: what it owns, what it may import)."""
