"""tournaments.hands (placeholder docstring: what it owns, what it may import)."""
