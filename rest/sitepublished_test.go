package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// wirePublished is the part of a PublishedContentSite the tests read. Its items are those of a
// structure of either type: sections (with their site spaces), groups, or site spaces.
type wirePublished struct {
	Object string
	Site   struct {
		ID   string
		URLs struct{ Published, Preview string }
	}
	Structure struct {
		Type      string
		Structure []struct {
			Object     string
			ID         string
			Path       string
			URLs       struct{ Published string }
			Space      struct{ ID string }
			SiteSpaces []struct {
				ID    string
				URLs  struct{ Published string }
				Space struct{ ID string }
			}
		}
	}
	Customizations struct {
		Site       map[string]any
		SiteSpaces map[string]map[string]any
	}
	Scripts []any
}

// publishedURLs lists every urls.published of the answer: the site's, then each item's and its
// site spaces'.
func (p wirePublished) publishedURLs() []string {
	out := []string{p.Site.URLs.Published}
	for _, it := range p.Structure.Structure {
		out = append(out, it.URLs.Published)
		for _, ss := range it.SiteSpaces {
			out = append(out, ss.URLs.Published)
		}
	}
	return out
}

// siteSpaceIDs are the ids of the site spaces of the structure, in order.
func (p wirePublished) siteSpaceIDs() []string {
	var out []string
	for _, it := range p.Structure.Structure {
		if it.Object == "site-space" {
			out = append(out, it.ID)
		}
		for _, ss := range it.SiteSpaces {
			out = append(out, ss.ID)
		}
	}
	return out
}

// published GETs the site's published content as a with the query, and decodes it (the answer
// is checked against the reference's PublishedContentSite by testenv).
func (f *sharingFixture) published(t *testing.T, a testenv.Actor, query string) wirePublished {
	t.Helper()
	resp := f.e.Do(a, "GET", f.at("published")+query, nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("published: %d %s", resp.Status, resp.Body)
	}
	var p wirePublished
	resp.JSON(t, &p)
	return p
}

func TestPublishedContentSite(t *testing.T) {
	f := newSharingFixture(t)
	t.Run("OKUnpublishedSiteSpaces", func(t *testing.T) {
		p := f.published(t, f.reader, "")
		if p.Object != "published-content-site" || p.Site.ID != f.site || p.Structure.Type != "siteSpaces" || p.Scripts == nil || len(p.Scripts) != 0 {
			t.Fatalf("answer %+v", p)
		}
		if got := p.siteSpaceIDs(); !slices.Equal(got, f.siteSpaces) {
			t.Fatalf("structure %v, want the site spaces %v", got, f.siteSpaces)
		}
		for _, u := range p.publishedURLs() {
			if u != "" {
				t.Fatalf("an unpublished site answers published URLs: %v", p.publishedURLs())
			}
		}
		if p.Customizations.Site["styling"].(map[string]any)["theme"] != "clean" || len(p.Customizations.SiteSpaces) != 2 {
			t.Fatalf("customizations %+v", p.Customizations)
		}
	})
	f.e.Do(f.admin, "PUT", f.at("customization"), map[string]any{"title": "Acme Docs", "ai": map[string]any{"mode": "search", "instructions": "Be brief."}})
	f.e.Do(f.admin, "PATCH", f.at("site-spaces", f.siteSpaces[1], "customization"), map[string]any{"title": "API"})
	t.Run("OKCustomizations", func(t *testing.T) {
		p := f.published(t, f.admin, "")
		c := p.Customizations
		if c.Site["title"] != "Acme Docs" || c.SiteSpaces[f.siteSpaces[0]]["title"] != "Acme Docs" || c.SiteSpaces[f.siteSpaces[1]]["title"] != "API" {
			t.Fatalf("customizations %+v", c)
		}
		if c.Site["ai"].(map[string]any)["instructions"] != "Be brief." {
			t.Fatalf("the admin does not read the instructions: %v", c.Site["ai"])
		}
		for id, settings := range f.published(t, f.reader, "").Customizations.SiteSpaces {
			if _, ok := settings["ai"].(map[string]any)["instructions"]; ok {
				t.Fatalf("a reader reads site space %s's instructions", id)
			}
		}
	})
	f.e.Do(f.admin, "POST", f.at("publish"), nil)
	section := f.addSection(t, f.space(t, f.admin, f.org, "Guide"))
	key := keyOf(t, f.createLink(t, "Reviewers"))
	t.Run("OKPublishedSections", func(t *testing.T) {
		p := f.published(t, f.reader, "")
		// The first section took the site's two site spaces, then the new space.
		if p.Structure.Type != "sections" || len(p.Structure.Structure) != 1 || p.Structure.Structure[0].ID != section {
			t.Fatalf("structure %+v", p.Structure)
		}
		site := f.e.Server.URL + "/sites/" + f.site
		if p.Site.URLs.Published != site || len(p.siteSpaceIDs()) != 3 || len(p.Customizations.SiteSpaces) != 3 {
			t.Fatalf("answer %+v", p)
		}
		for _, u := range p.publishedURLs() {
			if !strings.HasPrefix(u, site) || strings.Contains(u, "shareKey") {
				t.Fatalf("published URLs %v", p.publishedURLs())
			}
		}
	})
	t.Run("OKShareKey", func(t *testing.T) {
		plain := f.published(t, f.reader, "").publishedURLs()
		keyed := f.published(t, f.reader, "?shareKey="+url.QueryEscape(key)).publishedURLs()
		for i, u := range keyed {
			if u != plain[i]+"?shareKey="+key {
				t.Fatalf("keyed %v, plain %v", keyed, plain)
			}
		}
	})
	t.Run("ErrShareKey", func(t *testing.T) {
		wantError(t, f.e.Do(f.reader, "GET", f.at("published")+"?shareKey=nope", nil), 404, "shareKey")
		wantError(t, f.e.Do(f.reader, "GET", f.at("published")+"?shareKey=", nil), 400, "shareKey")
	})
	t.Run("OKUnpublishedWithKey", func(t *testing.T) {
		f.e.Do(f.admin, "POST", f.at("unpublish"), nil)
		for _, u := range f.published(t, f.reader, "?shareKey="+url.QueryEscape(key)).publishedURLs() {
			if u != "" {
				t.Fatalf("an unpublished site answers a published URL %q", u)
			}
		}
	})
}

// addSection adds a section showing space to the site as the admin, and returns its id.
func (f *sharingFixture) addSection(t *testing.T, space string) string {
	t.Helper()
	return authCreated(t, f.e.Do(f.admin, "POST", f.at("sections"), map[string]any{"spaceId": space}))
}

func TestPublishedContentSiteAccess(t *testing.T) {
	f := newSharingFixture(t)
	hidden := f.space(t, f.admin, f.org, "Secret")
	f.e.Do(f.admin, "PATCH", "/v1/spaces/"+hidden, map[string]any{"defaultLevel": nil})
	secret := f.addSiteSpace(t, f.site, map[string]any{"spaceId": hidden}).ID
	t.Run("OKReaderSeesTheirShare", func(t *testing.T) {
		p := f.published(t, f.reader, "")
		if slices.Contains(p.siteSpaceIDs(), secret) || p.Customizations.SiteSpaces[secret] != nil || len(p.Customizations.SiteSpaces) != 2 {
			t.Fatalf("a reader sees the site space of a space they cannot read: %+v", p)
		}
		if all := f.published(t, f.admin, ""); !slices.Contains(all.siteSpaceIDs(), secret) || all.Customizations.SiteSpaces[secret] == nil {
			t.Fatalf("the admin does not see every site space: %+v", all)
		}
	})
	t.Run("ErrOtherOrganization", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.outsider, "GET", f.at("published"), nil), 404)
		theirs := "/v1/orgs/" + f.otherOrg + "/sites/" + f.site + "/published"
		testenv.CheckError(t, f.e.Do(f.outsider, "GET", theirs, nil), 404)
		testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path("nope", "published"), nil), 404)
	})
	t.Run("ErrNoToken", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(testenv.Actor{}, "GET", f.at("published"), nil), 401)
	})
	t.Run("ErrGuestAsForTheSite", func(t *testing.T) {
		guest := f.e.User("gus@example.com", f.org, nil)
		site := f.e.Do(guest, "GET", f.at(), nil).Status
		if site < 400 {
			t.Fatalf("a guest reads the site: %d", site)
		}
		testenv.CheckError(t, f.e.Do(guest, "GET", f.at("published"), nil), site)
	})
}

// publishedQuery reads a site's published content with every URL under it, and the site's own URL
// beside it (never keyed).
const publishedQuery = `query($o: ID!, $s: ID!, $k: String) { organization(id: $o) { site(id: $s) { url
	publishedContent(shareKey: $k) { site { id url }
		structure { type siteSpaces { id url } items { __typename ... on SiteSection { id url siteSpaces { id url } } } }
		customizations { site siteSpaces { siteSpace { id url space { id } } settings } } } } } }`

type gqlPublished struct {
	Organization struct {
		Site struct {
			URL              string
			PublishedContent struct {
				Site      struct{ ID, URL string }
				Structure struct {
					Type       string
					SiteSpaces []struct{ ID, URL string }
					Items      []struct {
						ID, URL    string
						SiteSpaces []struct{ ID, URL string }
					}
				}
				Customizations struct {
					Site       map[string]any
					SiteSpaces []struct {
						SiteSpace struct {
							ID, URL string
							Space   struct{ ID string }
						}
						Settings map[string]any
					}
				}
			}
		}
	}
}

// urls lists every URL under publishedContent.
func (g gqlPublished) urls() []string {
	p := g.Organization.Site.PublishedContent
	out := []string{p.Site.URL}
	for _, ss := range p.Structure.SiteSpaces {
		out = append(out, ss.URL)
	}
	for _, it := range p.Structure.Items {
		out = append(out, it.URL)
		for _, ss := range it.SiteSpaces {
			out = append(out, ss.URL)
		}
	}
	for _, c := range p.Customizations.SiteSpaces {
		out = append(out, c.SiteSpace.URL)
	}
	return out
}

func TestGraphQLPublishedContent(t *testing.T) {
	f := newSharingFixture(t)
	f.e.Do(f.admin, "PATCH", f.at("site-spaces", f.siteSpaces[1], "customization"), map[string]any{"title": "API"})
	key := keyOf(t, f.createLink(t, "Reviewers"))
	read := func(t *testing.T, key any) gqlPublished {
		t.Helper()
		var g gqlPublished
		gqlOK(t, f.e.GraphQL(f.reader, publishedQuery, map[string]any{"o": f.org, "s": f.site, "k": key}), &g)
		return g
	}
	t.Run("OKSiteSpaces", func(t *testing.T) {
		p := read(t, nil).Organization.Site.PublishedContent
		if p.Site.ID != f.site || p.Structure.Type != "SITE_SPACES" || len(p.Structure.SiteSpaces) != 2 || len(p.Customizations.SiteSpaces) != 2 {
			t.Fatalf("published content %+v", p)
		}
		c := p.Customizations.SiteSpaces
		if c[0].SiteSpace.ID != f.siteSpaces[0] || c[1].SiteSpace.ID != f.siteSpaces[1] || c[1].Settings["title"] != "API" ||
			c[0].Settings["title"] != nil || c[1].SiteSpace.Space.ID != f.api {
			t.Fatalf("customizations %+v", c)
		}
	})
	f.addSection(t, f.space(t, f.admin, f.org, "Guide"))
	t.Run("OKKeyedUnderPublishedContent", func(t *testing.T) {
		plain, keyed := read(t, nil), read(t, key)
		if keyed.Organization.Site.URL != plain.Organization.Site.URL || strings.Contains(keyed.Organization.Site.URL, "shareKey") {
			t.Fatalf("the site's URL beside publishedContent is keyed: %s", keyed.Organization.Site.URL)
		}
		p, k := plain.urls(), keyed.urls()
		if len(p) != 1+1+3+3 { // the site, its section, its site spaces in the structure and in customizations
			t.Fatalf("URLs %v", p)
		}
		for i := range p {
			if k[i] != p[i]+"?shareKey="+key {
				t.Fatalf("keyed %v, plain %v", k, p)
			}
		}
	})
	t.Run("ErrShareKey", func(t *testing.T) {
		gqlExpectError(t, f.e.GraphQL(f.reader, publishedQuery, map[string]any{"o": f.org, "s": f.site, "k": "nope"}), "NOT_FOUND")
	})
}

// TestPublishedContentStatements: the published content of a site costs as many statements for 2
// sections as for 12 (REST), and a page of sites with theirs as many for 5 sites as for 50
// (GraphQL).
func TestPublishedContentStatements(t *testing.T) {
	t.Run("REST", func(t *testing.T) {
		f := newSharingFixture(t)
		key := keyOf(t, f.createLink(t, "Reviewers"))
		f.addSection(t, f.docs) // a site with sections from the start: both counts read the same kinds of rows
		count := func(sections int) int64 {
			for range sections - len(f.published(t, f.admin, "").Structure.Structure) {
				f.addSection(t, f.docs)
			}
			return gqlStatements(t, f.e, func() { f.published(t, f.reader, "?shareKey="+url.QueryEscape(key)) })
		}
		if few, many := count(2), count(12); few != many {
			t.Fatalf("%d statements for 2 sections, %d for 12", few, many)
		}
	})
	t.Run("GraphQL", func(t *testing.T) {
		e := testenv.New(t, batchingOptions)
		admin, org := e.Bootstrap("ada@example.com", "Acme")
		var spaces []string
		for i := range 2 {
			spaces = append(spaces, e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": fmt.Sprint("Space ", i)}).Map(t)["id"].(string))
		}
		addSites := func(n int) {
			for i := range n {
				site := "/v1/orgs/" + org + "/sites/" + authCreated(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/sites",
					map[string]any{"title": fmt.Sprint("Site ", i), "spaces": spaces[:1]}))
				authCreated(t, e.Do(admin, "POST", site+"/sections", map[string]any{"spaceId": spaces[1]}))
			}
		}
		const q = `query($o: ID!) { organization(id: $o) { sites(first: 50) { edges { node { id
			publishedContent { site { id url }
				structure { type items { ... on SiteSection { id url siteSpaces { id url space { id title } } } } }
				customizations { site siteSpaces { siteSpace { id space { id } } settings } } } } } } } }`
		wantSameForSites(t, e, admin, q, org, addSites)
	})
}
