"""`seekgraph db load`: the import tool builds the same graph as `seekgraph ingest`.

The input mixes the default data, a sample of real OTT-QA tables and passages (several entities
per cell, flag links, non-ASCII names) and the bad-input matrix (rejections, id clashes,
duplicates), so the in-memory MERGE rules are compared with the server's on every kind of
record. After the bulk load, an ordinary ingest of the same data does what it does after an
ordinary ingest (it skips what is done).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

import neo4j
import pytest

from bench.ottqa_sample import sample
from seekgraph.cli.pipeline import run_stage
from seekgraph.common.config import ConfigFile
from seekgraph.graphdb import cypher
from seekgraph.graphdb.bulk_import import CsvParts, Fixups, NodeSet, RelSet, write_csv
from seekgraph.graphdb.settings import ServerSettings
from seekgraph.graphdb.stages import StageContext, save_report
from seekgraph.synth.ingest.bulk import bulk_load
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.stages import INGEST
from tests.scaffolding.bad_inputs import write_bad_folder
from tests.scaffolding.fingerprint import difference, fingerprint
from tests.scaffolding.servers import connect
from tests.scaffolding.servers import own_server as _own_server


@pytest.fixture(scope="module")
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerSettings]:
    """A server of its own: the bulk load stops it and replaces its database."""
    with _own_server(tmp_path_factory.mktemp("bulk-neo4j")) as settings:
        yield settings


@pytest.fixture(scope="module")
def data_folder(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    folder = tmp_path_factory.mktemp("bulk-data")
    write_bad_folder(folder)
    sample(shared_data / "ottqa", 8, 3, folder / "ottqa")  # 21 cells of several links
    # a kept table read again, later, from another file with one row fewer: it is rewritten
    first = json.loads((folder / "ottqa" / "tables.jsonl").read_text().splitlines()[0])
    first["data"] = first["data"][:-1]
    (folder / "zz_edited_copy.jsonl").write_text(json.dumps(first) + "\n")
    return folder


def test_csv_files_keep_each_shape_and_refuse_what_the_tool_cannot_tell_apart(
    tmp_path: Path,
) -> None:
    nodes = NodeSet("Thing", "thing_id", {"a": {"n": 1, "tags": ["x;y", "z"]}, "b": {"s": ""}})
    rels = RelSet("LINKS", "Thing", "Thing", [("a", "b", {"w": 0.5}), ("b", "a", {})])
    node_files, rel_files = write_csv(tmp_path, [nodes], [rels])
    assert len(node_files) == 2 and len(rel_files) == 2  # one file per shape
    headers = sorted(p.read_text().splitlines()[0] for p in node_files)
    ignored = '"owner:IGNORE","batch:IGNORE"'
    assert headers == [
        f'"thing_id:ID(Thing)","n:long","tags:string[]",":LABEL",{ignored}',
        f'"thing_id:ID(Thing)","s:string",":LABEL",{ignored}',
    ]
    with pytest.raises(Exception, match="empty or non-string list"):
        write_csv(tmp_path, [NodeSet("Thing", "thing_id", {"c": {"tags": []}})], [])


def _rows(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))[1:]


def test_csv_parts_drop_the_rows_of_records_written_again(tmp_path: Path) -> None:
    parts = CsvParts(tmp_path)
    # batch 0: table t1 (node, one relationship) and page p1 with a link
    parts.add_nodes("Table", "table_id", [("t1", {"n": 1}, "T:t1")], 0)
    parts.add_nodes("Page", "page_id", [("p1", {"text": "old"}, "P:p1")], 0)
    parts.add_rels("HAS", "Table", "Page", [("t1", "p1", {}, "T:t1")], 0)
    parts.add_rels("LINKS", "Page", "Page", [("p1", "p2", {}, "P:p1")], 0)
    # batch 1: t1 rewritten whole; p1 merged again (new text, the same link and a new one)
    parts.add_nodes("Table", "table_id", [("t1", {"n": 2}, "T:t1")], 1)
    parts.add_nodes("Page", "page_id", [("p1", {"text": "new"}, "P:p1")], 1)
    parts.add_rels("LINKS", "Page", "Page", [("p1", "p2", {}, "P:p1"), ("p1", "p3", {}, "P:p1")], 1)
    # batch 2: something no one rewrote
    parts.add_nodes("Table", "table_id", [("t2", {"n": 3}, "T:t2")], 2)
    fixups = Fixups(
        stale={("T:t1", 0)}, stale_nodes={("Page", "p1", 0)}, distinct={"P:p1"}, batches={0, 1}
    )
    node_files, rel_files = parts.close(fixups)
    nodes = sorted((r[0], r[1]) for f in node_files for r in _rows(f))
    assert nodes == [("p1", "new"), ("t1", "2"), ("t2", "3")]
    rels = sorted((r[0], r[1]) for f in rel_files for r in _rows(f))
    assert rels == [("p1", "p2"), ("p1", "p3")]  # t1's old HAS went; p1's links merged
    assert parts.dropped == [2, 2]


@pytest.mark.slow
def test_the_bulk_load_builds_the_graph_ingest_builds(
    clean_db: neo4j.Driver,
    database: str | None,
    own_server: ServerSettings,
    data_folder: Path,
    tmp_path: Path,
) -> None:
    reference = StageContext(clean_db, database, tmp_path / "ref", echo=lambda _: None)
    expected_report = run_stage(reference, INGEST, ConfigFile(), {"data": data_folder})
    expected = fingerprint(clean_db, database)
    assert sum(expected.nodes.values()) > 700 and expected_report.rejected >= 20
    # a second ingest redoes only what it must (a page id in two files with different texts:
    # each file's version is written in turn); after the bulk load it must do the same
    second = run_stage(reference, INGEST, ConfigFile(), {"data": data_folder})
    assert second.skipped > 0.9 * expected_report.kept
    expected_again = fingerprint(clean_db, database)

    drivers = [connect(own_server)]

    def reconnect() -> neo4j.Driver:
        drivers[-1].close()
        drivers.append(connect(own_server))
        return drivers[-1]

    ctx = StageContext(drivers[0], None, tmp_path / "bulk", echo=lambda _: None)
    config = IngestConfig(data=data_folder)
    try:
        report, driver = bulk_load(ctx, config, own_server, reconnect=reconnect)
        save_report(driver, report, None)
        assert (report.kept, report.rejected) == (expected_report.kept, expected_report.rejected)
        assert report.reasons == expected_report.reasons
        # the edited table and the page in two files were written twice; the first goes
        assert report.notes["rows dropped (records written again)"] > 0
        assert not difference(expected, fingerprint(driver, None))
        # constraints are back: a second node with a taken key is refused
        with pytest.raises(neo4j.exceptions.ConstraintError):
            driver.execute_query("CREATE (:Table {table_id: 'Bad_ragged'})")

        again = run_stage(
            StageContext(driver, None, tmp_path / "again", echo=lambda _: None),
            INGEST,
            ConfigFile(),
            {"data": data_folder},
        )
        assert (again.kept, again.skipped) == (second.kept, second.skipped)
        assert not difference(expected_again, fingerprint(driver, None))

        ctx = StageContext(driver, None, tmp_path / "bulk", echo=lambda _: None)
        with pytest.raises(Exception, match="not empty"):
            bulk_load(ctx, config, own_server, reconnect=reconnect)
        assert cypher.read(driver, "ingest/count_data_nodes")[0]["n"] > 0
    finally:
        drivers[-1].close()
