"""The one config loader: precedence (flag > file > environment > default), and the same checks
in every section (unknown keys, wrong types, booleans, ranges, memory sizes)."""

from __future__ import annotations

import subprocess
import sys
import typing
from dataclasses import fields
from pathlib import Path

import pytest

from seekgraph.cli.pipeline import SECTIONS, STAGES
from seekgraph.common.config import ConfigFile, load_section, read_config_file, resolve_settings
from seekgraph.graphdb.errors import ConfigError


def _file(tmp_path: Path, text: str) -> ConfigFile:
    path = tmp_path / "seekgraph.toml"
    path.write_text(text)
    return read_config_file(path, SECTIONS)


def test_defaults_use_the_managed_server(tmp_path: Path) -> None:
    s = resolve_settings(ConfigFile(), flags={"home": tmp_path}, env={})
    assert s.connection.managed
    assert s.connection.uri == "bolt://127.0.0.1:7687"
    assert s.server.browser_url == "http://127.0.0.1:7474/browser/?dbms=bolt://127.0.0.1:7687"


def test_precedence_flag_over_file_over_env(tmp_path: Path) -> None:
    env = {"NEO4J_URI": "neo4j://env:7687", "NEO4J_PASSWORD": "envpw", "NEO4J_DATABASE": "envdb"}
    config = _file(tmp_path, '[neo4j]\nuri = "bolt://file:7687"\npassword = "filepw"\n')
    s = resolve_settings(config, env=env)
    assert (s.connection.uri, s.connection.password, s.connection.database) == (
        "bolt://file:7687",
        "filepw",
        "envdb",
    )
    assert not s.connection.managed
    s = resolve_settings(config, flags={"uri": "bolt://flag:1", "password": "flagpw"}, env=env)
    assert (s.connection.uri, s.connection.password) == ("bolt://flag:1", "flagpw")
    s = resolve_settings(ConfigFile(), env=env)
    assert s.connection.uri == "neo4j://env:7687"


def test_external_uri_without_password_is_an_error() -> None:
    with pytest.raises(ConfigError, match="no password"):
        resolve_settings(ConfigFile(), env={"NEO4J_URI": "bolt://x:7687"})


def test_config_file_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[neo4j\nuri=")
    with pytest.raises(ConfigError, match=r"bad\.toml"):
        read_config_file(bad, SECTIONS)
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("[nonsense]\na = 1\n")
    with pytest.raises(ConfigError, match=r"unknown section \[nonsense\]"):
        read_config_file(unknown, SECTIONS)
    every = _file(tmp_path, "".join(f"[{name}]\n" for name in sorted(SECTIONS)))
    assert set(every.sections) == SECTIONS
    with pytest.raises(ConfigError, match="does not exist"):
        read_config_file(tmp_path / "missing.toml", SECTIONS)


@pytest.mark.parametrize("stage", STAGES, ids=lambda s: s.name)
def test_every_section_refuses_unknown_keys_and_wrong_types(tmp_path: Path, stage: object) -> None:
    from seekgraph.common.config import load_stage_config

    config = _file(tmp_path, f"[{stage.section}]\nno_such_setting = 1\n")  # type: ignore[attr-defined]
    with pytest.raises(
        ConfigError, match=r"seekgraph\.toml \[.*\]: unknown setting 'no_such_setting'"
    ):
        load_stage_config(stage, config)
    hints = typing.get_type_hints(stage.config)  # type: ignore[attr-defined]
    for f in fields(stage.config):  # type: ignore[attr-defined]
        kind = hints[f.name]
        wrong = (
            '"no"' if kind in (bool, int, float) or typing.get_origin(kind) is dict else "{a = 1}"
        )
        if kind is str:
            wrong = "3"
        bad = _file(tmp_path, f"[{stage.section}]\n{f.name} = {wrong}\n")  # type: ignore[attr-defined]
        with pytest.raises(ConfigError, match=f.name):
            load_stage_config(stage, bad)


def test_booleans_ports_and_memory_are_checked(tmp_path: Path) -> None:
    from seekgraph.synth.ingest.config import IngestConfig

    with pytest.raises(ConfigError, match="allow_duplicate_headers: expected true or false"):
        load_section(IngestConfig, {"allow_duplicate_headers": "no"}, source="x.toml")
    for text, message in (
        ("bolt_port = 70000", "must be at most 65535"),
        ("http_port = 0", "must be at least 1"),
        ('heap = "768"', "memory size with a unit"),
    ):
        config = _file(tmp_path, f"[server]\n{text}\n")
        with pytest.raises(ConfigError, match=message):
            resolve_settings(config, env={})
    s = resolve_settings(_file(tmp_path, '[server]\nheap = "2g"\nbolt_port = 7688\n'), env={})
    assert (s.server.heap, s.server.bolt_port) == ("2g", 7688)
    with pytest.raises(ConfigError, match=r"\$SEEKGRAPH_BOLT_PORT: expected an integer"):
        resolve_settings(ConfigFile(), env={"SEEKGRAPH_BOLT_PORT": "x"})
    from seekgraph.agent.config import RolloutConfig

    # a lease shorter than a rollout may last would let a second worker take it over
    with pytest.raises(ConfigError, match=r"lease_seconds .* must exceed max_seconds"):
        load_section(RolloutConfig, {"lease_seconds": 60.0}, source="x.toml", section="rollout")


def test_flags_override_the_file_and_are_checked_too(tmp_path: Path) -> None:
    from seekgraph.synth.leaper.common import LeaperConfig

    config = _file(tmp_path, "[leaper]\nmax_targets = 300\n")
    assert config.load(LeaperConfig, "leaper").max_targets == 300
    assert config.load(LeaperConfig, "leaper", {"max_targets": 50}).max_targets == 50
    with pytest.raises(ConfigError, match="--similarity: expected one of"):
        config.load(LeaperConfig, "leaper", {"similarity": "nope"})


def test_help_imports_no_heavy_library() -> None:
    code = (
        "import sys; from click.testing import CliRunner; from seekgraph.cli import main;"
        "r = CliRunner().invoke(main, ['--help']); assert r.exit_code == 0, r.output;"
        "heavy = [m for m in ('torch', 'transformers', 'sentence_transformers', 'vllm', 'trl',"
        " 'datasets', 'matplotlib') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_retry_seconds_reaches_the_driver(tmp_path: Path) -> None:
    """`[neo4j] retry_seconds` bounds how long a stage retries a lost server (the driver's
    default, 30 s, kept every killed-Neo4j worker alive for half a minute)."""
    import socket
    import time

    import neo4j.exceptions

    from seekgraph.graphdb.driver import open_driver

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = _file(tmp_path, f"[server]\nbolt_port = {port}\n\n[neo4j]\nretry_seconds = 0.5\n")
    settings = resolve_settings(config, flags={"home": tmp_path}, env={})
    assert settings.connection.retry_seconds == 0.5
    driver = open_driver(settings.connection, verify=False)
    started = time.monotonic()
    with pytest.raises(neo4j.exceptions.ServiceUnavailable):
        driver.execute_query("RETURN 1")
    driver.close()
    assert time.monotonic() - started < 20  # the driver's default would retry for 30 s
