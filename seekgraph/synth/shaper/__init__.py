"""WebShaper: Knowledge-Projection tasks kept in the graph, executed by Cypher, expanded layer-wise.

Modules: `kp` (the formalism), `published` (the `{id, question, answer, formalization, urls}`
format), `compile` (KP task → one Cypher query), `evaluate` (plain Python set evaluator, the
oracle), `store` (task graphs in Neo4j), `seeds`, `expand`, `validate`, `questions`, `cli`.
"""
