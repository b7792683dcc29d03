package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

func TestTranslationSettings(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	reader := e.User("rob@example.com", org, testenv.Role(viewer.RoleRead))
	guest := e.User("gus@example.com", org, nil)
	outsider, _ := e.Bootstrap("zed@zeta.io", "Zeta")
	base := "/v1/orgs/" + org + "/translations"

	var id string
	t.Run("OKCreate", func(t *testing.T) {
		r := e.Do(admin, "POST", base, map[string]any{"title": " Europe ", "languages": []string{"FR", "pt-br", "fr", "zh-hant", "en-US"}})
		m := r.Map(t)
		if r.Status != http.StatusCreated || m["object"] != "translation-settings" || m["title"] != "Europe" {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		if got := strings.Join(toStrings(m["languages"]), ","); got != "fr,pt-BR,zh-Hant,en-US" {
			t.Fatalf("languages %s, want canonical tags without duplicates", got)
		}
		id = m["id"].(string)
		if m["urls"].(map[string]any)["location"] != e.Server.URL+base+"/"+id || m["permissions"].(map[string]any)["edit"] != true {
			t.Fatalf("urls or permissions: %v", m)
		}
	})
	t.Run("OKReaderReads", func(t *testing.T) {
		l := e.Do(reader, "GET", base, nil).Map(t)
		item := l["items"].([]any)[0].(map[string]any)
		if l["count"] != float64(1) || item["permissions"].(map[string]any)["edit"] != false {
			t.Fatalf("a reader's list: %v", l)
		}
		if r := e.Do(reader, "GET", base+"/"+id, nil); r.Status != http.StatusOK {
			t.Fatalf("a reader's get: %d", r.Status)
		}
	})
	t.Run("OKPut", func(t *testing.T) {
		m := e.Do(admin, "PUT", base+"/"+id, map[string]any{"title": "Europe 2"}).Map(t)
		if m["title"] != "Europe 2" || len(toStrings(m["languages"])) != 4 {
			t.Fatalf("put without languages keeps them: %v", m)
		}
		m = e.Do(admin, "PUT", base+"/"+id, map[string]any{"title": "Europe 2", "languages": []string{"de"}}).Map(t)
		if strings.Join(toStrings(m["languages"]), ",") != "de" {
			t.Fatalf("put with languages replaces them: %v", m)
		}
	})
	for _, c := range []struct {
		name   string
		method string
		path   string
		body   any
		status int
		says   string
	}{
		{"ErrNoTitle", "POST", base, map[string]any{"languages": []string{"fr"}}, 400, "title: is required"},
		{"ErrLongTitle", "POST", base, map[string]any{"title": strings.Repeat("a", 101)}, 400, "title: must be at most 100"},
		{"ErrBadLanguage", "POST", base, map[string]any{"title": "x", "languages": []string{"fr", "not a tag"}}, 400, `languages[1]: "not a tag" is not a BCP 47`},
		{"ErrUndetermined", "POST", base, map[string]any{"title": "x", "languages": []string{"und"}}, 400, "languages[0]"},
		{"ErrNullLanguages", "PUT", base + "/ID", map[string]any{"title": "x", "languages": nil}, 400, "languages"},
		{"ErrPutNoTitle", "PUT", base + "/ID", map[string]any{}, 400, "title: is required"},
		{"ErrReaderWrites", "PUT", base + "/ID", map[string]any{"title": "x"}, 403, "admin"},
		{"ErrGuestLists", "GET", base, nil, 403, "guests"},
		{"ErrOutsider", "GET", base + "/ID", nil, 404, "not found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			actor := admin
			switch {
			case strings.HasPrefix(c.name, "ErrReader"):
				actor = reader
			case strings.HasPrefix(c.name, "ErrGuest"):
				actor = guest
			case c.name == "ErrOutsider":
				actor = outsider
			}
			msg := testenv.CheckError(t, e.Do(actor, c.method, strings.Replace(c.path, "ID", id, 1), c.body), c.status)
			if !strings.Contains(msg, c.says) {
				t.Fatalf("message %q does not say %q", msg, c.says)
			}
		})
	}
	t.Run("OKGraphQL", func(t *testing.T) {
		g := e.GraphQL(admin, `mutation($o: ID!) { createTranslationSettings(organizationId: $o, input: {title: "Asia", languages: ["JA", "ko"]}) { id languages permissions { view edit } } }`,
			map[string]any{"o": org})
		if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"languages":["ja","ko"]`) {
			t.Fatalf("GraphQL create: %s %v", g.Data, g.Errors)
		}
		g = e.GraphQL(reader, `query($o: ID!) { organization(id: $o) { translationSettings { totalCount edges { node { title } } } } }`, map[string]any{"o": org})
		if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"totalCount":2`) {
			t.Fatalf("GraphQL list: %s %v", g.Data, g.Errors)
		}
	})
	t.Run("OKDelete", func(t *testing.T) {
		if r := e.Do(admin, "DELETE", base+"/"+id, nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		testenv.CheckError(t, e.Do(admin, "GET", base+"/"+id, nil), http.StatusNotFound)
	})
}

func toStrings(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}
