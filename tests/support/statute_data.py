"""A synthetic statute data root in the exact official layouts (COLIEE-SPEC section 4).

All text is made up here; only the shapes follow the organisers' files: header styles of
H18-R01, R02-R03 and R04-R05, single-quoted unlabelled test files, BOM and CRLF, Japanese files,
the R01/R1 id mix, and gold ids missing from the Civil Code file.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from ir_coliee.data.statute_files import EXAMS

CIVIL_CODE_EN = """\ufeffSynthetic Civil Code (Part I, Part II and Part III)
Part I General Provisions
Chapter I Common Provisions
(Fundamental Principles)
Article 1  (1) Synthetic rule one.
(2) Synthetic second paragraph of article one.
Article 2  Synthetic rule two.
Chapter II Persons
Section 1 Capacity to Hold Rights
Article 3  Synthetic rule three.
(Capacity of Foreigners)
Article 3-2  Synthetic rule three-two:
(i) a synthetic item;
(ii) another synthetic item (with a remark).
Articles 38 to 84  Deleted
Part II Real Rights
Chapter I General Provisions
Article 208  Deleted
(Juridical Acts by Minors)
Article 398-22  Synthetic rule with a branch number.
Subsection 1 Synthetic Subsection
Division 1 Synthetic Division
Article 566  Synthetic rule on warranties.
Article 567  Synthetic rule on mortgages.
Articles 155 through 157  Deleted
Articles 516 and 517  Deleted
Article 572  Synthetic rule five-seven-two.
Part III Claims
Article 724-2  Synthetic last article.
""".replace("\n", "\r\n")

EN_IDS = ["1", "2", "3", "3-2", "398-22", "566", "567", "572", "724-2"]

CIVIL_CODE_JA = """\ufeff民法（合成）
第一編　総則
第一章　通則
（基本原則）
第一条　合成の規定一。
２　合成の第二項。
第二条　合成の規定二。
第二章　人
第三条　合成の規定三。
第三条の二　合成の規定三の二。
第三十八条から第八十四条まで　削除
第二編　物権
第二百八条　削除
第三百九十八条の二十二　合成の規定。
第五百六十六条　合成の担保の規定。
第五百六十七条　合成の抵当の規定。
第五百七十二条　合成の規定。
第三編　債権
第七百二十四条の二　合成の最後の条。
"""


def pair(qid: str, question: str, t1: str, label: str = "", quote: str = '"') -> str:
    q = quote
    label_attr = f" label={q}{label}{q}" if label else ""
    return (
        f"<pair id={q}{qid}{q}{label_attr}>\n<t1>\n{t1}\n</t1>\n<t2>\n{question}\n</t2>\n</pair>\n"
    )


def riteval(pairs: str, quote: str = '"', standalone: str = "no") -> str:
    q = quote
    return f"<?xml version={q}1.0{q} encoding={q}UTF-8{q} standalone={q}{standalone}{q}?>\n<dataset>\n{pairs}</dataset>\n"


# Header styles: H18-R01 "(Caption)Article 566 (1)..." on one line and "Article 572" alone;
# R02-R03 "Article 537(1)" without a space; R04-R05 captions on their own line, "Article 459-2(1)".
H30 = riteval(
    pair(
        "H30-1-A",
        "Is the synthetic warranty limited?",
        "(Seller&apos;s Warranty)Article 566 (1)Synthetic text.\n(2)More text.\nArticle 567(1)Synthetic text.",
        "Y",
    )
    + pair("H30-1-I", "Is a synthetic rule applied?", "Article 572\nSynthetic text of 572.", "N")
    + pair(
        "H30-2-U",
        "Is it a &quot;quoted&quot; question’s text?",
        "Article 1 (1) Synthetic.\nArticle 1 (2) More.",
        "Y",
    )
)
R01 = riteval(  # the R01 file mixes R01- and R1- ids
    pair("R01-1-A", "A synthetic question of R01.", "Article 3  Synthetic text.", "Y")
    + pair("R1-13-A", "Another synthetic question.", "Article 2  Synthetic text.", "N"),
    quote="'",
    standalone="yes",
)
R03 = riteval(
    pair(
        "R03-01-E",
        "A synthetic question of R03.",
        "Article 537(1) Synthetic.\nArticle 566(1) Synthetic.",
        "N",
    )
)
R04 = riteval(
    pair(
        "R04-02-O",
        "A synthetic question of R04.",
        "(Juridical Acts by Minors)\nArticle 459-2(1) Synthetic.\n(2) Synthetic.\n(Caption)\nArticle 398-22 Text.",
        "Y",
    )
    + pair(
        "R04-03-G",
        "Partial article question.",
        "Article 572\n(2) only the second paragraph, partly",
        "N",
    )
)
R05_LABELLED = riteval(
    pair(
        "R05-01-A",
        "A synthetic test question.",
        "Article 213-2  Synthetic text not in the code.",
        "Y",
    )
    + pair(
        "R05-01-I",
        "A second test question.",
        "Article 3-2  Synthetic.\nArticle 724-2  Synthetic.",
        "N",
    )
    + pair("R05-02-C", "A removed question.", "Article 1  Synthetic.", "Y")
)
# the unlabelled copy the 2024 package holds: single quotes, no label, no t1 text; R05-02-C is not in it
R05_UNLABELLED = riteval(
    pair("R05-01-A", "A synthetic test question.", "", quote="'")
    + pair("R05-01-I", "A second test question.", "", quote="'"),
    quote="'",
    standalone="yes",
)
R04_JA = riteval(
    pair(
        "R04-02-O",
        "合成の質問。",
        "（合成の見出し）\n第四百五十九条の二　合成。\n２　合成。\n第三百九十八条の二十二　合成。",
        "Y",
    )
    + pair(
        "R04-03-G",
        "第百条の規定は参照にすぎない。",
        "第百条の規定は本文中の参照である。\n第一条　合成。",
        "N",
    )
)


def minimal_exam(exam: str) -> str:
    return riteval(
        pair(f"{exam}-1-A", f"Synthetic question of {exam}.", "Article 2  Synthetic.", "Y")
    )


SPECIAL = {"H30": H30, "R01": R01, "R03": R03, "R04": R04}


def write_package(root: Path, year: int, test_exam: str, test_file: str | None) -> Path:
    """An English package of ``year``: train/ with every exam before ``test_exam``, text/ with the code."""
    package = root / f"COLIEE{year}statute_data-English"
    (package / "train").mkdir(parents=True)
    (package / "text").mkdir()
    for exam in EXAMS[: EXAMS.index(test_exam)]:
        (package / "train" / f"riteval_{exam}_en.xml").write_text(
            SPECIAL.get(exam, minimal_exam(exam))
        )
    if test_file is not None:
        (package / "train" / f"riteval_{test_exam}_en.xml").write_text(test_file)
    (package / "text" / "civil_code_en-1to724-2.txt").write_bytes(CIVIL_CODE_EN.encode("utf-8"))
    (package / "README.txt").write_text("synthetic package\n")
    return package


def write_statute_root(root: Path) -> Path:
    """2024 package (R05 unlabelled), 2025 package (R05 labelled), 2024 Japanese package."""
    write_package(root, 2024, "R05", R05_UNLABELLED)
    write_package(root, 2025, "R06", None)
    (root / "COLIEE2025statute_data-English" / "train" / "riteval_R05_en.xml").write_text(
        R05_LABELLED
    )
    ja = root / "COLIEE2024statute_data-Japanese"
    (ja / "train").mkdir(parents=True)
    (ja / "text").mkdir()
    (ja / "train" / "riteval_R04_jp.xml").write_text(R04_JA, encoding="utf-8")
    (ja / "text" / "civil_code_jp-1to724-2.txt").write_bytes(CIVIL_CODE_JA.encode("utf-8"))
    (root / ".DS_Store").write_bytes(b"\x00\x01")
    return root


#: Bar-exam questions for the analyses (id, text, gold articles, answer): two name their parties by symbols
#: (one in full-width letters), one opens with the article A, one uses the pronoun I and a party C.
ANALYSED = [
    ("R05-01-A", "A sold a car to B. Is the sale valid?", ["1"], "Y"),
    ("R05-01-I", "A person who is a minor may not sell land.", ["2", "3"], "N"),
    ("R05-02-U", "If I lend money, may the lender demand it back from C?", ["3-2"], "N"),
    ("R05-02-E", "Ａは、Ｂに対し、土地を売った。", ["1", "2", "566"], "N"),
]


def write_analysed_exam(root: Path) -> Path:
    """coliee/task3/2024/test and coliee/task4/2024/test: the questions of :data:`ANALYSED`."""
    pairs = "".join(
        pair(q, text, "\n".join(f"Article {a}  Synthetic." for a in arts), y)
        for q, text, arts, y in ANALYSED
    )
    return write_package(root, 2024, "R05", riteval(pairs))


def zip_folder(folder: Path, nested: bool = True, reverse: bool = False) -> Path:
    """Zip ``folder`` as distributed (a nested folder of the same name inside) and remove the folder;
    ``reverse``: the entries written in reverse name order (a zip's order is its maker's)."""
    target = folder.with_suffix(".zip")
    with zipfile.ZipFile(target, "w") as zf:
        for path in sorted(folder.rglob("*"), reverse=reverse):
            if path.is_file():
                inner = path.relative_to(folder.parent) if nested else path.relative_to(folder)
                zf.write(path, inner.as_posix())
    for path in sorted(folder.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    folder.rmdir()
    return target
