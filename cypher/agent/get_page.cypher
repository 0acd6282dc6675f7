CALL () {
  MATCH (p:Page {page_id: $url}) RETURN p
  UNION
  MATCH (p:Page {url: $url}) RETURN p
}
RETURN p.page_id AS page_id, p.page_id AS url,
       coalesce(p.title, p.page_id) AS title, coalesce(p.text, '') AS text
LIMIT 1
