"""Write a seeded sample of OTT-QA tables, and the passages their cells link to, as a data folder.

Experiments that train and evaluate a student on CPU need more tasks than the packaged default
data holds, but not all 8,891 tables (whose 166k passages take minutes to ingest and an hour to
embed). The sample is a plain data folder for `seekgraph pipeline --data`:

    python -m bench.ottqa_sample --tables 300 --seed 0 --out /tmp/ottqa-300

It holds `tables.jsonl` (the sampled table records, unchanged) and `passages.jsonl` (every
passage a sampled cell links to). Tables are taken in a seeded hash order of their ids, so the
same seed always gives the same folder.

About a tenth of the tables are held out for audits (`is_heldout`, a hash of the table id):
tuning samples never contain them, and `--heldout` samples only them, so a question template
tuned on the other tables is judged on tables nobody looked at:

    python -m bench.ottqa_sample --tables 40 --heldout --out /tmp/ottqa-heldout-40
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "ottqa"
HELDOUT_PERCENT = 10


def is_heldout(table_id: str, percent: int = HELDOUT_PERCENT) -> bool:
    """True for the ~`percent`% of tables kept out of tuning, by a salted SHA-1 of the id (the
    salt keeps this split independent of the task split, `split_of`, which hashes task ids).

    >>> is_heldout("List_of_Nobel_laureates_in_Literature_0"), is_heldout("x", percent=100)
    (False, True)
    """
    digest = hashlib.sha1(f"table-heldout:{table_id}".encode()).hexdigest()
    return int(digest[:8], 16) % 100 < percent


def records(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of a gzipped JSONL file, one per non-blank line."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def _links(table: dict[str, Any]) -> set[str]:
    cells = [cell for row in table.get("data") or [] for cell in row]
    return {link for cell in cells if len(cell) > 1 for link in cell[1] or []}


def sample(
    source: Path,
    n_tables: int,
    seed: int,
    out: Path,
    share: float | None = None,
    heldout: bool = False,
) -> tuple[int, int]:
    """Write the sample into `out`: `n_tables` tables, or with `share` that part of all of
    them, drawn from the tuning tables (or, with `heldout`, from the held-out ones only);
    returns (tables, passages) written."""
    tables = [
        t for t in records(source / "tables.train.jsonl.gz") if is_heldout(t["table_id"]) == heldout
    ]
    if share is not None:
        n_tables = round(share * len(tables))
    tables.sort(key=lambda t: hashlib.sha1(f"{seed}:{t['table_id']}".encode()).hexdigest())
    chosen = tables[:n_tables]
    wanted = set().union(*(_links(t) for t in chosen)) if chosen else set()
    out.mkdir(parents=True, exist_ok=True)
    with (out / "tables.jsonl").open("w", encoding="utf-8") as handle:
        for table in sorted(chosen, key=lambda t: t["table_id"]):
            handle.write(json.dumps(table, ensure_ascii=False) + "\n")
    return len(chosen), write_passages(source, wanted, out)


def write_passages(source: Path, wanted: set[str], out: Path) -> int:
    """Write the passages of the `wanted` page ids into `out/passages.jsonl`; returns how
    many were written."""
    written = 0
    with (out / "passages.jsonl").open("w", encoding="utf-8") as handle:
        for passage in records(source / "passages.train.jsonl.gz"):
            if passage.get("id") in wanted:
                handle.write(json.dumps(passage, ensure_ascii=False) + "\n")
                written += 1
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SHARED, help="The OTT-QA folder.")
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--heldout", action="store_true", help="Sample the held-out tables (audits only)."
    )
    args = parser.parse_args()
    n_tables, n_passages = sample(
        args.source, args.tables, args.seed, args.out, heldout=args.heldout
    )
    print(f"wrote {n_tables} tables and {n_passages} passages to {args.out}")


if __name__ == "__main__":
    main()
