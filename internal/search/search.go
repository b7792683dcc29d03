// Package search is the full-text index of the spaces' main content: SQLite FTS5 on the embedded
// database, PostgreSQL full-text search (a weighted tsvector with a GIN index) on PostgreSQL,
// behind one interface. Its documents are the sections of pages (markdown.Sections: the text under
// one heading), each with its page's title; its tables are plain SQL beside ent's, which
// internal/store creates with them (CreateSearchTables).
//
// Service searches as a viewer may: among the live spaces the viewer reads (the Space policy
// decides), with results made from the spaces' current trees (results.go); graph and rest page
// them. Keeping a space's sections in step with its content is internal/content/revisions'.
package search

import (
	"context"
	"database/sql"
	"sync"

	entsql "entgo.io/ent/dialect/sql"
)

// DB runs statements: an *ent.Client or *ent.Tx (ent's sql/execquery feature), an *sql.DB or an
// *sql.Conn.
type DB interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Section is one document of the index: a section of a page of a space's main content.
type Section struct {
	PageID  string
	Ordinal int    // the section's place in its page, 0 first
	Anchor  string // the heading's anchor; "" for the text before the first heading
	Title   string // the page's title (every section carries it, so a title word finds each)
	Heading string
	Body    string // plain text, at most MaxBodyLength characters (Replace cuts longer ones)
}

// MaxBodyLength bounds the text of one section, in characters: PostgreSQL refuses a tsvector
// over 1 MB, and a section that long is not read anyway.
const MaxBodyLength = 100_000

// Query asks for one page of ranked results among some spaces.
type Query struct {
	Terms  Terms
	Spaces []string // the spaces to search (those the viewer may read)
	Offset int      // how many results earlier pages held
	Limit  int      // how many results to return at most
	// Without holds pages of the searched spaces that are neither results nor counted (those a
	// published site's reader does not see), however many: they are skipped while ranking.
	Without *PageSet
}

// PageSet is a set of pages, by id, for Query.Without. Their keys in the index are read the first
// time a search uses the set and kept in it (a page's key never changes), so a set made once and
// kept by the caller (a published site keeps one per revision and hidden pages) costs one
// statement the first time and a map lookup per ranked page after.
type PageSet struct {
	ids   []string
	mu    sync.Mutex
	scope string         // the spaces the keys were read for
	keys  map[int64]bool // nil until read
}

// NewPageSet returns the set of the pages ids; nil, which leaves nothing out, when there are none.
func NewPageSet(ids []string) *PageSet {
	if len(ids) == 0 {
		return nil
	}
	return &PageSet{ids: ids}
}

// Page is a page that matched, with its rank among all matching pages (1 first) and its best
// matching sections (at most SectionsPerPage), best first.
type Page struct {
	SpaceID  string
	PageID   string
	Score    float64 // higher is better; not comparable between databases
	Rank     int
	Sections []SectionHit
}

// SectionHit is a section that matched, with an excerpt of its text around the first match.
type SectionHit struct {
	Anchor  string
	Heading string
	Excerpt string
	Score   float64
}

// Space is a space that matched: its score is its best page's, its pages the best ones (at most
// PagesPerSpace), best first, each with its rank among the pages of every space searched.
type Space struct {
	SpaceID string
	Score   float64
	Pages   []Page
}

// Result sizes: sections shown per page and pages shown per space in organization results.
const (
	SectionsPerPage = 5
	PagesPerSpace   = 10
)

// Index is the full-text index of the spaces' main content. Sections whose page title or heading
// holds every word rank first, then the others; within each, by relevance: BM25 on SQLite and
// cover density (ts_rank_cd) on PostgreSQL, where a word of a page's title weighs more than one
// of a heading, which weighs more than one of the text (rank.go tells how far scoring goes).
type Index interface {
	// Replace removes every section of the pages pageIDs of a space, then adds sections (pages
	// among pageIDs). Pass the database transaction that changes the space's content.
	Replace(ctx context.Context, db DB, spaceID string, pageIDs []string, sections []Section) error
	// Pages ranks the pages that match q and returns those after q.Offset, at most q.Limit, and
	// how many pages match in all. It runs two statements at once: db must be a pool.
	Pages(ctx context.Context, db DB, q Query) ([]Page, int, error)
	// Spaces ranks the spaces by their best matching page and returns those after q.Offset, at
	// most q.Limit, with their best pages, and how many spaces match in all. db must be a pool.
	Spaces(ctx context.Context, db DB, q Query) ([]Space, int, error)
	// Holding is a condition on a query of spaces (an ent predicate.Space): the spaces of the
	// organization orgID whose indexed content holds a match of t.
	Holding(orgID string, t Terms) func(*entsql.Selector)
}

// New returns the index of a PostgreSQL database, or else of the embedded SQLite one.
func New(isPostgres bool) Index {
	if isPostgres {
		return &sqlIndex{d: postgres{}}
	}
	return &sqlIndex{d: sqlite{}}
}
