// The sources among $names that the graph already knows, with the folder each was read from
// (a second folder under a name that is taken is refused: seekgraph.synth.ingest.sources).
UNWIND $names AS name
MATCH (s:Source {name: name})
RETURN s.name AS name, s.location AS location
