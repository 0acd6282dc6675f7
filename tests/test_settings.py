"""Configuration precedence: CLI flag > config file > environment > default."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from graphdb.errors import ConfigError
from graphdb.settings import CONFIG_SECTIONS, load_config_file, resolve


def test_defaults_use_the_managed_server(tmp_path: Path) -> None:
    s = resolve(flags={"home": tmp_path}, config={}, env={})
    assert s.connection.managed
    assert s.connection.uri == "bolt://127.0.0.1:7687"
    assert s.server.browser_url == "http://127.0.0.1:7474/browser/?dbms=bolt://127.0.0.1:7687"


def test_precedence_flag_over_file_over_env() -> None:
    env = {"NEO4J_URI": "neo4j://env:7687", "NEO4J_PASSWORD": "envpw", "NEO4J_DATABASE": "envdb"}
    config = {"neo4j": {"uri": "bolt://file:7687", "password": "filepw"}}
    s = resolve(flags={}, config=config, env=env)
    assert (s.connection.uri, s.connection.password, s.connection.database) == (
        "bolt://file:7687",
        "filepw",
        "envdb",
    )
    assert not s.connection.managed
    s = resolve(flags={"uri": "bolt://flag:1", "password": "flagpw"}, config=config, env=env)
    assert (s.connection.uri, s.connection.password) == ("bolt://flag:1", "flagpw")
    s = resolve(flags={}, config={}, env=env)
    assert s.connection.uri == "neo4j://env:7687"


def test_external_uri_without_password_is_an_error() -> None:
    with pytest.raises(ConfigError, match="no password"):
        resolve(flags={}, config={}, env={"NEO4J_URI": "bolt://x:7687"})


def test_config_file_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[neo4j\nuri=")
    with pytest.raises(ConfigError, match=r"bad\.toml"):
        load_config_file(bad)
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("[nonsense]\na = 1\n")
    with pytest.raises(ConfigError, match="unknown section"):
        load_config_file(unknown)
    every = tmp_path / "every.toml"
    every.write_text("".join(f"[{name}]\n" for name in sorted(CONFIG_SECTIONS)))
    assert set(load_config_file(every)) == CONFIG_SECTIONS
    with pytest.raises(ConfigError, match="does not exist"):
        load_config_file(tmp_path / "missing.toml")


def test_help_imports_no_heavy_library() -> None:
    code = (
        "import sys; from click.testing import CliRunner; from seekgraph.cli import main;"
        "r = CliRunner().invoke(main, ['--help']); assert r.exit_code == 0, r.output;"
        "heavy = [m for m in ('torch', 'transformers', 'sentence_transformers', 'vllm', 'trl',"
        " 'datasets', 'matplotlib') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
