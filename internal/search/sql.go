package search

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"unicode"
)

// sqlDialect is what differs between the databases: the tables, how a section row is written
// (PostgreSQL computes its tsvector on insert), and how matching sections are found and scored.
// Statements are written with ? placeholders; rebind turns them into the database's.
type sqlDialect interface {
	// insertColumns names the columns a section insert writes, valuesRow is one row's VALUES
	// tuple and rowArgs its arguments.
	insertColumns() string
	valuesRow() string
	rowArgs(id, spaceKey int64, s Section) []any
	// matches selects the id (and, when scored, the score: higher is better) of the matching
	// sections of a tier. Its argument is match(terms, tier); conditions on idColumn may follow
	// it (AND …).
	matches(scored bool, in tier) string
	idColumn() string
	// pageHits selects the id of the matching sections of some pages; its arguments are
	// list(page keys), match(terms, anyTier), then the first and last id of those pages.
	pageHits() string
	match(t Terms, in tier) string
	// in is a condition "expression is one of a list", whose one argument is list(values).
	in(expr string) string
	// inQuery is a condition "expression is one of the rows of a query", which the database reads
	// once before it looks the expression up among them.
	inQuery(expr, query string) string
	list(values any) any
	rebind(query string) string
}

// sqlIndex is the Index of one database: the same statements and the same ranking in Go on both,
// around the dialect's matching and scoring.
type sqlIndex struct{ d sqlDialect }

// Batch sizes of writes, under both databases' parameter limits.
const (
	insertBatch = 400
	pageBatch   = 1000
)

func (x *sqlIndex) Replace(ctx context.Context, db DB, spaceID string, pageIDs []string, sections []Section) error {
	if len(pageIDs) == 0 && len(sections) == 0 {
		return nil
	}
	space, err := x.spaceKey(ctx, db, spaceID)
	if err != nil {
		return err
	}
	del := x.d.rebind("DELETE FROM search_sections WHERE space_key = ? AND " + x.d.in("page_id"))
	if _, err := db.ExecContext(ctx, del, space, x.d.list(pageIDs)); err != nil {
		return err
	}
	numbers, err := x.pageNumbers(ctx, db, space, pagesOf(sections))
	if err != nil {
		return err
	}
	sections = foldOrdinals(sections)
	for len(sections) > 0 {
		n := min(len(sections), insertBatch)
		if err := x.insert(ctx, db, space, numbers, sections[:n]); err != nil {
			return err
		}
		sections = sections[n:]
	}
	return nil
}

// pagesOf lists the pages of sections, each once.
func pagesOf(sections []Section) []string {
	var pages []string
	seen := map[string]bool{}
	for _, s := range sections {
		if !seen[s.PageID] {
			seen[s.PageID] = true
			pages = append(pages, s.PageID)
		}
	}
	return pages
}

// foldOrdinals keeps every section within MaxPageSections of its page: the text of the sections
// past the last place joins the last one's, each joined text trimmed of the spaces around it. The
// text grows in one buffer per page: a page of many thousands of sections would otherwise copy it
// as many times.
func foldOrdinals(sections []Section) []Section {
	out := make([]Section, 0, len(sections))
	last := map[string]int{}   // page → index in out of its section at the last place
	folded := map[int][]byte{} // index in out → its body, once a section past it joined it
	for _, s := range sections {
		if s.Ordinal < MaxPageSections-1 {
			out = append(out, s)
			continue
		}
		i, ok := last[s.PageID]
		if !ok {
			s.Ordinal = MaxPageSections - 1
			last[s.PageID] = len(out)
			out = append(out, s)
			continue
		}
		body, ok := folded[i]
		if !ok {
			body = []byte(out[i].Body)
		}
		body = append(append(append(append(body, '\n'), s.Heading...), '\n'), s.Body...)
		folded[i] = bytes.TrimRightFunc(body, unicode.IsSpace)
	}
	for i, body := range folded {
		out[i].Body = strings.TrimLeftFunc(string(body), unicode.IsSpace)
	}
	return out
}

func (x *sqlIndex) insert(ctx context.Context, db DB, space int64, numbers map[string]int64, sections []Section) error {
	rows := make([]string, len(sections))
	var args []any
	for i, s := range sections {
		rows[i] = x.d.valuesRow()
		s.Body = cutBody(s.Body)
		args = append(args, x.d.rowArgs(sectionID(space, numbers[s.PageID], s.Ordinal), space, s)...)
	}
	stmt := "INSERT INTO search_sections (" + x.d.insertColumns() + ") VALUES " + strings.Join(rows, ", ")
	_, err := db.ExecContext(ctx, x.d.rebind(stmt), args...)
	return err
}

// cutBody cuts a section's text to MaxBodyLength characters.
func cutBody(body string) string {
	if len(body) <= MaxBodyLength { // bytes ≥ characters
		return body
	}
	return cutAtSpace(body, MaxBodyLength)
}

// query runs a query and calls scan for each row.
func query(ctx context.Context, db DB, stmt string, args []any, scan func(scan func(...any) error) error) error {
	rows, err := db.QueryContext(ctx, stmt, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows.Scan); err != nil {
			return err
		}
	}
	return errors.Join(rows.Err(), rows.Close())
}
