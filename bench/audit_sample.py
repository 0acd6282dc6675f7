"""Draw a blind audit sample of OTT-QA tables, and write it as a data folder to build and read.

An audit counts only on tables nobody read while tuning (`bench/audits/README.md`). A sample is
the first `n` tables of a pool, less the tables of earlier samples, in the hash order of its
seed (`sha1("SEED:" + table_id)`); its list is committed with a README row before any of its
tasks is read. Then its data folder (the listed tables, the passages their cells link to and
their own pages) is built into a graph of its own and read with `bench.audit_tasks`:

    python -m bench.audit_sample draw --seed 2072 --pool bench/audits/s53-rest.txt \\
        --exclude bench/audits/2071-tables.txt > bench/audits/2072-tables.txt
    python -m bench.audit_sample folder --tables bench/audits/2072-tables.txt --out /tmp/a72/data
    seekgraph --config /tmp/a72/config.toml pipeline --data /tmp/a72/data --out /tmp/a72/out \\
        --skip web-index --skip rollout --skip score --skip filter --skip prune \\
        --skip dataset --skip report
    python -m bench.audit_tasks --config /tmp/a72/audit.toml --per-variant 20 --seed 2072 \\
        --max-rows 30 > /tmp/a72/audit.md

(`config.toml`: a `[server]` of its own home and ports, and `[shaper] n_seeds = 300`;
`audit.toml`: the same `[server]` alone.)
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bench.ottqa_sample import SHARED, records, write_passages


def draw(seed: int, pool: Iterable[str], exclude: Iterable[str] = (), n: int = 90) -> list[str]:
    """The first `n` table ids of `pool` less `exclude`, in the hash order of `seed`.

    >>> draw(7, ["a", "b", "c", "d"], exclude=["b"], n=2)
    ['d', 'c']
    >>> draw(7, ["a", "b", "c", "d"], n=4) == draw(7, ["d", "c", "b", "a"], n=4)
    True
    """
    left = set(pool) - set(exclude)
    return sorted(left, key=lambda t: hashlib.sha1(f"{seed}:{t}".encode()).hexdigest())[:n]


def _pages(table: dict[str, Any]) -> set[str]:
    """The pages a table's cells (its header's too) link to, and its own article's page."""
    rows = [table.get("header") or [], *(table.get("data") or [])]
    cells = [cell for row in rows for cell in row]
    pages = {link for cell in cells if len(cell) > 1 for link in cell[1] or []}
    url = str(table.get("url") or "")
    if "/wiki/" in url:
        pages.add("/wiki/" + url.rsplit("/wiki/", 1)[-1])
    return pages


def without_section(table: dict[str, Any]) -> dict[str, Any]:
    """The table as a corpus without section titles holds it (many do: a table is only its
    article's title, caption-less): the section's title and text emptied.

    >>> without_section({"title": "T", "section_title": "Results", "section_text": "x"})
    {'title': 'T', 'section_title': '', 'section_text': ''}
    """
    return {**table, "section_title": "", "section_text": ""}


def write_folder(
    table_ids: Iterable[str], out: Path, source: Path = SHARED, no_section: bool = False
) -> tuple[int, int]:
    """Write the listed tables and their pages (`_pages`) into `out`, each `without_section`
    when `no_section`; returns (tables, passages) written."""
    wanted = set(table_ids)
    out.mkdir(parents=True, exist_ok=True)
    pages: set[str] = set()
    n_tables = 0
    with (out / "tables.jsonl").open("w", encoding="utf-8") as handle:
        for table in records(source / "tables.train.jsonl.gz"):
            if table["table_id"] in wanted:
                table = without_section(table) if no_section else table
                handle.write(json.dumps(table, ensure_ascii=False) + "\n")
                pages |= _pages(table)
                n_tables += 1
    return n_tables, write_passages(source, pages, out)


def _ids(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    drawing = commands.add_parser("draw", help="Print the sample's table ids, one per line.")
    drawing.add_argument("--seed", type=int, required=True)
    drawing.add_argument("--pool", type=Path, required=True, help="A file of table ids.")
    drawing.add_argument("--exclude", type=Path, nargs="*", default=[], help="Files of ids.")
    drawing.add_argument("--n", type=int, default=90)
    folder = commands.add_parser("folder", help="Write the listed tables as a data folder.")
    folder.add_argument("--tables", type=Path, required=True, help="A file of table ids.")
    folder.add_argument("--out", type=Path, required=True)
    folder.add_argument("--source", type=Path, default=SHARED, help="The OTT-QA folder.")
    folder.add_argument(
        "--no-section", action="store_true", help="Empty every section title and text."
    )
    args = parser.parse_args()
    if args.command == "draw":
        excluded = [t for path in args.exclude for t in _ids(path)]
        print("\n".join(draw(args.seed, _ids(args.pool), excluded, args.n)))
    else:
        n_tables, n_pages = write_folder(_ids(args.tables), args.out, args.source, args.no_section)
        print(f"wrote {n_tables} tables and {n_pages} passages to {args.out}")


if __name__ == "__main__":
    main()
