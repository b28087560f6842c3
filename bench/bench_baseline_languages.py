"""The BM25 baseline's tokenisation in each language, measured side by side on synthetic statute collections
shaped like the real ones: articles and questions written without spaces in Japanese (as the 2026 package
is), with spaces in English. Each question is made of some of its gold article's words and other words.

    python bench/bench_baseline_languages.py [--articles 700] [--questions 100] [--markdown FILE]

prints MacroF2 of the top article (BM25, k = 1) with words as bm25s splits them, with character trigrams,
bigrams, and characters with bigrams (ir_coliee.extras.baseline.japanese_tokens, the baseline's choice), for both
languages.
"""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Callable

import bm25s

from ir_coliee.extras.baseline import japanese_tokens

Tokenise = Callable[[list[str]], list[list[str]]]


def _words_ja(rng: random.Random, n: int) -> list[str]:
    kanji = [chr(c) for c in range(0x4E00, 0x4E00 + 2000)]
    kana = [chr(c) for c in range(0x3041, 0x3094)]
    return ["".join(rng.choices(kanji, k=rng.randint(2, 3))) + rng.choice(kana) for _ in range(n)]


def _words_en(rng: random.Random, n: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choices(letters, k=rng.randint(4, 9))) for _ in range(n)]


def collection(language: str, articles: int, questions: int, seed: int = 7):
    """Articles of 20-40 words drawn by Zipf's law (a few words everywhere, most rare, as in legal text);
    each question: 3 words of its gold article and 7 drawn the same way."""
    rng = random.Random(seed)
    vocabulary = (_words_ja if language == "ja" else _words_en)(rng, 3000)
    weights = [1 / rank for rank in range(1, len(vocabulary) + 1)]
    join = "".join if language == "ja" else " ".join
    texts = [rng.choices(vocabulary, weights, k=rng.randint(20, 40)) for _ in range(articles)]
    gold = [rng.randrange(articles) for _ in range(questions)]
    asked = [rng.sample(texts[g], 3) + rng.choices(vocabulary, weights, k=7) for g in gold]
    for words in asked:
        rng.shuffle(words)
    return [join(t) for t in texts], [join(q) for q in asked], gold


def macro_f2_at_1(
    docs: list[str], queries: list[str], gold: list[int], tokenise: Tokenise
) -> float:
    """With one gold article and one retrieved per question, F2 is 1 for a hit and 0 otherwise."""
    retriever = bm25s.BM25()
    retriever.index(tokenise(docs), show_progress=False)
    found, _ = retriever.retrieve(tokenise(queries), k=1, show_progress=False)
    return sum(int(row[0]) == g for row, g in zip(found, gold)) / len(gold)


def _grams(n: int) -> Tokenise:
    def tokenise(texts: list[str]) -> list[list[str]]:
        runs = [[w for w in re.findall(r"\w+", t)] for t in texts]
        return [[w[i : i + n] for w in ws for i in range(max(len(w) - n + 1, 1))] for ws in runs]

    return tokenise


TOKENISERS: dict[str, Tokenise] = {
    "words (bm25s)": lambda texts: bm25s.tokenize(texts, return_ids=False, show_progress=False),
    "character trigrams": _grams(3),
    "character bigrams": _grams(2),
    "characters and bigrams (ir_coliee)": lambda texts: [japanese_tokens(t) for t in texts],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--articles", type=int, default=700)
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args()
    rows = ["| collection | " + " | ".join(TOKENISERS) + " |", "|---|" + "---|" * len(TOKENISERS)]
    for language in ("ja", "en"):
        data = collection(language, args.articles, args.questions)
        cells = " | ".join(
            f"{macro_f2_at_1(*data, tokenise):.2f}" for tokenise in TOKENISERS.values()
        )
        rows.append(
            f"| {language}, {args.articles} articles, {args.questions} questions | {cells} |"
        )
    print("\n".join(rows))
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
