// How many rows of one table's column hold a value, how many different values they hold, and
// how many rows hold the most common one. A column whose rows mostly share their values (a
// position, a kit maker, a degree) names kinds of things: a chain through one of its values
// joins rows by coincidence ("a position that is the position of the linebacker drafted 17th").
// A column one value fills (a talk show's co-hosts "Regis Philbin" in every row) says nothing of
// a row as a clue. Values count by the cells' own text: Wikipedia links a value at its first
// mention only, so "Halfback" linked and "Halfback" unlinked are one.
// One row per asked column (`$columns`: {table_id, relation} maps), read in one query.
UNWIND $columns AS c
OPTIONAL MATCH ()-[f:FACT {table_id: c.table_id}]->(o)
WHERE f.relation = c.relation
WITH c, toLower(coalesce(f.text, o.name, o.value_id, o.entity_id)) AS value, count(f) AS rows
RETURN c.table_id AS table_id, c.relation AS relation, sum(rows) AS facts,
       count(value) AS values, max(rows) AS top
