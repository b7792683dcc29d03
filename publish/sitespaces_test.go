package publish_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
)

// pageID is the id of the page at path in the fixture's space.
func (f *siteFixture) pageID(t *testing.T, path string) string {
	t.Helper()
	return f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space+"/content/path/"+path, nil).Map(t)["id"].(string)
}

// patchSiteSpace changes a site space of the site through the API.
func (f *siteFixture) patchSiteSpace(t *testing.T, id string, body map[string]any) {
	t.Helper()
	if r := f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org+"/sites/"+f.site+"/site-spaces/"+id, body); r.Status != http.StatusOK {
		t.Fatalf("patch site space: %d %s", r.Status, r.Body)
	}
}

// TestSiteSpaceHomeTitleAndHidden: readers land on a site space's home page, see its title in the
// variants, and do not find a hidden site space in the navigation, the sitemap or llms.txt, though
// it answers at its URL (decision 178).
func TestSiteSpaceHomeTitleAndHidden(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	var l struct{ Items []struct{ ID string } }
	f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/sites/"+f.site+"/site-spaces", nil).JSON(t, &l)
	docs := l.Items[0].ID
	api := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "API"}))
	f.writeTo(t, api, page("Endpoints", "GET /things"))
	ref := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites/"+f.site+"/site-spaces",
		map[string]any{"spaceId": api, "title": "Reference"}))
	t.Run("OKHomePage", func(t *testing.T) {
		f.patchSiteSpace(t, docs, map[string]any{"pageId": f.pageID(t, "guides")})
		_, _, landing := f.get(t, "/sites/acme/")
		if !strings.Contains(landing, "<h1>Guides</h1>") || !strings.Contains(landing, `>Reference</a>`) {
			t.Fatalf("landing page: %s", landing)
		}
		if status, _, welcome := f.get(t, "/sites/acme/welcome"); status != 200 || !strings.Contains(welcome, "<h1>Welcome</h1>") {
			t.Fatalf("the first page at its own path: %d %s", status, welcome)
		}
	})
	t.Run("OKHiddenSiteSpace", func(t *testing.T) {
		f.patchSiteSpace(t, ref, map[string]any{"hidden": true})
		if _, _, landing := f.get(t, "/sites/acme/"); strings.Contains(landing, "Reference") {
			t.Fatalf("the navigation lists a hidden site space: %s", landing)
		}
		if status, _, endpoints := f.get(t, "/sites/acme/api/"); status != 200 || !strings.Contains(endpoints, "<h1>Endpoints</h1>") {
			t.Fatalf("a hidden site space at its URL: %d %s", status, endpoints)
		}
		_, _, sitemap := f.get(t, "/sites/acme/sitemap.xml")
		_, _, llms := f.get(t, "/sites/acme/llms.txt")
		if strings.Contains(sitemap, "/api/") || strings.Contains(llms, "Endpoints") || !strings.Contains(sitemap, "/guides/install") {
			t.Fatalf("sitemap %s\nllms.txt %s", sitemap, llms)
		}
	})
}
