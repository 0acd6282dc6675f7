"""Relation names: header rules, MiniLM merges with cannot-link, human corrections respected."""

from __future__ import annotations

from collections import Counter

import neo4j
import pytest
from click.testing import CliRunner

from seekgraph.cli import main
from seekgraph.graphdb.settings import ConnectionSettings
from seekgraph.synth.errors import RelationError
from seekgraph.synth.ingest.inspect import entity_facts
from seekgraph.synth.relations import (
    current_mappings,
    embed,
    header_key,
    normalise_names,
    normalise_relations,
    parse_assignment,
    rule_relation,
    set_human_mapping,
)
from seekgraph.synth.stages import INGEST, RELATIONS
from tests.conftest import cli_login, run_stage


@pytest.mark.parametrize(
    ("header", "key", "relation"),
    [
        ("Country", "country", "country"),
        ("Nation", "nation", "country"),
        ("Nationality", "nationality", "country"),
        ("Genre(s)", "genre", "genre"),
        ("Winner ( s )", "winner", "winner"),
        ("Artist 's nationality", "artist nationality", "artist_nationality"),
        ("Pos", "pos", "position"),
        ("Official language(s)", "official language", "official_language"),
        ("Eligible works", "eligible works", "eligible_work"),
        ("", "", ""),
    ],
)
def test_header_rules(header: str, key: str, relation: str) -> None:
    assert header_key(header) == key
    assert rule_relation(key) == relation


def test_parse_assignment() -> None:
    assert parse_assignment("Nation = nationality") == ("nation", "nationality")
    assert parse_assignment("Place of birth=birth place") == ("place of birth", "birth_place")
    with pytest.raises(RelationError):
        parse_assignment("Nation")
    with pytest.raises(RelationError):
        parse_assignment("=x")


@pytest.mark.slow
def test_minilm_merges_synonyms_but_never_columns_of_one_table() -> None:
    counts = Counter(
        {"film": 5, "movie": 2, "year": 9, "season": 3, "home_team": 2, "away_team": 2}
    )
    merged = normalise_names(counts, [], threshold=0.8, embedder=embed)
    assert merged["movie"][0] == "film" and merged["movie"][1] >= 0.8
    assert merged["film"] == ("film", 1.0)
    assert merged["season"][0] == "season"  # related, but not the same relation
    assert merged["away_team"][0] == "away_team"
    # A table with both a Film and a Movie column has two relations: they stay apart.
    apart = normalise_names(counts, [["film", "movie"]], threshold=0.8, embedder=embed)
    assert apart["movie"][0] == "movie"


def _facts(driver: neo4j.Driver, database: str | None, entity: str, table: str) -> dict[int, str]:
    return {
        f["column"]: f["relation"]
        for f in entity_facts(driver, entity, database)
        if f["table_id"] == table
    }


@pytest.mark.slow
def test_country_nation_nationality_merge_and_human_correction_is_respected(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    run_stage(INGEST, clean_db, database)
    report = normalise_relations(clean_db, database)
    mappings = current_mappings(clean_db, database)
    assert {mappings[k].relation for k in ("country", "nation", "nationality")} == {"country"}
    assert report.notes["human (kept)"] == 0
    han_kang = ("/wiki/Han_Kang", "International_Booker_Prize_1")
    assert _facts(clean_db, database, *han_kang)[5] == "country"  # the Nation column

    set_human_mapping(clean_db, "Nation=nationality", database)
    assert _facts(clean_db, database, *han_kang)[5] == "nationality"
    again = normalise_relations(clean_db, database)
    assert again.notes["human (kept)"] == 1
    mappings = current_mappings(clean_db, database)
    assert (mappings["nation"].relation, mappings["nation"].method) == ("nationality", "human")
    assert mappings["nationality"].relation == "country"
    assert _facts(clean_db, database, *han_kang)[5] == "nationality"
    ishiguro = _facts(clean_db, database, "/wiki/Kazuo_Ishiguro", "Booker_Prize_1")
    assert ishiguro[3] == "country"  # Booker's Nationality column keeps the automatic name


def test_cli_set_and_list(
    clean_db: neo4j.Driver, database: str | None, neo4j_connection: ConnectionSettings
) -> None:
    run_stage(INGEST, clean_db, database)
    base = [*cli_login(neo4j_connection), "relations"]
    runner = CliRunner()
    result = runner.invoke(main, [*base, "--no-embeddings"])
    assert result.exit_code == 0, result.output
    assert "relations: kept" in result.output
    result = runner.invoke(main, [*base, "--no-embeddings", "--set", "Nation=nationality"])
    assert result.exit_code == 0, result.output
    assert "'nation' -> nationality (human)" in result.output
    result = runner.invoke(main, [*cli_login(neo4j_connection), "show", "relations"])
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.output.splitlines() if line.strip()}
    assert "'Nation'(human)" in lines["nationality"]
    assert "'Nationality'(rule)" in lines["country"]
    result = runner.invoke(main, [*base, "--no-embeddings", "--set", "Nation"])
    assert result.exit_code != 0 and "HEADER=relation" in result.output


def test_a_second_run_on_the_same_headers_skips_the_work(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    """The stage redoes nothing when headers, tables, human mappings and settings are those of
    its last finished run; a human mapping makes the next run recompute."""
    run_stage(INGEST, clean_db, database)
    first = run_stage(RELATIONS, clean_db, database)
    assert first.kept > 0 and first.skipped == 0
    again = run_stage(RELATIONS, clean_db, database)
    assert (again.kept, again.skipped) == (0, first.kept)
    set_human_mapping(clean_db, "Nation=nationality", database)
    third = run_stage(RELATIONS, clean_db, database)
    assert third.kept == first.kept - 1 and third.skipped == 1  # the human one is kept as is
