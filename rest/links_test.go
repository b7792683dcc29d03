package rest_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// linksFixture is a space whose pages link to each other, to a file, to spaces and to URLs,
// merged from change request 1:
//
//	intro: setup, setup#install, the logo, the other space, a space of another organization,
//	       https://example.com/docs, this server's app URL and a path into it
//	setup: intro, the logo
type linksFixture struct {
	e                              *testenv.Env
	admin, reader, guest, outsider testenv.Actor
	org, space, other, foreign     string
	intro, setup, logo             string
	appURL                         string
}

func newLinksFixture(t *testing.T) *linksFixture {
	t.Helper()
	e := testenv.New(t)
	f := &linksFixture{e: e}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.reader = e.User("rob@example.com", f.org, testenv.Role(viewer.RoleRead))
	f.guest = e.User("gus@example.com", f.org, nil)
	var zeta string
	f.outsider, zeta = e.Bootstrap("zed@zeta.io", "Zeta")
	s := createSpace(t, e, f.admin, f.org, map[string]any{"title": "Docs"})
	f.space = s["id"].(string)
	f.appURL = s["urls"].(map[string]any)["app"].(string)
	f.other = createSpace(t, e, f.admin, f.org, map[string]any{"title": "Other"})["id"].(string)
	f.foreign = createSpace(t, e, f.outsider, zeta, map[string]any{"title": "Zeta's"})["id"].(string)

	crWant(t, e.Do(f.admin, "POST", f.path("/change-requests"), map[string]any{"subject": "Pages"}), http.StatusCreated)
	intro := "# Intro\n\nSee [setup](./setup.md), [installing](./setup.md#install) and ![the logo](./logo).\n\n" +
		"Also [Other](/spaces/" + f.other + "), [Zeta](/spaces/" + f.foreign + "), [the web](https://example.com/docs), " +
		"[this space](" + f.appURL + ") and [an app path](/o/" + f.org + ").\n\n`[not a link](/pages/nope)`\n"
	setup := "# Setup\n\nBack to the [intro](./intro.md); the [logo](./logo) again.\n"
	answer := e.Do(f.admin, "POST", f.path("/change-requests/1/content?compat=false"), map[string]any{"changes": []any{
		insert("Intro", intro, "ref", "intro"),
		insert("Setup", setup, "ref", "setup"),
		map[string]any{"operation": "insert_files", "files": []any{map[string]any{"ref": "logo", "name": "logo.png",
			"contentType": "image/png", "base64": base64.StdEncoding.EncodeToString([]byte("png"))}}},
	}}).Map(t)
	f.intro, f.setup = createdID(t, answer, 0), createdID(t, answer, 1)
	f.logo = answer["insertedFiles"].([]any)[0].(map[string]any)["id"].(string)
	crWant(t, e.Do(f.admin, "POST", f.path("/change-requests/1/merge"), nil), http.StatusOK)
	return f
}

func (f *linksFixture) path(suffix string) string { return "/v1/spaces/" + f.space + suffix }

// wireLinkList is what the tests read of a link list.
type wireLinkList struct {
	Items []struct {
		Status             string
		Relation           string
		TargetReference    map[string]string
		LocationReferences []json.RawMessage
	}
	Count int
	Next  *struct{ Page string }
	Stats struct {
		Total  int
		Broken struct{ Total, ChangeRequest int }
	}
}

// links reads a link list as a, checks every target and location against the reference's
// schemas, and returns it with its items as "status kind target" lines.
func (f *linksFixture) links(t *testing.T, a testenv.Actor, path string) (wireLinkList, []string) {
	t.Helper()
	r := f.e.Do(a, "GET", path, nil)
	crWant(t, r, http.StatusOK)
	var l wireLinkList
	r.JSON(t, &l)
	var lines []string
	for _, it := range l.Items {
		ref, _ := json.Marshal(it.TargetReference)
		f.e.Spec.ValidateSchema(t, "ContentRef", ref)
		for _, loc := range it.LocationReferences {
			f.e.Spec.ValidateSchema(t, "ContentLocation", loc)
		}
		if it.Relation != "reference" {
			t.Errorf("relation %q", it.Relation)
		}
		lines = append(lines, it.Status+" "+f.name(it.TargetReference))
	}
	return l, lines
}

// name spells a target with the fixture's names for its ids.
func (f *linksFixture) name(ref map[string]string) string {
	names := map[string]string{f.intro: "intro", f.setup: "setup", f.logo: "logo", f.other: "other", f.foreign: "foreign"}
	switch ref["kind"] {
	case "anchor":
		return "anchor " + names[ref["page"]] + "#" + ref["anchor"]
	case "url":
		return "url " + strings.ReplaceAll(strings.ReplaceAll(ref["url"], f.appURL, "APP"), f.org, "ORG")
	}
	return ref["kind"] + " " + names[ref[ref["kind"]]]
}

// pagesOf are the page ids of locations, in order.
func pagesOf(t *testing.T, locs []json.RawMessage) []string {
	var ids []string
	for _, raw := range locs {
		var loc struct {
			Kind  string
			Page  struct{ ID, Path string }
			Space struct{ ID string }
		}
		if err := json.Unmarshal(raw, &loc); err != nil || loc.Kind != "page" {
			t.Fatalf("location %s", raw)
		}
		ids = append(ids, loc.Page.ID)
	}
	return ids
}

func TestSpaceLinks(t *testing.T) {
	f := newLinksFixture(t)
	want := []string{
		"ok file logo",
		"ok page intro",
		"ok page setup",
		"ok anchor setup#install",
		"ok space other",
		"broken space foreign", // another organization's private space: unknown to the reader
		"in-app url /o/ORG",
		"in-app url APP",
		"ok url https://example.com/docs",
	}
	slices.Sort(want)
	var all []string // the unpaged list, in its order
	t.Run("OK", func(t *testing.T) {
		l, lines := f.links(t, f.reader, f.path("/links"))
		all = lines
		if lines = slices.Sorted(slices.Values(lines)); !slices.Equal(lines, want) {
			t.Fatalf("links\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
		}
		if l.Count != 9 || l.Next != nil || l.Stats.Total != 9 || l.Stats.Broken.Total != 1 || l.Stats.Broken.ChangeRequest != 0 {
			t.Fatalf("count %d, next %v, stats %+v", l.Count, l.Next, l.Stats)
		}
		if got := pagesOf(t, l.Items[0].LocationReferences); !slices.Equal(got, []string{f.intro, f.setup}) {
			t.Fatalf("the logo is linked from %v, want intro and setup in tree order", got)
		}
	})
	t.Run("OKStatusFilter", func(t *testing.T) {
		for status, wantLines := range map[string][]string{
			"broken": {"broken space foreign"},
			"in-app": {"in-app url /o/ORG", "in-app url APP"},
		} {
			l, lines := f.links(t, f.reader, f.path("/links?status="+status))
			if !slices.Equal(lines, wantLines) || l.Count != len(wantLines) || l.Stats.Total != 9 {
				t.Fatalf("status=%s: %v, count %d, stats %+v", status, lines, l.Count, l.Stats)
			}
		}
	})
	t.Run("OKPages", func(t *testing.T) {
		var paged []string
		next := f.path("/links?limit=4")
		for next != "" {
			l, lines := f.links(t, f.reader, next)
			paged, next = append(paged, lines...), ""
			if l.Next != nil {
				next = f.path("/links?limit=4&page=" + url.QueryEscape(l.Next.Page))
			}
		}
		if !slices.Equal(paged, all) {
			t.Fatalf("pages of 4:\n%s\nwant\n%s", strings.Join(paged, "\n"), strings.Join(all, "\n"))
		}
	})
	t.Run("ErrBadQuery", func(t *testing.T) {
		crWantError(t, f.e.Do(f.reader, "GET", f.path("/links?status=gone"), nil), http.StatusBadRequest, "status")
		crWantError(t, f.e.Do(f.reader, "GET", f.path("/links?limit=1001"), nil), http.StatusBadRequest, "limit")
		crWantError(t, f.e.Do(f.reader, "GET", f.path("/links?page=garbage"), nil), http.StatusBadRequest, "page")
	})
}

func TestPageLinksAndBacklinks(t *testing.T) {
	f := newLinksFixture(t)
	t.Run("OKPageLinks", func(t *testing.T) {
		l, lines := f.links(t, f.reader, f.path("/content/page/"+f.setup+"/links"))
		if !slices.Equal(lines, []string{"ok file logo", "ok page intro"}) || l.Stats.Total != 2 || l.Stats.Broken.Total != 0 {
			t.Fatalf("setup's links %v, stats %+v", lines, l.Stats)
		}
		if got := pagesOf(t, l.Items[1].LocationReferences); !slices.Equal(got, []string{f.setup}) {
			t.Fatalf("locations %v", got)
		}
	})
	t.Run("OKBacklinks", func(t *testing.T) {
		if got := f.backlinks(t, f.reader, f.path("/content/files/"+f.logo+"/backlinks")); !slices.Equal(got, []string{f.intro, f.setup}) {
			t.Fatalf("backlinks of the logo: %v", got)
		}
	})
	t.Run("ErrUnknownPageOrFile", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.reader, "GET", f.path("/content/page/nope/links"), nil), http.StatusNotFound)
		testenv.CheckError(t, f.e.Do(f.reader, "GET", f.path("/content/files/nope/backlinks"), nil), http.StatusNotFound)
	})
}

// backlinks reads a backlink list, checks its items against ContentLocation and returns their
// page ids.
func (f *linksFixture) backlinks(t *testing.T, a testenv.Actor, path string) []string {
	t.Helper()
	r := f.e.Do(a, "GET", path, nil)
	crWant(t, r, http.StatusOK)
	var l struct {
		Items []json.RawMessage
		Count int
	}
	r.JSON(t, &l)
	for _, it := range l.Items {
		f.e.Spec.ValidateSchema(t, "ContentLocation", it)
	}
	if l.Count != len(l.Items) {
		t.Fatalf("count %d for %d items", l.Count, len(l.Items))
	}
	return pagesOf(t, l.Items)
}

// TestChangeRequestLinks deletes the setup page in change request 2: intro's links to it break
// there (and count as introduced by it), not in the space's content.
func TestChangeRequestLinks(t *testing.T) {
	f := newLinksFixture(t)
	crWant(t, f.e.Do(f.admin, "POST", f.path("/change-requests"), map[string]any{"subject": "Drop setup"}), http.StatusCreated)
	crWant(t, f.e.Do(f.admin, "POST", f.path("/change-requests/2/content"), map[string]any{"changes": []any{
		map[string]any{"operation": "delete_page", "page": f.setup}}}), http.StatusOK)
	cr := "/change-requests/2/content"

	l, lines := f.links(t, f.reader, f.path(cr+"/page/"+f.intro+"/links"))
	for _, w := range []string{"broken page setup", "broken anchor setup#install", "broken space foreign"} {
		if !slices.Contains(lines, w) {
			t.Fatalf("%q missing from %v", w, lines)
		}
	}
	if l.Stats.Total != 8 || l.Stats.Broken.Total != 3 || l.Stats.Broken.ChangeRequest != 2 {
		t.Fatalf("stats %+v: want 3 broken, 2 of them by the change request (the foreign space was broken before)", l.Stats)
	}
	var loc struct {
		VersionContext struct {
			Type          string
			ChangeRequest struct{ Number int }
		}
	}
	if err := json.Unmarshal(l.Items[0].LocationReferences[0], &loc); err != nil || loc.VersionContext.Type != "changeRequest" ||
		loc.VersionContext.ChangeRequest.Number != 2 {
		t.Fatalf("version context %+v (%v)", loc.VersionContext, err)
	}
	broken, _ := f.links(t, f.reader, f.path(cr+"/page/"+f.intro+"/links?status=broken"))
	if broken.Count != 3 || broken.Stats.Broken.ChangeRequest != 2 {
		t.Fatalf("broken only: count %d, stats %+v", broken.Count, broken.Stats)
	}
	if got := f.backlinks(t, f.reader, f.path(cr+"/files/"+f.logo+"/backlinks")); !slices.Equal(got, []string{f.intro}) {
		t.Fatalf("backlinks in the change request: %v", got)
	}
	space, _ := f.links(t, f.reader, f.path("/content/page/"+f.intro+"/links"))
	if space.Stats.Broken.Total != 1 {
		t.Fatalf("the space's content changed: %+v", space.Stats)
	}
}

// accessCase is an actor and the status their reads get.
type accessCase struct {
	name   string
	actor  testenv.Actor
	status int
}

// contentReaders are the actors of a space's content reads: its admin and a reader read it; a
// guest without a grant and an outsider do not see it; no token is 401.
func contentReaders(admin, reader, guest, outsider testenv.Actor) []accessCase {
	return []accessCase{
		{"OKAdmin", admin, http.StatusOK},
		{"OKReader", reader, http.StatusOK},
		{"ErrGuest", guest, http.StatusNotFound},
		{"ErrOutsider", outsider, http.StatusNotFound},
		{"ErrNoToken", testenv.Actor{}, http.StatusUnauthorized},
	}
}

// checkReads GETs full(p) for every path p as every actor: a success must be 200, a failure the
// error body with the actor's status.
func checkReads(t *testing.T, e *testenv.Env, cases []accessCase, full func(string) string, paths []string) {
	t.Helper()
	for _, a := range cases {
		for _, p := range paths {
			t.Run(a.name+p, func(t *testing.T) {
				r := e.Do(a.actor, "GET", full(p), nil)
				if a.status == http.StatusOK {
					crWant(t, r, http.StatusOK)
				} else {
					testenv.CheckError(t, r, a.status)
				}
			})
		}
	}
}

func TestLinksAccess(t *testing.T) {
	f := newLinksFixture(t)
	paths := []string{"/links", "/content/page/" + f.intro + "/links", "/content/files/" + f.logo + "/backlinks",
		"/change-requests/1/content/page/" + f.intro + "/links", "/change-requests/1/content/files/" + f.logo + "/backlinks"}
	checkReads(t, f.e, contentReaders(f.admin, f.reader, f.guest, f.outsider), f.path, paths)
	t.Run("OKPublicSpaceToOutsider", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "PATCH", f.path(""), map[string]any{"visibility": "public"}), http.StatusOK)
		l, lines := f.links(t, f.outsider, f.path("/links"))
		var loc struct {
			Organization struct {
				ID           string
				EmailDomains []string
				Permissions  map[string]bool
			}
		}
		if err := json.Unmarshal(l.Items[0].LocationReferences[0], &loc); err != nil || loc.Organization.ID != f.org ||
			len(loc.Organization.EmailDomains) != 0 || loc.Organization.Permissions["view"] {
			t.Fatalf("the outsider sees the organization as %+v (%v)", loc.Organization, err)
		}
		// The organization's other space stays private: broken for the outsider, whose own space works.
		if !slices.Contains(lines, "broken space other") || !slices.Contains(lines, "ok space foreign") || l.Stats.Broken.Total != 1 {
			t.Fatalf("links for the outsider %v, stats %+v", lines, l.Stats)
		}
	})
}

func TestLinksGraphQL(t *testing.T) {
	f := newLinksFixture(t)
	const q = `query($s: ID!, $page: ID!, $file: ID!) { space(id: $s) { revision {
		links(first: 2) { totalCount stats { total broken brokenInChangeRequest } pageInfo { hasNextPage }
			edges { node { status target { kind page anchor file space url } sources { id title path } } } }
		broken: links(status: BROKEN) { totalCount edges { node { target { space } } } }
		inApp: links(status: IN_APP) { totalCount }
		pageLinks(page: $page) { totalCount edges { node { status target { kind page anchor } } } }
		noPage: pageLinks(page: "nope") { totalCount }
		fileBacklinks(file: $file) { totalCount edges { node { id title path } } }
		noFile: fileBacklinks(file: "nope") { totalCount } } } }`
	type target struct{ Kind, Page, Anchor, File, Space, URL string }
	var d struct {
		Space struct {
			Revision struct {
				Links struct {
					TotalCount int
					Stats      struct{ Total, Broken, BrokenInChangeRequest int }
					PageInfo   struct{ HasNextPage bool }
					Edges      []struct {
						Node struct {
							Status  string
							Target  target
							Sources []struct{ ID, Title, Path string }
						}
					}
				}
				Broken struct {
					TotalCount int
					Edges      []struct{ Node struct{ Target target } }
				}
				InApp     struct{ TotalCount int }
				PageLinks struct {
					TotalCount int
					Edges      []struct {
						Node struct {
							Status string
							Target target
						}
					}
				}
				NoPage        *struct{ TotalCount int }
				FileBacklinks struct {
					TotalCount int
					Edges      []struct {
						Node struct{ ID, Title, Path string }
					}
				}
				NoFile *struct{ TotalCount int }
			}
		}
	}
	vars := map[string]any{"s": f.space, "page": f.intro, "file": f.logo}
	t.Run("OK", func(t *testing.T) {
		gqlOK(t, f.e.GraphQL(f.reader, q, vars), &d)
		rev := d.Space.Revision
		if l := rev.Links; l.TotalCount != 9 || l.Stats.Total != 9 || l.Stats.Broken != 1 || l.Stats.BrokenInChangeRequest != 0 ||
			!l.PageInfo.HasNextPage || len(l.Edges) != 2 {
			t.Fatalf("links %+v", l)
		}
		logo := rev.Links.Edges[0].Node
		if logo.Status != "OK" || logo.Target != (target{Kind: "file", File: f.logo}) || len(logo.Sources) != 2 ||
			logo.Sources[0].Path != "intro" || logo.Sources[1].Title != "Setup" {
			t.Fatalf("the logo's link %+v", logo)
		}
		if rev.Broken.TotalCount != 1 || rev.Broken.Edges[0].Node.Target.Space != f.foreign || rev.InApp.TotalCount != 2 {
			t.Fatalf("filters: broken %+v, in-app %d", rev.Broken, rev.InApp.TotalCount)
		}
		anchor := rev.PageLinks.Edges[2].Node // file, page setup, page setup#install
		if rev.PageLinks.TotalCount != 8 || anchor.Target != (target{Kind: "page", Page: f.setup, Anchor: "install"}) {
			t.Fatalf("intro's links %+v", rev.PageLinks)
		}
		if rev.NoPage != nil || rev.NoFile != nil || rev.FileBacklinks.TotalCount != 2 || rev.FileBacklinks.Edges[1].Node.ID != f.setup {
			t.Fatalf("backlinks %+v, lookups %v %v", rev.FileBacklinks, rev.NoPage, rev.NoFile)
		}
	})
	t.Run("OKChangeRequestStats", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "POST", f.path("/change-requests"), map[string]any{}), http.StatusCreated)
		crWant(t, f.e.Do(f.admin, "POST", f.path("/change-requests/2/content"), map[string]any{"changes": []any{
			map[string]any{"operation": "delete_page", "page": f.setup}}}), http.StatusOK)
		var cr struct {
			ChangeRequest struct {
				Revision struct {
					Links struct {
						Stats struct{ Total, Broken, BrokenInChangeRequest int }
					}
				}
			}
		}
		gqlOK(t, f.e.GraphQL(f.reader, `query($s: ID!) { changeRequest(spaceId: $s, id: "2") {
			revision { links { stats { total broken brokenInChangeRequest } } } } }`, map[string]any{"s": f.space}), &cr)
		// Without setup, the revision has intro's links only (its link to intro went with it).
		if s := cr.ChangeRequest.Revision.Links.Stats; s.Total != 8 || s.Broken != 3 || s.BrokenInChangeRequest != 2 {
			t.Fatalf("change request stats %+v", s)
		}
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		if g := f.e.GraphQL(f.outsider, q, vars); g.Code() != "NOT_FOUND" {
			t.Fatalf("outsider: %+v %s", g.Errors, g.Data)
		}
	})
	t.Run("ErrBadStatus", func(t *testing.T) {
		g := f.e.GraphQL(f.reader, `query($s: ID!) { space(id: $s) { revision { links(status: GONE) { totalCount } } } }`,
			map[string]any{"s": f.space})
		if len(g.Errors) == 0 {
			t.Fatalf("status GONE accepted: %s", g.Data)
		}
	})
}
