"""Time of reading a label JSON whose keys repeat, against the same file without repeats. Prints a table.

    python bench/bench_repeated_labels.py [--keys 50000] [--repeated 12500]

A key given twice is read as JSON readers read it (its last list) and the warning names the line of each
of its lists: finding those lines must take one pass over the text whatever the number of repeats (a
search of the whole text per repeated key took 45 s at the default sizes, where the file without repeats
takes 0.4 s).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
import warnings


def label_json(keys: int, repeated: int) -> str:
    """``keys`` queries, one per line with three relevant cases; the first ``repeated`` given again at the end."""
    lines = [
        f'  "{q:06d}.txt": {json.dumps([f"{q * 3 + i:06d}.txt" for i in range(3)])}'
        for q in range(keys)
    ]
    lines += [f'  "{q:06d}.txt": ["{q:06d}.txt"]' for q in range(repeated)]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keys", type=int, default=50_000)
    parser.add_argument("--repeated", type=int, default=12_500)
    args = parser.parse_args()
    from ir_coliee.formats.labels import parse_labels

    print("file\tkeys\trepeated\tseconds\tCPU seconds")
    with tempfile.TemporaryDirectory() as tmp:
        for repeated in (0, args.repeated):
            path = os.path.join(tmp, f"labels{repeated}.json")
            with open(path, "w") as f:
                f.write(label_json(args.keys, repeated))
            start, cpu = time.perf_counter(), time.process_time()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with open(path) as f:
                    labels = parse_labels(f.read(), path)
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            assert len(labels) == args.keys
            print(
                f"{os.path.basename(path)}\t{args.keys:,}\t{repeated:,}\t{seconds:.2f}\t{cpu:.2f}"
            )


if __name__ == "__main__":
    main()
