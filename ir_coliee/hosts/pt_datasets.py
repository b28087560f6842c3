"""PyTerrier's ``coliee:`` prefix: ``pt.get_dataset("coliee:task1/2025/test")`` works without importing
ir_coliee first, through the ``pyterrier.dataset_provider`` entry point (see pyproject.toml)."""

from __future__ import annotations

from collections.abc import Iterable


class ColieeDatasetProvider:
    """Gives the ir_datasets entries ``coliee/...`` to PyTerrier under ``coliee:...``."""

    def get_dataset(self, name: str):
        import ir_datasets
        from pyterrier.datasets._irds import IRDSDataset

        # the datasets and measures are registered: loading this module ran ``ir_coliee/__init__.py`` first

        dataset_id = f"coliee/{name}"
        try:
            ir_datasets.load(dataset_id)
        except KeyError:
            raise KeyError(f"no COLIEE dataset {name!r}; see ir_coliee datasets list") from None
        return _bounded(IRDSDataset)(dataset_id)

    def list_dataset_names(self) -> Iterable[str]:
        from ir_coliee.data.datasets import REGISTERED

        return [dataset_id.split("/", 1)[1] for dataset_id in sorted(REGISTERED)]


def _bounded(base: type) -> type:
    """PyTerrier's ir_datasets wrapper, with ``get_results()`` in bounded memory."""

    class ColieeIRDSDataset(base):  # type: ignore[misc, valid-type]
        def get_results(self, variant=None):
            """Each query's candidates (``qid``, ``docno``, ``score``) with the topic's columns, as
            PyTerrier's ``get_results()`` gives them, but with each topic column as a categorical: PyTerrier
            copies a query's text into every candidate row (a Task 1 query case is a whole case, and
            every other case of its pool is a candidate: about 31 GB for 2025's test set); here each
            text is stored once."""
            import pandas as pd

            rows = self.irds_ref().scoreddocs_iter()  # (query_id, doc_id, score) records
            result = pd.DataFrame.from_records(rows, columns=["qid", "docno", "score"])
            result = result.sort_values(
                ["qid", "score", "docno"], ascending=[True, False, True], kind="stable"
            )
            topics = self.get_topics(variant).drop_duplicates("qid")
            # each row's topic by its position (codes), so that no text is copied per row: mapping the texts
            # first (pandas 3's string dtype copies each) is what took tens of GB
            codes = pd.Index(topics["qid"]).get_indexer(result["qid"])
            for column in topics.columns.drop("qid"):
                values = pd.Index(topics[column].astype(object), dtype=object)
                if values.has_duplicates or values.hasnans:
                    result[column] = pd.Categorical(
                        values.take(codes, allow_fill=True, fill_value=None)
                    )
                else:
                    result[column] = pd.Categorical.from_codes(codes, categories=values)
            return result.reset_index(drop=True)

    return ColieeIRDSDataset
