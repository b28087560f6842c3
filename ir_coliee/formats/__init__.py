"""Readers of the organisers' data files (pure functions of the file text, errors naming file and
line), the run file's lines, and text files read and written whole (:mod:`.textfile`)."""
