// Vector indexes built with quantization (the default before schema version 2): dropped and
// rebuilt unquantized by apply_schema, since their scores differ between builds.
SHOW VECTOR INDEXES YIELD name, options
WHERE coalesce(options.indexConfig.`vector.quantization.enabled`, true) = true
RETURN name
