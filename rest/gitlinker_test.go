package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/gitsync"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// gitOperation is the link's last operation as REST and GraphQL report it (they must agree).
func (f *gitFixture) gitOperation(t *testing.T) (state, direction, message string) {
	t.Helper()
	var info struct {
		Operation struct {
			State, Direction string
			Error            *string
		}
	}
	f.get(t, f.admin, "/git/info").JSON(t, &info)
	g := f.e.GraphQL(f.admin, `query($id: ID!) { space(id: $id) { gitSync { operation { state direction error } } } }`, map[string]any{"id": f.space})
	var data struct {
		Space struct {
			GitSync struct {
				Operation struct {
					State, Direction string
					Error            *string
				}
			}
		}
	}
	if err := json.Unmarshal(g.Data, &data); err != nil || len(g.Errors) > 0 {
		t.Fatalf("gitSync: %s %v", g.Data, g.Errors)
	}
	op, gop := info.Operation, data.Space.GitSync.Operation
	if !strings.EqualFold(op.State, gop.State) || !strings.EqualFold(op.Direction, gop.Direction) ||
		(op.Error == nil) != (gop.Error == nil) || op.Error != nil && *op.Error != *gop.Error {
		t.Fatalf("REST %+v, GraphQL %+v", op, gop)
	}
	if op.Error != nil {
		message = *op.Error
	}
	return op.State, op.Direction, message
}

// syncNow runs the link's sync as a poll or a webhook asks for it: the link (and its linker)
// stay as they are.
func (f *gitFixture) syncNow(t *testing.T) {
	t.Helper()
	if err := jobs.Enqueue(context.Background(), f.e.Store.Client, gitsync.SyncJob, f.space, time.Now()); err != nil {
		t.Fatal(err)
	}
	f.e.RunDueJobs()
}

// TestGitSyncWaitsForItsLinkersAccess: a sync goes only as far as the user who linked the space
// may: with their role lowered below review a push is not imported (nothing merged, no change
// request), the link's operation and one audit entry say why, and once the role comes back the
// next sync imports it; removed from the organization, neither a merge is exported nor a push
// imported until an admin links the space again, as themselves.
func TestGitSyncWaitsForItsLinkersAccess(t *testing.T) {
	f := &gitFixture{contentFixture: newContentFixture(t, allowLocalGit)}
	linker := f.e.User("linker@example.com", f.org, testenv.Role(viewer.RoleAdmin))
	f.url, _ = gitrepo.Bare(t)
	crWant(t, f.e.Do(linker, "POST", f.spacePath("/git/export"), map[string]any{"url": f.url, "ref": "refs/heads/main", "commitMessage": "Link"}), http.StatusNoContent)
	f.e.RunDueJobs()
	mainHas := func(text string) bool { return strings.Contains(f.markdown(t, "/content/page/"+f.pages["api"]), text) }
	changeRequests := func() int {
		var list struct{ Items []any }
		f.get(t, f.admin, "/change-requests?status=open").JSON(t, &list)
		return len(list.Items)
	}
	setRole := func(role string) {
		t.Helper()
		crWant(t, f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org+"/members/"+linker.UserID, map[string]any{"role": role}), http.StatusOK)
	}
	pushAPI := func(text, message string) {
		t.Helper()
		md := strings.Replace(gitrepo.Files(t, f.url)["api.md"], "Endpoints", "Endpoints, "+text, 1)
		gitrepo.Push(t, f.url, map[string]string{"api.md": md}, message)
	}
	held := func() int { return auditCount(t, f.e, f.org, audit.GitSyncHeld) }

	t.Run("RoleLowered", func(t *testing.T) {
		setRole("edit")
		pushAPI("while lowered.", "Lowered")
		crs := changeRequests()
		f.syncNow(t)
		state, direction, why := f.gitOperation(t)
		if state != "failure" || direction != "import" || !strings.Contains(why, "can no longer merge into it") ||
			!strings.Contains(why, "their role on the space is edit, below the review role") {
			t.Fatalf("operation %s %s %q", state, direction, why)
		}
		if mainHas("while lowered.") || changeRequests() != crs {
			t.Fatal("the import went ahead as a user who can no longer merge")
		}
		f.syncNow(t) // a poll repeats the sync, not the audit entry
		if n := held(); n != 1 {
			t.Fatalf("%d git_sync.held entries, want 1", n)
		}
		setRole("review")
		f.syncNow(t)
		if state, _, why := f.gitOperation(t); state != "success" || why != "" || !mainHas("while lowered.") {
			t.Fatalf("after the role came back: %s %q, main has it %v", state, why, mainHas("while lowered."))
		}
	})
	t.Run("Removed", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "DELETE", "/v1/orgs/"+f.org+"/members/"+linker.UserID, nil), http.StatusNoContent)
		head := gitrepo.Files(t, f.url)["api.md"]
		mergeContent(t, f.e, f.admin, f.space, map[string]any{"operation": "update_page", "page": f.pages["guides/café"],
			"document": map[string]any{"markdown": "# Café\n\nMerged after the linker left.\n"}})
		f.e.RunDueJobs()
		state, direction, why := f.gitOperation(t)
		if state != "failure" || direction != "export" || !strings.Contains(why, "can no longer read it (they are no longer a member") {
			t.Fatalf("operation %s %s %q", state, direction, why)
		}
		if files := gitrepo.Files(t, f.url); strings.Contains(files["guides/café.md"], "linker left") || files["api.md"] != head {
			t.Fatal("a merge was exported to the repository of a user who left")
		}
		pushAPI("after leaving.", "After leaving")
		f.syncNow(t)
		if state, direction, why := f.gitOperation(t); state != "failure" || direction != "import" || !strings.Contains(why, "no longer a member") || mainHas("after leaving.") {
			t.Fatalf("operation %s %s %q, main has it %v", state, direction, why, mainHas("after leaving."))
		}
		if n := held(); n != 3 {
			t.Fatalf("%d git_sync.held entries, want 3", n)
		}
		audit := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/audit-events?action="+audit.GitSyncHeld, nil)
		if body := string(audit.Body); !strings.Contains(body, linker.UserID) || !strings.Contains(body, "no longer a member") {
			t.Fatalf("audit log %d %s", audit.Status, body)
		}

		// An admin links the space again, as themselves: the push is imported, the merge exported.
		f.sync(t)
		f.e.RunDueJobs()
		files := gitrepo.Files(t, f.url)
		if state, _, why := f.gitOperation(t); state != "success" || why != "" || !mainHas("after leaving.") ||
			!strings.Contains(files["guides/café.md"], "linker left") {
			t.Fatalf("after linking again: %s %q, main has the push %v, the repository's café page %q", state, why, mainHas("after leaving."), files["guides/café.md"])
		}
	})
}
