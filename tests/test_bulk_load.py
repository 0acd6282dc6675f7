"""`seekgraph db load`: the import tool builds the same graph as `seekgraph ingest`.

The input mixes the default data, a sample of real OTT-QA tables and passages (several entities
per cell, flag links, non-ASCII names) and the bad-input matrix (rejections, id clashes,
duplicates), so the in-memory MERGE rules are compared with the server's on every kind of
record. After the bulk load, an ordinary ingest of the same data does what it does after an
ordinary ingest (it skips what is done).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import neo4j
import pytest

from bench.ottqa_sample import sample
from common.config import ConfigFile
from graphdb import cypher
from graphdb.bulk_import import NodeSet, RelSet, write_csv
from graphdb.driver import open_driver
from graphdb.settings import ConnectionSettings, ServerSettings
from graphdb.stages import StageContext, save_report
from seekgraph.pipeline import run_stage
from synth.ingest.bulk import bulk_load
from synth.ingest.config import IngestConfig
from synth.stages import INGEST
from tests.scaffolding.bad_inputs import write_bad_folder
from tests.scaffolding.fingerprint import describe, fingerprint
from tests.scaffolding.servers import own_server as _own_server


@pytest.fixture(scope="module")
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerSettings]:
    """A server of its own: the bulk load stops it and replaces its database."""
    with _own_server(tmp_path_factory.mktemp("bulk-neo4j")) as settings:
        yield settings


def _connect(settings: ServerSettings) -> neo4j.Driver:
    password = settings.password_file.read_text().strip()
    return open_driver(ConnectionSettings(settings.bolt_uri, "neo4j", password, None, True))


@pytest.fixture(scope="module")
def data_folder(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    folder = tmp_path_factory.mktemp("bulk-data")
    write_bad_folder(folder)
    sample(shared_data / "ottqa", 40, 3, folder / "ottqa")
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
    assert headers == [
        '"thing_id:ID(Thing)","n:long","tags:string[]",":LABEL"',
        '"thing_id:ID(Thing)","s:string",":LABEL"',
    ]
    with pytest.raises(Exception, match="empty or non-string list"):
        write_csv(tmp_path, [NodeSet("Thing", "thing_id", {"c": {"tags": []}})], [])


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
    assert sum(expected[0].values()) > 5000 and expected_report.rejected >= 20
    # a second ingest redoes only what it must (a page id in two files with different texts:
    # each file's version is written in turn); after the bulk load it must do the same
    second = run_stage(reference, INGEST, ConfigFile(), {"data": data_folder})
    assert second.skipped > 0.9 * expected_report.kept
    expected_again = fingerprint(clean_db, database)

    drivers = [_connect(own_server)]

    def reconnect() -> neo4j.Driver:
        drivers[-1].close()
        drivers.append(_connect(own_server))
        return drivers[-1]

    ctx = StageContext(drivers[0], None, tmp_path / "bulk", echo=lambda _: None)
    config = IngestConfig(data=data_folder)
    try:
        report, driver = bulk_load(ctx, config, own_server, reconnect=reconnect)
        save_report(driver, report, None)
        assert (report.kept, report.rejected) == (expected_report.kept, expected_report.rejected)
        assert report.reasons == expected_report.reasons
        nodes, rels = fingerprint(driver, None)
        only_bulk = set(nodes) - set(expected[0])
        assert nodes == expected[0], describe(driver, None, only_bulk)[:5]
        assert rels == expected[1]
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
        assert fingerprint(driver, None) == expected_again

        ctx = StageContext(driver, None, tmp_path / "bulk", echo=lambda _: None)
        with pytest.raises(Exception, match="not empty"):
            bulk_load(ctx, config, own_server, reconnect=reconnect)
        assert cypher.read(driver, "ingest/count_data_nodes")[0]["n"] > 0
    finally:
        drivers[-1].close()
