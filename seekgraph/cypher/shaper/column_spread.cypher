// How many rows of one table's column hold a value, and how many different values they hold.
// A column whose rows mostly share their values (a position, a kit maker, a degree) names kinds
// of things: a chain through one of its values joins rows by coincidence ("a position that is
// the position of the linebacker drafted 17th"). Values count by the cells' own text: Wikipedia
// links a value at its first mention only, so "Halfback" linked and "Halfback" unlinked are one.
MATCH ()-[f:FACT {table_id: $table_id}]->(o)
WHERE f.relation = $relation
RETURN count(f) AS facts,
       count(DISTINCT toLower(coalesce(f.text, o.name, o.value_id, o.entity_id))) AS values
