package loader_test

import (
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestPagesCheckEachParentOnce reads the change requests of three spaces in one statement, as a
// viewer who may read two of them: the third answers no rows, and the access condition is
// stated on the parent, for the join to check once per parent, not on each row the subquery of
// a parent's rows walks (decision 361). A space of another organization made public opens its rows.
func TestPagesCheckEachParentOnce(t *testing.T) {
	e := testenv.New(t)
	ada, adaOrg := e.Bootstrap("ada@example.com", "Ada's")
	bob, bobOrg := e.Bootstrap("bob@example.com", "Bob's")
	space := func(a testenv.Actor, org, title string) *ent.Space {
		s := newSpace(t, e, a, org, title)
		e.ChangeRequests(s.ID, []string{a.UserID}, 3)
		return s
	}
	mine, theirs, alsoMine := space(ada, adaOrg, "Mine"), space(bob, bobOrg, "Theirs"), space(ada, adaOrg, "Also mine")

	read := func() map[string]int {
		ctx := request(e, adminOf(ada, adaOrg))
		spaces := []*ent.Space{mine, theirs, alsoMine}
		loader.Level(ctx, spaces)
		found := map[string]int{}
		for _, s := range spaces {
			p, err := loader.For(ctx, e.Store.Client).ChangeRequestPage(ctx, s, loader.ChangeRequestFilter{}, page.Args{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			found[s.Title] = len(p.Items)
		}
		return found
	}
	var found map[string]int
	sent := e.StatementsSent(func() { found = read() })
	if found["Mine"] != 3 || found["Also mine"] != 3 || found["Theirs"] != 0 {
		t.Errorf("change requests read per space: %v, want 3 of each of Ada's and none of Bob's", found)
	}
	if len(sent) != 1 {
		t.Fatalf("%d statements, want 1: %q", len(sent), sent)
	}
	if !strings.Contains(sent[0], "rs.id = "+page.ParentRef) || strings.Count(sent[0], "spaces rs") != 1 {
		t.Errorf("the access condition is not stated once, on the parent:\n%s", sent[0])
	}

	e.Do(bob, "PATCH", "/v1/spaces/"+theirs.ID, map[string]any{"visibility": "public"})
	if found = read(); found["Theirs"] != 3 {
		t.Errorf("change requests of Bob's public space read by Ada: %d, want 3", found["Theirs"])
	}
}
