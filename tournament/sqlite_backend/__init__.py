"""SQLite with one queue for its writers (see ``base``)."""
