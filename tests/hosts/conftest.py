"""The PyTerrier tests of the hosts (PyTerrier's dataset provider, ``Experiment``, every way PyTerrier asks
for a measure): collected where PyTerrier can be imported (the test extra installs it), so that without it
every other test is still collected."""

#: the test modules that need PyTerrier
PYTERRIER_TESTS = ["test_experiment.py", "test_pt_*.py"]

try:
    import pyterrier  # noqa: F401
except ImportError:
    collect_ignore_glob = PYTERRIER_TESTS
