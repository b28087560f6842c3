"""Where ir_coliee meets its hosts: registration with ir_measures and ir_datasets (the one place a host is
patched), PyTerrier's dataset provider and ``Experiment``."""
