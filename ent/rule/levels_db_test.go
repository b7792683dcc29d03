package rule_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestDeletingACollectionResolvesWhatWasInIt deletes collections with their children still in
// them: the database takes the children to the top level (parent_id is ON DELETE SET NULL),
// where "inherit" is the organization role, and their resolved levels follow, down the tree.
func TestDeletingACollectionResolvesWhatWasInIt(t *testing.T) {
	var n atomic.Int64
	client := testenv.OpenStore(t, &n).Client
	sys := accounts.System(context.Background())
	org := client.Organization.Create().SetTitle("Acme").SaveX(sys).ID
	top := client.Collection.Create().SetOrganizationID(org).SetTitle("Top").SetDefaultLevel("edit").SaveX(sys)
	gone := client.Collection.Create().SetOrganizationID(org).SetTitle("Gone").SetParentID(top.ID).
		SetDefaultLevel("admin").SaveX(sys)
	inGone := client.Space.Create().SetOrganizationID(org).SetTitle("In gone").SetParentID(gone.ID).
		SetDefaultLevel("inherit").SaveX(sys)
	sub := client.Collection.Create().SetOrganizationID(org).SetTitle("Sub").SetParentID(gone.ID).
		SetDefaultLevel("inherit").SaveX(sys)
	inSub := client.Space.Create().SetOrganizationID(org).SetTitle("In sub").SetParentID(sub.ID).
		SetDefaultLevel("inherit").SaveX(sys)
	fixed := client.Space.Create().SetOrganizationID(org).SetTitle("Fixed").SetParentID(gone.ID).
		SetDefaultLevel("read").SaveX(sys)
	if got := client.Space.GetX(sys, inSub.ID).ResolvedLevel; got != "admin" {
		t.Fatalf("before: %q, want admin", got)
	}

	client.Collection.DeleteOneID(gone.ID).ExecX(sys)
	for _, s := range []*ent.Space{inGone, inSub, fixed} {
		s = client.Space.GetX(sys, s.ID)
		want := space.ResolvedLevel(rule.Inherit)
		if s.Title == "Fixed" {
			want = "read"
		}
		if s.ResolvedLevel != want {
			t.Errorf("%s: resolved %q, want %q", s.Title, s.ResolvedLevel, want)
		}
	}
	if s := client.Space.GetX(sys, inGone.ID); s.ParentID != nil {
		t.Fatalf("the database left %s in %v: this test expects ON DELETE SET NULL", s.Title, *s.ParentID)
	}
	if got := client.Collection.GetX(sys, sub.ID).ResolvedLevel; got != collection.ResolvedLevel(rule.Inherit) {
		t.Errorf("Sub: resolved %q, want inherit", got)
	}
	// A member with the create role gets create, the organization role, not the deleted admin.
	u := client.User.Create().SetEmail("c@example.com").SetDisplayName("c").SaveX(sys)
	v := viewer.NewUser(u.ID, u.Email, map[string]*viewer.Role{org: role("create")})
	if admin := client.Space.Query().Where(rule.SpacesWithRole(v, viewer.RoleAdmin)).IDsX(sys); len(admin) > 0 {
		t.Errorf("a creator administers %v", admin)
	}
	if got := client.Space.Query().Where(rule.SpacesWithRole(v, viewer.RoleCreate)).CountX(sys); got != 2 {
		t.Errorf("a creator has the create role on %d spaces, want 2", got)
	}
}

// TestPointRolesEndOnACycle computes point roles under a corrupt tree, a cycle of collections
// (moves refuse them): the walk up the cached collections is bounded, as ContentRole's.
func TestPointRolesEndOnACycle(t *testing.T) {
	var n atomic.Int64
	client := testenv.OpenStore(t, &n).Client
	sys := accounts.System(context.Background())
	org := client.Organization.Create().SetTitle("Acme").SaveX(sys).ID
	a := client.Collection.Create().SetOrganizationID(org).SetTitle("A").SetDefaultLevel("inherit").SaveX(sys)
	b := client.Collection.Create().SetOrganizationID(org).SetTitle("B").SetParentID(a.ID).SetDefaultLevel("inherit").SaveX(sys)
	client.Collection.UpdateOneID(a.ID).SetParentID(b.ID).ExecX(sys)
	s := client.Space.Create().SetOrganizationID(org).SetTitle("S").SetParentID(a.ID).SetDefaultLevel("inherit").SaveX(sys)
	u := client.User.Create().SetEmail("r@example.com").SetDisplayName("r").SaveX(sys)
	ctx := viewer.NewContext(ent.NewContext(context.Background(), client),
		viewer.NewUser(u.ID, u.Email, map[string]*viewer.Role{org: role("read")}))
	done := make(chan error, 1)
	go func() { _, err := rule.SpaceRoles(ctx, []*ent.Space{s}); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("SpaceRoles does not end on a cycle of collections")
	}
}
