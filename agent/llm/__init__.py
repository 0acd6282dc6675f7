"""One small LLM interface (`LLMBackend.generate`) with vLLM, OpenAI-compatible and transformers backends."""

from agent.llm.base import Generation, LLMBackend, Message
from agent.llm.registry import load_backend

__all__ = ["Generation", "LLMBackend", "Message", "load_backend"]
