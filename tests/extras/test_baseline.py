"""The BM25 baseline from the shell on the sample release, and the tuning curve as a plot."""

from __future__ import annotations

import pytest

import ir_coliee
from ir_coliee.cli import main
from ir_coliee.extras.baseline import bm25
from ir_coliee.extras.demo import sample_release


@pytest.mark.parametrize(
    "dataset, k, lines, first",
    [
        ("coliee/task1/2025/test", None, 20 * 5, 3),
        ("coliee/task2/2025/test", None, 10, 3),
        ("coliee/task3/2025/test", 3, 40 * 3, 6),
    ],
)
def test_baseline_writes_a_valid_official_submission(tmp_path, capsys, dataset, k, lines, first):
    out = tmp_path / "run.bm25"
    with sample_release():
        argv = ["baseline", "bm25", dataset, "--write", str(out), *(["--k", str(k)] if k else [])]
        assert main(argv) == 0
        assert f"written: {out}" in capsys.readouterr().out
        text = out.read_text().splitlines()
        assert len(text) == lines and len(text[0].split()) == first  # the task's official format
        task = ir_coliee.data.datasets.REGISTERED[dataset].task
        assert [
            f for f in ir_coliee.validate_run(out, task=task, dataset=dataset) if f.level == "error"
        ] == []
        # the file scores as the run it was written from
        direct = ir_coliee.score(dataset, bm25(dataset, k, progress=False)).table.iloc[0]
        written = ir_coliee.score(dataset, str(out)).table.iloc[0]
        measure = ir_coliee.official_measures(task, 2025)[-1]
        assert written[str(measure)] == pytest.approx(direct[str(measure)], abs=1e-12)


def test_baseline_refuses_answer_tasks_and_bad_depths(tmp_path, capsys):
    with sample_release():
        assert (
            main(["baseline", "bm25", "coliee/task4/2025/test", "--write", str(tmp_path / "r")])
            == 2
        )
        assert "the BM25 baseline is for Tasks 1, 2, 3" in capsys.readouterr().err
        assert (
            main(
                [
                    "baseline",
                    "bm25",
                    "coliee/task1/2025/test",
                    "--write",
                    str(tmp_path / "r"),
                    "--k",
                    "0",
                ]
            )
            == 2
        )
        assert "--k must be at least 1" in capsys.readouterr().err


def test_tune_plots_the_curve(write, tmp_path, capsys):
    gold = write("gold.qrels", "q1 0 a 1\nq1 0 b 1\nq2 0 c 1\n")
    run = write(
        "task3-L.t",
        "q1 Q0 a 1 0.9 t\nq1 Q0 x 2 0.8 t\nq1 Q0 b 3 0.7 t\nq2 Q0 c 1 0.9 t\nq2 Q0 y 2 0.1 t\n",
    )
    png = tmp_path / "curve.png"
    assert main(["tune", gold, run, "--plot", str(png)]) == 0
    # the figure said on standard error: the document alone on standard output
    out, err = capsys.readouterr()
    assert f"plot: {png}" in err and "plot" not in out and png.read_bytes()[:4] == b"\x89PNG"


def test_a_japanese_collection_is_searched_by_characters_and_pairs():
    """Japanese is written without spaces: as bm25s splits words, each sentence is one token and no
    question shares one with its article; by characters and character pairs, each finds its own."""
    import bm25s

    from ir_coliee.extras.baseline import bm25_top, japanese_tokens

    articles = {
        "1": "果物の売買は書面で行わなければならない。",
        "2": "船の賃貸借は港の規則に従う。",
        "3": "合成の契約は三十日以内に取り消すことができる。",
    }
    questions = [
        "果物を売買するとき書面は必要か。",
        "港で船を賃貸借するときの規則は。",
        "合成の契約は取り消せるか。",
    ]
    ranked = bm25_top(list(articles), list(articles.values()), questions, k=1)
    assert [hits[0][0] for hits in ranked] == ["1", "2", "3"]
    as_words = bm25s.tokenize(
        [*articles.values(), *questions], return_ids=False, show_progress=False
    )
    assert all(len(words) == 1 for words in as_words)  # one token a sentence: nothing in common
    assert japanese_tokens("民法第九条 Article 9") == [
        "民",
        "法",
        "第",
        "九",
        "条",
        "民法",
        "法第",
        "第九",
        "九条",
        "article",
    ]
