MERGE (v:SchemaVersion {name: 'seekgraph'})
SET v.version = $version, v.applied_at = datetime()
RETURN v.version AS version
