"""seekgraph's Cypher queries, one per `.cypher` file, shipped as package data.

Loaded by name through `seekgraph.graphdb.cypher.query("area/name")` (via `importlib.resources`, so an
installed package finds them from any directory). This package has no Python code.
"""
