// Nodes other than the schema's version marker: zero for a graph a bulk load may replace.
MATCH (n)
WHERE NOT n:SchemaVersion
RETURN count(n) AS n
