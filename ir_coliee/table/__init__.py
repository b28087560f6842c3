"""The in-memory gold and run: one table type, its reading from files and every host shape, id
alignment and counts."""
