"""Pictures of the graph: interactive HTML and SVG views, the HTML report, Neo4j Browser queries."""
