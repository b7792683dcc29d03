package search

import (
	"cmp"
	"context"
	"slices"
	"strconv"
)

// Ranking orders the matching sections in two tiers: first those whose page title or heading
// holds every word (the heading tier), then the others (the text tier). Within a tier, sections
// are ordered by relevance (BM25 on SQLite, cover density on PostgreSQL), but scoring costs about
// a microsecond a section, so only the first scoreWindow sections of a tier, in document order,
// are scored and ordered; the tier's later sections follow them in document order. A word found
// in tens of thousands of sections thus costs a few milliseconds to rank, not tens; below the
// window (nearly every query) the ranking is exact. Pages are ordered by their best section and
// spaces by their best page, reading only as far as the asked-for results need. Then the shown
// sections of the chosen pages are read with their text. Meanwhile another connection counts the
// matching pages or spaces (unless the ranking was read whole, the count is the total). A search
// is four to six statements: the spaces' keys, the count, a window of each tier read, the rest
// of a tier past its window (rarely) and the shown sections; one more, the pages' keys, when the
// query leaves pages out (Query.Without), which the ranking then skips as it reads.

// scoreWindow is how many sections of a tier are scored at most (1 to 4 ms of work).
const scoreWindow = 1000

// A tier is a part of the matching sections, ranked apart from the others.
type tier int

const (
	anyTier     tier = iota // every matching section: the count
	headingTier             // every word in the page title or the section's heading
	textTier                // the other matching sections
)

// rankedTiers are the tiers in the order their sections rank.
var rankedTiers = []tier{headingTier, textTier}

// tierScore is a section's score: its tier's base (1 for the heading tier, 0 for the text tier)
// plus its relevance mapped into [0, 1), so that scores fall as ranks do, across tiers too. A
// section ranked in document order (past a window) has no relevance: its score is the base.
func tierScore(t tier, relevance float64) float64 {
	base := 0.0
	if t == headingTier {
		base = 1
	}
	return base + relevance/(1+relevance)
}

// ranking is what the ranked sections told so far.
type ranking struct {
	pages      []int64           // page keys, best first
	score      map[int64]float64 // a page's score
	spaces     []int64           // space keys, best first
	spacePages map[int64][]int64 // a space's pages, best first, at most PagesPerSpace
	complete   bool              // every matching section was read
	skip       map[int64]bool    // page keys of q.Without: never ranked
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

// hits is the statement of the matching sections of a tier in scope, and its arguments: the
// sections in the range of the searched spaces and, when that range also holds spaces not
// searched, of the searched spaces only (a check on every match, which one space never needs).
func (x *sqlIndex) hits(q Query, s *scope, t tier, scored bool) (string, []any) {
	stmt := x.d.matches(scored, t) + " AND " + x.d.idColumn() + " BETWEEN ? AND ?"
	args := []any{x.d.match(q.Terms, t), s.lo, s.hi}
	if int64(len(s.list)) != s.list[len(s.list)-1]-s.list[0]+1 {
		stmt += " AND " + x.d.in("("+x.d.idColumn()+" >> "+strconv.Itoa(spaceShift)+")")
		args = append(args, x.d.list(s.list))
	}
	return stmt, args
}

// rank reads the matching sections best first, tier by tier, until enough says the ranking
// answers.
func (x *sqlIndex) rank(ctx context.Context, db DB, q Query, s *scope, skip map[int64]bool, enough func(*ranking) bool) (*ranking, error) {
	r := &ranking{score: map[int64]float64{}, spacePages: map[int64][]int64{}, skip: skip}
	for _, t := range rankedTiers {
		if enough(r) {
			return r, nil
		}
		last, err := x.rankWindow(ctx, db, q, s, t, r, enough)
		if err != nil || enough(r) {
			return r, err
		}
		if last != 0 { // the tier goes on past its window
			if err := x.rankRest(ctx, db, q, s, t, last, r, enough); err != nil || enough(r) {
				return r, err
			}
		}
	}
	r.complete = true
	return r, nil
}

// rankWindow scores the first scoreWindow sections of a tier and adds them best first until
// enough. It returns the id of the window's last section when the window is full (the tier may
// go on), else 0.
func (x *sqlIndex) rankWindow(ctx context.Context, db DB, q Query, s *scope, t tier, r *ranking, enough func(*ranking) bool) (int64, error) {
	hits, args := x.hits(q, s, t, true)
	stmt := x.d.rebind("WITH scored AS MATERIALIZED (" + hits + " ORDER BY " + x.d.idColumn() + ` LIMIT ?)
SELECT id, score, count(*) OVER (), max(id) OVER () FROM scored ORDER BY score DESC, id`)
	rows, err := db.QueryContext(ctx, stmt, append(args, scoreWindow)...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var last int64
	for !enough(r) && rows.Next() {
		var id int64
		var score float64
		var n int
		if err := rows.Scan(&id, &score, &n, &last); err != nil {
			return 0, err
		}
		if n < scoreWindow {
			last = 0
		}
		r.add(id, tierScore(t, score))
	}
	return last, rows.Err()
}

// rankRest adds the sections of a tier after its window, in document order, until enough.
func (x *sqlIndex) rankRest(ctx context.Context, db DB, q Query, s *scope, t tier, after int64, r *ranking, enough func(*ranking) bool) error {
	hits, args := x.hits(q, s, t, false)
	stmt := x.d.rebind(hits + " AND " + x.d.idColumn() + " > ? ORDER BY " + x.d.idColumn())
	rows, err := db.QueryContext(ctx, stmt, append(args, after)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for !enough(r) && rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		r.add(id, tierScore(t, 0))
	}
	return rows.Err()
}

// add records a section read in rank order.
func (r *ranking) add(id int64, score float64) {
	page, space := pageKey(id), spaceKeyOf(id)
	if _, seen := r.score[page]; seen || r.skip[page] {
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

// counting is the count of the matching pages (shift ordinalBits) or spaces (shift spaceShift),
// run on another connection while the ranking is read: the database reads every match to count
// them, which takes as long as the ranking for a common word, and the two together take the time
// of one on a machine with a core to spare.
type counting struct {
	done chan struct{}
	n    int
	err  error
}

func (x *sqlIndex) startCount(ctx context.Context, db DB, q Query, s *scope, shift int, skip map[int64]bool) *counting {
	c := &counting{done: make(chan struct{})}
	go func() {
		defer close(c.done)
		hits, args := x.hits(q, s, anyTier, false)
		if len(skip) == 0 {
			stmt := x.d.rebind("SELECT count(DISTINCT id >> " + strconv.Itoa(shift) + ") FROM (" + hits + ") hits")
			c.err = query(ctx, db, stmt, args, func(scan func(...any) error) error { return scan(&c.n) })
			return
		}
		c.n, c.err = x.countWithout(ctx, db, hits, args, shift, skip)
	}()
	return c
}

// countWithout counts the matching pages (shift ordinalBits) or spaces (shift spaceShift) of
// pages outside skip: the matching pages are read and counted here, since a list of thousands of
// pages to leave out costs PostgreSQL a comparison per match and per page (= ANY is linear).
func (x *sqlIndex) countWithout(ctx context.Context, db DB, hits string, args []any, shift int, skip map[int64]bool) (int, error) {
	counted := map[int64]bool{}
	stmt := x.d.rebind("SELECT DISTINCT id >> " + strconv.Itoa(ordinalBits) + " FROM (" + hits + ") hits")
	err := query(ctx, db, stmt, args, func(scan func(...any) error) error {
		var page int64
		err := scan(&page)
		if !skip[page] {
			counted[page>>(shift-ordinalBits)] = true
		}
		return err
	})
	return len(counted), err
}

// total waits for the count and returns it, or the number the ranking saw when it read every
// match (the same number, of the ranking's own reading).
func (c *counting) total(r *ranking, seen int) (int, error) {
	<-c.done
	if r.complete {
		return seen, nil
	}
	return c.n, c.err
}

func (x *sqlIndex) Pages(ctx context.Context, db DB, q Query) ([]Page, int, error) {
	want := q.Offset + max(q.Limit, 0)
	return x.search(ctx, db, q, ordinalBits, func(r *ranking) bool { return len(r.pages) >= want },
		func(r *ranking) ([]int64, int) { return window(r.pages, q.Offset, want), len(r.pages) })
}

func (x *sqlIndex) Spaces(ctx context.Context, db DB, q Query) ([]Space, int, error) {
	want := q.Offset + max(q.Limit, 0)
	pages, total, err := x.search(ctx, db, q, spaceShift, func(r *ranking) bool { return r.spacesKnown(q.Offset, want) },
		func(r *ranking) ([]int64, int) {
			var chosen []int64
			for _, space := range window(r.spaces, q.Offset, want) {
				chosen = append(chosen, r.spacePages[space]...)
			}
			return chosen, len(r.spaces)
		})
	return groupBySpace(pages), total, err
}

// search ranks the matches of q until enough, reads the pages choose picks from the ranking, and
// counts the matching pages (shift ordinalBits) or spaces (shift spaceShift) beside the ranking;
// choose also says how many the ranking saw, the count when it read every match.
func (x *sqlIndex) search(ctx context.Context, db DB, q Query, shift int, enough func(*ranking) bool,
	choose func(*ranking) (chosen []int64, seen int)) ([]Page, int, error) {
	s, err := x.scope(ctx, db, q.Spaces)
	if err != nil || s == nil {
		return nil, 0, err
	}
	skip, err := x.pageKeys(ctx, db, s, q.Without)
	if err != nil {
		return nil, 0, err
	}
	count := x.startCount(ctx, db, q, s, shift, skip)
	r, err := x.rank(ctx, db, q, s, skip, enough)
	chosen, seen := choose(r)
	var pages []Page
	if err == nil {
		pages, err = x.pagesOf(ctx, db, q, s, r, chosen)
	}
	total, cerr := count.total(r, seen)
	if err = cmp.Or(err, cerr); err != nil {
		return nil, 0, err
	}
	return pages, total, nil
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

// pagesOf reads the matching sections of the chosen pages with their text and makes the pages, in
// the order given, each with its best sections (at most SectionsPerPage). A page's score is the
// one that ranked it; its sections are scored by sectionScore, which needs no statistics of the
// whole index (the database's score would: BM25 reads every match of each word to weigh it). A
// page whose sections are gone since the ranking was read is left out.
func (x *sqlIndex) pagesOf(ctx context.Context, db DB, q Query, s *scope, r *ranking, chosen []int64) ([]Page, error) {
	if len(chosen) == 0 {
		return nil, nil
	}
	stmt := x.d.rebind("WITH hits AS MATERIALIZED (" + x.d.pageHits() + `)
SELECT h.id, s.page_id, s.anchor, s.title, s.heading, s.body FROM hits h JOIN search_sections s ON s.id = h.id`)
	sections := map[int64][]shownSection{} // page key → its matching sections
	err := query(ctx, db, stmt, []any{x.d.list(chosen), x.d.match(q.Terms, anyTier),
		slices.Min(chosen) << ordinalBits, (slices.Max(chosen)+1)<<ordinalBits - 1}, func(scan func(...any) error) error {
		var sec shownSection
		var title string
		if err := scan(&sec.id, &sec.pageID, &sec.Anchor, &title, &sec.Heading, &sec.body); err != nil {
			return err
		}
		sec.Score = sectionScore(q.Terms, title, sec.Heading, sec.body)
		sections[pageKey(sec.id)] = append(sections[pageKey(sec.id)], sec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	rank := map[int64]int{}
	for i, key := range r.pages {
		rank[key] = i + 1
	}
	var pages []Page
	for _, key := range chosen {
		if found := sections[key]; len(found) > 0 {
			pages = append(pages, Page{SpaceID: s.keys[spaceKeyOf(key<<ordinalBits)], PageID: found[0].pageID,
				Score: r.score[key], Rank: rank[key], Sections: best(found, q.Terms)})
		}
	}
	return pages, nil
}

// shownSection is a matching section of a chosen page, as read.
type shownSection struct {
	SectionHit
	id           int64
	pageID, body string
}

// best is the best sections of a page (at most SectionsPerPage), best first, with excerpts.
func best(sections []shownSection, terms Terms) []SectionHit {
	slices.SortFunc(sections, func(a, b shownSection) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.id, b.id))
	})
	out := make([]SectionHit, 0, min(len(sections), SectionsPerPage))
	for _, sec := range sections[:cap(out)] {
		sec.Excerpt = Excerpt(sec.body, terms)
		out = append(out, sec.SectionHit)
	}
	return out
}

// sectionScore orders the sections of one page: its tier's base plus, mapped into [0, 1), how
// often it holds each word, weighted as the index weighs them (title 10, heading 4, text 1) and
// saturated as BM25 saturates a word's count.
func sectionScore(t Terms, title, heading, body string) float64 {
	inTitle, inHeading, inBody := wordCounts(t, title), wordCounts(t, heading), wordCounts(t, body)
	in, relevance := headingTier, 0.0
	for i := range t.Words {
		head := 10*inTitle[i] + 4*inHeading[i]
		if head == 0 { // a word neither the title nor the heading holds
			in = textTier
		}
		n := head + inBody[i]
		relevance += n / (n + bm25K1)
	}
	return tierScore(in, relevance)
}

// wordCounts counts the words of text each term matches.
func wordCounts(t Terms, text string) []float64 {
	counts := make([]float64, len(t.Words))
	for _, w := range Tokens(text) {
		for i := range t.Words {
			if t.matches(w, i) {
				counts[i]++
			}
		}
	}
	return counts
}

// bm25K1 is BM25's saturation of a word's count (FTS5's value).
const bm25K1 = 1.2
