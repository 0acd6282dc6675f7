"""What several stages share, on the floor between `graphdb` and `synth`.

- `seekgraph.common.config`: the one config loader (typed sections, checked keys, flag > file > env);
- `seekgraph.common.llm`: the LLM interface and its backends (transformers, OpenAI-compatible, vLLM);
- `seekgraph.common.wire`: the Tongyi wire format, the one shape of a trajectory;
- `seekgraph.common.embeddings`: the packaged all-MiniLM-L6-v2 sentence embedder.
"""
