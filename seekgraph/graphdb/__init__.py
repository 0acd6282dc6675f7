"""Neo4j side of seekgraph: the managed server, connection settings, schema, Cypher files and writers."""
