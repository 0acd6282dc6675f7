"""The published WebShaper format: normalisation, rejections with reasons, export round trip."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import neo4j
import pytest
from click.testing import CliRunner

from seekgraph.synth.shaper.kp import Const, ShaperError, Var
from seekgraph.synth.shaper.published import normalise_element, parse_row, read_rows, to_row
from seekgraph.synth.shaper.stages import export_tasks, import_published, map_relation
from seekgraph.synth.shaper.store import load_tasks

ROW = {
    "id": "r1",
    "question": "q?",
    "answer": "12,000",
    "urls": ["https://x"],
    "formalization": [
        ["V@M", "is opening match of", "V@X"],
        ["V@X", "is located in", "C@Berlin"],
        ["V@M", "had number of spectators", "?"],
    ],
}


def test_a_clean_row_parses_and_exports_unchanged() -> None:
    parsed = parse_row(ROW)
    assert parsed.task is not None and not parsed.normalised
    assert parsed.task.task_id == "webshaper:r1"
    assert parsed.task.triples[1].objects == (Const("Berlin"),)
    assert parsed.task.triples[2].objects == (Var("?"),)
    assert to_row(parsed.task) == {**ROW, "answer": ["12,000"]}  # answers are always lists


@pytest.mark.parametrize(
    ("element", "expected", "code"),
    [
        (
            ["V@W", "was signed between", "C@France", "and", "C@Spain"],
            [["V@W", "was signed between", "C@France"], ["V@W", "was signed between", "C@Spain"]],
            "split_and",
        ),
        (
            ["V@E", "final teams represent", "C@India", "C@France"],
            [
                ["V@E", "final teams represent", "C@India"],
                ["V@E", "final teams represent", "C@France"],
            ],
            "split_objects",
        ),
        (
            ["V@P", "later became a province"],
            [["V@P", "has property", "C@later became a province"]],
            "unary_property",
        ),
        (
            ["V@S", "is a & part_of", "C@stage & C@2005 Tour"],
            [["V@S", "is a", "C@stage"], ["V@S", "part_of", "C@2005 Tour"]],
            "split_compound",
        ),
        (["V@X", "won in", "2009"], [["V@X", "won in", "C@2009"]], "bare_constant"),
    ],
)
def test_unambiguous_elements_are_normalised(
    element: list[str], expected: list[list[str]], code: str
) -> None:
    assert normalise_element(element) == (expected, code)


@pytest.mark.parametrize(
    "element",
    [
        ["V@X", "has been translated into", "V@Y", "?"],
        ["V@X", "collaborated with", "V@Y", "on", "V@A"],
        ["V@Y", "led to the formation of C@Reform Party"],
        ["V@X", "was published by C@Aubert and printed by", "V@Y"],
    ],
)
def test_ambiguous_elements_are_rejected(element: list[str]) -> None:
    with pytest.raises(ShaperError):
        normalise_element(element)
    row = dict(ROW, formalization=[element, ["V@M", "had", "?"]])
    assert parse_row(row).reason in {"ambiguous_element", "term_in_relation"}


def test_bad_rows_get_reasons() -> None:
    assert parse_row({"id": "x"}).reason == "missing_field"
    assert parse_row(dict(ROW, formalization=[])).reason == "empty_formalization"
    assert parse_row(dict(ROW, formalization=[["V@X", "r", "C@a"]])).reason == "no_target"
    assert parse_row([1, 2]).reason == "not_an_object"


@pytest.mark.shared_data
def test_the_500_published_rows(shared_data: Path) -> None:
    parsed = list(read_rows(shared_data / "webshaper" / "webshaper.500.jsonl"))
    assert len(parsed) == 500
    reasons = Counter(p.reason for p in parsed if p.task is None)
    kept = [p for p in parsed if p.task is not None]
    assert len(kept) == 444 and sum(reasons.values()) == 56
    assert reasons["term_in_relation"] == 22 and reasons["ambiguous_element"] == 21
    assert sum(1 for p in kept if p.normalised) == 36
    # Export → import is lossless for every kept row; untouched rows export byte-identical.
    originals = {
        json.loads(line)["id"]: json.loads(line)
        for line in (shared_data / "webshaper" / "webshaper.500.jsonl").read_text().splitlines()
    }
    for p in kept:
        assert p.task is not None
        row = to_row(p.task)
        again = parse_row(row).task
        assert again is not None and again.triples == p.task.triples
        if not p.normalised:
            assert row["formalization"] == originals[p.row_id]["formalization"]


def test_relation_phrases_map_to_executable_relations() -> None:
    known = {"nationality", "country"}
    assert map_relation("has nationality", known) == "nationality"
    assert map_relation("is nationality of", known) == "~nationality"
    assert map_relation("links to", known) == "links_to"
    assert map_relation("is located in", known) is None


def test_graph_round_trip_and_cli(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    rows = [
        ROW,
        dict(
            ROW,
            id="r2",
            formalization=[["V@W", "signed between", "C@A", "and", "C@B"], ["V@W", "is", "?"]],
        ),
        dict(ROW, id="bad", formalization=[["V@X", "r", "V@Y", "?"]]),
    ]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows) + "{broken\n")
    report = import_published(clean_db, database, src)
    assert report.kept == 2 and report.reasons == Counter(
        {"ambiguous_element": 1, "broken_json": 1}
    )
    assert report.notes["execution"] == {"unmapped_relation": 2}
    again = import_published(clean_db, database, src)  # idempotent
    assert again.kept == 2 and len(load_tasks(clean_db, database)) == 2
    out = tmp_path / "out.jsonl"
    assert export_tasks(clean_db, database, out) == 2
    exported = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert {k: v for k, v in exported["r1"].items() if k != "split"} == {
        **ROW,
        "answer": ["12,000"],
    }
    assert exported["r2"]["formalization"][:2] == [
        ["V@W", "signed between", "C@A"],
        ["V@W", "signed between", "C@B"],
    ]
    assert exported["r1"]["split"] in {"train", "heldout"}


def test_cli_help_lists_the_shaper_commands() -> None:
    from seekgraph.cli import main

    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in ("shaper-import", "shaper-seeds", "shaper-expand", "export"):
        assert name in result.output
    result = CliRunner().invoke(main, ["shaper-import", "--help"])
    assert result.exit_code == 0 and "--published" in result.output
