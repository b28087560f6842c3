"""PyTerrier's ``coliee:`` prefix: ``pt.get_dataset("coliee:task1/2025/test")`` works without importing
ir_coliee first, through the ``pyterrier.dataset_provider`` entry point (see pyproject.toml)."""

from __future__ import annotations

from collections.abc import Iterable


class ColieeDatasetProvider:
    """Gives the ir_datasets entries ``coliee/...`` to PyTerrier under ``coliee:...``."""

    def get_dataset(self, name: str):
        import ir_datasets
        from pyterrier.datasets._irds import IRDSDataset

        import ir_coliee  # noqa: F401  (registers the datasets and measures)

        dataset_id = f"coliee/{name}"
        try:
            ir_datasets.load(dataset_id)
        except KeyError:
            raise KeyError(f"no COLIEE dataset {name!r}; see ir_coliee datasets list") from None
        return IRDSDataset(dataset_id)

    def list_dataset_names(self) -> Iterable[str]:
        from ir_coliee.datasets import REGISTERED

        return [dataset_id.split("/", 1)[1] for dataset_id in sorted(REGISTERED)]
