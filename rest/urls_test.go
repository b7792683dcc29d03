package rest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestContentByURL resolves the app URLs the API hands out back to their objects, as the viewer
// may read them.
func TestContentByURL(t *testing.T) {
	f := newContentFixture(t)
	e := f.e
	var space struct{ URLs struct{ App string } }
	f.get(t, f.admin, "").JSON(t, &space)
	crWant(t, e.Do(f.admin, "POST", f.spacePath("/change-requests"), map[string]any{"subject": "Second"}), http.StatusCreated)
	collection := authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/collections", map[string]any{"title": "Shelf"}))
	var coll struct{ URLs struct{ App string } }
	e.Do(f.admin, "GET", "/v1/collections/"+collection, nil).JSON(t, &coll)
	lookup := func(a testenv.Actor, raw string) testenv.Response {
		return e.Do(a, "GET", "/v1/urls/content?url="+url.QueryEscape(raw), nil)
	}
	type found struct {
		Collection    *struct{ ID string }
		Space         *struct{ ID string }
		ChangeRequest *struct{ Number int }
		Page          *struct{ ID, Path string }
	}
	resolve := func(t *testing.T, raw string) found {
		t.Helper()
		r := lookup(f.admin, raw)
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", raw, r.Status, r.Body)
		}
		var got found
		r.JSON(t, &got)
		return got
	}

	t.Run("Space", func(t *testing.T) {
		if got := resolve(t, space.URLs.App); got.Space == nil || got.Space.ID != f.space || got.Page != nil || got.ChangeRequest != nil {
			t.Fatalf("the space's URL: %+v", got)
		}
	})
	t.Run("Page", func(t *testing.T) {
		got := resolve(t, space.URLs.App+"/guides/"+url.PathEscape("café")+"#top")
		if got.Page == nil || got.Page.ID != f.pages["guides/café"] || got.Page.Path != "guides/café" {
			t.Fatalf("a page's URL: %+v", got)
		}
	})
	t.Run("ChangeRequest", func(t *testing.T) {
		got := resolve(t, space.URLs.App+"/~/changes/2/guides/getting-started")
		if got.ChangeRequest == nil || got.ChangeRequest.Number != 2 || got.Page == nil || got.Page.ID != f.pages["guides/getting-started"] {
			t.Fatalf("a change request's page: %+v", got)
		}
	})
	t.Run("Collection", func(t *testing.T) {
		if got := resolve(t, coll.URLs.App); got.Collection == nil || got.Collection.ID != collection || got.Space != nil {
			t.Fatalf("the collection's URL: %+v", got)
		}
	})
	t.Run("GraphQL", func(t *testing.T) {
		g := e.GraphQL(f.admin, `query($u: String!) { contentByUrl(url: $u) { space { id } revision { id } page { id path } changeRequest { number } } }`,
			map[string]any{"u": space.URLs.App + "/api"})
		var d struct {
			ContentByURL struct {
				Space, Revision struct{ ID string }
				Page            struct{ ID, Path string }
				ChangeRequest   *struct{ Number int }
			} `json:"contentByUrl"`
		}
		if err := json.Unmarshal(g.Data, &d); err != nil || len(g.Errors) > 0 {
			t.Fatalf("contentByUrl: %s %v", g.Data, g.Errors)
		}
		if c := d.ContentByURL; c.Space.ID != f.space || c.Page.ID != f.pages["api"] || c.Revision.ID == "" || c.ChangeRequest != nil {
			t.Fatalf("contentByUrl: %+v", c)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, raw := range []string{space.URLs.App + "/no/such/page", space.URLs.App + "/~/changes/99", e.Server.URL + "/o/" + f.org,
			e.Server.URL + "/o/" + f.org + "/s/nosuchspace", e.Server.URL + "/o/otherorg/s/" + f.space,
			"https://evil.example.com/o/" + f.org + "/s/" + f.space, e.Server.URL + "/sites/nosuch"} {
			testenv.CheckError(t, lookup(f.admin, raw), http.StatusNotFound)
		}
		testenv.CheckError(t, lookup(f.outsider, space.URLs.App), http.StatusNotFound)
		testenv.CheckError(t, lookup(f.outsider, coll.URLs.App), http.StatusNotFound)
		testenv.CheckError(t, lookup(f.guest, space.URLs.App+"/api"), http.StatusNotFound)
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		testenv.CheckError(t, e.Do(f.admin, "GET", "/v1/urls/content", nil), http.StatusBadRequest)
		for _, raw := range []string{"", "/o/" + f.org + "/s/" + f.space, "::"} {
			testenv.CheckError(t, lookup(f.admin, raw), http.StatusBadRequest)
		}
	})
}
