package rest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// gitWaiting is the waiting change request getSpaceGitInfo names (Bindery's extension).
type gitWaiting struct {
	ChangeRequest   string
	UnmetMergeRules []string
}

// waiting is the change request of an import that waits, as REST and GraphQL answer it (they
// must agree); nil when none waits.
func (f *gitFixture) waiting(t *testing.T) *gitWaiting {
	t.Helper()
	var info struct {
		Operation struct{ State string }
		Waiting   *gitWaiting
	}
	f.get(t, f.admin, "/git/info").JSON(t, &info)
	g := f.e.GraphQL(f.admin, `query($id: ID!) { space(id: $id) { gitSync { changeRequest unmetMergeRules } } }`, map[string]any{"id": f.space})
	var data struct {
		Space struct {
			GitSync struct {
				ChangeRequest   *string
				UnmetMergeRules []string
			}
		}
	}
	if err := json.Unmarshal(g.Data, &data); err != nil || len(g.Errors) > 0 {
		t.Fatalf("gitSync: %s %v", g.Data, g.Errors)
	}
	gs := data.Space.GitSync
	if info.Operation.State != "success" { // an import, or the export of the merge it made
		t.Fatalf("operation %+v", info.Operation)
	}
	if info.Waiting == nil {
		if gs.ChangeRequest != nil || len(gs.UnmetMergeRules) > 0 {
			t.Fatalf("GraphQL says %+v waits, REST nothing", gs)
		}
		return nil
	}
	if gs.ChangeRequest == nil || *gs.ChangeRequest != info.Waiting.ChangeRequest || !slices.Equal(gs.UnmetMergeRules, info.Waiting.UnmetMergeRules) {
		t.Fatalf("REST %+v, GraphQL %+v", info.Waiting, gs)
	}
	return info.Waiting
}

// push commits a change of the api page's text to the branch and imports it.
func (f *gitFixture) push(t *testing.T, text, message string) {
	t.Helper()
	md := strings.Replace(gitrepo.Files(t, f.url)["api.md"], "Endpoints", "Endpoints, "+text, 1)
	gitrepo.Push(t, f.url, map[string]string{"api.md": md}, message)
	f.sync(t)
}

// TestGitImportUnderMergeRules: with merge rules in force, a push — even one the main content
// could take directly — arrives as a change request by the user who linked the space, merged
// through the merge gate as that user only when the rules let it; otherwise it waits, the sync's
// outcome naming the rules, until a review lets anyone merge it as any change request. The
// linker's allow_bypass never merges an import on its own; a person's merge may bypass.
func TestGitImportUnderMergeRules(t *testing.T) {
	f := newGitFixture(t) // linked by the admin
	rev := f.e.User("rev@example.com", f.org, testenv.Role(viewer.RoleReview))
	setRules := func(t *testing.T, rules any) {
		t.Helper()
		crWant(t, f.e.Do(f.admin, "PATCH", f.spacePath(""), map[string]any{"mergeRules": rules}), http.StatusOK)
	}
	mainHas := func(text string) bool { return strings.Contains(f.markdown(t, "/content/page/"+f.pages["api"]), text) }
	bypasses := func() int { return auditCount(t, f.e, f.org, audit.MergeRulesBypassed) }

	t.Run("WaitsForReview", func(t *testing.T) {
		setRules(t, rules(rl("require_at_least_one_approved_review"), rl("allow_bypass", f.admin.UserID)))
		before, _ := f.revision(t)
		f.push(t, "reviewed.", "Reviewed change")
		if now, _ := f.revision(t); now != before || mainHas("reviewed.") {
			t.Fatal("the import reached the main content unreviewed")
		}
		w := f.waiting(t)
		if w == nil || !slices.Equal(w.UnmetMergeRules, []string{"require_at_least_one_approved_review"}) {
			t.Fatalf("waiting %+v", w)
		}
		cr := f.get(t, f.admin, "/change-requests/"+w.ChangeRequest).Map(t)
		if cr["status"] != "open" || cr["subject"] != "Git: Reviewed change" {
			t.Fatalf("change request %v", cr)
		}
		if n := bypasses(); n != 0 {
			t.Fatalf("the linker's allow_bypass merged the import: %d bypasses", n)
		}
		crWantError(t, f.e.Do(rev, "POST", f.spacePath("/change-requests/"+w.ChangeRequest+"/merge"), nil),
			http.StatusConflict, "require_at_least_one_approved_review")
		crWant(t, f.e.Do(rev, "POST", f.spacePath("/change-requests/"+w.ChangeRequest+"/reviews"), map[string]any{"status": "approved"}),
			http.StatusCreated)
		crWant(t, f.e.Do(rev, "POST", f.spacePath("/change-requests/"+w.ChangeRequest+"/merge"), nil), http.StatusOK)
		if !mainHas("reviewed.") || bypasses() != 0 {
			t.Fatalf("after the reviewed merge: main has it %v, %d bypasses", mainHas("reviewed."), bypasses())
		}
		f.e.RunDueJobs()
	})
	t.Run("PersonBypasses", func(t *testing.T) {
		f.push(t, "bypassed.", "Bypassed change")
		w := f.waiting(t)
		if w == nil || mainHas("bypassed.") {
			t.Fatalf("waiting %+v", w)
		}
		crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/change-requests/"+w.ChangeRequest+"/merge"), nil), http.StatusOK)
		if !mainHas("bypassed.") || bypasses() != 1 {
			t.Fatalf("after the admin's merge: main has it %v, %d bypasses", mainHas("bypassed."), bypasses())
		}
		f.e.RunDueJobs()
	})
	t.Run("RulesMet", func(t *testing.T) {
		// The linker is the change request's author and its merger: the rule holds, it merges.
		setRules(t, rules(rl("require_author_to_merge"), rl("require_change_request_subject")))
		f.push(t, "authored.", "Authored change")
		if w := f.waiting(t); w != nil || !mainHas("authored.") {
			t.Fatalf("waiting %+v, main has it %v", w, mainHas("authored."))
		}
		var crs struct{ Items []map[string]any }
		f.get(t, f.admin, "/change-requests?status=merged").JSON(t, &crs)
		i := slices.IndexFunc(crs.Items, func(cr map[string]any) bool { return cr["subject"] == "Git: Authored change" })
		if i < 0 {
			t.Fatalf("merged change requests %v", crs.Items)
		}
		if by, _ := crs.Items[i]["mergedBy"].(map[string]any); by["id"] != f.admin.UserID {
			t.Fatalf("merged by %v, want the linker", crs.Items[i]["mergedBy"])
		}
	})
	t.Run("NoRules", func(t *testing.T) {
		setRules(t, map[string]any{"type": "none"})
		var before struct{ Items []map[string]any }
		f.get(t, f.admin, "/change-requests?status=merged").JSON(t, &before)
		f.push(t, "direct.", "Direct change")
		rev, git := f.revision(t)
		if w := f.waiting(t); w != nil || !mainHas("direct.") || git["message"] != "Direct change" {
			t.Fatalf("waiting %+v, revision %s %v", w, rev, git)
		}
		var after struct{ Items []map[string]any }
		if f.get(t, f.admin, "/change-requests?status=merged").JSON(t, &after); len(after.Items) != len(before.Items) {
			t.Fatal("an import without rules went through a change request")
		}
	})
}
