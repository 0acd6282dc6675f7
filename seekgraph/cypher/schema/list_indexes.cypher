SHOW INDEXES YIELD name, type, labelsOrTypes, properties, owningConstraint, state
WHERE owningConstraint IS NULL AND type <> 'LOOKUP'
RETURN name, type, labelsOrTypes, properties, state
ORDER BY name
