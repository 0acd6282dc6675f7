"""seekgraph: training data for LLM information-seeking agents, kept in one Neo4j graph.

Everything installs under this one name. The subpackages are floors, bottom to top; each imports
only from those below it (an import-linter contract in the test command keeps it so):
`graphdb` < `common` < `synth` < `agent` < `training` < `viz` < `cli`. `cypher` holds the
queries as package data. This module imports nothing, so importing any floor stays cheap.
"""
