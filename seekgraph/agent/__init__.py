"""The agent side: the offline web in Neo4j, Search/Visit tools, LLM backends, ReAct rollouts, metrics."""
