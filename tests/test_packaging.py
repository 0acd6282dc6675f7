"""The project installs as a normal (non-editable) package under one name, `seekgraph`, beside
packages called `common` and `agent` (PyPI has both), and finds its own Cypher queries and
default data from any directory: package data, not paths into a checkout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from seekgraph.graphdb.settings import ConnectionSettings
from tests.conftest import REPO_ROOT, cli_login


@pytest.mark.slow
def test_a_wheel_install_runs_from_another_directory(
    neo4j_connection: ConnectionSettings, tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    # the environment already holds packages named like seekgraph's floors (PyPI has both)
    neighbours = [_tiny_package(tmp_path / "neighbours", name) for name in ("common", "agent")]
    subprocess.run(
        [sys.executable, "-m", "uv", "pip", "install", "-q", "--python", str(python), *neighbours],
        check=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    # the base package only (the ml/viz extras are not needed to list stages or make a schema)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "uv",
            "pip",
            "install",
            "-q",
            "--python",
            str(python),
            str(REPO_ROOT),
        ],
        check=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    seekgraph = venv / "bin" / "seekgraph"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    listed = subprocess.run(
        [str(seekgraph), "pipeline", "--list"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert listed.stdout.splitlines()[0].startswith("ingest")
    assert "report" in listed.stdout
    init = subprocess.run(
        [str(seekgraph), *cli_login(neo4j_connection), "db", "init"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert init.returncode == 0, init.stdout + init.stderr
    assert "constraints" in init.stdout
    # both neighbours and seekgraph's own floors import side by side
    both = subprocess.run(
        [
            str(python),
            "-c",
            "import common, agent, seekgraph.common.wire, seekgraph.agent.metrics;"
            "print(common.WHO, agent.WHO)",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert both.stdout.split() == ["neighbour-common", "neighbour-agent"]
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert (site / "seekgraph" / "graphdb").is_dir() and (site / "seekgraph" / "cypher").is_dir()
    floors = ("graphdb", "synth", "training", "viz", "cypher")
    assert not [name for name in floors if (site / name).exists()]  # nothing else at the top
    # the installed files live in site-packages, not in this checkout
    where = subprocess.run(
        [
            str(python),
            "-c",
            "import seekgraph.graphdb.cypher as c, seekgraph.synth.ingest.stage as s;"
            "print(c.cypher_dir()); print(s.default_data_dir())",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all("site-packages" in p and not p.startswith(str(REPO_ROOT) + "/") for p in where)
    assert (Path(where[0]) / "schema" / "constraints.cypher").is_file()
    assert (Path(where[1]) / "tables.jsonl").is_file()


def _tiny_package(root: Path, name: str) -> Path:
    """A one-module project `name` (as on PyPI) whose `WHO` says it is the neighbour."""
    project = root / name
    (project / name).mkdir(parents=True)
    (project / name / "__init__.py").write_text(f'WHO = "neighbour-{name}"\n')
    (project / "pyproject.toml").write_text(
        "[build-system]\n"
        'requires = ["setuptools>=69"]\n'
        'build-backend = "setuptools.build_meta"\n\n'
        f'[project]\nname = "{name}"\nversion = "1.0"\n'
    )
    return project
