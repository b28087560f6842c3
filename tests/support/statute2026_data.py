"""A synthetic COLIEE 2026 Japanese statute package in the exact layouts (COLIEE-SPEC section 4).

As distributed: ``simple/simple_{exam}_jp.xml`` (questions, labels, one ``<article>`` per gold article)
plus the organisers' scripts; after ``makeData.sh``: the e-Gov law XML of the Civil Code (zip and
extracted), ``civil.xml`` built from it, and ``train/riteval_{exam}_jp.xml`` with ``t1`` text. All text
is made up here.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Literal

from ir_coliee.data.statute_files import train_exams

PACKAGE = "COLIEE2026statute_data-Japanese"
EGOV = "129AC0000000089_20240524_506AC0000000033"
#: the live articles of both Civil Code files below, in order
LIVE = ["1", "2", "3", "3-2", "398-22", "566", "724-2"]


def simple(pairs: str) -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<dataset>\n{pairs}</dataset>\n'


def simple_pair(qid: str, label: str, articles: list[str], question: str) -> str:
    listed = "".join(f"<article>{a}</article>" for a in articles)
    return f'<pair id="{qid}" label="{label}">{listed}<t2>{question}</t2></pair>\n'


R06 = simple(
    simple_pair("R06-01-A", "N", ["3-2", "1"], "合成の質問 R06-01-A。")
    + simple_pair(
        "R06-01-I", "Y", ["724-2", "213-2"], "合成の質問 R06-01-I。"
    )  # 213-2 is not in the code
)


def exam_file(exam: str) -> str:
    return (
        R06
        if exam == "R06"
        else simple(simple_pair(f"{exam}-1-A", "Y", ["2"], f"合成の質問 {exam}。"))
    )


CIVIL_XML = """<?xml version="1.0" encoding="UTF-8"?>
<Articles>
<Article num="1"><caption>（基本原則）</caption><text>第一条　合成の規定一。
２　合成の第二項。</text></Article>
<Article num="2"><caption/><text>第二条　合成の規定二。</text></Article>
<Article num="3"><caption>（権利能力）</caption><text>第三条　合成の規定三。</text></Article>
<Article num="3-2"><caption>（意思能力）</caption><text>第三条の二　合成の規定三の二。</text></Article>
<Article num="38:84"><caption/><text>削除</text></Article>
<Article num="208"><caption/><text>第二百八条　削除</text></Article>
<Article num="398-22"><caption>（合成）</caption><text>第三百九十八条の二十二　合成の規定。</text></Article>
<Article num="566"><caption>（担保）</caption><text>第五百六十六条　合成の担保の規定。</text></Article>
<Article num="724-2"><caption>（最後）</caption><text>第七百二十四条の二　合成の最後の条。</text></Article>
</Articles>
"""


def _egov_article(
    num: str, title: str, caption: str, *paragraphs: str, items: tuple[str, ...] = ()
) -> str:
    caption_xml = f"<ArticleCaption>{caption}</ArticleCaption>" if caption else ""
    out = [
        f'<Article Delete="false" Hide="false" Num="{num}">{caption_xml}<ArticleTitle>{title}</ArticleTitle>'
    ]
    numbers = ["", "２", "３"]
    for i, sentence in enumerate(paragraphs):
        item_xml = "".join(
            f'<Item Num="{n}"><ItemTitle>{t}</ItemTitle><ItemSentence><Sentence>{s}</Sentence></ItemSentence></Item>'
            for n, (t, s) in enumerate((it.split("|") for it in items if i == 0), 1)
        )
        out.append(
            f'<Paragraph Num="{i + 1}"><ParagraphNum>{numbers[i]}</ParagraphNum><ParagraphSentence>'
            f"<Sentence>{sentence}</Sentence></ParagraphSentence>{item_xml}</Paragraph>"
        )
    return "".join(out) + "</Article>\n"


EGOV_XML = f"""<?xml version="1.0" encoding="UTF-8"?>
<Law Era="Meiji" Lang="ja" LawType="Act" Num="089" Year="29"><LawNum>明治二十九年法律第八十九号</LawNum>
<LawBody><LawTitle>民法</LawTitle><MainProvision>
<Part Num="1"><PartTitle>第一編　総則</PartTitle><Chapter Num="1"><ChapterTitle>第一章　通則</ChapterTitle>
{_egov_article("1", "第一条", "（基本原則）", "合成の規定一。", "合成の第二項。")}
{_egov_article("2", "第二条", "", "合成の規定二。")}
</Chapter><Chapter Num="2"><ChapterTitle>第二章　人</ChapterTitle><Section Num="1"><SectionTitle>第一節　権利能力</SectionTitle>
{_egov_article("3", "第三条", "（権利能力）", "合成の規定三。")}
{_egov_article("3_2", "第三条の二", "（意思能力）", "合成の規定三の二。", items=("一|合成の号一", "二|合成の号二"))}
{_egov_article("38:84", "第三十八条から第八十四条まで", "", "削除")}
</Section></Chapter></Part>
<Part Num="2"><PartTitle>第二編　物権</PartTitle>
{_egov_article("208", "第二百八条", "", "削除")}
{_egov_article("398_22", "第三百九十八条の二十二", "（合成）", "合成の規定。")}
{_egov_article("566", "第五百六十六条", "（担保）", "合成の担保の規定。")}
</Part>
<Part Num="3"><PartTitle>第三編　債権</PartTitle>
{_egov_article("724_2", "第七百二十四条の二", "（最後）", "合成の最後の条。")}
</Part>
<Part Num="4"><PartTitle>第四編　親族</PartTitle>
{_egov_article("725", "第七百二十五条", "（親族の範囲）", "COLIEE の範囲外。")}
</Part>
</MainProvision>
<SupplProvision>{_egov_article("1", "第一条", "", "附則の条。")}</SupplProvision>
</LawBody></Law>
"""

State = Literal["distributed", "egov-zip", "egov-xml", "made"]


def riteval_jp(exam: str) -> str:
    """``train/riteval_{exam}_jp.xml`` as makeData.sh writes it: t1 = caption + article text."""
    if exam != "R06":
        return simple(
            f'<pair id="{exam}-1-A" label="Y"><t1>第二条　合成の規定二。</t1><t2>合成の質問 {exam}。</t2></pair>\n'
        )
    return simple(
        '<pair id="R06-01-A" label="N"><t1>（意思能力）\n第三条の二　合成の規定三の二。\n（基本原則）\n第一条　合成の規定一。</t1>'
        "<t2>合成の質問 R06-01-A。</t2></pair>\n"
        '<pair id="R06-01-I" label="Y"><t1>（最後）\n第七百二十四条の二　合成の最後の条。</t1><t2>合成の質問 R06-01-I。</t2></pair>\n'
    )


TEST_R07 = simple(
    '<pair id="R07-01-A"><t2>合成の試験問題 R07-01-A。</t2></pair>\n<pair id="R07-01-I"><t2>合成の試験問題 R07-01-I。</t2></pair>\n'
)


def write_2026_package(root: Path, state: State = "distributed") -> Path:
    """The 2026 Japanese package as distributed, or as far as ``makeData.sh`` got."""
    package = root / PACKAGE
    (package / "simple").mkdir(parents=True)
    for exam in train_exams(2026):
        (package / "simple" / f"simple_{exam}_jp.xml").write_text(exam_file(exam), encoding="utf-8")
    for script in ("makeData.sh", "makeArticleText.py", "makeEntailment.py"):
        (package / script).write_text("# the organisers' script (not run here)\n")
    (package / "README.txt").write_text("synthetic package\n")
    (package / "test-for-task4").mkdir()
    (package / "test-for-task4" / "TestData_jp.xml").write_text(TEST_R07, encoding="utf-8")
    if state == "egov-zip":
        with zipfile.ZipFile(package / f"{EGOV}_xml.zip", "w") as zf:
            zf.writestr(f"{EGOV}/{EGOV}.xml", EGOV_XML.encode("utf-8"))
    if state in ("egov-xml", "made"):
        (package / f"{EGOV}.xml").write_text(EGOV_XML, encoding="utf-8")
    if state == "made":
        (package / "civil.xml").write_text(CIVIL_XML, encoding="utf-8")
        (package / "train").mkdir()
        for exam in train_exams(2026):
            (package / "train" / f"riteval_{exam}_jp.xml").write_text(
                riteval_jp(exam), encoding="utf-8"
            )
    return package
