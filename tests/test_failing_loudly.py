"""Runs that fail loudly: a missing --data folder or file is an error, a stage that keeps
nothing fails under --strict (the pipeline's and the stage command's), the optional LLM rollout
stage stays off unless asked for, and docs/cli.md is the real program's help."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import neo4j
from click.testing import CliRunner

from seekgraph.cli import main
from seekgraph.cli.pipeline import STAGES, select_stages
from seekgraph.graphdb.settings import ConnectionSettings
from tests.conftest import REPO_ROOT, cli_login


def _run(conn: ConnectionSettings, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*cli_login(conn), *args])
    return result.exit_code, result.output


def test_a_missing_data_folder_stops_the_pipeline(
    neo4j_connection: ConnectionSettings, tmp_path: Path
) -> None:
    """`seekgraph pipeline --data /no/such/folder --only ingest` exited 0."""
    for data, why in ((tmp_path / "no" / "such", "is not a folder"), (REPO_ROOT / "README.md", "")):
        code, out = _run(neo4j_connection, "pipeline", "--data", str(data), "--only", "ingest")
        assert code == 2, out
        assert f"Invalid value for --data: {data} is not a folder" in out, out
        assert why in out


def test_a_missing_data_folder_or_file_stops_the_ingest_stage(
    clean_db: neo4j.Driver, neo4j_connection: ConnectionSettings, tmp_path: Path
) -> None:
    code, out = _run(neo4j_connection, "ingest", "--data", str(tmp_path / "nothing-here"))
    assert code == 1 and "data folder" in out and "does not exist" in out, out
    code, out = _run(neo4j_connection, "ingest", "--files", str(tmp_path / "gone.jsonl"))
    assert code != 0, out
    assert "gone.jsonl" in out.splitlines()[-1], out
    assert "Traceback" not in out


def test_the_pipeline_fails_under_strict_when_a_stage_keeps_nothing(
    clean_db: neo4j.Driver, neo4j_connection: ConnectionSettings, tmp_path: Path
) -> None:
    folder = tmp_path / "empty-tables"
    folder.mkdir()
    (folder / "tables.jsonl").write_text("")
    args = ["pipeline", "--data", str(folder), "--only", "ingest", "--out", str(tmp_path / "o")]
    code, out = _run(neo4j_connection, *args)
    assert code == 0, out  # without --strict: said in the summary, not an error
    assert "no_records=1" in out
    code, out = _run(neo4j_connection, *args, "--strict")
    assert code == 1, out
    assert out.strip().splitlines()[-1].startswith("Error: stages kept nothing: ingest"), out


def test_the_llm_rollout_stage_is_off_unless_asked_for() -> None:
    """`rollout-llm` ran by default and always ended format_error=3."""
    stage = next(s for s in STAGES if s.name == "rollout-llm")
    assert stage.optional
    assert "rollout-llm" not in [s.name for s in select_stages()]
    assert "rollout-llm" in [s.name for s in select_stages(only=("rollout-llm",))]
    assert "rollout-llm" in [s.name for s in select_stages(with_optional=True)]
    assert "--only rollout-llm" in stage.help and "valid turns" in stage.help
    listed = CliRunner().invoke(main, ["pipeline", "--list"]).output
    line = next(x for x in listed.splitlines() if x.startswith("rollout-llm"))
    assert "(optional)" in line


def _gen_cli_docs() -> object:
    spec = importlib.util.spec_from_file_location(
        "gen_cli_docs", REPO_ROOT / "scripts" / "gen_cli_docs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_is_generated_with_the_real_name_and_no_machine_paths() -> None:
    """docs/cli.md showed `Usage: main` and a developer's path as a default."""
    text = _gen_cli_docs().render()  # type: ignore[attr-defined]
    assert "Usage: main" not in text and "Usage: seekgraph" in text
    for path in {str(Path.home()), str(REPO_ROOT), "/root/", "/home/", "/work/", "/tmp/"}:
        assert path not in text, path
    assert (REPO_ROOT / "docs" / "cli.md").read_text() == text, (
        "docs/cli.md is stale: run `python scripts/gen_cli_docs.py`"
    )
