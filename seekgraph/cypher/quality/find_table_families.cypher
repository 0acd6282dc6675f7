// The tables each WebLeaper task reads together (a Union family, its Reverse-Union tasks), whatever
// the task's status: the units of the held-out split (`seekgraph.synth.split.source_units`) must
// not change when the gate rejects a task, or a second run would move tables across the split.
MATCH (t:Task {kind: 'leaper'})-[:BUILT_FROM|HAS_MEMBER*1..4]->(:Tree)-[:FROM_TABLE]->(tab:Table)
WITH t, collect(DISTINCT tab.table_id) AS tables
WHERE size(tables) > 1
RETURN t.kind AS kind, tables
ORDER BY t.task_id
