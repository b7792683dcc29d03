package rest_test

import (
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
)

// gitbookWithGroups is a GitBook repository whose SUMMARY.md has two groups, written as GitBook
// (and Bindery's export) writes one: each group's pages in the folder of its slug.
var gitbookWithGroups = map[string]string{
	".gitbook.yaml": "root: ./\nstructure:\n    readme: README.md\n    summary: SUMMARY.md\n",
	"SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n\n## Getting started\n\n* [Install](getting-started/install/README.md)\n" +
		"  * [Linux](getting-started/install/linux.md)\n* [Configure](getting-started/configure.md)\n\n## Reference\n\n* [API](reference/api.md)\n",
	"README.md":                         "# Welcome\n\nStart with [install](getting-started/install/README.md).\n",
	"getting-started/install/README.md": "# Install\n\nPick a system.\n",
	"getting-started/install/linux.md":  "# Linux\n\nSee [the API](../../reference/api.md).\n",
	"getting-started/configure.md":      "# Configure\n\nSet it.\n",
	"reference/api.md":                  "# API\n\nEndpoints.\n",
}

// TestGitGroupsRoundTrip: a GitBook repository with two groups imports as two group pages
// holding their pages; a push that changes the table of contents imports whole and keeps the
// groups' ids; the space exports back to the very same files.
func TestGitGroupsRoundTrip(t *testing.T) {
	f := newContentFixture(t, allowLocalGit)
	url, _ := gitrepo.Bare(t)
	gitrepo.Push(t, url, gitbookWithGroups, "Docs with groups")
	space := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Grouped"})["id"].(string)
	path := "/v1/spaces/" + space
	link := map[string]any{"url": url, "ref": "refs/heads/main"}
	crWant(t, f.e.Do(f.admin, "POST", path+"/git/import", link), http.StatusNoContent)
	f.e.RunDueJobs()

	read := func() (groups map[string]string, pages []string) { // group title → id; pages as type:path
		var tr struct{ Pages []wirePage }
		f.e.Do(f.admin, "GET", path+"/content/pages", nil).JSON(t, &tr)
		groups = map[string]string{}
		walkPages(tr.Pages, func(p wirePage) {
			pages = append(pages, p.Type+":"+p.Path)
			if p.Type == "group" {
				groups[p.Title] = p.ID
			}
		})
		return groups, pages
	}
	groups, pages := read()
	want := "document:page group:getting-started document:getting-started/install document:getting-started/install/linux " +
		"document:getting-started/configure group:reference document:reference/api"
	if got := strings.Join(pages, " "); got != want || len(groups) != 2 {
		t.Fatalf("pages %s\nwant  %s", got, want)
	}

	// A page added to a group changes SUMMARY.md: the whole head is laid over the space again.
	added := map[string]string{
		"SUMMARY.md":          strings.Replace(gitbookWithGroups["SUMMARY.md"], "* [API](reference/api.md)\n", "* [API](reference/api.md)\n* [Errors](reference/errors.md)\n", 1),
		"reference/errors.md": "# Errors\n\nCodes.\n",
	}
	gitrepo.Push(t, url, added, "Errors")
	crWant(t, f.e.Do(f.admin, "POST", path+"/git/import", link), http.StatusNoContent)
	f.e.RunDueJobs()
	again, pages := read()
	if !maps.Equal(again, groups) || !strings.HasSuffix(strings.Join(pages, " "), "group:reference document:reference/api document:reference/errors") {
		t.Fatalf("groups %v, then %v; pages %v", groups, again, pages)
	}

	// Exported to another repository, the space is the repository it came from.
	out, _ := gitrepo.Bare(t)
	crWant(t, f.e.Do(f.admin, "POST", path+"/git/export",
		map[string]any{"url": out, "ref": "refs/heads/main", "commitMessage": "Export", "standalone": true}), http.StatusNoContent)
	if got, want := gitrepo.Files(t, out), gitrepo.Files(t, url); !maps.Equal(got, want) {
		t.Fatalf("exported:\n%v\nimported:\n%v", got, want)
	}
}
