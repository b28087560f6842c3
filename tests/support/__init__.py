"""Builders and fixtures shared by the tests: small files in the exact official layouts, hand-computed
cases, and the paths of the checkout."""

from pathlib import Path

#: The checkout: the package, the docs and the tests below it.
ROOT = Path(__file__).resolve().parents[2]
