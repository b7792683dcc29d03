package rule_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestAccessAgreesWithContentRole checks the two formulations of access against each other on
// random organizations: the SQL predicates the privacy filters and write rules apply, and
// ContentRole over the whole organization loaded in memory (the definition). For every viewer
// (each organization role, a guest, a stranger, a user of no organization; grants to them and
// to their teams), every object and every role, the rows the database filters in are exactly
// those ContentRole allows, and the point roles (SpaceRoles, RoleOn) are ContentRole's; again
// after moves, changes of default levels and deletes of collections, which the stored resolved
// levels must follow.
func TestAccessAgreesWithContentRole(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			var n atomic.Int64
			client := testenv.OpenStore(t, &n).Client
			w := randomWorld(t, client, rand.New(rand.NewPCG(seed, 7)))
			w.check(t)
			w.reshape(t)
			w.check(t)
			w.forgetLevels(t)
			w.check(t)
		})
	}
}

// world is a random organization (and a second one, to hold a stranger's membership).
type world struct {
	client *ent.Client
	rnd    *rand.Rand
	org    string
	people []person
	keys   []string // share keys a viewer may present
}

// person is a user with their memberships and the share keys they present: each check makes
// their viewer anew, as each request does (a viewer caches facts for one request).
type person struct {
	userID, email string
	orgs          map[string]*viewer.Role
	keys          []string
	admitted      []string // a published site's visitor (no user) admitted to these spaces
}

func (p person) viewer() *viewer.Viewer {
	v := viewer.NewUser(p.userID, p.email, p.orgs)
	if p.userID == "" {
		v = viewer.Visitor()
		v.Admit(p.admitted...)
	}
	for _, k := range p.keys {
		v.PresentShareKey(k)
	}
	return v
}

var levels = []string{"", rule.Inherit, rule.Inherit, "admin", "create", "review", "edit", "comment", "read"}

func randomWorld(t *testing.T, client *ent.Client, rnd *rand.Rand) *world {
	sys := accounts.System(context.Background())
	w := &world{client: client, rnd: rnd}
	w.org = client.Organization.Create().SetTitle("Acme").SaveX(sys).ID
	other := client.Organization.Create().SetTitle("Other").SaveX(sys).ID
	var cols []string
	for i := range 12 {
		c := client.Collection.Create().SetOrganizationID(w.org).SetTitle(fmt.Sprint("c", i))
		if len(cols) > 0 && rnd.IntN(3) > 0 {
			c.SetParentID(cols[rnd.IntN(len(cols))])
		}
		setLevel(c.Mutation(), pick(rnd, levels))
		cols = append(cols, c.SaveX(sys).ID)
	}
	visibilities := []string{"public", "unlisted", "share-link", "visitor-auth", "in-collection", "in-collection", "private", "private"}
	var spaces []string
	for i := range 40 {
		s := client.Space.Create().SetOrganizationID(w.org).SetTitle(fmt.Sprint("s", i)).
			SetVisibility(space.Visibility(pick(rnd, visibilities)))
		if rnd.IntN(4) > 0 {
			s.SetParentID(cols[rnd.IntN(len(cols))])
		}
		if rnd.IntN(2) == 0 {
			key := fmt.Sprint("key", i)
			s.SetShareKey(key)
			w.keys = append(w.keys, key)
		}
		if rnd.IntN(8) == 0 {
			s.SetDeletedAt(time.Now())
		}
		setLevel(s.Mutation(), pick(rnd, levels))
		spaces = append(spaces, s.SaveX(sys).ID)
	}
	roles := []*viewer.Role{role("admin"), role("create"), role("review"), role("edit"), role("comment"), role("read"), nil}
	var users []string
	for i, r := range roles {
		u := client.User.Create().SetEmail(fmt.Sprint("u", i, "@example.com")).SetDisplayName("u").SaveX(sys)
		client.Member.Create().SetOrganizationID(w.org).SetUserID(u.ID).SetNillableRole(r).ExecX(sys)
		users = append(users, u.ID)
		w.people = append(w.people, person{userID: u.ID, email: u.Email, orgs: map[string]*viewer.Role{w.org: r}})
	}
	stranger := client.User.Create().SetEmail("stranger@example.com").SetDisplayName("s").SaveX(sys)
	client.Member.Create().SetOrganizationID(other).SetUserID(stranger.ID).SetRole("admin").ExecX(sys)
	w.people = append(w.people, person{userID: stranger.ID, email: stranger.Email, orgs: map[string]*viewer.Role{other: role("admin")}})
	var teams []string
	for i := range 3 {
		tm := client.Team.Create().SetOrganizationID(w.org).SetTitle(fmt.Sprint("t", i)).SaveX(sys)
		teams = append(teams, tm.ID)
		for _, u := range users {
			if rnd.IntN(3) == 0 {
				client.TeamMember.Create().SetOrganizationID(w.org).SetTeamID(tm.ID).SetUserID(u).ExecX(sys)
			}
		}
	}
	for range 25 {
		g := client.PermissionGrant.Create().SetOrganizationID(w.org).SetRole(viewer.Role(pick(rnd, levels[3:])))
		if rnd.IntN(2) == 0 {
			g.SetUserID(pick(rnd, users))
		} else {
			g.SetTeamID(pick(rnd, teams))
		}
		if rnd.IntN(2) == 0 {
			g.SetSpaceID(pick(rnd, spaces))
		} else {
			g.SetCollectionID(pick(rnd, cols))
		}
		_ = g.Exec(sys) // a second grant of the same subject and target is refused: fine
	}
	nobody := client.User.Create().SetEmail("nobody@example.com").SetDisplayName("n").SaveX(sys)
	w.people = append(w.people, person{userID: nobody.ID, email: nobody.Email, orgs: map[string]*viewer.Role{}})
	for i := range w.people {
		for _, k := range w.keys {
			if rnd.IntN(4) == 0 {
				w.people[i].keys = append(w.people[i].keys, k)
			}
		}
	}
	visitor := person{}
	for i, s := range spaces { // every third space: rnd's sequence stays that of the worlds before visitors
		if i%3 == 0 {
			visitor.admitted = append(visitor.admitted, s)
		}
	}
	w.people = append(w.people, visitor)
	return w
}

func role(r string) *viewer.Role { x := viewer.Role(r); return &x }

func pick[T any](rnd *rand.Rand, from []T) T { return from[rnd.IntN(len(from))] }

// setLevel sets a default level on a collection or space creation ("" leaves none).
func setLevel(m ent.Mutation, level string) {
	if level == "" {
		return
	}
	switch m := m.(type) {
	case *ent.CollectionMutation:
		m.SetDefaultLevel(collection.DefaultLevel(level))
	case *ent.SpaceMutation:
		m.SetDefaultLevel(space.DefaultLevel(level))
	}
}

// reshape moves collections and spaces and changes default levels, through the same writes the
// resolvers make, so the resolved levels must follow.
func (w *world) reshape(t *testing.T) {
	sys := accounts.System(context.Background())
	cols := w.client.Collection.Query().AllX(sys)
	for range 8 {
		c := pick(w.rnd, cols)
		upd := w.client.Collection.UpdateOne(c)
		if level := pick(w.rnd, levels); level == "" {
			upd.ClearDefaultLevel()
		} else {
			upd.SetDefaultLevel(collection.DefaultLevel(level))
		}
		upd.ExecX(sys)
		if p := pick(w.rnd, cols); p.ID != c.ID && !w.below(t, p.ID, c.ID) {
			w.client.Collection.UpdateOneID(c.ID).SetParentID(p.ID).ExecX(sys)
		} else {
			w.client.Collection.UpdateOneID(c.ID).ClearParentID().ExecX(sys)
		}
	}
	spaces := w.client.Space.Query().AllX(sys)
	for range 8 {
		w.client.Space.UpdateOne(pick(w.rnd, spaces)).SetParentID(pick(w.rnd, cols).ID).
			SetDefaultLevel(space.DefaultLevelInherit).ExecX(sys)
	}
	// A deleted collection's children move to its parent, in one bulk write as the resolver does:
	// its parent as it is now (the moves above may have changed it), or the top level.
	gone := w.client.Collection.GetX(sys, pick(w.rnd, cols).ID)
	subSpaces := w.client.Space.Update().Where(space.ParentID(gone.ID))
	subCols := w.client.Collection.Update().Where(collection.ParentID(gone.ID))
	if gone.ParentID == nil {
		subSpaces.ClearParentID()
		subCols.ClearParentID()
	} else {
		subSpaces.SetParentID(*gone.ParentID)
		subCols.SetParentID(*gone.ParentID)
	}
	subSpaces.ExecX(sys)
	subCols.ExecX(sys)
	w.deleteCollection(gone.ID)
	// Another is deleted with its children still in it: the database takes them to the top level
	// (parent_id is ON DELETE SET NULL), where the hooks must resolve their levels again.
	w.deleteCollection(pick(w.rnd, w.client.Collection.Query().AllX(sys)).ID)
}

// deleteCollection deletes a collection and the grants on it.
func (w *world) deleteCollection(id string) {
	sys := accounts.System(context.Background())
	w.client.PermissionGrant.Delete().Where(permissiongrant.CollectionID(id)).ExecX(sys)
	w.client.Collection.DeleteOneID(id).ExecX(sys)
}

// forgetLevels marks every row unresolved, as rows written before resolved levels were stored,
// and resolves them again as a start does.
func (w *world) forgetLevels(t *testing.T) {
	sys := accounts.System(context.Background())
	w.client.Collection.Update().SetResolvedLevel(collection.ResolvedLevelUnresolved).ExecX(sys)
	w.client.Space.Update().SetResolvedLevel(space.ResolvedLevelUnresolved).ExecX(sys)
	rows := w.client.Collection.Query().CountX(sys) + w.client.Space.Query().CountX(sys)
	if n, err := rule.ResolveAllLevels(sys, w.client); n != rows || err != nil {
		t.Fatalf("ResolveAllLevels: %d, %v; want %d rows", n, err, rows)
	}
}

// below reports whether collection id is under (or is) collection top.
func (w *world) below(t *testing.T, id, top string) bool {
	ctx := viewer.NewContext(ent.NewContext(context.Background(), w.client), viewer.System())
	chain, err := rule.Ancestry(ctx, w.org, id)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Contains(chain, top)
}

// content is the definition: the organization's whole live content and the viewer's grants.
func (w *world) content(t *testing.T, v *viewer.Viewer) *rule.Content {
	sys := accounts.System(context.Background())
	role, member := v.Membership(w.org)
	c := &rule.Content{Member: member, OrgRole: role, Nodes: map[string]rule.ContentNode{}, Grants: map[string]viewer.Role{},
		ShareKeys: v.ShareKeys(), Admitted: v.Admitted()}
	for _, col := range w.client.Collection.Query().Where(collection.OrganizationID(w.org)).AllX(sys) {
		c.Nodes[col.ID] = rule.CollectionNode(col)
	}
	for _, s := range w.client.Space.Query().Where(space.OrganizationID(w.org), space.DeletedAtIsNil()).AllX(sys) {
		c.Nodes[s.ID] = rule.SpaceNode(s)
	}
	if !member {
		return c
	}
	grants := w.client.PermissionGrant.Query().Where(permissiongrant.OrganizationID(w.org), permissiongrant.Or(
		permissiongrant.UserID(v.UserID), permissiongrant.HasTeamWith(team.HasMembershipsWith(teammember.UserID(v.UserID))))).AllX(sys)
	for _, g := range grants {
		target := g.SpaceID // exactly one target is set
		if target == nil {
			target = g.CollectionID
		}
		if !c.Grants[*target].AtLeast(g.Role) {
			c.Grants[*target] = g.Role
		}
	}
	return c
}

func (w *world) check(t *testing.T) {
	t.Helper()
	sys := accounts.System(context.Background())
	allSpaces := w.client.Space.Query().AllX(sys)
	allCols := w.client.Collection.Query().AllX(sys)
	for i, p := range w.people {
		v := p.viewer()
		c := w.content(t, v)
		ctx := viewer.NewContext(ent.NewContext(context.Background(), w.client), v)
		orgRole, _ := v.Membership(w.org)
		open := func(s *ent.Space) bool {
			return s.Visibility == "public" || s.Visibility == "unlisted" ||
				s.Visibility == "share-link" && s.ShareKey != nil && slices.Contains(v.ShareKeys(), *s.ShareKey) ||
				slices.Contains(v.Admitted(), s.ID)
		}
		var wantRead, wantCols []string
		for _, s := range allSpaces {
			if (s.DeletedAt == nil && rule.ContentRole(c, s.ID) != "") || orgRole == viewer.RoleAdmin || open(s) {
				wantRead = append(wantRead, s.ID)
			}
		}
		for _, col := range allCols {
			if rule.ContentRole(c, col.ID) != "" {
				wantCols = append(wantCols, col.ID)
			}
		}
		same(t, fmt.Sprintf("viewer %d: readable spaces", i), w.client.Space.Query().IDsX(ctx), wantRead)
		same(t, fmt.Sprintf("viewer %d: readable collections", i), w.client.Collection.Query().IDsX(ctx), wantCols)
		for _, min := range viewer.Role("").Values() {
			var want []string
			for _, s := range allSpaces {
				if (s.DeletedAt == nil && rule.ContentRole(c, s.ID).AtLeast(viewer.Role(min))) || (min == "read" && open(s)) {
					want = append(want, s.ID)
				}
			}
			got := w.client.Space.Query().Where(rule.SpacesWithRole(v, viewer.Role(min))).IDsX(sys)
			same(t, fmt.Sprintf("viewer %d: spaces with role %s", i, min), got, want)
		}
		var live []*ent.Space
		for _, s := range allSpaces {
			if s.DeletedAt == nil {
				live = append(live, s)
			}
		}
		roles, err := rule.SpaceRoles(ctx, live)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range live {
			if want := rule.ContentRole(c, s.ID); roles[s.ID] != want {
				t.Errorf("viewer %d: SpaceRoles gives %q on %s, ContentRole %q", i, roles[s.ID], s.Title, want)
			}
		}
		for _, col := range allCols {
			got, err := rule.RoleOn(ctx, w.org, col.ID, false)
			if want := rule.ContentRole(c, col.ID); got != want || err != nil {
				t.Errorf("viewer %d: RoleOn gives %q, %v on %s, ContentRole %q", i, got, err, col.Title, want)
			}
		}
	}
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: the database gives %d %v, ContentRole %d %v", what, len(got), got, len(want), want)
	}
}
