"""Cell cleaning (`seekgraph.synth.ingest.values.clean_text`) on real OTT-QA cells.

Every cell of every table passes through `clean_text` several times during ingest (its value, its
fact's text, its column's vocabulary), so each rule a session adds costs on every cell; the
function is memoised, so the second and third call of a cell are lookups. The
reference, measured in the same run, is the whitespace normalisation every cell needs anyway
(`" ".join(text.split())`): the ratio says how many times that cost the full cleaning is (below
1 means slower than the reference).

    .venv/bin/python -m bench.bench_clean                # the first 300,000 cells
    .venv/bin/python -m bench.bench_clean --cells 50000
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

from bench.common import measure, table, write_markdown
from seekgraph.synth.ingest.values import clean_text

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "ottqa"
REFERENCE = "whitespace only (reference)"


def cells(limit: int) -> list[str]:
    """The texts of the first `limit` data cells of the OTT-QA train tables, in file order."""
    texts: list[str] = []
    with gzip.open(SHARED / "tables.train.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            for row in json.loads(line)["data"]:
                texts.extend(str(cell[0]) for cell in row)
            if len(texts) >= limit:
                break
    return texts[:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=300_000)
    parser.add_argument("--out", type=Path, default=Path("docs/benchmarks.md"))
    args = parser.parse_args()
    texts = cells(args.cells)

    def whitespace() -> int:
        for text in texts:
            " ".join(text.split())
        return len(texts)

    def cleaning() -> int:
        for text in texts:
            clean_text(text)
        return len(texts)

    def thrice() -> int:  # as ingest does: the value, its fact's text, its column's words
        for text in texts:
            clean_text(text)
            clean_text(text)
            clean_text(text)
        return len(texts)

    # each run starts cold: the cache of cleaned texts (`clean_text` is memoised, as ingest calls
    # it several times a cell) would make every run after the first a lookup
    rows = [
        measure(REFERENCE, whitespace, repeat=3),
        measure("clean_text, each cell once", cleaning, repeat=3, setup=clean_text.cache_clear),
        measure(
            "clean_text, each cell three times", thrice, repeat=3, setup=clean_text.cache_clear
        ),
    ]
    lines = table(rows, REFERENCE, unit="cells")
    print("\n".join(lines))
    write_markdown(args.out, "Cell cleaning", lines, f"{len(texts):,} OTT-QA cells")


if __name__ == "__main__":
    main()
