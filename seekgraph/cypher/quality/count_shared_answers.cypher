// Answer entities of kept held-out tasks that are also answers of kept train tasks: what a
// split by tables still shares (an entity can sit in a held-out and a train table).
MATCH (:Task {status: 'kept', split: 'heldout'})-[:TARGET {role: 'answer'}]->(e)
WITH collect(DISTINCT e) AS held
UNWIND held AS e
OPTIONAL MATCH (t:Task {status: 'kept', split: 'train'})-[:TARGET {role: 'answer'}]->(e)
WITH held, e, count(t) AS n_train
RETURN size(held) AS heldout_answers, count(CASE WHEN n_train > 0 THEN 1 END) AS shared
