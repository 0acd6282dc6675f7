"""One small LLM interface (`LLMBackend.generate`) with vLLM, OpenAI-compatible and transformers backends."""
