"""The PyTerrier tests as a whole: collected where PyTerrier can be imported (the test extra installs it),
so that without it every other test is still collected."""

try:
    import pyterrier  # noqa: F401
except ImportError:
    collect_ignore_glob = ["test_*.py"]
