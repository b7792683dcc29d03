package publish_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
)

// TestReusableContentOnSite: a page placing a reusable content shows it inline, in its HTML and
// its .md; a page placing one that is gone shows readers a notice, not an error.
func TestReusableContentOnSite(t *testing.T) {
	f := newSiteFixture(t)
	f.write(t, map[string]any{"operation": "insert_reusable_content", "title": "Warning",
		"document": map[string]any{"markdown": "Back up **first**. See [Install](./guides/install.md).\n"}})
	main := f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space+"/content", nil).Map(t)
	id := main["reusableContents"].([]any)[0].(map[string]any)["id"].(string)
	f.write(t,
		page("Upgrade", "Before you start:\n\n{% include \"/reusable-contents/"+id+"\" %}\n\nThen upgrade.\n"),
		page("Broken", "Read this:\n\n{% include \"/reusable-contents/gone\" %}\n"),
	)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	t.Run("OKInline", func(t *testing.T) {
		status, _, html := f.get(t, "/sites/acme/upgrade")
		if status != http.StatusOK || !strings.Contains(html, "<p>Back up <strong>first</strong>. See <a href=\"/sites/acme/guides/install\"") ||
			!strings.Contains(html, "Then upgrade.") {
			t.Fatalf("%d %s", status, html)
		}
	})
	t.Run("OKMarkdown", func(t *testing.T) {
		status, _, md := f.get(t, "/sites/acme/upgrade.md")
		if status != http.StatusOK || !strings.Contains(md, "Back up **first**. See [Install](") || strings.Contains(md, "{% include") {
			t.Fatalf("%d %s", status, md)
		}
	})
	t.Run("OKMissingNotice", func(t *testing.T) {
		status, _, html := f.get(t, "/sites/acme/broken")
		if status != http.StatusOK || !strings.Contains(html, `<p class="missing" role="note">This reusable content is missing`) {
			t.Fatalf("%d %s", status, html)
		}
		status, _, md := f.get(t, "/sites/acme/broken.md")
		if status != http.StatusOK || !strings.Contains(md, "This reusable content is missing") {
			t.Fatalf("%d %s", status, md)
		}
	})
}
