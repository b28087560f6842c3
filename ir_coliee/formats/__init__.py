"""Parsers of the organisers' data files (pure functions of the file text)."""
