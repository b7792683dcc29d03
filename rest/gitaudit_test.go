package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
)

// TestGitSyncAudited: linking a space is the admin's action (source api); the sync job's exports
// and imports are Git Sync's (the system, source integration), each naming the commit and the
// revision; a new webhook secret is recorded without the secret; a refused call records nothing.
func TestGitSyncAudited(t *testing.T) {
	f := newGitFixture(t) // links (the admin) and exports (the job)
	crWantError(t, f.e.Do(f.admin, "POST", f.spacePath("/git/export"), map[string]any{"url": "ssh://h/r", "ref": "refs/heads/main", "commitMessage": "m"}),
		http.StatusBadRequest)
	_, secret := rotateSecret(t, f.e, f.admin, f.space)
	exported, git := f.revision(t)
	files := gitrepo.Files(t, f.url)
	pushed := gitrepo.Push(t, f.url, map[string]string{"api.md": files["api.md"] + "\nMore.\n"}, "More")
	f.sync(t) // the admin's call (linked again), then the job's import
	imported, _ := f.revision(t)

	type want struct{ actor, source, commit, revision string }
	wants := map[string][]want{
		audit.GitSyncLinked:               {{"user", "api", "", ""}, {"user", "api", "", ""}},
		audit.GitSyncExported:             {{"system", "integration", git["oid"].(string), exported}},
		audit.GitSyncWebhookSecretRotated: {{"user", "api", "", ""}},
		audit.GitSyncImported:             {{"system", "integration", pushed, imported}},
	}
	got := map[string][]want{}
	for _, it := range auditEvents(t, f.e, f.admin, f.org, "?limit=100").Items {
		if !strings.HasPrefix(it.Action, "git_sync.") {
			continue
		}
		if it.Target.Type != "space" || it.Target.ID != f.space || it.Payload["url"] != f.url || it.Payload["ref"] != "refs/heads/main" {
			t.Errorf("%s: target %+v payload %v", it.Action, it.Target, it.Payload)
		}
		if strings.Contains(strings.Join([]string{it.Actor.Label, it.Target.Label}, " "), secret) || it.Payload["secret"] != nil {
			t.Errorf("%s names the secret", it.Action)
		}
		if it.Actor.Type == "system" && it.Actor.Label != "Git Sync" {
			t.Errorf("%s: actor %+v", it.Action, it.Actor)
		}
		commit, _ := it.Payload["commit"].(string)
		revision, _ := it.Payload["revision"].(string)
		got[it.Action] = append(got[it.Action], want{it.Actor.Type, it.Source, commit, revision})
	}
	for action, w := range wants {
		if g := got[action]; len(g) != len(w) || g[0] != w[0] {
			t.Errorf("%s: %v, want %v", action, g, w)
		}
	}
	if len(got) != len(wants) {
		t.Errorf("git_sync actions %v", got)
	}
}
