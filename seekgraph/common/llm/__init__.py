"""One small LLM interface (`LLMBackend.generate`) with vLLM, OpenAI-compatible and transformers backends."""

from seekgraph.common.llm.base import Generation, LLMBackend, Message
from seekgraph.common.llm.registry import load_backend

__all__ = ["Generation", "LLMBackend", "Message", "load_backend"]
