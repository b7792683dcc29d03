package search

import (
	"strconv"
	"strings"
)

// postgres keeps sections in a table with a weighted tsvector (title A, heading B, text C) under
// a GIN index. The tsvector is made from Bindery's own words (Tokens: folded as SQLite folds
// them) with the simple configuration, so both databases cut, fold and match words alike.
// Ranking is ts_rank_cd with weights title 1.0, heading 0.4, text 0.1, divided by 1 + the log of
// the section's length.
type postgres struct{}

func (postgres) schema() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS search_sections (
	id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	space_id VARCHAR(64) NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
	page_id VARCHAR(64) NOT NULL,
	ordinal INTEGER NOT NULL,
	anchor TEXT NOT NULL,
	title TEXT NOT NULL,
	heading TEXT NOT NULL,
	body TEXT NOT NULL,
	words TSVECTOR NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS search_sections_page ON search_sections (space_id, page_id)`,
		`CREATE INDEX IF NOT EXISTS search_sections_words ON search_sections USING GIN (words)`,
	}
}

func (postgres) insertColumns() string {
	return "space_id, page_id, ordinal, anchor, title, heading, body, words"
}

func (postgres) valuesRow() string {
	return `(?, ?, ?, ?, ?, ?, ?, setweight(to_tsvector('simple', ?), 'A') ||
	setweight(to_tsvector('simple', ?), 'B') || setweight(to_tsvector('simple', ?), 'C'))`
}

func (postgres) rowArgs(spaceID string, s Section) []any {
	return []any{spaceID, s.PageID, s.Ordinal, s.Anchor, s.Title, s.Heading, s.Body,
		words(s.Title), words(s.Heading), words(s.Body)}
}

// words is text as the words search finds, one space between them.
func words(text string) string { return strings.Join(Tokens(text), " ") }

func (postgres) hits() string {
	return `SELECT s.space_id, s.page_id, s.id AS section_id,
	ts_rank_cd('{0.1, 0.1, 0.4, 1.0}', s.words, q.query, 1)::float8 AS score
	FROM search_sections s, to_tsquery('simple', ?) AS q (query)
	WHERE s.words @@ q.query AND s.space_id = ANY (?)`
}

func (postgres) match(t Terms) string { return t.TSQuery() }

func (postgres) in(column string) string { return column + " = ANY (?)" }

// list passes a list as one text[] argument: no parameter limit.
func (postgres) list(values []string) any { return values }

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
