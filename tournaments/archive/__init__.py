"""tournaments.archive (placeholder docstring: what it owns, what it may import)."""
