// Entities anchored or cited in two or more tables: the bridges Union tasks are built on.
MATCH (e:Entity)<-[:HAS_CELL]-(r:Row)
WITH e, count(DISTINCT r.table_id) AS tables
WHERE tables >= 2
RETURN count(e) AS entities
