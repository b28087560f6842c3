"""The synthetic sample release (``release/``, made by ``scripts/make_sample.py``): tiny, every task,
the official 2025 layouts, text written by ir_coliee. No COLIEE data."""
