"""The audit samples' rule reproduces the lists committed under `bench/audits` (each drawn and
committed before any of its tasks was read), so a reader can check that a sample was drawn
by its seed and not picked."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.audit_sample import draw, without_section

AUDITS = Path(__file__).resolve().parent.parent / "bench" / "audits"


def _ids(name: str) -> list[str]:
    return [line.strip() for line in (AUDITS / name).read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("seed", [2064, 2065, 2071])
def test_a_committed_sample_is_its_seeds_draw(seed: int) -> None:
    # samples 2062-2071 are drawn from s53-rest.txt less the samples before them from 2061 on
    earlier = [t for s in range(2061, seed) for t in _ids(f"{s}-tables.txt")]
    assert draw(seed, _ids("s53-rest.txt"), earlier) == _ids(f"{seed}-tables.txt")


@pytest.mark.parametrize("seed", [2073, 2074, 2076])
def test_a_session_55_sample_is_its_seeds_draw(seed: int) -> None:
    # samples 2073-2076 are drawn from s55-pool.txt less the samples before them from 2073 on
    earlier = [t for s in range(2073, seed) for t in _ids(f"{s}-tables.txt")]
    assert draw(seed, _ids("s55-pool.txt"), earlier) == _ids(f"{seed}-tables.txt")


def test_a_table_without_section_keeps_the_rest() -> None:
    table = {"table_id": "t", "title": "T", "section_title": "Results", "section_text": "x"}
    assert without_section(table) == {**table, "section_title": "", "section_text": ""}


@pytest.mark.parametrize("seed", [2080, 2083, 2085])
def test_a_session_56_sample_is_its_seeds_draw(seed: int) -> None:
    # samples 2077 on are drawn from s55-rest.txt less the samples before them from 2077 on
    earlier = [t for s in range(2077, seed) for t in _ids(f"{s}-tables.txt")]
    assert draw(seed, _ids("s55-rest.txt"), earlier) == _ids(f"{seed}-tables.txt")
