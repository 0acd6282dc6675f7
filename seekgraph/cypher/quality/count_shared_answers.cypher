// Answer entities of kept held-out tasks that are also answers of kept train tasks: what a
// split by tables still shares (an entity can sit in a held-out and a train table). Always one
// row (0 of 0 when no held-out task has an answer entity).
OPTIONAL MATCH (:Task {status: 'kept', split: 'heldout'})-[:TARGET {role: 'answer'}]->(e)
WITH collect(DISTINCT e) AS held
RETURN size(held) AS heldout_answers,
       size([e IN held WHERE EXISTS {
         MATCH (:Task {status: 'kept', split: 'train'})-[:TARGET {role: 'answer'}]->(e)
       }]) AS shared
