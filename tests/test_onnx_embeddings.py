"""The int8 ONNX backend of the embedder: its vectors against torch's, its file cache, and the
names that keep two backends' vectors apart."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from seekgraph.agent.errors import AgentError
from seekgraph.agent.web.index import check_embedder, page_text_for_embedding, query_backend
from seekgraph.common import onnx_minilm
from seekgraph.common.embeddings import (
    EMBEDDER_NAME,
    Embedder,
    EmbedderError,
    backend_of,
    embedder_name,
    packaged_model_folder,
)
from seekgraph.common.onnx_minilm import OnnxMiniLM, ensure_onnx
from tests.agent_fixture import PAGES

# what the web index embeds (pages of the agent fixture) and what searches embed (queries)
PAGE_TEXTS = [page_text_for_embedding(title, text) for _, title, _, text in PAGES]
QUERIES = ["Kazuo Ishiguro Booker Prize 1989", "novels set in Nagasaki", "Nagasaki"]


@pytest.fixture
def fake_export(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """`export_fp32` replaced by one that writes fixed bytes and records each call (the cache
    logic is what is tested; the real export is in the slow test below)."""
    calls: list[Path] = []

    def export(folder: Path, out: Path) -> None:
        calls.append(out)
        out.write_bytes(b"an exported model")

    monkeypatch.setattr(onnx_minilm, "export_fp32", export)
    return calls


def test_the_cache_is_reused_and_a_damaged_or_stale_file_is_not(
    tmp_path: Path, fake_export: list[Path]
) -> None:
    folder = packaged_model_folder()
    first = ensure_onnx(folder, "fp32", tmp_path)
    assert ensure_onnx(folder, "fp32", tmp_path) == first
    assert len(fake_export) == 1  # the second call read the file
    # a file of another key (other weights or versions) is never read
    stale = tmp_path / "minilm-0123456789abcdef-fp32-0123456789abcdef.onnx"
    stale.write_bytes(b"an export of other weights")
    assert ensure_onnx(folder, "fp32", tmp_path) == first
    # a damaged file (its content no longer has the digest in its name) is deleted and made again
    first.write_bytes(b"an exported mod")
    again = ensure_onnx(folder, "fp32", tmp_path)
    assert len(fake_export) == 2
    assert again == first and again.read_bytes() == b"an exported model"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first.name, stale.name])


def test_processes_building_at_once_leave_one_whole_file(
    tmp_path: Path, fake_export: list[Path]
) -> None:
    folder = packaged_model_folder()
    onnx_minilm.model_key(folder)  # the weights' digest once, before the threads race
    found: list[Path] = []
    threads = [
        threading.Thread(target=lambda: found.append(ensure_onnx(folder, "fp32", tmp_path)))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(found)) == 1 and found[0].read_bytes() == b"an exported model"
    assert [p.name for p in tmp_path.iterdir()] == [found[0].name]  # no temporary left


def test_backends_name_their_vectors_apart() -> None:
    assert embedder_name("torch") == EMBEDDER_NAME == Embedder().name
    assert Embedder(backend="onnx-int8").name == "all-MiniLM-L6-v2/onnx-int8"
    assert {backend_of(embedder_name(b)) for b in ("torch", "onnx-int8")} == {"torch", "onnx-int8"}
    with pytest.raises(EmbedderError, match="unknown embedding backend 'int4'"):
        Embedder(backend="int4")
    with pytest.raises(EmbedderError, match="runs on CPU"):
        Embedder(backend="onnx-int8", device="cuda").embed(["x"])


def test_a_backend_mismatch_fails_in_one_line() -> None:
    int8 = embedder_name("onnx-int8")
    check_embedder([], int8)  # no page embedded yet: any backend may start
    check_embedder([int8], int8)
    with pytest.raises(AgentError) as mismatch:
        check_embedder([EMBEDDER_NAME], int8)
    assert "\n" not in str(mismatch.value)
    assert "set the [web-index] backend to torch" in str(mismatch.value)
    assert query_backend([int8]) == "onnx-int8"
    with pytest.raises(AgentError, match="vectors of 2 embedders"):
        query_backend([EMBEDDER_NAME, int8])


@pytest.mark.slow
def test_int8_vectors_are_torch_vectors_to_a_cosine_of_099(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = packaged_model_folder()
    texts = PAGE_TEXTS + QUERIES
    int8 = OnnxMiniLM.load(folder, "int8", threads=1, cache_dir=tmp_path).encode(texts, 1, 256)
    reference = Embedder().embed_array(texts)
    assert np.allclose(np.linalg.norm(int8, axis=1), 1.0, atol=1e-5)
    cosine = np.sum(int8 * reference, axis=1)
    assert (cosine[: len(PAGE_TEXTS)] > 0.99).all()
    # a word or two has fewer word pieces to average the rounding over ("Nagasaki": 0.9896)
    assert (cosine[len(PAGE_TEXTS) :] > 0.98).all()

    def no_export(folder: Path, out: Path) -> None:
        raise AssertionError("exported again")

    monkeypatch.setattr(onnx_minilm, "export_fp32", no_export)
    again = OnnxMiniLM.load(folder, "int8", threads=1, cache_dir=tmp_path)
    assert np.array_equal(again.encode(texts, 1, 256), int8)  # one at a time: to the bit
    # in a batch, the texts share one activation scale: close, but not the same
    batched = again.encode(texts, 8, 256)
    assert np.allclose(batched, int8, atol=0.05) and not np.array_equal(batched, int8)
    # two runs at once make the same batches and so the same vectors, to the bit
    two = OnnxMiniLM.load(folder, "int8", threads=2, cache_dir=tmp_path)
    assert two.runs == 2
    assert np.array_equal(two.encode(texts, 1, 256), int8)
    assert np.array_equal(two.encode(texts, 8, 256), batched)
