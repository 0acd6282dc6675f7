"""WebClipper pruning: trajectory state graphs, the minimum necessary DAG, vote, rewriting.

Plain-data modules (`model`, `wire`, `extract_rules`, `mindag`, `exact`, `vote`) hold the logic;
`store` reads and writes the graph through `seekgraph/cypher/clipper/*.cypher`; `prune` is the stage.
"""
