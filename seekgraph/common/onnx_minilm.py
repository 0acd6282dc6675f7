"""The packaged MiniLM on ONNX Runtime: exported once from torch, quantised to int8, cached.

Why: torch embeds about 50 OTT-QA pages/s on two cores, so the web index of 187k pages takes
an hour. ONNX Runtime runs the same encoder with its weight matrices in int8 (per output
channel; activations quantised on the fly, the attention's own products left in float), which
its CPU kernels multiply with VNNI instructions, and it runs one page per core at a time: 3.1x
torch's pages/s on 2 cores, vectors at a cosine of 0.995 to torch's (min 0.985), the same
recall@10 (bench/bench_embed.py; 1.6x unquantised; 2.3x when one run had both cores).
What is left is mostly attention (softmax and the masked scores over sequence x sequence),
which int8 does not shorten: reading 128 word pieces instead of 256 (`max_tokens`) gives 4.1x,
but finds a page from a passage of its text less often (recall@10 60.2% against 62.2%).

The ONNX files are derived data, made on first use (about 5 s) and kept in
``$XDG_DATA_HOME/seekgraph/models/all-minilm-l6-v2-onnx``. Their name carries two digests:

- the *key*: the model's weights and config, the recipe (`RECIPE`) and the versions of torch
  and onnxruntime; anything else gives another file, so a stale cache is never read;
- the *content*: the sha256 of the file itself, checked on every load, so a truncated or
  damaged file is deleted and made again.

A file is written under a temporary name and renamed into place, so two processes that build it
at once never see each other's half-written file (both finish; the rename makes one of them the
file, and either is a valid export).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

from seekgraph.common.embeddings import EMBEDDING_DIM, EmbedderError, token_batches
from seekgraph.graphdb.settings import default_data_dir

# Changing how the files are made (export or quantisation settings) must change this: it is
# part of every file's key, so files made the old way are no longer read.
RECIPE = "eager-opset17/int8-matmul-weights-per-channel/v1"
VARIANTS = ("fp32", "int8")
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


class OnnxExportError(EmbedderError):
    """The ONNX version of the packaged model could not be made or loaded."""


def default_cache_dir() -> Path:
    """Where the exported files live (derived data of the installed model)."""
    return default_data_dir() / "models" / "all-minilm-l6-v2-onnx"


@cache
def model_key(folder: Path) -> str:
    """A digest of what the exported files depend on: the model's weights and config, the
    recipe, and the torch and onnxruntime versions (one read of the 90 MB weights, ~0.2 s)."""
    import onnxruntime
    import torch

    h = hashlib.sha256(f"{RECIPE}|torch {torch.__version__}|ort {onnxruntime.__version__}".encode())
    for name in ("config.json", "model.safetensors"):
        h.update(name.encode())
        h.update(_file_digest(folder / name).encode())
    return h.hexdigest()[:16]


def _file_digest(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _valid_file(cache_dir: Path, prefix: str) -> Path | None:
    """The cached file named `prefix-<content digest>.onnx` whose content has that digest;
    files whose content does not match (damaged, truncated) are deleted."""
    for path in sorted(cache_dir.glob(f"{prefix}-*.onnx")):
        if _file_digest(path)[:16] == path.stem.rsplit("-", 1)[-1]:
            return path
        path.unlink(missing_ok=True)  # another process may have removed it already
    return None


def ensure_onnx(folder: Path, variant: str, cache_dir: Path | None = None) -> Path:
    """The ONNX file of the model in `folder` (`variant` fp32 or int8), made if not cached.

    Idempotent and safe to run from several processes at once (see the module docstring).
    """
    if variant not in VARIANTS:
        raise OnnxExportError(f"unknown ONNX variant {variant!r}; choose one of {VARIANTS}")
    cache_dir = cache_dir if cache_dir is not None else default_cache_dir()
    prefix = f"minilm-{model_key(folder)}-{variant}"
    found = _valid_file(cache_dir, prefix)
    if found is not None:
        return found
    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".export-", dir=cache_dir) as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        export_fp32(folder, fp32)
        made = fp32
        if variant == "int8":
            made = Path(tmp) / "int8.onnx"
            quantize_int8(fp32, made)
        target = cache_dir / f"{prefix}-{_file_digest(made)[:16]}.onnx"
        os.replace(made, target)
    return target


def export_fp32(folder: Path, out: Path) -> None:
    """The encoder of `folder` as ONNX: inputs (batch, sequence) ids, mask and token types,
    output the last hidden state; both axes dynamic.

    Exported with the eager attention (a MatMul, Softmax, MatMul per layer) rather than SDPA,
    whose export adds masking nodes that ran the int8 model 1.5x slower."""
    try:
        import torch
        from transformers import AutoModel, AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(str(folder))
        model = AutoModel.from_pretrained(str(folder), attn_implementation="eager").eval()
    except (ImportError, OSError, ValueError) as e:
        raise OnnxExportError(f"cannot load {folder} for the ONNX export: {e}") from e

    class Encoder(torch.nn.Module):
        """The model called by keyword (its positional order differs between versions)."""

        def __init__(self, model: Any) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    sample = tokenizer(["an example", "a longer example text"], padding=True, return_tensors="pt")
    axes = {name: {0: "batch", 1: "sequence"} for name in (*_INPUTS, "last_hidden_state")}
    with warnings.catch_warnings(), torch.inference_mode():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation notice
        torch.onnx.export(
            Encoder(model).eval(),
            tuple(sample[name] for name in _INPUTS),
            str(out),
            input_names=list(_INPUTS),
            output_names=["last_hidden_state"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,  # the TorchScript exporter: no onnxscript needed, dynamic axes kept
        )


def quantize_int8(fp32: Path, out: Path) -> None:
    """`fp32` with the weight matrices of its MatMuls in int8, one scale per output channel
    (one scale per matrix gave a cosine to torch of 0.95, per channel 0.995); activations are
    quantised per batch at run time. The two MatMuls of each attention that multiply
    activations by activations stay in float: quantising them too was slower here."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    graph = onnx.load(str(fp32), load_external_data=False).graph
    weights = {w.name for w in graph.initializer}
    activations_only = [
        n.name for n in graph.node if n.op_type == "MatMul" and not weights & set(n.input)
    ]
    logging.disable(logging.WARNING)  # its advice to pre-process, to the root logger
    try:
        quantize_dynamic(
            str(fp32),
            str(out),
            per_channel=True,
            weight_type=QuantType.QInt8,
            op_types_to_quantize=["MatMul"],
            nodes_to_exclude=activations_only,
        )
    finally:
        logging.disable(logging.NOTSET)


class OnnxMiniLM:
    """MiniLM on an ONNX Runtime CPU session: the same tokenizer, truncation, longest-first
    batches, mean pooling over the mask and unit length as `embeddings.MiniLM.encode`.

    Why several runs at once, each on one thread: a batch of one page is too small for ONNX
    Runtime to split well over threads (its intra-op threads wait on each other at every
    operator), while two pages run side by side on two single-threaded runs keep both cores
    busy: 1.28x the pages/s of one run on two threads (93 against 72 pages/s), same vectors.
    A session's `run` is thread-safe and releases the GIL; texts are tokenised on the calling
    thread only (a fast tokenizer with truncation set is not safe to share between threads)."""

    def __init__(self, tokenizer: Any, session: Any, runs: int = 1) -> None:
        self.tokenizer, self.session, self.runs = tokenizer, session, max(1, runs)
        self.inputs = [i.name for i in session.get_inputs()]

    @classmethod
    def load(
        cls, folder: Path, variant: str, threads: int | None, cache_dir: Path | None = None
    ) -> OnnxMiniLM:
        """The session of the cached `variant` file (made first if needed); `threads` are the
        batches run at once, each on one thread (None: one per core)."""
        try:
            import onnxruntime as ort
            from transformers import AutoTokenizer
        except ImportError as e:
            raise OnnxExportError("ONNX embeddings need the `ml` extra (onnxruntime)") from e
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL  # one graph path at a time
        options.inter_op_num_threads = 1
        options.intra_op_num_threads = 1  # parallel by runs at once, not within one run
        options.log_severity_level = 3  # errors only (not the quantised graph's fusion notes)
        path = ensure_onnx(folder, variant, cache_dir)
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        runs = threads or os.cpu_count() or 1
        return cls(AutoTokenizer.from_pretrained(str(folder)), session, runs)

    def encode(self, texts: Sequence[str], batch_size: int, max_tokens: int) -> Any:
        """Unit-length vectors of `texts` (float32 numpy rows). A text's vector does not depend
        on how many runs there are: batches are made before they are shared out."""
        import numpy as np

        def vectors(item: tuple[list[int], Any]) -> tuple[list[int], Any]:
            chosen, batch = item
            feed = {name: batch[name].astype(np.int64) for name in self.inputs}
            tokens = self.session.run(None, feed)[0]
            mask = batch["attention_mask"][..., None].astype(np.float32)
            means = (tokens * mask).sum(1) / np.maximum(mask.sum(1), 1e-9)
            return chosen, means / np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-12)

        out = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
        batches = token_batches(self.tokenizer, texts, batch_size, max_tokens, "np")
        if self.runs == 1 or len(texts) <= batch_size:
            for chosen, unit in map(vectors, batches):
                out[chosen] = unit
            return out
        with ThreadPoolExecutor(self.runs, thread_name_prefix="onnx-minilm") as pool:
            for chosen, unit in pool.map(vectors, batches):
                out[chosen] = unit
        return out
