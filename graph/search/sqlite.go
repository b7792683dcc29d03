package search

import (
	"encoding/json"
	"fmt"
	"strings"
)

// sqlite keeps sections in a table and indexes them with an FTS5 table over it (external content:
// the text is stored once), which triggers keep in step. unicode61 cuts words at anything not a
// letter or digit, lower-cases them and drops Latin diacritics; there is no stemming, so both
// databases find the same words. Ranking is BM25 with the title weighing 10, a heading 4 and the
// text 1. A prefix index of 3 characters keeps the first letters typed fast: without it, FTS5
// merges the posting lists of every word a prefix begins, anew in each statement (a 3-letter
// prefix of a word in most sections: 9 ms to count, 3 with it), at the cost of a larger index
// (100,000 sections: 35 → 55 MB).
type sqlite struct{}

func (sqlite) schema() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS search_spaces (
	key INTEGER PRIMARY KEY,
	space_id TEXT NOT NULL UNIQUE REFERENCES spaces (id) ON DELETE CASCADE,
	next_page INTEGER NOT NULL DEFAULT 0)`,
		`CREATE TABLE IF NOT EXISTS search_pages (
	space_key INTEGER NOT NULL REFERENCES search_spaces (key) ON DELETE CASCADE,
	page_id TEXT NOT NULL,
	number INTEGER NOT NULL,
	PRIMARY KEY (space_key, page_id))`,
		`CREATE TABLE IF NOT EXISTS search_sections (
	id INTEGER PRIMARY KEY,
	space_key INTEGER NOT NULL REFERENCES search_spaces (key) ON DELETE CASCADE,
	page_id TEXT NOT NULL,
	anchor TEXT NOT NULL,
	title TEXT NOT NULL,
	heading TEXT NOT NULL,
	body TEXT NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS search_sections_page ON search_sections (space_key, page_id)`,
		`CREATE VIRTUAL TABLE IF NOT EXISTS search_words USING fts5 (title, heading, body,
	content = 'search_sections', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', prefix = '3')`,
		// An index made before search_words (search_fts, without the prefix index) is rebuilt
		// into it once, then dropped with its triggers.
		`INSERT INTO search_words (search_words) SELECT 'rebuild' WHERE EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'search_fts')`,
		`DROP TRIGGER IF EXISTS search_sections_insert`,
		`DROP TRIGGER IF EXISTS search_sections_delete`,
		`DROP TABLE IF EXISTS search_fts`,
		`CREATE TRIGGER IF NOT EXISTS search_words_insert AFTER INSERT ON search_sections BEGIN
	INSERT INTO search_words (rowid, title, heading, body) VALUES (new.id, new.title, new.heading, new.body);
END`,
		`CREATE TRIGGER IF NOT EXISTS search_words_delete AFTER DELETE ON search_sections BEGIN
	INSERT INTO search_words (search_words, rowid, title, heading, body) VALUES ('delete', old.id, old.title, old.heading, old.body);
END`,
	}
}

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
