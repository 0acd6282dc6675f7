// The relations every tree of $extent has (the closure of a tree set; the root of the enumeration).
UNWIND $extent AS tid
MATCH (:Tree {tree_id: tid})-[:HAS_RELATION]->(s:Relation)
WITH s.name AS name, count(DISTINCT tid) AS hits
WHERE hits = size($extent)
RETURN collect(name) AS intent
