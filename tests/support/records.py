"""Compact record-by-record assertions."""


def record_fields(records, *fields):
    """The given fields of each record, as tuples."""
    return [tuple(getattr(r, f) for f in fields) for r in records]
