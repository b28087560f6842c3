"""Beside the verbs: the BM25 baseline and the demo on the bundled sample release."""
