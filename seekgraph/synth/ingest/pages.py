"""Writing pages (passages, articles) and their links into the graph, batched and resumable.

A page is MERGEd with the entity of the same id (``ABOUT``; the entity's name comes from the id,
`seekgraph.synth.ingest.cells.display_name`). Its text begins with its title, as the page itself does
(`seekgraph.common.text.titled`), so the full-text index ranks title and text as one body.
Links are written after all pages of the input, so ``LINKS_TO`` meets pages later in the file;
until then they wait on disk (`LinkSpool`), so memory stays one batch whatever the input's size.
A link to a page we do not have still ``MENTIONS`` its entity. The link pass sets the page's
content hash last, which marks it finished: a re-run skips finished, unchanged pages.
"""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any

import neo4j

from seekgraph.common.text import titled
from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.ingest.cells import display_name
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.places import location, rejected_locations
from seekgraph.synth.ingest.records import PageRecord, Unreadable
from seekgraph.synth.ingest.writers import CypherWriter, GraphWriter

STAGE = "ingest"
LINK_SLICE = 2000  # link rows read back from the spool and written at a time


class LinkSpool:
    """The link rows of the pages written so far, on disk until every page of the input is in
    (a link may point at a page later in the file), then read back a slice at a time in the
    order they came. A private temporary file (pickled batches), gone when closed."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by __exit__)
        self.rows = 0

    def add(self, rows: list[dict[str, Any]]) -> None:
        if rows:
            pickle.dump(rows, self._file, protocol=pickle.HIGHEST_PROTOCOL)
            self.rows += len(rows)

    def slices(self, size: int) -> Iterator[list[dict[str, Any]]]:
        """The rows in order, `size` at a time."""
        self._file.seek(0)
        out: list[dict[str, Any]] = []
        while True:
            try:
                out += pickle.load(self._file)
            except EOFError:
                break
            while len(out) >= size:
                yield out[:size]
                out = out[size:]
        if out:
            yield out

    def __enter__(self) -> LinkSpool:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._file.close()


def ingest_pages(
    driver: neo4j.Driver,
    items: Iterable[PageRecord | Unreadable],
    config: IngestConfig | None = None,
    *,
    database: str | None = None,
    report: StageReport | None = None,
    on_record: Callable[[int], None] | None = None,
    writer: GraphWriter | None = None,
) -> StageReport:
    """Write pages, then their links; returns the stage report (kept = pages written).

    `writer`: where reads and writes go (default: the server, through `driver`)."""
    config = config or IngestConfig()
    report = report or StageReport(STAGE)
    writer = writer or CypherWriter(driver, database)
    rejected_places = rejected_locations(driver, database)
    n_links = 0
    with LinkSpool() as spool:
        for chunk in cypher.batched(items, config.page_batch):
            n_links += _write_pages(chunk, report, writer, rejected_places, spool, config)
            if on_record is not None:
                on_record(len(chunk))
        for rows in spool.slices(LINK_SLICE):
            writer.write("ingest/merge_page_links", rows, batch_size=max(1, config.page_batch // 2))
    report.notes["links"] = int(str(report.notes.get("links", 0))) + n_links
    return report


def _write_pages(
    chunk: list[PageRecord | Unreadable],
    report: StageReport,
    writer: GraphWriter,
    rejected_places: set[str],
    spool: LinkSpool,
    config: IngestConfig,
) -> int:
    """Write one batch of pages (unchanged ones skipped) and spool their links; returns the
    number of links spooled."""
    pages = [p for p in chunk if isinstance(p, PageRecord)]
    for bad in chunk:
        if isinstance(bad, Unreadable):
            report.reject(bad.record_id, bad.reason, bad.detail)
    done = {
        row["page_id"]: row["content_hash"]
        for row in writer.read("ingest/find_pages", ids=[p.page_id for p in pages])
    }
    rows = []
    links = []
    for page in pages:
        digest = page.content_hash()
        if done.get(page.page_id) == digest:
            report.skip()
            continue
        rows.append(
            {
                "page_id": page.page_id,
                "title": page.title,
                "name": display_name(page.page_id),
                "text": titled(page.title, page.text),
                "source": page.source,
                "url": page.url,
                "year": page.year,
                # for the bulk writer; the server sets it after the links (the spool)
                "content_hash": digest,
            }
        )
        links.append(
            {
                "page_id": page.page_id,
                "content_hash": digest,
                "links": [{"id": link, "name": display_name(link)} for link in page.out_links],
            }
        )
        report.keep()
        place = location(page.origin)
        if place in rejected_places:
            report.clear(place)
    writer.write("ingest/merge_pages", rows, batch_size=config.page_batch)
    spool.add(links)
    return sum(len(row["links"]) for row in links)
