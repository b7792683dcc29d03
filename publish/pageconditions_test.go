package publish_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// betaCondition shows a page to readers with the unsigned claim beta=true (betaSchema).
const betaCondition = "visitor.claims.unsigned.beta"

// TestPageConditions: a page's condition, set through the API and shown to members, hides the
// page and its subpages from readers whose claims do not satisfy it everywhere on the site
// (404, sidebar, previous/next, llms.txt, sitemap.xml, search); readers with the claim see them.
func TestPageConditions(t *testing.T) {
	f := newSiteFixture(t)
	f.write(t,
		page("Beta guide", "Beta only. Zanzibar.", "ref", "beta", "condition", betaCondition),
		page("Beta child", "Under beta. Zanzibar too.", "into", "beta"),
		page("Broken", "Never shown. Zanzibar.", "condition", "visitor.claims.unknown"),
	)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme").SetAdaptiveSchema(betaSchema()) })

	t.Run("OKMembersSeeConditions", func(t *testing.T) {
		conditions := f.memberConditions(t)
		if conditions["Beta guide"] != betaCondition || conditions["Broken"] != "visitor.claims.unknown" {
			t.Errorf("REST conditions = %v", conditions)
		}
		if _, ok := conditions["Welcome"]; ok {
			t.Error("a page without a condition answers one")
		}
		var d struct {
			Space struct {
				Revision struct {
					Pages []struct {
						Title     string
						Condition *string
					}
				}
			}
		}
		r := f.e.GraphQL(f.admin, `query($s: ID!) { space(id: $s) { revision { pages { title condition } } } }`, map[string]any{"s": f.space})
		if err := json.Unmarshal(r.Data, &d); err != nil || len(r.Errors) > 0 {
			t.Fatalf("GraphQL: %v %+v", err, r.Errors)
		}
		for _, p := range d.Space.Revision.Pages {
			if (p.Title == "Beta guide") != (p.Condition != nil && *p.Condition == betaCondition) {
				t.Errorf("GraphQL page %q has condition %v", p.Title, p.Condition)
			}
		}
	})
	t.Run("ErrSyntax", func(t *testing.T) {
		r := f.e.Do(f.admin, "POST", "/v1/spaces/"+f.space+"/change-requests", map[string]any{"subject": "Bad"})
		cr := fmt.Sprintf("/v1/spaces/%s/change-requests/%d/content", f.space, int(r.Map(t)["number"].(float64)))
		bad := f.e.Do(f.admin, "POST", cr, map[string]any{"changes": []any{page("X", "x", "condition", "visitor.claims.a &&")}})
		if bad.Status != 400 || !strings.Contains(string(bad.Body), "changes[0].condition: column 19: syntax error") {
			t.Errorf("a condition that does not parse: %d %s", bad.Status, bad.Body)
		}
	})
	t.Run("HiddenWithoutTheClaim", func(t *testing.T) {
		for _, path := range []string{"/sites/acme/beta-guide", "/sites/acme/beta-guide/beta-child", "/sites/acme/beta-guide.md", "/sites/acme/broken"} {
			if status, _, _ := f.get(t, path); status != 404 {
				t.Errorf("%s answers %d", path, status)
			}
		}
		for _, path := range []string{"/sites/acme/", "/sites/acme/guides/install", "/sites/acme/llms.txt", "/sites/acme/sitemap.xml",
			"/sites/acme/~search?q=zanzibar", "/sites/acme/~search.json?q=zanzibar"} {
			if _, _, body := f.get(t, path); strings.Contains(body, "beta-") || strings.Contains(body, "broken") {
				t.Errorf("%s shows a page its condition hides:\n%s", path, body)
			}
		}
	})
	t.Run("ShownWithTheClaim", func(t *testing.T) {
		read := f.reader(t)
		if _, body := read("/sites/acme/?visitor.beta=true"); !strings.Contains(body, `href="/sites/acme/beta-guide"`) {
			t.Fatal("the sidebar of a reader with the claim lacks the page")
		}
		want := map[string]string{
			"/sites/acme/beta-guide":              "<h1>Beta guide</h1>",
			"/sites/acme/beta-guide/beta-child":   "<h1>Beta child</h1>",
			"/sites/acme/llms.txt":                "/sites/acme/beta-guide/beta-child.md",
			"/sites/acme/sitemap.xml":             "/sites/acme/beta-guide</loc>",
			"/sites/acme/~search.json?q=zanzibar": `"url":"/sites/acme/beta-guide"`,
		}
		for path, text := range want {
			if status, body := read(path); status != 200 || !strings.Contains(body, text) {
				t.Errorf("%s: %d, lacks %s", path, status, text)
			}
		}
		if status, _ := read("/sites/acme/broken"); status != 404 {
			t.Errorf("a condition that does not compile against the schema shows its page: %d", status)
		}
	})
}

// TestPageConditionSurvivesMerges: two change requests from one base, one renaming a page and
// one changing its condition, merge into a page with both changes.
func TestPageConditionSurvivesMerges(t *testing.T) {
	f := newSiteFixture(t)
	f.write(t, page("Beta guide", "Beta only.", "condition", betaCondition))
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme").SetAdaptiveSchema(betaSchema()) })
	id := f.memberPageIDs(t)["Beta guide"]
	rename := f.changeRequest(t, f.space, map[string]any{"operation": "update_page", "page": id, "title": "Beta handbook"})
	invert := f.changeRequest(t, f.space, map[string]any{"operation": "update_page", "page": id, "condition": "!" + betaCondition})
	f.merge(t, rename)
	f.merge(t, invert)
	if got := f.memberConditions(t)["Beta handbook"]; got != "!"+betaCondition {
		t.Fatalf("after both merges the page's condition is %q", got)
	}
	if status, _, body := f.get(t, "/sites/acme/beta-guide"); status != 200 || !strings.Contains(body, "<h1>Beta handbook</h1>") {
		t.Errorf("the merged condition does not show the page to a reader without the claim: %d", status)
	}
	if status, _ := f.reader(t)("/sites/acme/beta-guide?visitor.beta=true"); status != 404 {
		t.Errorf("the merged condition shows the page to a reader with the claim: %d", status)
	}
}

// TestPageConditionsFromSignedClaims: on a visitor-auth site, a page's condition reads the claims
// of the reader's token.
func TestPageConditionsFromSignedClaims(t *testing.T) {
	f := newSiteFixture(t)
	f.write(t, page("Pro guide", "For pro plans.", "condition", `visitor.claims.plan == "pro"`))
	schema := betaSchema()
	schema["properties"].(map[string]any)["plan"] = map[string]any{"type": "string", "description": "The reader's plan."}
	f.setSite(t, func(u *ent.SiteUpdateOne) {
		u.SetPublished(true).SetBasename("acme").SetVisibility(site.VisibilityVisitorAuth).SetAdaptiveSchema(schema)
	})
	key := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/sites/"+f.site+"/publishing/auth", nil).Map(t)["privateKey"].(string)
	for plan, want := range map[string]int{"pro": 200, "free": 404} {
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix(), "plan": plan}).SignedString([]byte(key))
		if err != nil {
			t.Fatal(err)
		}
		if status, _ := f.reader(t)("/sites/acme/pro-guide?jwt_token=" + tok); status != want {
			t.Errorf("a reader on the %s plan: %d, want %d", plan, status, want)
		}
	}
}

// TestFilesOfHiddenPages: a file that only pages hidden from the reader link to (the page with
// the condition or a page under it) answers 404 at its ~files/ URL; a file a visible page links to
// as well, and one no page links to, stay fetchable; a reader with the claim fetches them all. The
// files hidden are found once per visible tree: later requests cost what a reader's who hides
// nothing do.
func TestFilesOfHiddenPages(t *testing.T) {
	f := newSiteFixture(t)
	file := func(ref string) map[string]any {
		return map[string]any{"ref": ref, "name": ref + ".png", "contentType": "image/png", "base64": "cG5n"}
	}
	f.write(t,
		page("Beta guide", "![a](./betaonly) ![b](./shared) [c](./loose)", "ref", "beta", "condition", betaCondition),
		page("Beta child", "![d](./childonly)", "into", "beta"),
		page("Open", "![b](./shared)"),
		map[string]any{"operation": "insert_files", "files": []any{file("betaonly"), file("childonly"), file("shared"), file("loose"), file("orphan")}},
	)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme").SetAdaptiveSchema(betaSchema()) })
	var content struct{ Files []struct{ ID, Name string } }
	f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space+"/content", nil).JSON(t, &content)
	_, _, open := f.get(t, "/sites/acme/open")
	shared := regexp.MustCompile(`src="(/sites/acme/~files/[^/"]+/)`).FindStringSubmatch(open)
	if len(shared) < 2 || len(content.Files) != 5 {
		t.Fatalf("the visible page links no file, or the space has %d files: %s", len(content.Files), open)
	}
	urls := map[string]string{}
	for _, file := range content.Files {
		urls[strings.TrimSuffix(file.Name, ".png")] = shared[1] + file.ID
	}
	beta := f.reader(t)
	beta("/sites/acme/?visitor.beta=true")
	for name, want := range map[string]int{"betaonly": 404, "childonly": 404, "loose": 404, "shared": 302, "orphan": 302} {
		if status, _, _ := f.get(t, urls[name]); status != want {
			t.Errorf("a reader without the claim fetches %s: %d, want %d", name, status, want)
		}
		if status, _ := beta(urls[name]); status != 302 {
			t.Errorf("a reader with the claim fetches %s: %d", name, status)
		}
	}
	statements := func(read func()) int64 { read(); return f.e.Statements(read) }
	hiding := statements(func() { f.get(t, urls["betaonly"]) })
	seeing := statements(func() { beta(urls["betaonly"]) })
	if hiding != seeing {
		t.Errorf("a hidden file costs %d statements, a shown one %d", hiding, seeing)
	}
}

// TestSearchFullWithoutHiddenPages: the best matches of a query are pages hidden from the reader,
// yet a page of results (search as you type's 8, the results page's 20) holds as many visible
// pages as match; the reader with the claim finds the hidden ones first.
func TestSearchFullWithoutHiddenPages(t *testing.T) {
	f := newSiteFixture(t)
	var changes []map[string]any
	for i := range 10 {
		changes = append(changes, page(fmt.Sprintf("Zanzibar beta %d", i), "Beta.", "condition", betaCondition),
			page(fmt.Sprintf("Open %d", i), "Zanzibar in the text."))
	}
	changes = append(changes, page("Zanzibar unlisted", "Hidden from navigation.", "hidden", true))
	f.write(t, changes...)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme").SetAdaptiveSchema(betaSchema()) })
	var found struct{ Results []struct{ Title string } }
	_, _, body := f.get(t, "/sites/acme/~search.json?q=zanzibar")
	if err := json.Unmarshal([]byte(body), &found); err != nil || len(found.Results) != 8 {
		t.Fatalf("search as you type shows %d results, want 8: %v %s", len(found.Results), err, body)
	}
	for _, r := range found.Results {
		if !strings.HasPrefix(r.Title, "Open ") {
			t.Errorf("a reader without the claim finds %q", r.Title)
		}
	}
	_, _, results := f.get(t, "/sites/acme/~search?q=zanzibar")
	_, listing, _ := strings.Cut(results, `class="results"`)
	for i := range 10 {
		if !strings.Contains(listing, fmt.Sprintf(`href="/sites/acme/open-%d"`, i)) {
			t.Errorf("the results page lacks Open %d", i)
		}
	}
	if strings.Contains(listing, "zanzibar-") {
		t.Error("the results page lists a hidden page")
	}
	_, body = f.reader(t)("/sites/acme/~search.json?q=zanzibar&visitor.beta=true")
	if err := json.Unmarshal([]byte(body), &found); err != nil || len(found.Results) != 8 || !strings.HasPrefix(found.Results[0].Title, "Zanzibar beta") {
		t.Errorf("a reader with the claim: %v %s", err, body)
	}
}

// TestSchemaChangeKeepsPageConditions: a visitor schema under which a page's condition no longer
// compiles (it would hide the page from every reader) is refused with 409 naming the page, and
// the site keeps its schema; a condition that did not compile before does not stop a change,
// and neither does a change the conditions still compile against.
func TestSchemaChangeKeepsPageConditions(t *testing.T) {
	f := newSiteFixture(t)
	f.write(t,
		page("Guides beta", "Beta only.", "ref", "top", "condition", "true"),
		page("Beta guide", "Beta only.", "into", "top", "condition", betaCondition),
		page("Broken", "Never shown.", "condition", "visitor.claims.unknown"),
	)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	schemaURL := "/v1/orgs/" + f.org + "/sites/" + f.site + "/adaptive-schema"
	if r := f.e.Do(f.admin, "PUT", schemaURL, map[string]any{"jsonSchema": betaSchema()}); r.Status != 200 {
		t.Fatalf("a first schema, which hides no page more: %d %s", r.Status, r.Body)
	}
	withPlan := betaSchema()
	withPlan["properties"].(map[string]any)["plan"] = map[string]any{"type": "string", "description": "The reader's plan."}
	if r := f.e.Do(f.admin, "PUT", schemaURL, map[string]any{"jsonSchema": withPlan}); r.Status != 200 {
		t.Fatalf("a schema the conditions still compile against: %d %s", r.Status, r.Body)
	}
	withoutBeta := betaSchema()
	withoutBeta["properties"].(map[string]any)["unsigned"].(map[string]any)["properties"] = map[string]any{
		"alpha": map[string]any{"type": "boolean", "description": "Wants alpha features."}}
	r := f.e.Do(f.admin, "PUT", schemaURL, map[string]any{"jsonSchema": withoutBeta})
	msg := testenv.CheckError(t, r, 409)
	id := f.memberPageIDs(t)["Guides beta"]
	for _, want := range []string{"jsonSchema: 1 page(s) have a condition", "(guides-beta/beta-guide in space " + f.space + ") condition: column"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, id) || strings.Contains(msg, "broken") {
		t.Errorf("the refusal names a page whose condition still compiles, or never did: %s", msg)
	}
	if status, _ := f.reader(t)("/sites/acme/guides-beta/beta-guide?visitor.beta=true"); status != 200 {
		t.Errorf("after the refusal the page is hidden from a reader with the claim: %d", status)
	}
}

// memberPages returns the top-level pages of the space's content as a member reads them (REST).
func (f *siteFixture) memberPages(t *testing.T) []map[string]any {
	t.Helper()
	var rev struct{ Pages []map[string]any }
	f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space+"/content", nil).JSON(t, &rev)
	return rev.Pages
}

// memberConditions maps the titles of the space's top-level pages that have a condition to it.
func (f *siteFixture) memberConditions(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, p := range f.memberPages(t) {
		if c, ok := p["condition"].(string); ok {
			out[p["title"].(string)] = c
		}
	}
	return out
}

// memberPageIDs maps the titles of the space's top-level pages to their ids.
func (f *siteFixture) memberPageIDs(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, p := range f.memberPages(t) {
		out[p["title"].(string)] = p["id"].(string)
	}
	return out
}

// changeRequest opens a change request of a space with the changes and returns its path.
func (f *siteFixture) changeRequest(t *testing.T, spaceID string, changes ...map[string]any) string {
	t.Helper()
	base := "/v1/spaces/" + spaceID + "/change-requests"
	n := f.e.Do(f.admin, "POST", base, map[string]any{"subject": "Change"}).Map(t)["number"].(float64)
	cr := fmt.Sprintf("%s/%d", base, int(n))
	if r := f.e.Do(f.admin, "POST", cr+"/content?compat=false", map[string]any{"changes": changes}); r.Status != 200 {
		t.Fatalf("content: %d %s", r.Status, r.Body)
	}
	return cr
}

func (f *siteFixture) merge(t *testing.T, cr string) {
	t.Helper()
	if r := f.e.Do(f.admin, "POST", cr+"/merge", nil); r.Status != 200 {
		t.Fatalf("merge: %d %s", r.Status, r.Body)
	}
}
