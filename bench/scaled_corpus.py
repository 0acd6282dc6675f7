"""OTT-QA at 1x, 3x, 10x: the real tables and passages plus generated copies of the same shape.

Below 1x the corpus is a seeded sample of its tables with the passages they link to. Copy ``k``
(k = 1 .. scale-1) of the corpus keeps every table's shape (header, rows, columns,
which cells link, the texts of unlinked cells) and renames what makes it a table of its own:

- its id (``<id>~k``) and its title, which gets a word of its own (``"<title> (k)"``), so the
  topic grouping of WebLeaper Union sees as many distinct roots as tables;
- four in five linked entities, by a hash of (entity, k): ``/wiki/X`` becomes ``/wiki/X~k``
  and its passage is copied under that id. The fifth stays shared, so copies are bridged to the
  real corpus and to each other about as much as real tables are bridged to each other.

The real corpus is copy 0, unchanged. Files are written once per folder (a re-run with the same
arguments reuses them).

    python -m bench.scaled_corpus --scale 3 --out /tmp/ottqa-3x
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

from bench.ottqa_sample import SHARED, records, sample

KEEP_SHARED = 5  # one entity in KEEP_SHARED stays the same entity in a copy


def renamed(link: str, copy: int) -> str:
    """The id of entity `link` in copy `copy` (copy 0 and one in KEEP_SHARED stay)."""
    if copy == 0:
        return link
    digest = hashlib.sha1(f"{copy}:{link}".encode()).digest()
    return link if digest[0] % KEEP_SHARED == 0 else f"{link}~{copy}"


def copy_table(table: dict[str, Any], copy: int) -> dict[str, Any]:
    """Table record `table` as it is in copy `copy` (see the module doc)."""
    if copy == 0:
        return table

    def cell(c: list[Any]) -> list[Any]:
        return [c[0], [renamed(link, copy) for link in (c[1] if len(c) > 1 else []) or []]]

    out = dict(table)
    out["table_id"] = f"{table['table_id']}~{copy}"
    out["title"] = f"{table.get('title', '')} ({copy})"
    out["url"] = f"{table.get('url', '')}~{copy}"
    out["data"] = [[cell(c) for c in row] for row in table.get("data") or []]
    return out


def copy_passage(passage: dict[str, Any], copy: int) -> dict[str, Any] | None:
    """The passage of a renamed entity in copy `copy` (None if the entity stays shared)."""
    new_id = renamed(passage["id"], copy)
    if new_id == passage["id"]:
        return None
    return {**passage, "id": new_id, "title": f"{passage.get('title', '')} ({copy})"}


def write_scaled(scale: float, out: Path, source: Path = SHARED) -> tuple[int, int]:
    """Write ``tables.jsonl.gz`` and ``passages.jsonl.gz`` of the corpus at `scale` into `out`;
    returns (tables, passages). Below 1, a seeded sample of that share of the tables with the
    passages they link to (`bench.ottqa_sample`). Existing complete files are kept."""
    out.mkdir(parents=True, exist_ok=True)
    done = out / ".counts"  # hidden: ingest does not list it as an ignored file
    if done.exists():
        tables, passages = (int(x) for x in done.read_text().split())
        return tables, passages
    if scale < 1:
        tables, passages = sample(source, 0, 0, out, share=scale)
        done.write_text(f"{tables} {passages}\n")
        return tables, passages
    if scale != int(scale):
        raise SystemExit(f"scale {scale}: a share below 1 or a whole number of copies")
    n_tables = n_passages = 0
    with gzip.open(out / "tables.jsonl.gz", "wt", encoding="utf-8", compresslevel=1) as handle:
        for copy in range(int(scale)):
            for table in records(source / "tables.train.jsonl.gz"):
                handle.write(json.dumps(copy_table(table, copy), ensure_ascii=False) + "\n")
                n_tables += 1
    with gzip.open(out / "passages.jsonl.gz", "wt", encoding="utf-8", compresslevel=1) as handle:
        for copy in range(int(scale)):
            for passage in records(source / "passages.train.jsonl.gz"):
                row = passage if copy == 0 else copy_passage(passage, copy)
                if row is not None:
                    handle.write(json.dumps(row, ensure_ascii=False) + "\n")
                    n_passages += 1
    done.write_text(f"{n_tables} {n_passages}\n")
    return n_tables, n_passages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    tables, passages = write_scaled(args.scale, args.out)
    print(f"{args.out}: {tables:,} tables, {passages:,} passages")


if __name__ == "__main__":
    main()
