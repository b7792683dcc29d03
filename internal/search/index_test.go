package search_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"

	"github.com/binderyhq/bindery/internal/search"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// fixture is an index over a fresh database holding a spaces table (the sections reference it).
type fixture struct {
	t   testing.TB
	db  *sql.DB
	idx search.Index
	pg  bool
}

// openIndex opens a fresh SQLite database, or a fresh PostgreSQL schema when BINDERY_TEST_DB is
// set, with spaces s1, s2 and s3.
func openIndex(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{t: t}
	driver, dsn := "sqlite3", "file:"+filepath.Join(t.TempDir(), "search.db")+"?_foreign_keys=on"
	if pg := testenv.PostgresDSN(t); pg != "" {
		driver, dsn, f.pg = "pgx", pg, true
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db = db
	f.exec(`CREATE TABLE spaces (id VARCHAR(64) PRIMARY KEY)`)
	f.exec(`INSERT INTO spaces (id) VALUES ('s1'), ('s2'), ('s3')`)
	f.idx = search.New(f.pg)
	for range 2 { // idempotent
		if err := store.CreateSearchTables(context.Background(), db, f.pg); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) exec(stmt string) {
	f.t.Helper()
	if _, err := f.db.Exec(stmt); err != nil {
		f.t.Fatal(err)
	}
}

// page is a page to index: its title and its sections' heading and text, the first one's heading
// empty (the text before the first heading).
type page struct {
	id, title string
	sections  [][2]string
}

func (f *fixture) index(space string, pages ...page) {
	f.t.Helper()
	var ids []string
	var docs []search.Section
	for _, p := range pages {
		ids = append(ids, p.id)
		for i, s := range p.sections {
			docs = append(docs, search.Section{PageID: p.id, Ordinal: i, Anchor: fmt.Sprintf("a%d", i),
				Title: p.title, Heading: s[0], Body: s[1]})
		}
	}
	if err := f.idx.Replace(context.Background(), f.db, space, ids, docs); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) pages(query string, offset, limit int, spaces ...string) ([]search.Page, int) {
	f.t.Helper()
	terms, err := search.ParseQuery(query)
	if err != nil {
		f.t.Fatal(err)
	}
	pages, total, err := f.idx.Pages(context.Background(), f.db, search.Query{Terms: terms, Spaces: spaces, Offset: offset, Limit: limit})
	if err != nil {
		f.t.Fatalf("search %q: %v", query, err)
	}
	return pages, total
}

func ids(pages []search.Page) []string {
	var out []string
	for _, p := range pages {
		out = append(out, p.PageID)
	}
	return out
}

func equal(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func TestRanking(t *testing.T) {
	f := openIndex(t)
	f.index("s1",
		page{"body", "Operations", [][2]string{{"", "We deploy with kubernetes sometimes, among many other tools and long words."}}},
		page{"title", "Kubernetes", [][2]string{{"", "A guide to clusters."}}},
		page{"heading", "Clusters", [][2]string{{"", "Intro."}, {"Kubernetes setup", "Steps."}}},
	)
	got, total := f.pages("kubernetes", 0, 10, "s1")
	if want := []string{"title", "heading", "body"}; !equal(ids(got), want) || total != 3 {
		t.Fatalf("ranked %v (%d), want %v: a title hit above a heading hit above a body hit", ids(got), total, want)
	}
	for i, p := range got {
		if p.Rank != i+1 || p.Score <= 0 || p.SpaceID != "s1" {
			t.Errorf("page %s: rank %d, score %v, space %s", p.PageID, p.Rank, p.Score, p.SpaceID)
		}
	}
	if s := got[1].Sections; len(s) != 1 || s[0].Anchor != "a1" || s[0].Heading != "Kubernetes setup" || s[0].Excerpt != "Steps." {
		t.Errorf("heading page sections = %+v, want only the matching section", s)
	}
	if s := got[2].Sections[0].Excerpt; s != "We deploy with kubernetes sometimes, among many other tools and long words." {
		t.Errorf("excerpt %q", s)
	}
}

// TestTiers: a section whose title or heading holds every word ranks above any other, however
// often the others repeat the words, and scores fall as ranks do.
func TestTiers(t *testing.T) {
	f := openIndex(t)
	f.index("s1",
		page{"text", "Notes", [][2]string{{"", "deploy deploy deploy deploy deploy deploy deploy deploy deploy deploy"}}},
		page{"heading", "Guide", [][2]string{{"", "Intro to deploy, deploy."}, {"Deploy", "A long text about many other things and deploy only once."}}},
		page{"half", "Deploy", [][2]string{{"", "Nothing about the rest."}}},
	)
	got, _ := f.pages("deploy", 0, 10, "s1")
	if want := []string{"half", "heading", "text"}; !equal(ids(got), want) {
		t.Fatalf("ranked %v, want %v: title and heading hits before the text hit", ids(got), want)
	}
	if !(got[0].Score > got[1].Score && got[1].Score > got[2].Score && got[2].Score > 0) {
		t.Errorf("scores %v, %v, %v do not fall with the ranks", got[0].Score, got[1].Score, got[2].Score)
	}
	if s := got[1].Sections; len(s) != 2 || s[0].Anchor != "a1" || s[0].Score <= s[1].Score {
		t.Errorf("heading page sections %+v: want the heading section first", s)
	}
	if got, _ := f.pages("deploy guide", 0, 10, "s1"); !equal(ids(got), []string{"heading"}) {
		t.Errorf("deploy guide: %v, want the page whose title and heading hold the words", ids(got))
	}
}

// TestScoreWindow: past the sections a tier scores, the tier's other sections follow in document
// order; every page is found once, by any pagination.
func TestScoreWindow(t *testing.T) {
	f := openIndex(t)
	const pages, perPage = 250, 5 // 1,250 text-tier sections: more than the window scores
	var docs []page
	for i := range pages {
		p := page{id: fmt.Sprintf("p%03d", i), title: "Doc"}
		for j := range perPage {
			p.sections = append(p.sections, [2]string{fmt.Sprint("Part ", j), "common " + repeat("filler ", (i*7+j)%13)})
		}
		docs = append(docs, p)
	}
	docs = append(docs, page{id: "last", title: "Common"}) // a title hit indexed last
	docs[len(docs)-1].sections = [][2]string{{"", "text"}}
	f.index("s1", docs...)
	all, total := f.pages("common", 0, 1000, "s1")
	if total != pages+1 || len(all) != total || all[0].PageID != "last" {
		t.Fatalf("%d pages of %d, first %s: want all %d, the title hit first", len(all), total, all[0].PageID, pages+1)
	}
	seen := map[string]bool{}
	for i, p := range all {
		if seen[p.PageID] || p.Rank != i+1 || (i > 0 && p.Score > all[i-1].Score) {
			t.Fatalf("result %d: page %s (seen %v), rank %d, score %v after %v", i, p.PageID, seen[p.PageID], p.Rank, p.Score, all[max(i-1, 0)].Score)
		}
		seen[p.PageID] = true
	}
	tail := all[len(all)-20:] // past the window: document order, at the text tier's base score
	for i := 1; i < len(tail); i++ {
		if tail[i].PageID < tail[i-1].PageID || tail[i].Score != 0 {
			t.Fatalf("tail %s (score %v) after %s: want document order", tail[i].PageID, tail[i].Score, tail[i-1].PageID)
		}
	}
	var paged []string
	for offset := 0; offset < total; offset += 97 {
		got, _ := f.pages("common", offset, 97, "s1")
		paged = append(paged, ids(got)...)
	}
	if !equal(paged, ids(all)) {
		t.Errorf("paginated results differ from the whole list")
	}
}

func TestEveryWordMustMatchAndTheLastIsAPrefix(t *testing.T) {
	f := openIndex(t)
	f.index("s1",
		page{"both", "Install", [][2]string{{"", "on linux servers"}}},
		page{"one", "Install", [][2]string{{"", "on windows"}}},
	)
	if got, _ := f.pages("install linux", 0, 10, "s1"); !equal(ids(got), []string{"both"}) {
		t.Errorf("install linux: %v", ids(got))
	}
	if got, _ := f.pages("install serv", 0, 10, "s1"); !equal(ids(got), []string{"both"}) {
		t.Errorf("prefix serv: %v", ids(got))
	}
	if got, _ := f.pages("install serv ", 0, 10, "s1"); len(got) != 0 {
		t.Errorf("a finished word is no prefix: %v", ids(got))
	}
	if got, _ := f.pages("INSTALL Ön", 0, 10, "s1"); len(got) != 2 {
		t.Errorf("case and diacritics folded: %v", ids(got))
	}
}

func TestReplaceAndSpaces(t *testing.T) {
	f := openIndex(t)
	f.index("s1", page{"p1", "Old title", [][2]string{{"", "old words"}}})
	f.index("s2", page{"p2", "Other", [][2]string{{"", "old words too"}}})
	f.index("s1", page{"p1", "New title", [][2]string{{"", "fresh text"}}})
	if got, _ := f.pages("old", 0, 10, "s1"); len(got) != 0 {
		t.Errorf("replaced text still found: %v", ids(got))
	}
	if got, _ := f.pages("fresh", 0, 10, "s1"); !equal(ids(got), []string{"p1"}) {
		t.Errorf("new text: %v", ids(got))
	}
	if got, _ := f.pages("old", 0, 10, "s1", "s2"); !equal(ids(got), []string{"p2"}) {
		t.Errorf("other space: %v", ids(got))
	}
	if err := f.idx.Replace(context.Background(), f.db, "s1", []string{"p1"}, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.pages("fresh", 0, 10, "s1"); len(got) != 0 {
		t.Errorf("deleted page still found: %v", ids(got))
	}
	f.exec(`DELETE FROM spaces WHERE id = 's2'`)
	var left int
	// s1 keeps its key and its page's number; nothing of s2 stays
	for table, want := range map[string]int{"search_sections": 0, "search_pages": 1, "search_spaces": 1} {
		if err := f.db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&left); err != nil || left != want {
			t.Errorf("%s holds %d rows, want %d (%v)", table, left, want, err)
		}
	}
	if got, _ := f.pages("old", 0, 10, "s2"); len(got) != 0 {
		t.Errorf("removed space still found: %v", ids(got))
	}
	if !f.pg { // the FTS5 index follows the cascaded delete through its trigger
		if err := f.db.QueryRow(`SELECT count(*) FROM search_words WHERE search_words MATCH 'old'`).Scan(&left); err != nil || left != 0 {
			t.Errorf("the FTS5 index keeps %d entries of removed sections (%v)", left, err)
		}
	}
}

func TestPagination(t *testing.T) {
	f := openIndex(t)
	var pages []page
	for i := range 7 {
		pages = append(pages, page{fmt.Sprintf("p%d", i), "Doc", [][2]string{{"", "alpha " + repeat("beta ", i)}}})
	}
	f.index("s1", pages...)
	all, total := f.pages("alpha", 0, 100, "s1")
	if len(all) != 7 || total != 7 {
		t.Fatalf("%d pages of %d", len(all), total)
	}
	var paged []string
	for offset := 0; offset < 7; offset += 3 {
		got, total := f.pages("alpha", offset, 3, "s1")
		if total != 7 || got[0].Rank != offset+1 {
			t.Fatalf("offset %d: total %d, first rank %d", offset, total, got[0].Rank)
		}
		paged = append(paged, ids(got)...)
	}
	if !equal(paged, ids(all)) {
		t.Errorf("pages %v, all at once %v", paged, ids(all))
	}
	if got, total := f.pages("alpha", 0, 0, "s1"); len(got) != 0 || total != 7 {
		t.Errorf("limit 0: %d pages, total %d", len(got), total)
	}
	if got, total := f.pages("alpha", 50, 3, "s1"); len(got) != 0 || total != 7 {
		t.Errorf("past the end: %d pages, total %d", len(got), total)
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

func TestSpaces(t *testing.T) {
	f := openIndex(t)
	f.index("s1", page{"a1", "Other", [][2]string{{"", "widget"}}})
	f.index("s2", page{"b1", "Widget", [][2]string{{"", "x"}}}, page{"b2", "Other", [][2]string{{"", "widget widget"}}})
	var many []page
	for i := range search.PagesPerSpace + 2 {
		many = append(many, page{fmt.Sprintf("c%02d", i), "Other", [][2]string{{"", "widget"}}})
	}
	f.index("s3", many...)
	terms, _ := search.ParseQuery("widget")
	q := search.Query{Terms: terms, Spaces: []string{"s1", "s2", "s3"}, Limit: 2}
	spaces, total, err := f.idx.Spaces(context.Background(), f.db, q)
	if err != nil {
		t.Fatal(err)
	}
	if total != 3 || len(spaces) != 2 || spaces[0].SpaceID != "s2" {
		t.Fatalf("spaces %+v, total %d: want 2 of 3, the one with the title hit first", spaces, total)
	}
	if p := spaces[0].Pages; len(p) != 2 || p[0].PageID != "b1" || p[0].Rank != 1 || spaces[0].Score != p[0].Score {
		t.Errorf("first space's pages %+v", p)
	}
	q.Spaces = []string{"s1", "s3"} // not s2, whose key lies between theirs
	if skipped, total, err := f.idx.Spaces(context.Background(), f.db, q); err != nil || total != 2 || len(skipped) != 2 ||
		skipped[0].SpaceID == "s2" || skipped[1].SpaceID == "s2" {
		t.Fatalf("searching s1 and s3: %+v (total %d, %v)", skipped, total, err)
	}
	q.Spaces, q.Offset = []string{"s1", "s2", "s3"}, 2
	rest, _, err := f.idx.Spaces(context.Background(), f.db, q)
	if err != nil || len(rest) != 1 {
		t.Fatalf("second page: %+v, %v", rest, err)
	}
	ranks := map[int]bool{}
	for _, s := range append(spaces, rest...) {
		if s.SpaceID == "s3" && len(s.Pages) != search.PagesPerSpace {
			t.Errorf("s3 shows %d pages, want %d", len(s.Pages), search.PagesPerSpace)
		}
		for _, p := range s.Pages {
			if ranks[p.Rank] {
				t.Errorf("rank %d twice", p.Rank)
			}
			ranks[p.Rank] = true
		}
	}
}

// TestHostileQueries runs queries shaped like FTS syntax and SQL against the database: each is
// refused as INVALID or searched as plain words, never an error of the database.
func TestHostileQueries(t *testing.T) {
	f := openIndex(t)
	f.index("s1", page{"p", "Near", [][2]string{{"", `quote " star * caret ^ colon : paren ( drop table`}}})
	for _, q := range hostileQueries {
		terms, err := search.ParseQuery(q)
		if err != nil {
			continue
		}
		if _, _, err := f.idx.Pages(context.Background(), f.db, search.Query{Terms: terms, Spaces: []string{"s1"}, Limit: 5}); err != nil {
			t.Errorf("query %q: %v", q, err)
		}
	}
}

var hostileQueries = []string{`"`, `""`, `"unterminated`, `a"b`, `NEAR(a b)`, `NEAR(a, b, 3)`, `a NEAR b`, `*`, `a*`, `*a`,
	`^a`, `title:near`, `body : x`, `(a OR b) AND NOT c`, `a AND`, `OR`, `-a`, `+a`, `'`, `''`, `a'b`, `\`, `a\`,
	`'; DROP TABLE search_sections; --`, `1 OR 1=1`, `%`, `_`, `a:*`, `a & b | !c`, `<->`, `{col}`, `[a]`, "\u00a0",
	"ŉ ǅ ß İ", "東京 タワー", "🙂 emoji", `search_words MATCH`, `rank`, `bm25(x)`}

// FuzzSearch runs any query through the index: it answers or refuses the query (INVALID), never
// fails in the database.
func FuzzSearch(f *testing.F) {
	for _, q := range hostileQueries {
		f.Add(q)
	}
	fx := openIndex(f)
	fx.index("s1", page{"p", "Title words", [][2]string{{"", "body words and more"}, {"Heading", "text"}}})
	f.Fuzz(func(t *testing.T, q string) {
		terms, err := search.ParseQuery(q)
		if err != nil {
			return
		}
		query := search.Query{Terms: terms, Spaces: []string{"s1", "s2"}, Limit: 3}
		if _, _, err := fx.idx.Pages(context.Background(), fx.db, query); err != nil {
			t.Fatalf("query %q: %v", q, err)
		}
		if _, _, err := fx.idx.Spaces(context.Background(), fx.db, query); err != nil {
			t.Fatalf("query %q: %v", q, err)
		}
	})
}

// TestMigrateRebuildsTheFirstIndex: a SQLite database indexed before the prefix index existed (an
// FTS5 table search_fts and its triggers) is rebuilt into search_words by
// store.CreateSearchTables, once: what it held is found, the old table and triggers are gone, and
// new sections are indexed.
func TestMigrateRebuildsTheFirstIndex(t *testing.T) {
	if testenv.PostgresDSN(t) != "" {
		t.Skip("SQLite only")
	}
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(t.TempDir(), "old.db")+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	f := &fixture{t: t, db: db}
	f.exec(`CREATE TABLE spaces (id VARCHAR(64) PRIMARY KEY)`)
	f.exec(`INSERT INTO spaces (id) VALUES ('s1')`)
	f.exec(`CREATE TABLE search_spaces (key INTEGER PRIMARY KEY, space_id TEXT NOT NULL UNIQUE REFERENCES spaces (id) ON DELETE CASCADE, next_page INTEGER NOT NULL DEFAULT 0)`)
	f.exec(`CREATE TABLE search_pages (space_key INTEGER NOT NULL REFERENCES search_spaces (key) ON DELETE CASCADE, page_id TEXT NOT NULL, number INTEGER NOT NULL, PRIMARY KEY (space_key, page_id))`)
	f.exec(`CREATE TABLE search_sections (id INTEGER PRIMARY KEY, space_key INTEGER NOT NULL REFERENCES search_spaces (key) ON DELETE CASCADE,
		page_id TEXT NOT NULL, anchor TEXT NOT NULL, title TEXT NOT NULL, heading TEXT NOT NULL, body TEXT NOT NULL)`)
	f.exec(`CREATE VIRTUAL TABLE search_fts USING fts5 (title, heading, body, content = 'search_sections', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2')`)
	f.exec(`CREATE TRIGGER search_sections_insert AFTER INSERT ON search_sections BEGIN
		INSERT INTO search_fts (rowid, title, heading, body) VALUES (new.id, new.title, new.heading, new.body); END`)
	f.exec(`CREATE TRIGGER search_sections_delete AFTER DELETE ON search_sections BEGIN
		INSERT INTO search_fts (search_fts, rowid, title, heading, body) VALUES ('delete', old.id, old.title, old.heading, old.body); END`)
	f.exec(`INSERT INTO search_spaces (key, space_id, next_page) VALUES (1, 's1', 1)`)
	f.exec(`INSERT INTO search_pages VALUES (1, 'old', 0)`)
	f.exec(`INSERT INTO search_sections VALUES (1099511627776, 1, 'old', '', 'Archive', '', 'kept words')`)
	f.idx = search.New(false)
	for range 2 {
		if err := store.CreateSearchTables(context.Background(), db, false); err != nil {
			t.Fatal(err)
		}
	}
	var left int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name LIKE 'search_fts%' OR name LIKE 'search_sections_%sert' OR name = 'search_sections_delete'`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d objects of the first index remain (%v)", left, err)
	}
	if got, _ := f.pages("kep", 0, 10, "s1"); !equal(ids(got), []string{"old"}) {
		t.Errorf("rebuilt index finds %v, want the old page", ids(got))
	}
	f.index("s1", page{"new", "Fresh", [][2]string{{"", "new words"}}})
	if got, _ := f.pages("words", 0, 10, "s1"); len(got) != 2 {
		t.Errorf("after an insert: %v, want both pages", ids(got))
	}
}

// TestWithout: the pages a query leaves out are neither results nor counted, on pages and on
// spaces, so a page of results holds as many as the other matches allow; a page left out that
// the index never held changes nothing.
func TestWithout(t *testing.T) {
	f := openIndex(t)
	f.index("s1",
		page{"a", "Kubernetes a", [][2]string{{"", "One."}}},
		page{"b", "Kubernetes b", [][2]string{{"", "Two."}}},
		page{"c", "Other", [][2]string{{"", "Kubernetes in the text."}}},
		page{"d", "Other d", [][2]string{{"", "Kubernetes too."}}},
	)
	f.index("s2", page{"e", "Kubernetes e", [][2]string{{"", "Three."}}})
	terms, err := search.ParseQuery("kubernetes")
	if err != nil {
		t.Fatal(err)
	}
	q := search.Query{Terms: terms, Spaces: []string{"s1"}, Limit: 2, Without: search.NewPageSet([]string{"a", "b", "never-indexed"})}
	got, total, err := f.idx.Pages(context.Background(), f.db, q)
	if err != nil || len(got) != 2 || total != 2 || got[0].PageID == "a" || got[1].PageID == "b" {
		t.Fatalf("without a and b: %v (%d) %v, want c and d (2)", ids(got), total, err)
	}
	q.Spaces, q.Without, q.Limit = []string{"s1", "s2"}, search.NewPageSet([]string{"a", "b", "c", "d"}), 10
	spaces, total, err := f.idx.Spaces(context.Background(), f.db, q)
	if err != nil || len(spaces) != 1 || spaces[0].SpaceID != "s2" || total != 1 {
		t.Fatalf("spaces without every page of s1: %+v (%d) %v", spaces, total, err)
	}
}
