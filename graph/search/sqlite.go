package search

import (
	"encoding/json"
	"strings"
)

// sqlite keeps sections in a table and indexes them with an FTS5 table over it (external content:
// the text is stored once), which triggers keep in step. unicode61 cuts words at anything not a
// letter or digit, lower-cases them and drops Latin diacritics; there is no stemming, so both
// databases find the same words. Ranking is BM25 with the title weighing 10, a heading 4 and the
// text 1.
type sqlite struct{}

func (sqlite) schema() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS search_sections (
	id INTEGER PRIMARY KEY,
	space_id TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
	page_id TEXT NOT NULL,
	ordinal INTEGER NOT NULL,
	anchor TEXT NOT NULL,
	title TEXT NOT NULL,
	heading TEXT NOT NULL,
	body TEXT NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS search_sections_page ON search_sections (space_id, page_id)`,
		`CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5 (title, heading, body,
	content = 'search_sections', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2')`,
		`CREATE TRIGGER IF NOT EXISTS search_sections_insert AFTER INSERT ON search_sections BEGIN
	INSERT INTO search_fts (rowid, title, heading, body) VALUES (new.id, new.title, new.heading, new.body);
END`,
		`CREATE TRIGGER IF NOT EXISTS search_sections_delete AFTER DELETE ON search_sections BEGIN
	INSERT INTO search_fts (search_fts, rowid, title, heading, body) VALUES ('delete', old.id, old.title, old.heading, old.body);
END`,
	}
}

func (sqlite) insertColumns() string {
	return "space_id, page_id, ordinal, anchor, title, heading, body"
}
func (sqlite) valuesRow() string { return "(?, ?, ?, ?, ?, ?, ?)" }

func (sqlite) rowArgs(spaceID string, s Section) []any {
	return []any{spaceID, s.PageID, s.Ordinal, s.Anchor, s.Title, s.Heading, s.Body}
}

func (sqlite) hits() string {
	return `SELECT s.space_id, s.page_id, s.id AS section_id, -bm25(search_fts, 10.0, 4.0, 1.0) AS score
	FROM search_fts JOIN search_sections s ON s.id = search_fts.rowid
	WHERE search_fts MATCH ? AND s.space_id IN (SELECT value FROM json_each(?))`
}

func (sqlite) match(t Terms) string { return t.FTS5() }

func (sqlite) in(column string) string { return column + " IN (SELECT value FROM json_each(?))" }

// list passes a list as one JSON array argument, which json_each reads: no parameter limit.
func (sqlite) list(values []string) any {
	b, _ := json.Marshal(values) // strings always encode
	return string(b)
}

func (sqlite) rebind(query string) string { return strings.TrimSpace(query) }
