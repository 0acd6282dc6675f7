// The page a visit URL names: the page with that id, else one whose URL it is (the first by
// id, so a URL several pages share always gives the same one).
CALL () {
  MATCH (p:Page {page_id: $url}) RETURN p, 0 AS rank
  UNION
  MATCH (p:Page {url: $url}) WHERE p.page_id <> $url RETURN p, 1 AS rank
}
RETURN p.page_id AS page_id, p.page_id AS url,
       coalesce(p.title, p.page_id) AS title, coalesce(p.text, '') AS text
ORDER BY rank, page_id
LIMIT 1
