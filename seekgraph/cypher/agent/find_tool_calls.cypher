UNWIND $hashes AS h
MATCH (c:ToolCall {request_hash: h})
RETURN c.request_hash AS request_hash, c.response AS response, coalesce(c.pages, []) AS pages
