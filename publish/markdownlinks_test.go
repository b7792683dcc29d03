package publish_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/internal/content/markdown"
)

// linuxDocs are a docs folder whose pages link each other by relative path, one heading and an
// image included; version names the copy.
func linuxDocs(version string) map[string]string {
	return map[string]string{
		"README.md":        "# Linux docs " + version + "\n\nRead the [Linux guide](./linux.md), then [set up](./setup/README.md) and [install](setup/install.md#steps).\n",
		"linux.md":         "# Linux guide " + version + "\n\n[Back](./README.md) · [Install](./setup/install.md)\n\n![Diagram](img/diagram.png)\n",
		"setup/README.md":  "# Setup " + version + "\n\nUp to the [docs](../README.md).\n",
		"setup/install.md": "# Install " + version + "\n\n## Steps\n\nSee the [guide][g].\n\n[g]: ../linux.md\n",
		"img/diagram.png":  "png",
	}
}

// importDocs imports Markdown files into a space.
func (f *siteFixture) importDocs(t *testing.T, spaceID string, files map[string]string) {
	t.Helper()
	var body []any
	for path, text := range files {
		body = append(body, map[string]any{"path": path, "base64": base64.StdEncoding.EncodeToString([]byte(text))})
	}
	if r := f.e.Do(f.admin, "POST", "/v1/spaces/"+spaceID+"/content/import", map[string]any{"source": "markdown", "files": body}); r.Status != http.StatusCreated {
		t.Fatalf("import: %d %s", r.Status, r.Body)
	}
}

// newLinkedSite is the fixture's site in two sections: Docs (the fixture's space, with a page
// linking others by id, a hidden page among them, and a page for beta readers only) and Platform,
// whose two variants (v2, then v1) are imported copies of linuxDocs. It returns v1's path.
func newLinkedSite(t *testing.T) (*siteFixture, string) {
	t.Helper()
	f := newSiteFixture(t)
	f.write(t, page("Beta guide", "For beta readers.", "condition", betaCondition))
	f.write(t, page("Index", "[Install](/pages/"+f.pageID(t, "guides/install")+") · [Details](/pages/"+f.pageID(t, "guides")+
		"#details) · [Secret](./secret.md) · Read [Beta guide](./beta-guide.md) now."))
	v2 := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "Linux v2"}))
	v1 := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "Linux v1"}))
	f.importDocs(t, v2, linuxDocs("v2"))
	f.importDocs(t, v1, linuxDocs("v1"))
	base := "/v1/orgs/" + f.org + "/sites/" + f.site
	f.created(t, f.e.Do(f.admin, "POST", base+"/sections", map[string]any{"spaceId": f.space, "title": "Docs"}))
	platform := f.created(t, f.e.Do(f.admin, "POST", base+"/sections", map[string]any{"spaceId": v2, "title": "Platform"}))
	variant := f.e.Do(f.admin, "POST", base+"/site-spaces", map[string]any{"spaceId": v1, "sectionId": platform}).Map(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme").SetAdaptiveSchema(betaSchema()) })
	return f, variant["path"].(string)
}

// TestMarkdownLinksLead: every link of the Markdown a site gives readers and agents — llms.txt and
// the .md of every page, followed from it — answers 200 when fetched as written, by a client that
// keeps no cookies: across sections and variants, to a heading, a hidden page and an image; with
// the claims and the share key the first URL carried. A link to a page the reader cannot see is
// its text.
func TestMarkdownLinksLead(t *testing.T) {
	f, v1 := newLinkedSite(t)
	t.Run("OKPublic", func(t *testing.T) {
		read := f.crawlMarkdown(t, "/sites/acme/llms.txt")
		for _, want := range []string{"/sites/acme/platform/linux-guide-v2.md", "/sites/acme/platform/" + v1 + "/setup-v1/install-v1.md",
			"/sites/acme/guides/install.md", "/sites/acme/secret.md"} {
			if _, ok := read[f.e.Server.URL+want]; !ok {
				t.Errorf("no link leads to %s", want)
			}
		}
		for u, body := range read {
			for _, l := range markdown.Links(body) {
				inV1 := strings.Contains(u, "/"+v1+"/")
				if strings.Contains(u, "/platform/") && !strings.Contains(l.Dest, "/~files/") && strings.Contains(l.Dest, "/"+v1+"/") != inV1 {
					t.Errorf("%s links across variants: %s", u, l.Dest)
				}
			}
		}
		index := read[f.e.Server.URL+"/sites/acme/index.md"]
		if !strings.Contains(index, "Read Beta guide now.") {
			t.Errorf("a page hidden from the reader is linked: %s", index)
		}
		if _, _, html := f.get(t, "/sites/acme/index"); !strings.Contains(html, "Read Beta guide now.") {
			t.Errorf("the page's HTML links a page hidden from the reader: %s", html)
		}
	})
	t.Run("OKClaims", func(t *testing.T) {
		read := f.crawlMarkdown(t, "/sites/acme/llms.txt?visitor.beta=true")
		if _, ok := read[f.e.Server.URL+"/sites/acme/beta-guide.md?visitor.beta=true"]; !ok {
			t.Error("a beta reader's Markdown does not lead to the beta page")
		}
	})
	t.Run("OKUnlisted", func(t *testing.T) {
		f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetVisibility(site.VisibilityUnlisted) })
		f.crawlMarkdown(t, "/sites/acme/platform/"+v1+"/linux-guide-v1.md")
	})
	t.Run("OKShareLink", func(t *testing.T) {
		f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetVisibility(site.VisibilityShareLink) })
		created := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites/"+f.site+"/share-links", map[string]any{"name": "Agents"}).Map(t)
		published, _ := url.Parse(created["urls"].(map[string]any)["published"].(string))
		if status, _, _ := f.get(t, "/sites/acme/platform/linux.md"); status != http.StatusNotFound {
			t.Fatalf("without the key: %d", status)
		}
		read := f.crawlMarkdown(t, "/sites/acme/llms.txt?"+published.RawQuery)
		if len(read) < 12 {
			t.Errorf("the key's reader reads %d documents", len(read))
		}
	})
}

// crawlMarkdown reads the Markdown at path and every document its links lead to, recursively, as a
// client that keeps no cookies (following redirects: a file's link leads to its download), and
// returns the Markdown read by URL. Every link must be absolute on the test server and answer 200.
func (f *siteFixture) crawlMarkdown(t *testing.T, path string) map[string]string {
	t.Helper()
	read := map[string]string{}
	queue := []string{f.e.Server.URL + path}
	seen := map[string]bool{queue[0]: true}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		status, contentType, body := fetch(t, at)
		if status != http.StatusOK {
			t.Errorf("%s answers %d", at, status)
			continue
		}
		if !strings.HasPrefix(contentType, "text/markdown") && !strings.HasPrefix(contentType, "text/plain") {
			continue // a file
		}
		read[at] = body
		for _, l := range markdown.Links(body) {
			to, _, _ := strings.Cut(l.Dest, "#")
			switch {
			case to == "" && l.Kind == markdown.Definition:
				continue // a definition the reader cannot follow, emptied
			case !strings.HasPrefix(to, f.e.Server.URL+"/sites/acme/"):
				t.Errorf("%s links %q", at, l.Dest)
			case !seen[to]:
				seen[to] = true
				queue = append(queue, to)
			}
		}
	}
	return read
}

// fetch gets an absolute URL without cookies, following redirects.
func fetch(t *testing.T, u string) (int, string, string) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Content-Type"), string(b)
}
