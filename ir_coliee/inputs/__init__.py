"""The one door in: gold given as a dataset id, a file or a host shape read once (:mod:`.gold`); runs
given as files, folders of team submissions as kept, or host shapes read once, each skipped entry said
(:mod:`.walk`, :mod:`.ingest`)."""
