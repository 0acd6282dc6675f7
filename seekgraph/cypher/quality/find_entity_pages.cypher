// The opening of each entity's own page (what it is, in its first sentence); null without one.
UNWIND $entity_ids AS eid
OPTIONAL MATCH (p:Page)-[:ABOUT]->(:Entity {entity_id: eid})
WITH eid, head(collect(left(p.text, 600))) AS text
RETURN eid AS entity_id, text
