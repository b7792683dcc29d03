package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/event"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// reviewFixture is a change request fixture with an editor who writes change requests, two
// reviewers (the second in a team), and a user of another organization.
type reviewFixture struct {
	*crFixture
	editor, rev1, rev2, outsider testenv.Actor
	team, otherTeam              string
}

func newReviewFixture(t *testing.T) *reviewFixture {
	t.Helper()
	f := &reviewFixture{crFixture: newCRFixture(t)}
	e := f.e
	f.editor = e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit))
	f.rev1 = e.User("rev1@example.com", f.org, testenv.Role(viewer.RoleReview))
	f.rev2 = e.User("rev2@example.com", f.org, testenv.Role(viewer.RoleReview))
	f.team = f.createTeam(t, f.admin, f.org, "Reviewers", f.rev2.UserID)
	var otherOrg string
	f.outsider, otherOrg = e.Bootstrap("out@example.com", "Other")
	f.otherTeam = f.createTeam(t, f.outsider, otherOrg, "Others")
	return f
}

func (f *reviewFixture) createTeam(t *testing.T, a testenv.Actor, org, title string, members ...string) string {
	t.Helper()
	r := f.e.Do(a, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": title, "members": members})
	crWant(t, r, http.StatusCreated)
	return r.Map(t)["id"].(string)
}

// openCR opens a change request as the editor, with one page, and returns its id.
func (f *reviewFixture) openCR(t *testing.T, subject string) string {
	t.Helper()
	cr := f.create(t, f.editor, subject)
	id := cr["id"].(string)
	f.edit(t, f.editor, id, insert("Guide", "Hello"))
	return id
}

func (f *reviewFixture) review(t *testing.T, a testenv.Actor, cr, status string, extra map[string]any) testenv.Response {
	t.Helper()
	body := map[string]any{"status": status}
	for k, v := range extra {
		body[k] = v
	}
	return f.e.Do(a, "POST", f.path("/"+cr+"/reviews"), body)
}

// items returns the items of a list answer as a.
func (f *reviewFixture) items(t *testing.T, a testenv.Actor, path string) []map[string]any {
	t.Helper()
	r := f.e.Do(a, "GET", path, nil)
	crWant(t, r, http.StatusOK)
	var l struct {
		Items []map[string]any `json:"items"`
	}
	r.JSON(t, &l)
	return l.Items
}

func numbersOf(t *testing.T, f *reviewFixture, query string) []int {
	t.Helper()
	n, _ := f.list(t, f.admin, query)
	return n
}

func TestReviews(t *testing.T) {
	f := newReviewFixture(t)
	cr := f.openCR(t, "Guide")

	t.Run("RequestReviewers", func(t *testing.T) {
		r := f.e.Do(f.editor, "POST", f.path("/"+cr+"/requested-reviewers"),
			map[string]any{"users": []string{f.rev1.UserID}, "teams": []string{f.team}})
		crWant(t, r, http.StatusOK)
		var made struct {
			Users []map[string]any `json:"users"`
		}
		r.JSON(t, &made)
		if len(made.Users) != 2 || made.Users[0]["kind"] != "user" || made.Users[1]["kind"] != "team" {
			t.Fatalf("requests made = %v", made.Users)
		}
		if got := f.items(t, f.rev1, f.path("/"+cr+"/requested-reviewers")); len(got) != 2 {
			t.Fatalf("requested reviewers = %v", got)
		}
		// Paged as every list: one a page, oldest first, then the next page.
		var first struct {
			Items []map[string]any
			Next  struct{ Page string }
			Count int
		}
		f.e.Do(f.rev1, "GET", f.path("/"+cr+"/requested-reviewers?limit=1"), nil).JSON(t, &first)
		if len(first.Items) != 1 || first.Items[0]["kind"] != "user" || first.Next.Page == "" || first.Count != 2 {
			t.Fatalf("first page = %+v", first)
		}
		if got := f.items(t, f.rev1, f.path("/"+cr+"/requested-reviewers?limit=1&page="+first.Next.Page)); len(got) != 1 || got[0]["kind"] != "team" {
			t.Errorf("second page = %v", got)
		}
		crWantError(t, f.e.Do(f.rev1, "GET", f.path("/"+cr+"/requested-reviewers?limit=1001"), nil), 400, "limit")
		g := f.e.GraphQL(f.rev1, `query($s: ID!, $c: ID!) { changeRequest(spaceId: $s, id: $c) {
			requestedReviewers(first: 1) { totalCount pageInfo { hasNextPage endCursor } edges { node { kind } } } } }`,
			map[string]any{"s": f.space, "c": cr})
		var gd struct {
			ChangeRequest struct {
				RequestedReviewers struct {
					TotalCount int
					PageInfo   struct {
						HasNextPage bool
						EndCursor   string
					}
					Edges []struct{ Node struct{ Kind string } }
				}
			}
		}
		if err := json.Unmarshal(g.Data, &gd); err != nil || len(g.Errors) > 0 {
			t.Fatalf("GraphQL %v %s", g.Errors, g.Data)
		}
		if rr := gd.ChangeRequest.RequestedReviewers; rr.TotalCount != 2 || !rr.PageInfo.HasNextPage ||
			len(rr.Edges) != 1 || rr.Edges[0].Node.Kind != "user" {
			t.Errorf("GraphQL first page = %s", g.Data)
		}
		if got := numbersOf(t, f, "?requestedReviewer="+f.rev2.UserID); !slices.Equal(got, []int{1}) {
			t.Errorf("requested of rev2 (by team) = %v", got)
		}
		if got := numbersOf(t, f, "?requestedReviewer="+f.admin.UserID); len(got) != 0 {
			t.Errorf("requested of the admin = %v", got)
		}
	})
	t.Run("ErrBadRequests", func(t *testing.T) {
		p := f.path("/" + cr + "/requested-reviewers")
		crWantError(t, f.e.Do(f.editor, "POST", p, map[string]any{"users": []string{f.outsider.UserID}}), 404, f.outsider.UserID)
		crWantError(t, f.e.Do(f.editor, "POST", p, map[string]any{"users": []string{}, "teams": []string{f.otherTeam}}), 404, f.otherTeam)
		crWantError(t, f.e.Do(f.editor, "POST", p, map[string]any{"users": []string{f.editor.UserID}}), 400, "author")
		crWantError(t, f.e.Do(f.editor, "POST", p, map[string]any{"users": []string{}}), 400, "users")
		crWantError(t, f.e.Do(f.editor, "POST", p, map[string]any{}), 400, "users")
		reader := f.e.User("reader@example.com", f.org, testenv.Role(viewer.RoleRead))
		crWantError(t, f.e.Do(reader, "POST", p, map[string]any{"users": []string{f.rev1.UserID}}), 403)
		// A reviewer must hold the review role on the space.
		crWantError(t, f.e.Do(f.editor, "POST", p, map[string]any{"users": []string{reader.UserID}}), 400, reader.UserID, "review")
	})
	var approval map[string]any
	t.Run("Approve", func(t *testing.T) {
		r := f.review(t, f.rev1, cr, "approved", map[string]any{"comment": map[string]any{"markdown": "Looks good"}})
		crWant(t, r, http.StatusCreated)
		approval = r.Map(t)
		if r.Header.Get("Location") != approval["urls"].(map[string]any)["location"] {
			t.Errorf("Location %q", r.Header.Get("Location"))
		}
		if approval["outdated"] != false || approval["reviewer"].(map[string]any)["id"] != f.rev1.UserID ||
			approval["requestedBy"].(map[string]any)["id"] != f.editor.UserID || approval["comment"] == nil {
			t.Fatalf("review = %v", approval)
		}
		// The review's comment names the review (the reference's Comment.target.review).
		if rv := approval["comment"].(map[string]any)["target"].(map[string]any)["review"]; rv != approval["id"] {
			t.Errorf("comment target.review = %v, want %v", rv, approval["id"])
		}
		comments := f.items(t, f.admin, "/v1/spaces/"+f.space+"/change-requests/"+cr+"/comments")
		if len(comments) != 1 || comments[0]["target"].(map[string]any)["review"] != approval["id"] {
			t.Errorf("the change request's comments = %v", comments)
		}
		got := f.items(t, f.admin, f.path("/"+cr+"/requested-reviewers"))
		if len(got) != 1 || got[0]["kind"] != "team" {
			t.Errorf("after rev1's review, requested = %v", got)
		}
		one := f.e.Do(f.admin, "GET", f.path("/"+cr+"/reviews/"+approval["id"].(string))+"?format=markdown", nil)
		crWant(t, one, http.StatusOK)
		if body := one.Map(t)["comment"].(map[string]any)["body"].(map[string]any)["markdown"]; body != "Looks good" {
			t.Errorf("comment body = %v", body)
		}
		if got := numbersOf(t, f, "?reviewStatus=approved"); !slices.Equal(got, []int{1}) {
			t.Errorf("approved = %v", got)
		}
		if got := numbersOf(t, f, "?reviewStatus=changes-requested"); len(got) != 0 {
			t.Errorf("changes requested = %v", got)
		}
	})
	t.Run("ErrBadReviews", func(t *testing.T) {
		crWantError(t, f.review(t, f.editor, cr, "approved", nil), 403, "review")
		crWantError(t, f.review(t, f.rev1, cr, "maybe", nil), 400, "status")
		crWantError(t, f.e.Do(f.rev1, "POST", f.path("/"+cr+"/reviews"), map[string]any{}), 400, "status")
		crWantError(t, f.review(t, f.outsider, cr, "approved", nil), 404)
		crWantError(t, f.e.Do(f.outsider, "GET", f.path("/"+cr+"/reviews"), nil), 404)
		crWantError(t, f.e.Do(f.outsider, "GET", f.path("/"+cr+"/reviews/"+approval["id"].(string)), nil), 404)
		crWantError(t, f.e.Do(f.outsider, "GET", f.path("/"+cr+"/contributors"), nil), 404)
		crWantError(t, f.e.Do(f.outsider, "GET", f.path("/"+cr+"/requested-reviewers"), nil), 404)
		crWantError(t, f.e.Do(f.admin, "GET", f.path("/"+cr+"/reviews/nope"), nil), 404)
	})
	t.Run("AuthorCannotApprove", func(t *testing.T) {
		own := f.create(t, f.rev1, "Mine")["id"].(string)
		crWantError(t, f.review(t, f.rev1, own, "approved", nil), 403, "author")
		crWant(t, f.review(t, f.rev1, own, "changes-requested", nil), http.StatusCreated)
	})
	t.Run("OutdatedAfterChange", func(t *testing.T) {
		crWant(t, f.review(t, f.rev2, cr, "changes-requested", nil), http.StatusCreated)
		if got := f.items(t, f.admin, f.path("/"+cr+"/requested-reviewers")); len(got) != 0 {
			t.Errorf("the team's request stays after rev2's review: %v", got)
		}
		if got := f.items(t, f.admin, f.path("/"+cr+"/reviews?outdated=false")); len(got) != 2 {
			t.Fatalf("current reviews = %d", len(got))
		}
		f.edit(t, f.editor, cr, insert("More", "text"))
		if got := f.items(t, f.admin, f.path("/"+cr+"/reviews?outdated=true")); len(got) != 2 {
			t.Errorf("outdated after an edit = %d", len(got))
		}
		if got := numbersOf(t, f, "?reviewStatus=approved"); len(got) != 0 {
			t.Errorf("approved after an edit = %v", got)
		}
		crWant(t, f.review(t, f.rev1, cr, "approved", nil), http.StatusCreated)
		current := f.items(t, f.admin, f.path("/"+cr+"/reviews?outdated=false"))
		if len(current) != 1 || current[0]["reviewer"].(map[string]any)["id"] != f.rev1.UserID {
			t.Errorf("current after re-review = %v", current)
		}
		if all := f.items(t, f.admin, f.path("/"+cr+"/reviews")); len(all) != 3 {
			t.Errorf("all reviews = %d", len(all))
		}
	})
	t.Run("RequestAgainSupersedes", func(t *testing.T) {
		p := f.path("/" + cr + "/requested-reviewers")
		crWant(t, f.e.Do(f.editor, "POST", p, map[string]any{"users": []string{f.rev1.UserID}, "subject": "Guide, reviewed"}), 200)
		if got := f.items(t, f.admin, f.path("/"+cr+"/reviews?outdated=false")); len(got) != 0 {
			t.Errorf("current reviews after asking again = %v", got)
		}
		if s := f.e.Do(f.admin, "GET", f.path("/"+cr), nil).Map(t)["subject"]; s != "Guide, reviewed" {
			t.Errorf("subject = %v", s)
		}
		crWant(t, f.e.Do(f.editor, "DELETE", p+"/"+f.rev1.UserID, nil), http.StatusResetContent)
		crWant(t, f.e.Do(f.editor, "DELETE", p+"/"+f.rev1.UserID, nil), http.StatusNoContent)
		crWantError(t, f.e.Do(f.outsider, "DELETE", p+"/"+f.rev1.UserID, nil), 404)
	})
	t.Run("Contributors", func(t *testing.T) {
		got := f.items(t, f.admin, f.path("/"+cr+"/contributors"))
		var kinds []string
		for _, c := range got {
			kinds = append(kinds, c["actionType"].(string)+":"+c["user"].(map[string]any)["id"].(string))
		}
		slices.Sort(kinds)
		want := []string{"comment:" + f.rev1.UserID, "edit:" + f.editor.UserID}
		if !slices.Equal(kinds, want) {
			t.Errorf("contributors = %v, want %v", kinds, want)
		}
	})
	t.Run("GraphQL", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, `query($s: ID!, $c: ID!) { changeRequest(spaceId: $s, id: $c) {
			reviews { totalCount edges { node { status outdated reviewer { id } comment { body } } } }
			current: reviews(outdated: false) { totalCount }
			requestedReviewers { totalCount }
			contributors { actionType count user { id } } } }`, map[string]any{"s": f.space, "c": cr})
		if len(g.Errors) > 0 {
			t.Fatalf("errors %v", g.Errors)
		}
		var d struct {
			ChangeRequest struct {
				Reviews struct {
					TotalCount int
					Edges      []struct{ Node map[string]any }
				}
				Current      struct{ TotalCount int }
				Contributors []map[string]any
			}
		}
		if err := json.Unmarshal(g.Data, &d); err != nil {
			t.Fatal(err)
		}
		if d.ChangeRequest.Reviews.TotalCount != 3 || d.ChangeRequest.Current.TotalCount != 0 ||
			d.ChangeRequest.Reviews.Edges[0].Node["status"] != "APPROVED" || len(d.ChangeRequest.Contributors) != 2 {
			t.Errorf("GraphQL = %s", g.Data)
		}
		g = f.e.GraphQL(f.rev2, `mutation($s: ID!, $c: ID!) { submitChangeRequestReview(spaceId: $s, changeRequest: $c,
			input: {status: APPROVED, comment: "ok"}) { id status outdated reviewer { id } comment { body target { reviewId } } } }`, map[string]any{"s": f.space, "c": cr})
		if len(g.Errors) > 0 {
			t.Fatalf("submit: %v", g.Errors)
		}
		var sub struct {
			SubmitChangeRequestReview struct {
				ID      string
				Comment struct{ Target struct{ ReviewID string } }
			}
		}
		if err := json.Unmarshal(g.Data, &sub); err != nil || sub.SubmitChangeRequestReview.Comment.Target.ReviewID != sub.SubmitChangeRequestReview.ID {
			t.Errorf("the review's comment's target = %s", g.Data)
		}
		g = f.e.GraphQL(f.editor, `mutation($s: ID!, $c: ID!, $t: ID!) { requestChangeRequestReviewers(spaceId: $s, changeRequest: $c,
			input: {teams: [$t]}) { kind team { id } requestedBy { id } } }`, map[string]any{"s": f.space, "c": cr, "t": f.otherTeam})
		if g.Code() != "NOT_FOUND" {
			t.Errorf("a team of another organization: %v %s", g.Errors, g.Data)
		}
		g = f.e.GraphQL(f.editor, `mutation($s: ID!, $c: ID!) { submitChangeRequestReview(spaceId: $s, changeRequest: $c,
			input: {status: APPROVED}) { id } }`, map[string]any{"s": f.space, "c": cr})
		if g.Code() != "FORBIDDEN" {
			t.Errorf("an editor's review: %v", g.Errors)
		}
	})
}

// setRules sets the space's merge rules as the admin and returns the answer.
func (f *reviewFixture) setRules(t *testing.T, rules any) testenv.Response {
	t.Helper()
	return f.e.Do(f.admin, "PATCH", "/v1/spaces/"+f.space, map[string]any{"mergeRules": rules})
}

func rules(rs ...map[string]any) map[string]any { return map[string]any{"type": "rules", "rules": rs} }

func rl(name string, users ...string) map[string]any {
	r := map[string]any{"rule": name}
	if len(users) > 0 {
		r["users"] = users
	}
	return r
}

func TestMergeRules(t *testing.T) {
	f := newReviewFixture(t)
	t.Run("ErrUnsupported", func(t *testing.T) {
		crWantError(t, f.setRules(t, rules(rl("require_agent_review"), rl("custom"))), 400, "require_agent_review", "custom")
		crWantError(t, f.setRules(t, map[string]any{"type": "sometimes"}), 400, "type")
		crWantError(t, f.setRules(t, rules(rl("allow_bypass", f.outsider.UserID))), 400, f.outsider.UserID)
		crWantError(t, f.setRules(t, rules(rl("require_specific_reviewers"))), 400, "require_specific_reviewers")
		crWantError(t, f.e.Do(f.rev1, "PATCH", "/v1/spaces/"+f.space, map[string]any{"mergeRules": rules()}), 403)
		if got := f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space, nil).Map(t)["mergeRules"]; got.(map[string]any)["type"] != "inherit" {
			t.Errorf("mergeRules after refusals = %v", got)
		}
	})
	r := f.setRules(t, rules(rl("require_at_least_one_approved_review"), rl("require_change_request_subject"),
		rl("allow_bypass", f.admin.UserID)))
	crWant(t, r, http.StatusOK)
	if got := r.Map(t)["mergeRules"].(map[string]any)["rules"].([]any); len(got) != 3 {
		t.Fatalf("stored rules = %v", got)
	}
	cr := f.openCR(t, "")
	t.Run("RefusedWithConflict", func(t *testing.T) {
		crWantError(t, f.merge(t, f.rev1, cr), 409, "require_at_least_one_approved_review", "require_change_request_subject")
		g := f.e.GraphQL(f.rev1, `mutation($s: ID!, $c: ID!) { mergeChangeRequest(spaceId: $s, changeRequest: $c) { result } }`,
			map[string]any{"s": f.space, "c": cr})
		if g.Code() != "CONFLICT" {
			t.Errorf("GraphQL merge: %v", g.Errors)
		}
		crWant(t, f.review(t, f.rev2, cr, "approved", nil), http.StatusCreated)
		crWantError(t, f.merge(t, f.rev1, cr), 409, "require_change_request_subject")
	})
	t.Run("Allowed", func(t *testing.T) {
		f.patch(t, cr, map[string]any{"subject": "Guide"})
		crWant(t, f.merge(t, f.rev1, cr), http.StatusOK)
	})
	t.Run("AuthorToMerge", func(t *testing.T) {
		crWant(t, f.setRules(t, rules(rl("require_author_to_merge"))), http.StatusOK)
		other := f.create(t, f.rev2, "Theirs")["id"].(string)
		f.edit(t, f.rev2, other, insert("Theirs", "x"))
		crWantError(t, f.merge(t, f.rev1, other), 403, "require_author_to_merge")
		crWant(t, f.merge(t, f.rev2, other), http.StatusOK)
	})
	t.Run("Bypass", func(t *testing.T) {
		crWant(t, f.setRules(t, rules(rl("require_one_of_specific_reviewers", f.rev1.UserID), rl("allow_bypass", f.admin.UserID))), 200)
		cr := f.openCR(t, "Bypassed")
		crWantError(t, f.merge(t, f.rev2, cr), 409, "require_one_of_specific_reviewers")
		crWant(t, f.merge(t, f.admin, cr), http.StatusOK)
		n, err := f.e.Store.Client.Event.Query().Where(event.Type("change_request.merge_rules_bypassed"), event.ObjectID(cr)).Count(system())
		if err != nil || n != 1 {
			t.Errorf("bypass events = %d, %v", n, err)
		}
	})
	t.Run("OrganizationRules", func(t *testing.T) {
		org := "/v1/orgs/" + f.org
		crWantError(t, f.e.Do(f.admin, "PATCH", org, map[string]any{"mergeRules": map[string]any{"type": "inherit"}}), 400, "inherit")
		crWantError(t, f.e.Do(f.admin, "PATCH", org, map[string]any{"mergeRules": rules(rl("custom"))}), 400, "custom")
		r := f.e.Do(f.admin, "PATCH", org, map[string]any{"mergeRules": rules(rl("require_change_request_subject"))})
		crWant(t, r, http.StatusOK)
		if got := r.Map(t)["mergeRules"].(map[string]any)["type"]; got != "rules" {
			t.Fatalf("organization mergeRules = %v", got)
		}
		crWant(t, f.setRules(t, map[string]any{"type": "inherit"}), http.StatusOK)
		cr := f.openCR(t, "")
		crWantError(t, f.merge(t, f.admin, cr), 409, "require_change_request_subject")
		crWant(t, f.e.Do(f.admin, "PATCH", org, map[string]any{"mergeRules": map[string]any{"type": "none"}}), http.StatusOK)
		crWant(t, f.merge(t, f.admin, cr), http.StatusOK)
	})
	t.Run("CollectionInherit", func(t *testing.T) {
		col := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/collections", map[string]any{"title": "Guides"})
		crWant(t, col, http.StatusCreated)
		colID := col.Map(t)["id"].(string)
		r := f.e.Do(f.admin, "PATCH", "/v1/collections/"+colID, map[string]any{"mergeRules": rules(rl("require_up_to_date_change_request"))})
		crWant(t, r, http.StatusOK)
		if got := r.Map(t)["mergeRules"].(map[string]any)["type"]; got != "rules" {
			t.Fatalf("collection mergeRules = %v", got)
		}
		s := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Inner", "parent": colID})
		inner := &reviewFixture{crFixture: &crFixture{e: f.e, admin: f.admin, org: f.org, space: s["id"].(string)}, editor: f.editor}
		g := f.e.GraphQL(f.admin, `query($s: ID!) { space(id: $s) { mergeRules { type } effectiveMergeRules { type rules { rule } } } }`,
			map[string]any{"s": inner.space})
		var d struct {
			Space struct {
				MergeRules          struct{ Type string }
				EffectiveMergeRules struct {
					Type  string
					Rules []struct{ Rule string }
				}
			}
		}
		if err := json.Unmarshal(g.Data, &d); err != nil || d.Space.MergeRules.Type != "INHERIT" ||
			d.Space.EffectiveMergeRules.Type != "RULES" || d.Space.EffectiveMergeRules.Rules[0].Rule != "require_up_to_date_change_request" {
			t.Fatalf("GraphQL rules = %s %v", g.Data, g.Errors)
		}
		first, second := inner.openCR(t, "One"), inner.openCR(t, "Two")
		crWant(t, inner.merge(t, f.admin, first), http.StatusOK)
		crWantError(t, inner.merge(t, f.admin, second), 409, "require_up_to_date_change_request")
		g = f.e.GraphQL(f.admin, `mutation($s: ID!) { updateSpace(id: $s, input: {mergeRules: {type: NONE}}) { mergeRules { type } } }`,
			map[string]any{"s": inner.space})
		if len(g.Errors) > 0 {
			t.Fatalf("updateSpace: %v", g.Errors)
		}
		crWant(t, inner.merge(t, f.admin, second), http.StatusOK)
	})
}

// TestReviewsTransfer: a space moved to another organization keeps its reviews, drops its review
// requests (they name the old organization's people) and inherits its new place's merge rules.
func TestReviewsTransfer(t *testing.T) {
	f := newReviewFixture(t)
	other := f.e.Do(f.admin, "POST", "/v1/orgs", map[string]any{"title": "Other"}).Map(t)["id"].(string)
	cr := f.openCR(t, "Moving")
	crWant(t, f.e.Do(f.editor, "POST", f.path("/"+cr+"/requested-reviewers"), map[string]any{"users": []string{f.rev1.UserID}}), 200)
	crWant(t, f.review(t, f.rev2, cr, "approved", nil), http.StatusCreated)
	crWant(t, f.setRules(t, rules(rl("allow_bypass", f.rev1.UserID))), http.StatusOK)
	r := f.e.Do(f.admin, "POST", "/v1/spaces/"+f.space+"/transfer", map[string]any{"organization": other})
	crWant(t, r, http.StatusOK)
	if got := r.Map(t)["mergeRules"].(map[string]any)["type"]; got != "inherit" {
		t.Errorf("mergeRules after the transfer = %v", got)
	}
	if got := f.items(t, f.admin, f.path("/"+cr+"/requested-reviewers")); len(got) != 0 {
		t.Errorf("requests after the transfer = %v", got)
	}
	if got := f.items(t, f.admin, f.path("/"+cr+"/reviews")); len(got) != 1 {
		t.Errorf("reviews after the transfer = %v", got)
	}
}

// TestMergeRulesOfReviews merges under the rules TestMergeRules does not: all reviews approved
// (no pending request, none requesting changes) and specific reviewers (each must approve, and
// an outdated approval does not count), and refuses a merge by another than the author on
// GraphQL as FORBIDDEN.
func TestMergeRulesOfReviews(t *testing.T) {
	f := newReviewFixture(t)
	approve := func(t *testing.T, a testenv.Actor, cr, status string) {
		t.Helper()
		crWant(t, f.review(t, a, cr, status, nil), http.StatusCreated)
	}
	t.Run("AllReviewsApproved", func(t *testing.T) {
		crWant(t, f.setRules(t, rules(rl("require_all_reviews_approved"))), http.StatusOK)
		cr := f.openCR(t, "All")
		crWantError(t, f.merge(t, f.admin, cr), http.StatusConflict, "require_all_reviews_approved")
		crWant(t, f.e.Do(f.editor, "POST", f.path("/"+cr+"/requested-reviewers"),
			map[string]any{"users": []string{f.rev1.UserID, f.rev2.UserID}}), http.StatusOK)
		approve(t, f.rev1, cr, "approved")
		// GraphQL's filters: pending of rev2, not of rev1 (who answered); approved by a current review.
		if got := f.graphNumbers(t, `requestedReviewer: "`+f.rev2.UserID+`"`); got != "[1]" {
			t.Errorf("GraphQL requested of rev2: %s", got)
		}
		if got := f.graphNumbers(t, `requestedReviewer: "`+f.rev1.UserID+`"`); got != "[]" {
			t.Errorf("GraphQL requested of rev1: %s", got)
		}
		if got := f.graphNumbers(t, `reviewStatus: APPROVED`); got != "[1]" {
			t.Errorf("GraphQL approved: %s", got)
		}
		crWantError(t, f.merge(t, f.admin, cr), http.StatusConflict, "require_all_reviews_approved") // rev2's request pending
		approve(t, f.rev2, cr, "changes-requested")
		crWantError(t, f.merge(t, f.admin, cr), http.StatusConflict, "require_all_reviews_approved")
		approve(t, f.rev2, cr, "approved")
		crWant(t, f.merge(t, f.admin, cr), http.StatusOK)
	})
	t.Run("SpecificReviewers", func(t *testing.T) {
		crWant(t, f.setRules(t, rules(rl("require_specific_reviewers", f.rev1.UserID, f.rev2.UserID))), http.StatusOK)
		cr := f.openCR(t, "Specific")
		approve(t, f.rev1, cr, "approved")
		crWantError(t, f.merge(t, f.admin, cr), http.StatusConflict, "require_specific_reviewers")
		approve(t, f.rev2, cr, "approved")
		f.edit(t, f.editor, cr, insert("Later", "text")) // both approvals outdated
		crWantError(t, f.merge(t, f.admin, cr), http.StatusConflict, "require_specific_reviewers")
		approve(t, f.rev1, cr, "approved")
		approve(t, f.rev2, cr, "approved")
		crWant(t, f.merge(t, f.admin, cr), http.StatusOK)
	})
	t.Run("GraphQLForbidden", func(t *testing.T) {
		crWant(t, f.setRules(t, rules(rl("require_author_to_merge"))), http.StatusOK)
		cr := f.openCR(t, "Theirs")
		g := f.e.GraphQL(f.admin, `mutation($s: ID!, $c: ID!) { mergeChangeRequest(spaceId: $s, changeRequest: $c) { result } }`,
			map[string]any{"s": f.space, "c": cr})
		if g.Code() != "FORBIDDEN" || !strings.Contains(fmt.Sprint(g.Errors), "require_author_to_merge") {
			t.Errorf("GraphQL merge by another than the author: %v", g.Errors)
		}
	})
}

// graphNumbers lists the numbers of the space's open change requests that filter (GraphQL
// arguments of Space.changeRequests) keeps, read by the admin, as "[1 2]".
func (f *reviewFixture) graphNumbers(t *testing.T, filter string) string {
	t.Helper()
	g := f.e.GraphQL(f.admin, `query($s: ID!) { space(id: $s) { changeRequests(`+filter+`) { edges { node { number } } } } }`,
		map[string]any{"s": f.space})
	var d struct {
		Space struct {
			ChangeRequests struct {
				Edges []struct{ Node struct{ Number int } }
			}
		}
	}
	if err := json.Unmarshal(g.Data, &d); err != nil || len(g.Errors) > 0 {
		t.Fatalf("changeRequests(%s): %s %v", filter, g.Data, g.Errors)
	}
	var numbers []int
	for _, e := range d.Space.ChangeRequests.Edges {
		numbers = append(numbers, e.Node.Number)
	}
	return fmt.Sprint(numbers)
}
