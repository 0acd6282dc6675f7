"""WebLeaper synthesis in the graph: reasoning trees, Basic / Union / Reverse-Union tasks.

Every task's answer set is recomputed from the source rows by a Cypher query (`proofs`) before
it is kept.
"""
