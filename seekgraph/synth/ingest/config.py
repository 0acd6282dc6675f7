"""Settings of the `ingest` stage (config section ``[ingest]``; flags override).

What makes a table worth keeping follows the paper: large, regular, structurally homogeneous
tables with a usable key column. Every field is a ``seekgraph ingest --flag``.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from seekgraph.common.config import option

PAGE_SOURCES = ("", "passage", "article", "default")


@dataclass(frozen=True)
class IngestConfig:
    """Where the input is, and the cleaning thresholds and batch sizes of the ingest."""

    data: Path | None = option(
        None, "Data folder to ingest (default: the project's packaged default data set)."
    )
    files: tuple[Path, ...] = option(
        (), "Ingest these table or page files instead of a data folder (repeatable)."
    )
    source: str = option(
        "",
        "Name of the data folder as a source (default: the folder's name; `default` for the "
        "packaged data). Table ids start with it; give the old name for a folder that moved.",
    )
    retire_missing: bool = option(
        False,
        "Retire the tables of this source that the folder no longer holds (file or record "
        "gone): their rows and page go, what was built on them goes stale.",
    )
    page_source: str = option(
        "",
        "Source label of ingested pages (empty: article with out_links, else passage).",
        choices=PAGE_SOURCES,
    )
    key_llm: str = option(
        "", "LLM backend spec deciding close key-column calls (empty: the score alone)."
    )
    min_rows: int = option(5, "Reject tables with fewer data rows.", min=1)
    max_rows: int = option(
        500, "Reject tables with more data rows (lists, not entity tables).", min=1
    )
    min_cols: int = option(2, "Reject tables with fewer columns (a key and one attribute).", min=1)
    max_empty_share: float = option(
        0.5, "Reject tables where a larger share of cells is empty.", min=0, max=1
    )
    max_ragged_share: float = option(
        0.0,
        "Reject tables where a larger share of rows has a different length than the header.",
        min=0,
        max=1,
    )
    allow_duplicate_headers: bool = option(False, "Keep tables whose header repeats a column name.")
    max_cell_chars: int = option(
        20_000, "Reject tables with a cell longer than this (characters).", min=1
    )
    min_key_score: float = option(0.45, "Reject tables whose best key column scores lower.")
    min_key_link_ratio: float = option(
        0.5,
        "A key column needs this share of linked cells, unless the table has no links.",
        min=0,
        max=1,
    )
    min_key_uniqueness: float = option(
        0.6, "A key column needs this share of distinct values.", min=0, max=1
    )
    resolve_links: bool = option(
        True,
        "Read a link to a redirect as a link to its page (pages of one opening text and one "
        "name) and a season's page in a cell naming the club as the club's page.",
    )
    table_batch: int = option(50, "Tables written per round of transactions.", min=1)
    cell_batch: int = option(2000, "Cells, rows or facts per write transaction.", min=1)
    page_batch: int = option(500, "Pages per write transaction.", min=1)

    def fingerprint(self) -> str:
        """A hash of the cleaning settings (not where the input is, not the batch sizes) and
        of the cleaning code (`cleaning_code`): a table ingested under other settings, or
        cleaned by other code, is cleaned again (its content is unchanged, so it is no new
        version of the table)."""
        skip = {"data", "files", "page_source", "key_llm", "source", "retire_missing"}
        cleaning = {
            k: v for k, v in asdict(self).items() if not k.endswith("_batch") and k not in skip
        }
        cleaning["code"] = cleaning_code()
        return hashlib.sha1(json.dumps(cleaning, sort_keys=True).encode()).hexdigest()[:8]


@functools.cache
def cleaning_code() -> str:
    """A hash of the modules that read and clean tables (this package and the key column's
    scoring beside it): a value cleaned by newer code ("Can't" for the tokenised "Ca n't")
    must reach a graph built before, which a hash of the raw cells alone would skip.

    >>> len(cleaning_code()), cleaning_code() == cleaning_code()
    (16, True)
    """
    here = Path(__file__).resolve().parent
    files = sorted(here.glob("*.py")) + sorted(here.parent.glob("key*.py"))
    digest = hashlib.sha1()
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
