package search

import (
	"context"
	"slices"
	"strconv"
)

// Ranking reads the matching sections of the searched spaces best first and orders pages by their
// best section (a page's score is its best section's) and spaces by their best page, reading only
// as far as the asked-for results need: the database scores and sorts every match, the rows
// travel only until the page of results is known. Then the shown sections of the chosen pages
// are read with their text. A search is three or four statements: the spaces' keys, the ranked
// sections, the count (when the ranked rows were not all read) and the shown sections.

// ranking is what the ranked sections told so far.
type ranking struct {
	pages      []int64           // page keys, best first
	score      map[int64]float64 // a page's score
	spaces     []int64           // space keys, best first
	spacePages map[int64][]int64 // a space's pages, best first, at most PagesPerSpace
	complete   bool              // every matching section was read
}

// scope is the searched spaces: their keys, and the range of section ids that holds them.
type scope struct {
	keys   map[int64]string // space key → space id
	list   []int64
	lo, hi int64
}

func (x *sqlIndex) scope(ctx context.Context, db DB, spaceIDs []string) (*scope, error) {
	keys, err := x.spaceKeys(ctx, db, spaceIDs)
	if err != nil || len(keys) == 0 {
		return nil, err
	}
	s := &scope{keys: keys}
	for k := range keys {
		s.list = append(s.list, k)
	}
	slices.Sort(s.list)
	s.lo, s.hi = s.list[0]<<spaceShift, (s.list[len(s.list)-1]+1)<<spaceShift-1
	return s, nil
}

// hits is the statement of the matching sections in scope (their space's key among the list).
func (x *sqlIndex) hits(scored bool) string {
	return x.d.matches(scored) + " AND " + x.d.in("("+x.d.idColumn()+" >> "+strconv.Itoa(spaceShift)+")")
}

func (x *sqlIndex) hitArgs(q Query, s *scope, extra ...any) []any {
	return append([]any{x.d.match(q.Terms), s.lo, s.hi, x.d.list(s.list)}, extra...)
}

// rank reads the matching sections best first until enough says the ranking answers.
func (x *sqlIndex) rank(ctx context.Context, db DB, q Query, s *scope, enough func(*ranking) bool) (*ranking, error) {
	r := &ranking{score: map[int64]float64{}, spacePages: map[int64][]int64{}}
	if enough(r) {
		return r, nil
	}
	stmt := x.d.rebind("WITH hits AS MATERIALIZED (" + x.hits(true) + ") SELECT id, score FROM hits ORDER BY score DESC, id")
	rows, err := db.QueryContext(ctx, stmt, x.hitArgs(q, s)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for !enough(r) {
		if !rows.Next() {
			r.complete = true
			break
		}
		var id int64
		var score float64
		if err := rows.Scan(&id, &score); err != nil {
			return nil, err
		}
		r.add(id, score)
	}
	return r, rows.Err()
}

// add records a section read in rank order.
func (r *ranking) add(id int64, score float64) {
	page, space := pageKey(id), spaceKeyOf(id)
	if _, seen := r.score[page]; seen {
		return
	}
	r.score[page] = score
	r.pages = append(r.pages, page)
	pages, seen := r.spacePages[space]
	if !seen {
		r.spaces = append(r.spaces, space)
	}
	if len(pages) < PagesPerSpace {
		r.spacePages[space] = append(pages, page)
	}
}

// total is how many pages (shift ordinalBits) or spaces (shift spaceShift) match: the number seen
// when the ranking was read whole, else counted.
func (x *sqlIndex) total(ctx context.Context, db DB, q Query, s *scope, complete bool, seen, shift int) (int, error) {
	if complete {
		return seen, nil
	}
	stmt := x.d.rebind("WITH hits AS MATERIALIZED (" + x.hits(false) + ") SELECT count(DISTINCT id >> ?) FROM hits")
	n := 0
	err := query(ctx, db, stmt, x.hitArgs(q, s, shift), func(scan func(...any) error) error { return scan(&n) })
	return n, err
}

func (x *sqlIndex) Pages(ctx context.Context, db DB, q Query) ([]Page, int, error) {
	s, err := x.scope(ctx, db, q.Spaces)
	if err != nil || s == nil {
		return nil, 0, err
	}
	want := q.Offset + max(q.Limit, 0)
	r, err := x.rank(ctx, db, q, s, func(r *ranking) bool { return len(r.pages) >= want })
	if err != nil {
		return nil, 0, err
	}
	total, err := x.total(ctx, db, q, s, r.complete, len(r.pages), ordinalBits)
	if err != nil {
		return nil, 0, err
	}
	chosen := window(r.pages, q.Offset, want)
	pages, err := x.pagesOf(ctx, db, q, s, r, chosen)
	return pages, total, err
}

func (x *sqlIndex) Spaces(ctx context.Context, db DB, q Query) ([]Space, int, error) {
	s, err := x.scope(ctx, db, q.Spaces)
	if err != nil || s == nil {
		return nil, 0, err
	}
	want := q.Offset + max(q.Limit, 0)
	r, err := x.rank(ctx, db, q, s, func(r *ranking) bool { return r.spacesKnown(q.Offset, want) })
	if err != nil {
		return nil, 0, err
	}
	total, err := x.total(ctx, db, q, s, r.complete, len(r.spaces), spaceShift)
	if err != nil {
		return nil, 0, err
	}
	var chosen []int64
	for _, space := range window(r.spaces, q.Offset, want) {
		chosen = append(chosen, r.spacePages[space]...)
	}
	pages, err := x.pagesOf(ctx, db, q, s, r, chosen)
	if err != nil {
		return nil, 0, err
	}
	return groupBySpace(pages), total, nil
}

// window is list[from:to], within its bounds.
func window(list []int64, from, to int) []int64 {
	return list[min(from, len(list)):min(to, len(list))]
}

// spacesKnown reports whether the spaces offset to want-1 are known with all the pages they show.
func (r *ranking) spacesKnown(offset, want int) bool {
	if len(r.spaces) < want {
		return false
	}
	for _, space := range r.spaces[offset:want] {
		if len(r.spacePages[space]) < PagesPerSpace {
			return false
		}
	}
	return true
}

// groupBySpace puts pages (in space order, then rank) into their spaces.
func groupBySpace(pages []Page) []Space {
	var out []Space
	for _, p := range pages {
		if n := len(out); n == 0 || out[n-1].SpaceID != p.SpaceID {
			out = append(out, Space{SpaceID: p.SpaceID, Score: p.Score})
		}
		last := &out[len(out)-1]
		last.Pages = append(last.Pages, p)
	}
	return out
}

// pagesOf reads the best sections of the chosen pages (at most SectionsPerPage each) with their
// text and makes the pages, in the order given. A page whose sections are gone since the ranking
// was read is left out.
func (x *sqlIndex) pagesOf(ctx context.Context, db DB, q Query, s *scope, r *ranking, chosen []int64) ([]Page, error) {
	if len(chosen) == 0 {
		return nil, nil
	}
	stmt := x.d.rebind("WITH hits AS MATERIALIZED (" + x.d.pageHits() + `)
SELECT h.id, h.score, s.page_id, s.anchor, s.heading, s.body FROM hits h JOIN search_sections s ON s.id = h.id
ORDER BY h.score DESC, h.id`)
	found := map[int64]*Page{}
	err := query(ctx, db, stmt, []any{x.d.list(chosen), x.d.match(q.Terms)}, func(scan func(...any) error) error {
		var id int64
		var sec SectionHit
		var pageID, body string
		if err := scan(&id, &sec.Score, &pageID, &sec.Anchor, &sec.Heading, &body); err != nil {
			return err
		}
		p := found[pageKey(id)]
		if p == nil {
			p = &Page{SpaceID: s.keys[spaceKeyOf(id)], PageID: pageID}
			found[pageKey(id)] = p
		}
		if len(p.Sections) < SectionsPerPage {
			sec.Excerpt = Excerpt(body, q.Terms)
			p.Sections = append(p.Sections, sec)
		}
		return nil
	})
	rank := map[int64]int{}
	for i, key := range r.pages {
		rank[key] = i + 1
	}
	var pages []Page
	for _, key := range chosen {
		if p := found[key]; p != nil {
			p.Score, p.Rank = r.score[key], rank[key]
			pages = append(pages, *p)
		}
	}
	return pages, err
}
