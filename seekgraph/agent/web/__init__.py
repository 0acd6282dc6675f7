"""The offline web served from the graph: page indexes and the Search/Visit tools."""
