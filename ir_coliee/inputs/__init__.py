"""The one door in (:mod:`.door`, asked once by every verb): gold given as a dataset id, a file or a host
shape read once, with what the verbs ask of it (:mod:`.gold`); runs given as files, folders of team
submissions as kept, or host shapes read once, each skipped entry said (:mod:`.walk`, :mod:`.ingest`); a benchmark's runs, from a manifest or folders named
by dataset ids (:mod:`.manifest`)."""
