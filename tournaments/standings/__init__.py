"""tournaments.standings (placeholder docstring: what it owns, what it may import)."""
