package search

import (
	"context"
	"database/sql"
	"errors"
	"strings"
)

// sqlDialect is what differs between the databases: the tables, how a section row is written
// (PostgreSQL computes its tsvector on insert), and how matching sections are found and scored.
// Statements are written with ? placeholders; rebind turns them into the database's.
type sqlDialect interface {
	schema() []string
	// insertColumns names the columns an insert writes, valuesRow is one row's VALUES tuple and
	// rowArgs its arguments.
	insertColumns() string
	valuesRow() string
	rowArgs(spaceID string, s Section) []any
	// hits selects the sections of some spaces that match: space_id, page_id, section_id and a
	// score (higher is better). Its arguments are match(terms), then list(spaces).
	hits() string
	match(t Terms) string
	// in is a condition "column is one of a list", whose one argument is list(values).
	in(column string) string
	list(values []string) any
	rebind(query string) string
}

// sqlIndex is the Index of one database: the statements are the same SQL on both, around the
// dialect's matching.
type sqlIndex struct{ d sqlDialect }

// insertBatch is how many sections one INSERT writes (under both databases' parameter limits).
const insertBatch = 400

func (x *sqlIndex) Migrate(ctx context.Context, db DB) error {
	for _, stmt := range x.d.schema() {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

func (x *sqlIndex) Replace(ctx context.Context, db DB, spaceID string, pageIDs []string, sections []Section) error {
	if len(pageIDs) > 0 {
		del := x.d.rebind("DELETE FROM search_sections WHERE space_id = ? AND " + x.d.in("page_id"))
		if _, err := db.ExecContext(ctx, del, spaceID, x.d.list(pageIDs)); err != nil {
			return err
		}
	}
	for len(sections) > 0 {
		n := min(len(sections), insertBatch)
		if err := x.insert(ctx, db, spaceID, sections[:n]); err != nil {
			return err
		}
		sections = sections[n:]
	}
	return nil
}

func (x *sqlIndex) insert(ctx context.Context, db DB, spaceID string, sections []Section) error {
	rows := make([]string, len(sections))
	var args []any
	for i, s := range sections {
		rows[i] = x.d.valuesRow()
		s.Body = cutBody(s.Body)
		args = append(args, x.d.rowArgs(spaceID, s)...)
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

// The search statements, built from common table expressions: hits (the dialect's matching
// sections), pages (the best section's score per page), ranked (pages in rank order, with the
// count), then chosen (the pages of the page asked for) and the sections shown of each. hits is
// MATERIALIZED: FTS5's bm25 works only in the query that scans the FTS table, which SQLite's
// flattening of an aggregate over the CTE would break (PostgreSQL materializes a CTE read twice
// anyway).
const (
	rankedPages = `WITH hits AS MATERIALIZED (%HITS%),
pages AS (SELECT space_id, page_id, max(score) AS score FROM hits GROUP BY space_id, page_id),
ranked AS (SELECT space_id, page_id, score, count(*) OVER () AS total,
	row_number() OVER (ORDER BY score DESC, page_id, space_id) AS rank FROM pages)`
	spacesCTE = `,
spaces AS (SELECT space_id, max(score) AS score FROM pages GROUP BY space_id)`
	// chosenPages are the pages after an offset (arguments: offset, limit).
	chosenPages = `,
chosen AS (SELECT space_id, page_id, score, rank, total, score AS space_score, 1 AS space_rank
	FROM ranked WHERE rank > ? ORDER BY rank LIMIT ?)`
	// chosenSpaces are the best pages of the spaces after an offset (arguments: offset,
	// offset+limit, pages per space).
	chosenSpaces = spacesCTE + `,
rankedspaces AS (SELECT space_id, score, count(*) OVER () AS total,
	row_number() OVER (ORDER BY score DESC, space_id) AS space_rank FROM spaces),
inspace AS (SELECT space_id, page_id, score, rank,
	row_number() OVER (PARTITION BY space_id ORDER BY rank) AS n FROM ranked),
chosen AS (SELECT p.space_id, p.page_id, p.score, p.rank, s.total, s.score AS space_score, s.space_rank
	FROM rankedspaces s JOIN inspace p ON p.space_id = s.space_id
	WHERE s.space_rank > ? AND s.space_rank <= ? AND p.n <= ?)`
	// shownSections reads the best sections of the chosen pages (argument: sections per page).
	shownSections = `,
sect AS (SELECT h.space_id, h.page_id, h.section_id, h.score,
	row_number() OVER (PARTITION BY h.space_id, h.page_id ORDER BY h.score DESC, h.section_id) AS n
	FROM hits h JOIN chosen c ON c.space_id = h.space_id AND c.page_id = h.page_id)
SELECT c.total, c.space_id, c.space_score, c.page_id, c.score, c.rank, s.anchor, s.heading, s.body, x.score
FROM chosen c
JOIN sect x ON x.space_id = c.space_id AND x.page_id = c.page_id AND x.n <= ?
JOIN search_sections s ON s.id = x.section_id
ORDER BY c.space_rank, c.rank, x.n`
)

func (x *sqlIndex) Pages(ctx context.Context, db DB, q Query) ([]Page, int, error) {
	spaces, total, err := x.search(ctx, db, q, chosenPages, "pages", q.Offset, q.Limit)
	var pages []Page
	for _, s := range spaces {
		pages = append(pages, s.Pages...)
	}
	return pages, total, err
}

func (x *sqlIndex) Spaces(ctx context.Context, db DB, q Query) ([]Space, int, error) {
	return x.search(ctx, db, q, chosenSpaces, "spaces", q.Offset, q.Offset+q.Limit, PagesPerSpace)
}

// search runs one search: the ranked pages, the chosen ones (with chosenArgs), their sections.
// counted names the CTE counted when an offset leaves no row to read the total from.
func (x *sqlIndex) search(ctx context.Context, db DB, q Query, chosen, counted string, chosenArgs ...any) ([]Space, int, error) {
	if len(q.Spaces) == 0 {
		return nil, 0, nil
	}
	prefix := strings.Replace(rankedPages, "%HITS%", x.d.hits(), 1)
	hitArgs := []any{x.d.match(q.Terms), x.d.list(q.Spaces)}
	args := append(append(hitArgs, chosenArgs...), SectionsPerPage)
	rows, err := db.QueryContext(ctx, x.d.rebind(prefix+chosen+shownSections), args...)
	if err != nil {
		return nil, 0, err
	}
	spaces, total, err := scanResults(rows, q.Terms)
	if err != nil || len(spaces) > 0 {
		return spaces, total, err
	}
	// No row: nothing matches, or the offset is past the end, or the limit is 0. The count
	// still answers.
	if counted == "spaces" {
		prefix += spacesCTE
	}
	total, err = count(ctx, db, x.d.rebind(prefix+" SELECT count(*) FROM "+counted), hitArgs)
	return nil, total, err
}

func count(ctx context.Context, db DB, query string, args []any) (int, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	if rows.Next() {
		err = rows.Scan(&n)
	}
	return n, errors.Join(err, rows.Err())
}

// scanResults reads the rows of a search (in space, page, section order) into spaces of pages of
// sections, with excerpts for terms, and the total the rows carry.
func scanResults(rows *sql.Rows, terms Terms) ([]Space, int, error) {
	defer rows.Close()
	var spaces []Space
	total := 0
	for rows.Next() {
		var sp Space
		var p Page
		var sec SectionHit
		var body string
		err := rows.Scan(&total, &sp.SpaceID, &sp.Score, &p.PageID, &p.Score, &p.Rank, &sec.Anchor, &sec.Heading, &body, &sec.Score)
		if err != nil {
			return nil, 0, err
		}
		sec.Excerpt = Excerpt(body, terms)
		if n := len(spaces); n == 0 || spaces[n-1].SpaceID != sp.SpaceID {
			spaces = append(spaces, sp)
		}
		last := &spaces[len(spaces)-1]
		if n := len(last.Pages); n == 0 || last.Pages[n-1].PageID != p.PageID {
			p.SpaceID = sp.SpaceID
			last.Pages = append(last.Pages, p)
		}
		page := &last.Pages[len(last.Pages)-1]
		page.Sections = append(page.Sections, sec)
	}
	return spaces, total, rows.Err()
}
