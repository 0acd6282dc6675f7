"""The transformers backend with the real packaged SmolLM2 (converted from its GGUF once)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seekgraph.common.llm import LLMBackend, load_backend
from seekgraph.common.llm.errors import BackendConfigError
from seekgraph.common.llm.openai_backend import OpenAIBackend
from seekgraph.common.llm.scoring import lowest_perplexity, perplexity
from seekgraph.common.llm.smollm2 import ensure_checkpoint, is_converted
from seekgraph.common.llm.transformers_backend import TransformersBackend, cut_at_stop
from seekgraph.common.llm.vllm_backend import VLLMBackend
from tests.conftest import STALE_MARKER_FILE

pytestmark = pytest.mark.slow

QUESTION = [{"role": "user", "content": "What is the capital of France?"}]


@pytest.fixture(scope="module")
def backend(smollm2_checkpoint: Path) -> TransformersBackend:
    b = load_backend(f"transformers:{smollm2_checkpoint}")
    assert isinstance(b, TransformersBackend)
    return b


def test_conversion_is_plain_idempotent_and_replaces_leftovers(smollm2_checkpoint: Path) -> None:
    assert is_converted(smollm2_checkpoint)
    assert not (smollm2_checkpoint / STALE_MARKER_FILE).exists()
    config = json.loads((smollm2_checkpoint / "config.json").read_text())
    assert "quantization_config" not in config  # trainers refuse quantization-tagged models
    assert config["model_type"] == "llama"
    assert (smollm2_checkpoint / "model.safetensors").is_file()
    assert (smollm2_checkpoint / "tokenizer.json").is_file()
    before = (smollm2_checkpoint / "model.safetensors").stat().st_mtime_ns
    assert ensure_checkpoint(smollm2_checkpoint) == smollm2_checkpoint  # no second conversion
    assert (smollm2_checkpoint / "model.safetensors").stat().st_mtime_ns == before
    leftovers = [p for p in smollm2_checkpoint.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []  # the temporary folder was renamed into place


def test_model_dir_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from seekgraph.common.llm.smollm2 import default_cache_dir

    monkeypatch.setenv("SEEKGRAPH_MODEL_DIR", str(tmp_path / "m"))
    assert default_cache_dir() == tmp_path / "m"
    monkeypatch.delenv("SEEKGRAPH_MODEL_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert (
        default_cache_dir() == tmp_path / "xdg" / "seekgraph" / "models" / "smollm2-135m-instruct"
    )


def test_greedy_generation_answers_and_counts_tokens(backend: TransformersBackend) -> None:
    assert isinstance(backend, LLMBackend)
    gen = backend.generate(QUESTION, max_tokens=24)
    assert "Paris" in gen.text
    assert gen.finish_reason == "stop"
    assert gen.prompt_tokens == backend.count_tokens(QUESTION)
    assert 0 < gen.completion_tokens <= 24
    assert backend.generate(QUESTION, max_tokens=24).text == gen.text  # greedy is deterministic


def test_stop_strings_cut_the_text(backend: TransformersBackend) -> None:
    gen = backend.generate(QUESTION, max_tokens=24, stop=["Paris"])
    assert "Paris" not in gen.text
    assert gen.finish_reason == "stop"
    assert gen.text.strip()  # something came before the stop string


def test_sampling_is_reproducible_with_a_seed(backend: TransformersBackend) -> None:
    a = backend.generate(QUESTION, max_tokens=12, temperature=1.0, seed=7)
    b = backend.generate(QUESTION, max_tokens=12, temperature=1.0, seed=7)
    assert a.text == b.text
    assert a.finish_reason in ("stop", "length")


def test_length_limit_reports_length(backend: TransformersBackend) -> None:
    messages = [{"role": "user", "content": "Write a long story about a dragon."}]
    gen = backend.generate(messages, max_tokens=5)
    assert gen.completion_tokens == 5
    assert gen.finish_reason == "length"


def test_perplexity_prefers_the_fluent_continuation(backend: TransformersBackend) -> None:
    fluent, garbled = perplexity(
        backend, ["The capital of France is Paris.", "Paris banana the of capital France is."]
    )
    assert fluent < garbled
    context = "Question: What is the capital of France?\nAnswer:"
    assert lowest_perplexity(backend, context, [" Tokyo zebra lamp.", " Paris."]) == 1
    # A pair scores only its continuation: the same continuation after a helpful context is
    # more likely than after an unrelated one.
    helpful, unrelated = perplexity(
        backend, [(context, " Paris."), ("My favourite colour is", " Paris.")]
    )
    assert helpful < unrelated


def test_missing_model_folder_is_a_config_error(tmp_path: Path) -> None:
    backend = load_backend(f"transformers:{tmp_path / 'nowhere'}")
    with pytest.raises(BackendConfigError, match="does not exist"):
        backend.generate(QUESTION, max_tokens=2)


def test_specs_select_backends_without_loading_anything() -> None:
    openai = load_backend("openai:http://127.0.0.1:9/v1,http://10.0.0.2:8000#qwen3-8b")
    assert isinstance(openai, OpenAIBackend)
    assert openai.base_urls == ["http://127.0.0.1:9/v1", "http://10.0.0.2:8000/v1"]
    assert openai.model == "qwen3-8b"
    vllm = load_backend("vllm:Qwen/Qwen3-8B")
    assert isinstance(vllm, VLLMBackend) and vllm.model == "Qwen/Qwen3-8B"
    default = load_backend("transformers")
    assert isinstance(default, TransformersBackend) and default.path is None
    patient = load_backend("openai:http://127.0.0.1:9/v1#m?timeout=600")
    assert isinstance(patient, OpenAIBackend) and patient.timeout == 600 and patient.model == "m"
    for bad, message in [
        ("gpt:foo", "unknown backend"),
        ("openai:http://x:1", "expected openai"),
        ("openai:#m", "expected openai"),
        ("vllm:", "expected vllm"),
        ("openai:ftp://x#m", "not an http"),
        ("openai:http://x:1#m?retries=2", "unknown option"),
        ("openai:http://x:1#m?timeout=soon", "timeout must be seconds"),
    ]:
        with pytest.raises(BackendConfigError, match=message):
            load_backend(bad)


def test_vllm_missing_is_a_clear_config_error() -> None:
    try:
        import vllm  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("vLLM installed here")
    with pytest.raises(BackendConfigError, match="gpu"):
        load_backend("vllm:some/model").generate(QUESTION)


def test_cut_at_stop_takes_the_earliest() -> None:
    assert cut_at_stop("a<tool_response>b<answer>", ["<answer>", "<tool_response>"]) == ("a", True)
    assert cut_at_stop("abc", ["x"]) == ("abc", False)
    assert cut_at_stop("abc", None) == ("abc", False)


def test_transformers_spec_options_pick_device_and_dtype(tmp_path: Path) -> None:
    backend = load_backend(f"transformers:{tmp_path}?device=cuda&dtype=bfloat16")
    assert isinstance(backend, TransformersBackend)
    assert (backend.path, backend.device, backend.dtype) == (tmp_path, "cuda", "bfloat16")
    with pytest.raises(BackendConfigError, match="unknown option"):
        load_backend(f"transformers:{tmp_path}?gpu=1")


class _Engine:
    """vLLM's `LLM` as far as the backend uses it: its tokenizer (the real SmolLM2 one here,
    since vLLM does not install on this CPU machine) and a `chat` that notices overlapping
    calls, which the real engine does not survive."""

    def __init__(self, tokenizer: object) -> None:
        self.tokenizer = tokenizer
        self.inside = 0
        self.overlaps = 0

    def get_tokenizer(self) -> object:
        return self.tokenizer

    def chat(self, conversations: list[object], params: object, use_tqdm: bool) -> list[object]:
        import time
        from types import SimpleNamespace

        self.inside += 1
        self.overlaps += self.inside > 1
        time.sleep(0.05)
        self.inside -= 1
        completion = SimpleNamespace(text="ok", token_ids=[1, 2], finish_reason="stop")
        return [SimpleNamespace(outputs=[completion], prompt_token_ids=[1, 2, 3])]


def test_vllm_counts_real_tokens_and_generates_one_at_a_time(
    backend: TransformersBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`count_tokens` returns the template's token count (the installed transformers returns a
    dict from `apply_chat_template(tokenize=True)`, whose len() was 2); concurrent rollouts
    never enter the engine together."""
    import sys
    import threading
    from types import SimpleNamespace

    monkeypatch.setitem(sys.modules, "vllm", SimpleNamespace(SamplingParams=lambda **kw: kw))
    engine = _Engine(backend.tokenizer)
    vllm = VLLMBackend("smollm2")
    vllm._llm = engine
    messages = [{"role": "system", "content": "Be brief."}, *QUESTION]
    assert vllm.count_tokens(messages) == backend.count_tokens(messages) > 10
    threads = [threading.Thread(target=vllm.generate, args=(QUESTION,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert engine.overlaps == 0


def test_a_batch_generates_what_single_calls_generate(backend: TransformersBackend) -> None:
    """Left-padded batches (unequal prompt lengths, one sequence stopping early at a stop
    string) give the single calls' greedy messages and token counts."""
    conversations = [
        QUESTION,
        [{"role": "user", "content": "Name three colours, one per line."}],
        [{"role": "user", "content": "Count from one to ten in words, then say done."}],
    ]
    stop = ["four"]
    single = [backend.generate(c, max_tokens=24, stop=stop) for c in conversations]
    batch = backend.generate_batch(conversations, max_tokens=24, stop=stop)
    assert [g.text for g in batch] == [g.text for g in single]
    assert [g.completion_tokens for g in batch] == [g.completion_tokens for g in single]
    assert [g.finish_reason for g in batch] == [g.finish_reason for g in single]
