"""Synthetic tort pilot files in the official JSONL layout (all text made up, Japanese included)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional


def claim(cid, accepted: Optional[bool], text: str = "合成の主張") -> dict:
    return {"id": cid, "description": f"{text} {cid}", "is_accepted": accepted}


def tort(tid: str, decision: Optional[bool], plaintiff: list, defendant: list) -> dict:
    return {
        "version": "1.0",
        "tort_id": tid,
        "undisputed_facts": [
            {"id": 1, "description": f"合成の事実 {tid}-1"},
            {"id": 2, "description": "合成の事実 2"},
        ],
        "plaintiff_claims": plaintiff,
        "defendant_claims": defendant,
        "court_decision": decision,
    }


GOLD = [
    tort(
        "T1", True, [claim("p1", True), claim("p2", False)], [claim("d1", True), claim("d2", False)]
    ),
    tort("T2", False, [claim("p1", False)], [claim("d1", True)]),
    tort("T3", True, [claim("p1", False), claim("p2", False)], []),  # no accepted claim at all
]
SUBMISSION = [
    tort(
        "T1", True, [claim("p1", True), claim("p2", True)], [claim("d1", False), claim("d2", False)]
    ),
    tort("T2", True, [claim("p1", False)], [claim("d1", True)]),
    tort("T3", True, [claim("p1", False), claim("p2", False)], []),
]


def blank(torts: list) -> list:
    """The torts as given to systems: every decision and claim label null."""
    out = json.loads(json.dumps(torts))
    for t in out:
        t["court_decision"] = None
        for side in ("plaintiff_claims", "defendant_claims"):
            for c in t[side]:
                c["is_accepted"] = None
    return out


def jsonl(torts: list) -> str:
    return "".join(json.dumps(t, ensure_ascii=False) + "\n" for t in torts)


def write_pilot_root(root: Path) -> None:
    (root / "COLIEE2025_pilot").mkdir(parents=True)
    (root / "COLIEE2025_pilot" / "pilot_train.jsonl").write_text(jsonl(GOLD), encoding="utf-8")
    (root / "COLIEE2025_pilot" / "pilot_test.jsonl").write_text(
        jsonl(blank(GOLD)), encoding="utf-8"
    )
    (root / "COLIEE2026_pilot").mkdir()
    (root / "COLIEE2026_pilot" / "tort_test_2025_gold.jsonl").write_text(
        jsonl(GOLD), encoding="utf-8"
    )
