package search

import (
	"fmt"
	"strconv"
	"strings"
)

// postgres keeps sections in a table with a weighted tsvector (title A, heading B, text C) under
// a GIN index (internal/store creates them). The tsvector is made from Bindery's own words (Tokens: folded as SQLite folds
// them) with the simple configuration, so both databases cut, fold and match words alike.
// Ranking is ts_rank_cd with weights title 1.0, heading 0.4, text 0.1, divided by 1 + the log of
// the section's length.
type postgres struct{}

func (postgres) insertColumns() string {
	return "id, space_key, page_id, anchor, title, heading, body, words"
}

func (postgres) valuesRow() string {
	return `(?, ?, ?, ?, ?, ?, ?, setweight(to_tsvector('simple', ?), 'A') ||
	setweight(to_tsvector('simple', ?), 'B') || setweight(to_tsvector('simple', ?), 'C'))`
}

func (postgres) rowArgs(id, spaceKey int64, s Section) []any {
	return []any{id, spaceKey, s.PageID, s.Anchor, s.Title, s.Heading, s.Body,
		words(s.Title), words(s.Heading), words(s.Body)}
}

// words is text as the words search finds, one space between them.
func words(text string) string { return strings.Join(Tokens(text), " ") }

// rank is the score of a section: cover density with the weights {D, C, B, A}, divided by
// 1 + the log of the section's length.
const rank = "ts_rank_cd('{0.1, 0.1, 0.4, 1.0}', s.words, q.query, 1)::float8"

// heads is the title and heading words of a section's words (weights A and B), which the heading
// tier matches under an index of its own: search_sections_heads, on this very expression
// (internal/store/search.go).
func heads(words string) string { return "ts_filter(" + words + ", '{a,b}')" }

func (postgres) matches(scored bool, in tier) string {
	score := ""
	if scored {
		score = ", " + rank + " AS score"
	}
	match := "s.words @@ q.query"
	switch in {
	case headingTier: // heads are words: their index alone finds the tier
		match = heads("s.words") + " @@ q.query"
	case textTier:
		match += " AND NOT " + heads("s.words") + " @@ q.query"
	}
	return "SELECT s.id" + score + ` FROM search_sections s, to_tsquery('simple', ?) AS q (query)
	WHERE ` + match
}

func (postgres) idColumn() string { return "s.id" }

// pageHits reads the sections of each page by its range of ids (an index scan of the primary
// key per page: LATERAL with LIMIT makes it one, where the planner, not knowing the ranges, would
// scan the table), then keeps those that match. The rows are read first (a materialized CTE):
// planned together, the GIN index would be searched again for every page.
func (postgres) pageHits() string {
	return fmt.Sprintf(`WITH rows AS MATERIALIZED (SELECT s.id, s.words FROM unnest(?::bigint[]) AS p (key),
	LATERAL (SELECT id, words FROM search_sections WHERE id BETWEEN p.key << %d AND (p.key << %[1]d) + %d LIMIT %d) s)
	SELECT s.id FROM rows s, to_tsquery('simple', ?) AS q (query) WHERE s.words @@ q.query AND s.id BETWEEN ? AND ?`,
		ordinalBits, MaxPageSections-1, MaxPageSections)
}

func (postgres) match(t Terms, _ tier) string { return t.TSQuery() } // the tier is in the statement

func (postgres) in(expr string) string { return expr + " = ANY (?)" }

// inQuery reads the query into an array first (an init plan, run once), so that the expression
// is looked up by its index: as a semi-join, the planner may instead walk the outer table and run
// the query for each of its rows when it misjudges their number (statistics not yet gathered).
func (postgres) inQuery(expr, query string) string { return expr + " = ANY (ARRAY(" + query + "))" }

// list passes a list as one array argument: no parameter limit.
func (postgres) list(values any) any { return values }

// rebind numbers the ? placeholders ($1, $2…); the statements hold no other question mark.
func (postgres) rebind(query string) string {
	var b strings.Builder
	n := 0
	for _, r := range strings.TrimSpace(query) {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
