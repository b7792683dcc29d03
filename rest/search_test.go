package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/sweep"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// searchPage is a page of search results as the wire carries it.
type searchPage struct {
	ID, Title, Description, Path, ResultType string
	Score                                    float64
	Rank                                     int
	Ancestors                                []struct{ Title string }
	URLs                                     struct{ App string }
	Sections                                 []struct {
		ID, Title, Path, Body, ResultType string
		Score                             float64
		URLs                              struct{ App string }
	}
}

type searchList struct {
	Items []searchPage
	Count int
	Next  *struct{ Page string }
}

type orgSearchList struct {
	Items []struct {
		Type, ID, Title string
		Score           float64
		Pages           []searchPage
	}
	Count int
	Next  *struct{ Page string }
}

// publish writes changes to a new change request and merges it into the space's content.
func (f *crFixture) publish(t *testing.T, changes ...map[string]any) map[string]any {
	t.Helper()
	cr := fmt.Sprint(f.create(t, f.admin, "Publish")["number"])
	answer := f.edit(t, f.admin, cr, changes...)
	crWant(t, f.merge(t, f.admin, cr), http.StatusOK)
	return answer
}

// searchSpace searches a space as a over REST and decodes the list.
func searchSpace(t *testing.T, e *testenv.Env, a testenv.Actor, spaceID, query, extra string) searchList {
	t.Helper()
	return searchREST[searchList](t, e, a, "/v1/spaces/"+spaceID, query, extra)
}

// searchOrg searches an organization as a over REST and decodes the list.
func searchOrg(t *testing.T, e *testenv.Env, a testenv.Actor, orgID, query, extra string) orgSearchList {
	t.Helper()
	return searchREST[orgSearchList](t, e, a, "/v1/orgs/"+orgID, query, extra)
}

// searchREST calls the search of the object at path, which must answer 200, and decodes it.
func searchREST[L any](t *testing.T, e *testenv.Env, a testenv.Actor, path, query, extra string) L {
	t.Helper()
	r := e.Do(a, "GET", path+"/search?query="+url.QueryEscape(query)+extra, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("search %q of %s: %d %s", query, path, r.Status, r.Body)
	}
	var l L
	r.JSON(t, &l)
	return l
}

func titles(pages []searchPage) []string {
	var out []string
	for _, p := range pages {
		out = append(out, p.Title)
	}
	return out
}

func TestSearchRelevance(t *testing.T) {
	f := newCRFixture(t)
	f.publish(t,
		insert("Operations", "We deploy to kubernetes, among other platforms, every single day of the week."),
		insert("Kubernetes", "A guide to clusters.", "ref", "k8s"),
		insert("Setup", "Intro.\n\n## Kubernetes install\n\nRun the installer.", "into", "k8s"),
	)
	l := searchSpace(t, f.e, f.admin, f.space, "kubernetes", "")
	if got := titles(l.Items); strings.Join(got, ",") != "Kubernetes,Setup,Operations" || l.Count != 3 || l.Next != nil {
		t.Fatalf("results %v (count %d): want the title hit, then the heading hit, then the body hit", got, l.Count)
	}
	title, heading, body := l.Items[0], l.Items[1], l.Items[2]
	app := f.e.Server.URL + "/o/" + f.org + "/s/" + f.space + "/"
	if title.ResultType != "page" || title.Rank != 1 || title.Path != "kubernetes" || title.URLs.App != app+"kubernetes" ||
		len(title.Ancestors) != 0 || title.Score <= heading.Score {
		t.Errorf("title hit %+v", title)
	}
	if len(title.Sections) != 1 || title.Sections[0].Body != "A guide to clusters." || title.Sections[0].ID != title.ID {
		t.Errorf("title hit's section %+v", title.Sections)
	}
	if heading.ResultType != "section" || heading.Rank != 2 || heading.Path != "kubernetes/setup" ||
		len(heading.Ancestors) != 1 || heading.Ancestors[0].Title != "Kubernetes" {
		t.Errorf("heading hit %+v", heading)
	}
	if s := heading.Sections; len(s) != 1 || s[0].Title != "Kubernetes install" || s[0].ID != heading.ID+"#kubernetes-install" ||
		s[0].Path != "kubernetes/setup#kubernetes-install" || s[0].Body != "Run the installer." ||
		s[0].URLs.App != app+"kubernetes/setup#kubernetes-install" || s[0].ResultType != "section" {
		t.Errorf("heading hit's section %+v", s)
	}
	if body.Rank != 3 || !strings.Contains(body.Sections[0].Body, "deploy to kubernetes") {
		t.Errorf("body hit %+v", body)
	}
	t.Run("EveryWordAndPrefix", func(t *testing.T) {
		if got := titles(searchSpace(t, f.e, f.admin, f.space, "KUBERNETES install", "").Items); strings.Join(got, ",") != "Setup" {
			t.Errorf("two words: %v", got)
		}
		if got := titles(searchSpace(t, f.e, f.admin, f.space, "clust", "").Items); strings.Join(got, ",") != "Kubernetes" {
			t.Errorf("prefix: %v", got)
		}
		if l := searchSpace(t, f.e, f.admin, f.space, "zebra", ""); len(l.Items) != 0 || l.Count != 0 {
			t.Errorf("no match: %+v", l)
		}
	})
}

func TestSearchFollowsMerges(t *testing.T) {
	f := newCRFixture(t)
	answer := f.publish(t, insert("Notes", "The alpha release ships soon."), insert("Other", "Unrelated."))
	notes, other := createdID(t, answer, 0), createdID(t, answer, 1)
	if got := titles(searchSpace(t, f.e, f.admin, f.space, "alpha", "").Items); len(got) != 1 {
		t.Fatalf("after the first merge: %v", got)
	}
	f.publish(t, updateBody(notes, "The omega release shipped."),
		map[string]any{"operation": "delete_page", "page": other})
	if l := searchSpace(t, f.e, f.admin, f.space, "alpha", ""); len(l.Items) != 0 {
		t.Errorf("old text still found: %v", titles(l.Items))
	}
	if l := searchSpace(t, f.e, f.admin, f.space, "omega", ""); len(l.Items) != 1 || l.Items[0].ID != notes {
		t.Errorf("new text: %v", titles(l.Items))
	}
	if l := searchSpace(t, f.e, f.admin, f.space, "unrelated", ""); len(l.Items) != 0 {
		t.Errorf("deleted page still found: %v", titles(l.Items))
	}
	t.Run("UnmergedChangesAreNotFound", func(t *testing.T) {
		cr := fmt.Sprint(f.create(t, f.admin, "Draft")["number"])
		f.edit(t, f.admin, cr, insert("Draft", "A secret plan."))
		if l := searchSpace(t, f.e, f.admin, f.space, "secret", ""); len(l.Items) != 0 {
			t.Errorf("a change request's content found: %v", titles(l.Items))
		}
	})
	t.Run("DuplicateIsSearchable", func(t *testing.T) {
		r := f.e.Do(f.admin, "POST", "/v1/spaces/"+f.space+"/duplicate", nil)
		if r.Status != http.StatusCreated {
			t.Fatalf("duplicate: %d %s", r.Status, r.Body)
		}
		copied := r.Map(t)["id"].(string)
		if l := searchSpace(t, f.e, f.admin, copied, "omega", ""); len(l.Items) != 1 || l.Items[0].ID == notes {
			t.Errorf("the copy's results: %+v", l.Items)
		}
	})
}

func TestSearchDeletedSpace(t *testing.T) {
	clock := testenv.NewClock(time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC))
	f := newCRFixture(t, func(o *server.Options) { o.Clock = clock.Now })
	f.publish(t, insert("Gone", "Ephemeral words."))
	orgHits := func() int { return searchOrg(t, f.e, f.admin, f.org, "ephemeral", "").Count }
	if orgHits() != 1 {
		t.Fatal("not found before the delete")
	}
	if r := f.e.Do(f.admin, "DELETE", "/v1/spaces/"+f.space, nil); r.Status != http.StatusResetContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	testenv.CheckError(t, f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space+"/search?query=ephemeral", nil), http.StatusNotFound)
	if n := orgHits(); n != 0 {
		t.Errorf("a deleted space is found in its organization (%d)", n)
	}
	if r := f.e.Do(f.admin, "POST", "/v1/spaces/"+f.space+"/restore", nil); r.Status != http.StatusOK {
		t.Fatalf("restore: %d %s", r.Status, r.Body)
	}
	if orgHits() != 1 {
		t.Error("a restored space is not found")
	}
	f.e.Do(f.admin, "DELETE", "/v1/spaces/"+f.space, nil)
	if n, err := sweep.Sweep(context.Background(), f.e.Store.Client, clock.Now().Add(8*24*time.Hour)); err != nil || n != 1 {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	rows, err := f.e.Store.Client.QueryContext(context.Background(), "SELECT count(*) FROM search_sections")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var left int
	if !rows.Next() || rows.Scan(&left) != nil || left != 0 {
		t.Errorf("the swept space left %d sections in the index", left)
	}
}

func TestSearchAccess(t *testing.T) {
	f := newCRFixture(t)
	f.publish(t, insert("Shared", "Common knowledge."))
	hidden := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Hidden"})["id"].(string)
	hf := &crFixture{e: f.e, admin: f.admin, org: f.org, space: hidden}
	hf.publish(t, insert("Secret", "Common knowledge, hidden."))
	if r := f.e.Do(f.admin, "PATCH", "/v1/spaces/"+hidden, map[string]any{"defaultLevel": nil}); r.Status != http.StatusOK {
		t.Fatalf("patch: %d %s", r.Status, r.Body)
	}
	reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
	guest := f.e.User("gus@example.com", f.org, nil)
	outsider, _ := f.e.Bootstrap("otto@example.com", "Other")

	spacesFound := func(a testenv.Actor) []string {
		var ids []string
		for _, s := range searchOrg(t, f.e, a, f.org, "common", "").Items {
			ids = append(ids, s.ID)
		}
		return ids
	}
	t.Run("AdminFindsBoth", func(t *testing.T) {
		if got := spacesFound(f.admin); len(got) != 2 {
			t.Errorf("spaces %v", got)
		}
	})
	t.Run("ReaderFindsOnlyReadable", func(t *testing.T) {
		if got := spacesFound(reader); len(got) != 1 || got[0] != f.space {
			t.Errorf("spaces %v, want only %s", got, f.space)
		}
		if l := searchSpace(t, f.e, reader, f.space, "common", ""); len(l.Items) != 1 {
			t.Errorf("space search: %v", titles(l.Items))
		}
		testenv.CheckError(t, f.e.Do(reader, "GET", "/v1/spaces/"+hidden+"/search?query=common", nil), http.StatusNotFound)
	})
	t.Run("GuestFindsNothing", func(t *testing.T) {
		if got := spacesFound(guest); len(got) != 0 {
			t.Errorf("spaces %v", got)
		}
		testenv.CheckError(t, f.e.Do(guest, "GET", "/v1/spaces/"+f.space+"/search?query=common", nil), http.StatusNotFound)
	})
	t.Run("ErrOutsiderNotFound", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(outsider, "GET", "/v1/spaces/"+f.space+"/search?query=common", nil), http.StatusNotFound)
		testenv.CheckError(t, f.e.Do(outsider, "GET", "/v1/orgs/"+f.org+"/search?query=common", nil), http.StatusNotFound)
		g := f.e.GraphQL(outsider, `query($id: ID!) { organization(id: $id) { search(query: "common") { totalCount } } }`,
			map[string]any{"id": f.org})
		if g.Code() != "NOT_FOUND" {
			t.Errorf("GraphQL: %q", g.Code())
		}
	})
}

// TestSearchOrganizationScope: an organization's search finds, among the spaces that hold the
// word, only the live ones of that organization the viewer may read (by default level or by a
// grant), although a space of another organization that the same viewers read holds it too; a
// space moved to the other organization is found there at once, and no longer in its first.
func TestSearchOrganizationScope(t *testing.T) {
	f := newCRFixture(t)
	reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
	zetaAdmin, zeta := f.e.Bootstrap("zed@example.com", "Zeta")
	for a, role := range map[testenv.Actor]viewer.Role{f.admin: viewer.RoleAdmin, reader: viewer.RoleRead} {
		f.e.Store.Client.Member.Create().SetOrganizationID(zeta).SetUserID(a.UserID).SetRole(role).ExecX(system())
	}
	withWord := func(org, title string, patch map[string]any) string {
		id := createSpace(t, f.e, f.admin, org, map[string]any{"title": title})["id"].(string)
		(&crFixture{e: f.e, admin: f.admin, org: org, space: id}).publish(t, insert(title, "Marmalade for "+title+"."))
		if r := f.e.Do(f.admin, "PATCH", "/v1/spaces/"+id, patch); patch != nil && r.Status != http.StatusOK {
			t.Fatalf("patch %s: %d %s", title, r.Status, r.Body)
		}
		return id
	}
	open := withWord(f.org, "Open", nil)
	hidden := withWord(f.org, "Hidden", map[string]any{"defaultLevel": nil})
	granted := withWord(f.org, "Granted", map[string]any{"defaultLevel": nil})
	r := f.e.Do(f.admin, "POST", "/v1/spaces/"+granted+"/permissions", map[string]any{"role": "read", "users": []string{reader.UserID}})
	if r.Status/100 != 2 {
		t.Fatalf("grant: %d %s", r.Status, r.Body)
	}
	foreign := withWord(zeta, "Foreign", nil)
	f.publish(t, insert("Plain", "Nothing sweet.")) // a space that holds other words only

	found := func(a testenv.Actor, org string) string {
		l := searchOrg(t, f.e, a, org, "marmalade", "")
		var ids []string
		for _, s := range l.Items {
			ids = append(ids, s.ID)
		}
		slices.Sort(ids)
		return fmt.Sprintf("%d %v", l.Count, ids)
	}
	want := func(ids ...string) string {
		slices.Sort(ids)
		return fmt.Sprintf("%d %v", len(ids), ids)
	}
	cases := []struct {
		name string
		a    testenv.Actor
		org  string
		want string
	}{
		{"AdminFindsEveryOwnSpace", f.admin, f.org, want(open, hidden, granted)},
		{"ReaderFindsReadableOnly", reader, f.org, want(open, granted)},
		{"OtherOrganization", reader, zeta, want(foreign)},
		{"OtherAdminFindsOwnOnly", zetaAdmin, zeta, want(foreign)},
	}
	for _, c := range cases {
		if got := found(c.a, c.org); got != c.want {
			t.Errorf("%s: found %s, want %s", c.name, got, c.want)
		}
	}
	t.Run("Transfer", func(t *testing.T) {
		if r := f.e.Do(f.admin, "POST", "/v1/spaces/"+open+"/transfer", map[string]any{"organization": zeta}); r.Status != http.StatusOK {
			t.Fatalf("transfer: %d %s", r.Status, r.Body)
		}
		if got := found(reader, f.org); got != want(granted) {
			t.Errorf("the first organization after the transfer: %s", got)
		}
		if got := found(zetaAdmin, zeta); got != want(open, foreign) {
			t.Errorf("the other organization after the transfer: %s", got)
		}
	})
}

func TestSearchOrganizationGroupsBySpace(t *testing.T) {
	f := newCRFixture(t)
	f.publish(t, insert("Other", "Widget mentioned once."))
	second := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Catalog"})["id"].(string)
	sf := &crFixture{e: f.e, admin: f.admin, org: f.org, space: second}
	sf.publish(t, insert("Widget", "All about it."), insert("Gadget", "A widget too."))

	first := searchOrg(t, f.e, f.admin, f.org, "widget", "&limit=1")
	if first.Count != 2 || len(first.Items) != 1 || first.Next == nil {
		t.Fatalf("first page: %+v", first)
	}
	s := first.Items[0]
	if s.Type != "space" || s.ID != second || s.Title != "Catalog" || len(s.Pages) != 2 || s.Pages[0].Title != "Widget" ||
		s.Pages[0].Rank != 1 || s.Score != s.Pages[0].Score {
		t.Errorf("best space %+v", s)
	}
	if !strings.HasPrefix(s.Pages[0].URLs.App, f.e.Server.URL+"/o/"+f.org+"/s/"+second+"/") {
		t.Errorf("page URL %s", s.Pages[0].URLs.App)
	}
	rest := searchOrg(t, f.e, f.admin, f.org, "widget", "&limit=1&page="+first.Next.Page)
	if len(rest.Items) != 1 || rest.Items[0].ID != f.space || rest.Next != nil || rest.Count != 2 {
		t.Fatalf("second page: %+v", rest)
	}
	ranks := map[int]bool{s.Pages[0].Rank: true, s.Pages[1].Rank: true, rest.Items[0].Pages[0].Rank: true}
	if len(ranks) != 3 || !ranks[1] || !ranks[2] || !ranks[3] {
		t.Errorf("ranks %v: want 1, 2 and 3 across the spaces", ranks)
	}
}

func TestSearchPagination(t *testing.T) {
	f := newCRFixture(t)
	var changes []map[string]any
	for i := range 5 {
		changes = append(changes, insert(fmt.Sprintf("Page %d", i), strings.Repeat("filler ", i)+"needle"))
	}
	f.publish(t, changes...)
	var seen []string
	next := ""
	for range 5 {
		l := searchSpace(t, f.e, f.admin, f.space, "needle", "&limit=2"+next)
		if l.Count != 5 || (len(seen) < 4) != (l.Next != nil) {
			t.Fatalf("after %d results: count %d, next %v", len(seen), l.Count, l.Next)
		}
		for i, p := range l.Items {
			if p.Rank != len(seen)+1 {
				t.Errorf("result %d has rank %d", len(seen)+i+1, p.Rank)
			}
			seen = append(seen, p.ID)
		}
		if l.Next == nil {
			break
		}
		next = "&page=" + url.QueryEscape(l.Next.Page)
	}
	all := searchSpace(t, f.e, f.admin, f.space, "needle", "")
	var ids []string
	for _, p := range all.Items {
		ids = append(ids, p.ID)
	}
	if strings.Join(seen, ",") != strings.Join(ids, ",") {
		t.Errorf("paged %v, at once %v", seen, ids)
	}
	if l := searchSpace(t, f.e, f.admin, f.space, "needle", "&limit=0"); len(l.Items) != 0 || l.Count != 5 {
		t.Errorf("limit 0: %+v", l)
	}
}

func TestSearchBounds(t *testing.T) {
	f := newCRFixture(t)
	f.publish(t, insert("Page", "Some text."))
	space, org := "/v1/spaces/"+f.space+"/search", "/v1/orgs/"+f.org+"/search"
	cases := []struct{ name, query string }{
		{"ErrMissing", ""},
		{"ErrEmpty", "?query="},
		{"ErrBlank", "?query=%20%09%0A"},
		{"ErrTooLong", "?query=" + strings.Repeat("a", 513)},
		{"ErrNoWords", "?query=" + url.QueryEscape(`"*^:()`)},
		{"ErrTooManyWords", "?query=" + url.QueryEscape(manyWords(33))},
		{"ErrLimit", "?query=text&limit=1001"},
		{"ErrPageToken", "?query=text&page=bogus"},
		{"ErrForeignPageToken", "?query=text&page=eyJrIjoiYWJjIiwiaSI6IngifQ"}, // {"k":"abc","i":"x"}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, p := range []string{space, org} {
				msg := testenv.CheckError(t, f.e.Do(f.admin, "GET", p+c.query, nil), http.StatusBadRequest)
				if !strings.HasPrefix(msg, "query:") && !strings.HasPrefix(msg, "limit") && !strings.HasPrefix(msg, "page:") {
					t.Errorf("%s: message %q names no parameter", p, msg)
				}
			}
		})
	}
	t.Run("Longest", func(t *testing.T) {
		searchSpace(t, f.e, f.admin, f.space, strings.Repeat("é", 512), "")
	})
}

func manyWords(n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("w%d", i)
	}
	return strings.Join(words, " ")
}

// TestSearchHostileQueries sends queries shaped like FTS syntax and SQL over REST and GraphQL:
// each answers 200 or 400, never 500, and the index is intact afterwards.
func TestSearchHostileQueries(t *testing.T) {
	f := newCRFixture(t)
	f.publish(t, insert("Near", `Quote " star * caret ^ colon : paren ( drop table spaces`))
	queries := []string{`"`, `"unterminated`, `a"b`, `NEAR(drop table)`, `NEAR(a, b, 3)`, `*`, `drop*`, `*drop`,
		`^near`, `title:near`, `body: x`, `(a OR b) AND NOT c`, `AND`, `-near`, `'`, `a'b`, `\`, `'; DROP TABLE spaces; --`,
		`1 OR 1=1`, `%`, `_`, `near:*`, `near & b | !c`, `<->`, `{title}`, `search_words MATCH 'x'`, "東京", "🙂"}
	for _, q := range queries {
		r := f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space+"/search?query="+url.QueryEscape(q), nil)
		if r.Status != http.StatusOK && r.Status != http.StatusBadRequest {
			t.Errorf("REST %q: %d %s", q, r.Status, r.Body)
		}
		g := f.e.GraphQL(f.admin, `query($id: ID!, $q: String!) { organization(id: $id) { search(query: $q) { totalCount } } }`,
			map[string]any{"id": f.org, "q": q})
		if code := g.Code(); code != "" && code != "BAD_REQUEST" {
			t.Errorf("GraphQL %q: %s %v", q, code, g.Errors)
		}
	}
	if l := searchSpace(t, f.e, f.admin, f.space, "drop table", ""); len(l.Items) != 1 {
		t.Errorf("the index after hostile queries: %+v", l)
	}
}

func TestSearchGraphQL(t *testing.T) {
	f := newCRFixture(t)
	f.publish(t, insert("Alpha", "First page about rockets.\n\n## Launch\n\nRockets launch."), insert("Beta", "Rockets again."))
	const q = `query($space: ID!, $org: ID!, $q: String!, $after: String) {
		space(id: $space) { search(query: $q, first: 1, after: $after) {
			totalCount pageInfo { hasNextPage endCursor }
			edges { cursor node { id title path rank resultType score ancestors sections { id title path body resultType } } } } }
		organization(id: $org) { search(query: $q) { totalCount edges { node { space { id title } score pages { title rank } } } } } }`
	var out struct {
		Space struct {
			Search struct {
				TotalCount int
				PageInfo   struct {
					HasNextPage bool
					EndCursor   string
				}
				Edges []struct {
					Node struct {
						ID, Title, Path, ResultType string
						Rank                        int
						Sections                    []struct{ ID, Title, Body string }
					}
				}
			}
		}
		Organization struct {
			Search struct {
				TotalCount int
				Edges      []struct {
					Node struct {
						Space struct{ ID, Title string }
						Pages []struct {
							Title string
							Rank  int
						}
					}
				}
			}
		}
	}
	vars := map[string]any{"space": f.space, "org": f.org, "q": "rockets"}
	gqlOK(t, f.e.GraphQL(f.admin, q, vars), &out)
	s := out.Space.Search
	if s.TotalCount != 2 || !s.PageInfo.HasNextPage || len(s.Edges) != 1 || s.Edges[0].Node.Rank != 1 {
		t.Fatalf("space search: %+v", s)
	}
	if o := out.Organization.Search; o.TotalCount != 1 || o.Edges[0].Node.Space.ID != f.space || len(o.Edges[0].Node.Pages) != 2 {
		t.Errorf("organization search: %+v", o)
	}
	first := s.Edges[0].Node
	vars["after"] = s.PageInfo.EndCursor
	gqlOK(t, f.e.GraphQL(f.admin, q, vars), &out)
	if n := out.Space.Search.Edges; len(n) != 1 || n[0].Node.Rank != 2 || n[0].Node.ID == first.ID || out.Space.Search.PageInfo.HasNextPage {
		t.Errorf("second page: %+v", out.Space.Search)
	}
	g := f.e.GraphQL(f.admin, `query($id: ID!) { space(id: $id) { search(query: "  ") { totalCount } } }`, map[string]any{"id": f.space})
	if g.Code() != "BAD_REQUEST" || !strings.HasPrefix(g.Errors[0].Message, "query:") {
		t.Errorf("blank query over GraphQL: %+v", g.Errors)
	}
}

// TestSearchStatements: a search costs the same statements for 3 results as for 30 (the index's
// keys, ranking, count and shown sections; the space's revision), on both surfaces.
func TestSearchStatements(t *testing.T) {
	f := newCRFixture(t)
	var changes []map[string]any
	for i := range 30 {
		word := "few"
		if i < 3 {
			word = "some"
		}
		changes = append(changes, insert(fmt.Sprintf("Page %d", i), word+" words.\n\n## Part\n\nMore "+word+" words."))
	}
	f.publish(t, changes...)
	for _, q := range []string{"few", "some"} { // warm the tree cache
		searchSpace(t, f.e, f.admin, f.space, q, "")
	}
	count := func(q string) (rest, graphql int64) {
		rest = f.e.Statements(func() { searchSpace(t, f.e, f.admin, f.space, q, "&limit=50") })
		var out any
		graphql = f.e.Statements(func() {
			gqlOK(t, f.e.GraphQL(f.admin, `query($id: ID!, $q: String!) { space(id: $id) { search(query: $q, first: 50) {
				totalCount edges { node { title sections { body } } } } } }`, map[string]any{"id": f.space, "q": q}), &out)
		})
		return rest, graphql
	}
	fewREST, fewGQL := count("few")
	someREST, someGQL := count("some")
	if fewREST != someREST || fewGQL != someGQL {
		t.Errorf("statements for 27 and 3 results: REST %d and %d, GraphQL %d and %d", fewREST, someREST, fewGQL, someGQL)
	}
	t.Logf("REST %d, GraphQL %d statements", fewREST, fewGQL)
}

// TestSearchOrganizationStatements: an organization's search costs the same statements for an
// admin and for a reader (whose role comes from grants too), whether 2 or 12 spaces hold the word
// and whether the organization holds 4 spaces or 34, on both surfaces.
func TestSearchOrganizationStatements(t *testing.T) {
	f := newCRFixture(t)
	reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
	addSpaces := func(n int, body string) {
		for i := range n {
			id := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": fmt.Sprintf("S%d", i)})["id"].(string)
			if body != "" {
				(&crFixture{e: f.e, admin: f.admin, org: f.org, space: id}).publish(t, insert("Page", body))
			}
		}
	}
	count := func(a testenv.Actor) [2]int64 {
		searchOrg(t, f.e, a, f.org, "jam", "") // warm the tree cache
		rest := f.e.Statements(func() { searchOrg(t, f.e, a, f.org, "jam", "&limit=50") })
		var out any
		graphql := f.e.Statements(func() {
			gqlOK(t, f.e.GraphQL(a, `query($id: ID!) { organization(id: $id) { search(query: "jam", first: 50) {
				totalCount edges { node { space { id title } pages { title sections { body } } } } } } }`,
				map[string]any{"id": f.org}), &out)
		})
		return [2]int64{rest, graphql}
	}
	addSpaces(2, "Jam and bread.")
	addSpaces(1, "")
	r := f.e.Do(f.admin, "POST", "/v1/spaces/"+f.space+"/permissions", map[string]any{"role": "edit", "users": []string{reader.UserID}})
	if r.Status/100 != 2 {
		t.Fatalf("grant: %d %s", r.Status, r.Body)
	}
	few := map[string][2]int64{"admin": count(f.admin), "reader": count(reader)}
	addSpaces(10, "More jam.")
	addSpaces(20, "")
	many := map[string][2]int64{"admin": count(f.admin), "reader": count(reader)}
	for who := range few {
		if few[who] != many[who] {
			t.Errorf("%s: statements (REST, GraphQL) %v with 2 spaces holding the word of 4, %v with 12 of 34", who, few[who], many[who])
		}
	}
	if few["admin"] != few["reader"] {
		t.Errorf("statements (REST, GraphQL): admin %v, reader %v", few["admin"], few["reader"])
	}
	t.Logf("REST %d, GraphQL %d statements", few["admin"][0], few["admin"][1])
}
