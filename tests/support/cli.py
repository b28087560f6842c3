"""Running the command in the test process, and the small Task 1 case its tests share."""

from ir_coliee.cli import main

GOLD_T1 = '{"000001.txt": ["000010.txt", "000011.txt"], "000002.txt": ["000012.txt"], "000003.txt": ["000013.txt"]}'
# tp 1 + 1 + 0 = 2, retrieved 2 + 1 + 0 = 3 (+ the extra query 000009, ignored), relevant 4
RUN_T1 = "000001 000010 univABC\n000001 000099 univABC\n000002 000012.txt univABC\n000009 000010 univABC\n"


def run_cli(capsys, *args, expect=0):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert code == expect, err
    return code, out, err
