UNWIND $entity_ids AS entity_id
MATCH (p:Page)-[:ABOUT]->(:Entity {entity_id: entity_id})
RETURN entity_id, p.page_id AS url
