package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
)

// TestGitImportKeepsIdsOutsideBinderysLayout: a repository written by hand (its pages not where
// Bindery's export would put them), imported in full again after a push that modifies a page,
// moves one, adds one and removes one, keeps the ids of the pages it still has — matched by the
// path the last sync read them from, the moved one by its slug — so their comments and git
// blobs follow; the added page is new and the removed one gone.
func TestGitImportKeepsIdsOutsideBinderysLayout(t *testing.T) {
	f := newContentFixture(t, allowLocalGit)
	url, _ := gitrepo.Bare(t)
	gitrepo.Push(t, url, map[string]string{
		"README.md":          "# Welcome\n\nHello.\n",
		"SUMMARY.md":         "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n  * [Install](setup/install.md)\n  * [Configure](setup/configure.md)\n* [Old](old.md)\n",
		"guide.md":           "# Guide\n\nRead on: [install](setup/install.md).\n",
		"setup/install.md":   "# Install\n\nRun it.\n",
		"setup/configure.md": "# Configure\n\nSet it.\n",
		"old.md":             "# Old\n\nGone soon.\n",
	}, "Hand-written docs")
	space := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Hand-written"})["id"].(string)
	path := "/v1/spaces/" + space
	crWant(t, f.e.Do(f.admin, "POST", path+"/git/import", map[string]any{"url": url, "ref": "refs/heads/main"}), http.StatusNoContent)
	f.e.RunDueJobs()

	type seen struct{ id, title, git string }
	read := func() map[string]seen { // by page path
		var tr struct{ Pages json.RawMessage }
		f.e.Do(f.admin, "GET", path+"/content/pages", nil).JSON(t, &tr)
		var pages []struct {
			wirePage
			Git   *pageGit
			Pages json.RawMessage
		}
		out := map[string]seen{}
		var walk func(raw json.RawMessage)
		walk = func(raw json.RawMessage) {
			pages = nil
			if err := json.Unmarshal(raw, &pages); err != nil {
				t.Fatal(err)
			}
			for _, p := range pages {
				s := seen{id: p.ID, title: p.Title}
				if p.Git != nil {
					s.git = p.Git.Path
				}
				out[p.Path] = s
				walk(p.Pages)
			}
		}
		walk(tr.Pages)
		return out
	}
	before := read()
	if before["guide/install"].git != "setup/install.md" || before["guide/configure"].id == "" || before["old"].id == "" {
		t.Fatalf("first import: %v", before)
	}
	comment := f.e.Do(f.admin, "POST", path+"/comments", map[string]any{"body": map[string]any{"markdown": "On install."},
		"page": before["guide/install"].id})
	crWant(t, comment, http.StatusOK)

	// A page modified, one moved (another folder, another parent), one added, one removed.
	gitrepo.Push(t, url, map[string]string{
		"SUMMARY.md":             "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n  * [Install](setup/install.md)\n* [Configure](reference/configure.md)\n* [FAQ](faq.md)\n",
		"setup/install.md":       "# Install\n\nRun it twice.\n",
		"setup/configure.md":     "",
		"reference/configure.md": "# Configure\n\nSet it.\n",
		"old.md":                 "",
		"faq.md":                 "# FAQ\n\nAsk.\n",
	}, "Edited by hand")
	crWant(t, f.e.Do(f.admin, "POST", path+"/git/import", map[string]any{"url": url, "ref": "refs/heads/main"}), http.StatusNoContent)
	f.e.RunDueJobs()
	after := read()
	for _, p := range []struct{ was, now string }{{"page", "page"}, {"guide", "guide"}, {"guide/install", "guide/install"}, {"guide/configure", "configure"}} {
		if before[p.was].id != after[p.now].id {
			t.Errorf("%s → %s: id %q became %q", p.was, p.now, before[p.was].id, after[p.now].id)
		}
	}
	if after["configure"].git != "reference/configure.md" || after["guide/install"].git != "setup/install.md" {
		t.Errorf("git paths after: %v", after)
	}
	if faq := after["faq"].id; faq == "" || faq == before["old"].id {
		t.Errorf("the added page: %v", after["faq"])
	}
	if _, ok := after["old"]; ok || len(after) != 5 {
		t.Errorf("pages after: %v", after)
	}
	var md struct{ Markdown string }
	f.e.Do(f.admin, "GET", path+"/content/page/"+after["guide/install"].id+"?format=markdown", nil).JSON(t, &md)
	if !strings.Contains(md.Markdown, "Run it twice.") {
		t.Errorf("the modified page: %q", md.Markdown)
	}
	var comments struct{ Items []struct{ ID string } }
	f.e.Do(f.admin, "GET", path+"/comments?targetPage="+after["guide/install"].id, nil).JSON(t, &comments)
	if len(comments.Items) != 1 {
		t.Errorf("the install page's comments after the import: %v", comments.Items)
	}
}
