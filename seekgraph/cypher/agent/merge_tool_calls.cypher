UNWIND $rows AS row
MERGE (c:ToolCall {request_hash: row.request_hash})
ON CREATE SET c.tool = row.tool, c.arguments_json = row.arguments_json,
              c.response = row.response, c.pages = row.pages, c.created_at = datetime()
