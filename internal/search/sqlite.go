package search

import (
	"encoding/json"
	"fmt"
	"strings"
)

// sqlite reads sections from a table and matches them in an FTS5 table over it (external content:
// the text is stored once), which triggers keep in step; internal/store creates them
// (search.go there says how words are cut and why prefixes are indexed). Ranking is BM25 with the
// title weighing 10, a heading 4 and the text 1.
type sqlite struct{}

func (sqlite) insertColumns() string {
	return "id, space_key, page_id, anchor, title, heading, body"
}

func (sqlite) valuesRow() string { return "(?, ?, ?, ?, ?, ?, ?)" }

func (sqlite) rowArgs(id, spaceKey int64, s Section) []any {
	return []any{id, spaceKey, s.PageID, s.Anchor, s.Title, s.Heading, s.Body}
}

// bm25 is the score of a section: BM25 (negated: FTS5's is lower for better) with the title
// weighing 10, a heading 4 and the text 1.
const bm25 = "-bm25(search_words, 10.0, 4.0, 1.0)"

func (sqlite) matches(scored bool, _ tier) string { // the tier is in the match expression
	score := ""
	if scored {
		score = ", " + bm25 + " AS score"
	}
	return "SELECT rowid AS id" + score + " FROM search_words WHERE search_words MATCH ?"
}

func (sqlite) idColumn() string { return "rowid" }

// pageHits filters the matches between the pages' first and last ids by page, reading the posting
// lists once (seeking each page's range of ids instead would be faster for a word, but a prefix,
// which the last word of a query usually is, would have its posting lists merged anew for every
// page).
func (sqlite) pageHits() string {
	return fmt.Sprintf(`SELECT rowid AS id FROM search_words
	WHERE (rowid >> %d) IN (SELECT value FROM json_each(?)) AND search_words MATCH ? AND rowid BETWEEN ? AND ?`, ordinalBits)
}

// match is the FTS5 query of a tier: a column filter finds the sections whose title or heading
// holds every word, and scores them by those fields alone (reading the words' posting lists once,
// where a query of the words and the filter would read them twice: a prefix's twice merged).
func (sqlite) match(t Terms, in tier) string {
	words := t.FTS5()
	switch in {
	case headingTier:
		return "{title heading} : (" + words + ")"
	case textTier:
		return "(" + words + ") NOT {title heading} : (" + words + ")"
	}
	return words
}

func (sqlite) in(expr string) string { return expr + " IN (SELECT value FROM json_each(?))" }

// inQuery: SQLite reads an uncorrelated IN subquery once, into a table it looks rows up in.
func (sqlite) inQuery(expr, query string) string { return expr + " IN (" + query + ")" }

// list passes a list as one JSON array argument, which json_each reads: no parameter limit.
func (sqlite) list(values any) any {
	b, _ := json.Marshal(values) // strings and numbers always encode
	return string(b)
}

func (sqlite) rebind(query string) string { return strings.TrimSpace(query) }
