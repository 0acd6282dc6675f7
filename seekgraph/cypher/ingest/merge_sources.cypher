// Sources (a data folder under a stable name) and the folder each was last read from.
UNWIND $rows AS row
MERGE (s:Source {name: row.name})
ON CREATE SET s.created_at = datetime()
SET s.location = row.location, s.read_at = datetime()
