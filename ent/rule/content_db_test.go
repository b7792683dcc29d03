package rule_test

import (
	"context"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestContentPolicies checks the Collection, Space and PermissionGrant policies on a real
// database: who sees which spaces, who may create, change and grant, with grants through teams.
func TestContentPolicies(t *testing.T) {
	var n atomic.Int64
	client := testenv.OpenStore(t, &n).Client
	sys := accounts.System(context.Background())
	org := client.Organization.Create().SetTitle("Acme").SaveX(sys)
	users := map[viewer.Role]*ent.User{}
	for _, r := range []viewer.Role{viewer.RoleAdmin, viewer.RoleCreate, viewer.RoleRead} {
		users[r] = client.User.Create().SetEmail(string(r) + "@example.com").SetDisplayName(string(r)).SaveX(sys)
		client.Member.Create().SetOrganizationID(org.ID).SetUserID(users[r].ID).SetRole(r).ExecX(sys)
	}
	as := func(r viewer.Role) context.Context {
		role := r
		return viewer.NewContext(ent.NewContext(context.Background(), client),
			viewer.NewUser(users[r].ID, users[r].Email, map[string]*viewer.Role{org.ID: &role}))
	}
	docs := client.Collection.Create().SetOrganizationID(org.ID).SetTitle("Docs").SetDefaultLevel("inherit").SaveX(sys)
	open := client.Space.Create().SetOrganizationID(org.ID).SetTitle("Open").SetParentID(docs.ID).SetDefaultLevel("inherit").SaveX(sys)
	secret := client.Space.Create().SetOrganizationID(org.ID).SetTitle("Secret").SaveX(sys)
	client.Space.Create().SetOrganizationID(org.ID).SetTitle("Public").SetVisibility("public").ExecX(sys)

	visible := func(ctx context.Context) []string {
		titles := client.Space.Query().Select("title").StringsX(ctx)
		sort.Strings(titles)
		return titles
	}
	t.Run("ReadsFollowRoles", func(t *testing.T) {
		if got := visible(as(viewer.RoleRead)); !equal(got, "Open", "Public") {
			t.Errorf("reader sees %v", got)
		}
		if got := visible(as(viewer.RoleAdmin)); !equal(got, "Open", "Public", "Secret") {
			t.Errorf("admin sees %v", got)
		}
	})
	t.Run("GrantThroughTeamOpensASpace", func(t *testing.T) {
		team := client.Team.Create().SetOrganizationID(org.ID).SetTitle("Core").SaveX(sys)
		client.TeamMember.Create().SetOrganizationID(org.ID).SetTeamID(team.ID).SetUserID(users[viewer.RoleRead].ID).ExecX(sys)
		client.PermissionGrant.Create().SetOrganizationID(org.ID).SetTeamID(team.ID).SetSpaceID(secret.ID).
			SetRole(viewer.RoleEdit).ExecX(as(viewer.RoleAdmin))
		if got := visible(as(viewer.RoleRead)); !equal(got, "Open", "Public", "Secret") {
			t.Errorf("reader with a team grant sees %v", got)
		}
	})
	t.Run("WritesTakeTheirRole", func(t *testing.T) {
		if err := client.Space.UpdateOne(open).SetTitle("Mine").Exec(as(viewer.RoleCreate)); err == nil {
			t.Error("a creator renamed a space they are not admin of")
		}
		if err := client.PermissionGrant.Create().SetOrganizationID(org.ID).SetUserID(users[viewer.RoleRead].ID).
			SetSpaceID(open.ID).SetRole(viewer.RoleAdmin).Exec(as(viewer.RoleRead)); err == nil {
			t.Error("a reader granted themself admin")
		}
		ctx := as(viewer.RoleCreate)
		client.Space.Create().SetOrganizationID(org.ID).SetTitle("Made").SetParentID(docs.ID).SetDefaultLevel("inherit").ExecX(ctx)
		if got := visible(ctx); !contains(got, "Made") { // the cached facts were forgotten after the write
			t.Errorf("the creator does not see the space they just made: %v", got)
		}
		if err := client.Space.Create().SetOrganizationID(org.ID).SetTitle("Top").Exec(as(viewer.RoleRead)); err == nil {
			t.Error("a reader created a space")
		}
	})
}

func equal(got []string, want ...string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestContentAdminPolicies checks what organization admins and object admins may do beyond a live
// object's admin role: restore deleted spaces, transfer between organizations where they are
// admin, and (a guest admin of a space) read the grants on it.
func TestContentAdminPolicies(t *testing.T) {
	var n atomic.Int64
	client := testenv.OpenStore(t, &n).Client
	sys := accounts.System(context.Background())
	orgs := map[string]*ent.Organization{}
	for _, title := range []string{"Acme", "Target", "Closed"} {
		orgs[title] = client.Organization.Create().SetTitle(title).SaveX(sys)
	}
	user := func(email string, roles map[string]*viewer.Role) context.Context {
		u := client.User.Create().SetEmail(email).SetDisplayName(email).SaveX(sys)
		byID := map[string]*viewer.Role{}
		for title, r := range roles {
			client.Member.Create().SetOrganizationID(orgs[title].ID).SetUserID(u.ID).SetNillableRole(r).ExecX(sys)
			byID[orgs[title].ID] = r
		}
		return viewer.NewContext(ent.NewContext(context.Background(), client), viewer.NewUser(u.ID, email, byID))
	}
	admin, guestRole := viewer.RoleAdmin, (*viewer.Role)(nil)
	ada := user("ada@example.com", map[string]*viewer.Role{"Acme": &admin, "Target": &admin, "Closed": guestRole})
	gus := user("gus@example.com", map[string]*viewer.Role{"Acme": guestRole})
	acme := orgs["Acme"].ID
	newSpace := func(title string) *ent.Space {
		return client.Space.Create().SetOrganizationID(acme).SetTitle(title).SaveX(sys)
	}

	t.Run("OrgAdminRestoresADeletedSpace", func(t *testing.T) {
		s := newSpace("Gone")
		client.Space.UpdateOne(s).SetDeletedAt(time.Now()).ExecX(sys)
		if err := client.Space.UpdateOne(s).ClearDeletedAt().Exec(ada); err != nil {
			t.Fatalf("restore: %v", err)
		}
	})
	t.Run("TransferTakesAdminOfBoth", func(t *testing.T) {
		s := newSpace("Moving")
		if err := client.Space.UpdateOne(s).SetOrganizationID(orgs["Closed"].ID).Exec(ada); err == nil {
			t.Fatal("moved a space to an organization where the viewer is a guest")
		}
		if err := client.Space.UpdateOne(s).SetOrganizationID(orgs["Target"].ID).Exec(ada); err != nil {
			t.Fatalf("transfer: %v", err)
		}
	})
	t.Run("GuestAdminReadsTheGrantsOnTheirSpace", func(t *testing.T) {
		s, other := newSpace("Granted"), newSpace("Other")
		gusID := viewer.FromContext(gus).UserID
		client.PermissionGrant.Create().SetOrganizationID(acme).SetSpaceID(s.ID).SetUserID(gusID).SetRole(viewer.RoleAdmin).ExecX(sys)
		client.PermissionGrant.Create().SetOrganizationID(acme).SetSpaceID(other.ID).SetUserID(gusID).SetRole(viewer.RoleRead).ExecX(sys)
		if got := client.PermissionGrant.Query().CountX(gus); got != 1 {
			t.Fatalf("the guest reads %d grants, want the one on the space they administer", got)
		}
	})
}

// TestMemberSubject checks the roles computed for another member: their organization role, the
// organization's live content, and only the grants made to them or their teams in it.
func TestMemberSubject(t *testing.T) {
	var n atomic.Int64
	client := testenv.OpenStore(t, &n).Client
	sys := accounts.System(context.Background())
	org := client.Organization.Create().SetTitle("Acme").SaveX(sys)
	other := client.Organization.Create().SetTitle("Other").SaveX(sys)
	users := map[string]*ent.User{}
	for _, name := range []string{"editor", "guest", "teamed", "stranger"} {
		users[name] = client.User.Create().SetEmail(name + "@example.com").SetDisplayName(name).SaveX(sys)
	}
	client.Member.Create().SetOrganizationID(org.ID).SetUserID(users["editor"].ID).SetRole(viewer.RoleEdit).ExecX(sys)
	client.Member.Create().SetOrganizationID(org.ID).SetUserID(users["guest"].ID).ExecX(sys)
	client.Member.Create().SetOrganizationID(org.ID).SetUserID(users["teamed"].ID).SetRole(viewer.RoleRead).ExecX(sys)
	client.Member.Create().SetOrganizationID(other.ID).SetUserID(users["stranger"].ID).SetRole(viewer.RoleAdmin).ExecX(sys)

	docs := client.Collection.Create().SetOrganizationID(org.ID).SetTitle("Docs").SetDefaultLevel("inherit").SaveX(sys)
	guide := client.Space.Create().SetOrganizationID(org.ID).SetTitle("Guide").SetParentID(docs.ID).SetDefaultLevel("inherit").SaveX(sys)
	secret := client.Space.Create().SetOrganizationID(org.ID).SetTitle("Secret").SaveX(sys)
	gone := client.Space.Create().SetOrganizationID(org.ID).SetTitle("Gone").SetDeletedAt(time.Now()).SaveX(sys)
	elsewhere := client.Space.Create().SetOrganizationID(other.ID).SetTitle("Elsewhere").SaveX(sys)
	team := client.Team.Create().SetOrganizationID(org.ID).SetTitle("Core").SaveX(sys)
	client.TeamMember.Create().SetOrganizationID(org.ID).SetTeamID(team.ID).SetUserID(users["teamed"].ID).ExecX(sys)
	client.PermissionGrant.Create().SetOrganizationID(org.ID).SetTeamID(team.ID).SetSpaceID(secret.ID).SetRole(viewer.RoleEdit).ExecX(sys)
	client.PermissionGrant.Create().SetOrganizationID(org.ID).SetUserID(users["guest"].ID).SetCollectionID(docs.ID).SetRole(viewer.RoleComment).ExecX(sys)

	const none = viewer.Role("")
	tests := []struct {
		name    string
		user    string
		orgRole viewer.Role
		roles   map[string]viewer.Role // object id → the member's effective role
	}{
		{"EditorByDefaultLevels", "editor", viewer.RoleEdit,
			map[string]viewer.Role{docs.ID: viewer.RoleEdit, guide.ID: viewer.RoleEdit, secret.ID: none}},
		{"GuestByTheirGrantOnly", "guest", none,
			map[string]viewer.Role{docs.ID: viewer.RoleComment, guide.ID: viewer.RoleComment, secret.ID: none}},
		{"ReaderRaisedByTheirTeamsGrant", "teamed", viewer.RoleRead,
			map[string]viewer.Role{docs.ID: viewer.RoleRead, secret.ID: viewer.RoleEdit}},
	}
	spaces := map[string]bool{guide.ID: true, secret.ID: true, gone.ID: true, elsewhere.ID: true}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			subject, err := rule.MemberSubject(sys, client, org.ID, users[tt.user].ID)
			if err != nil || subject == nil {
				t.Fatalf("MemberSubject: %v, %v", subject, err)
			}
			if role, member := subject.Membership(org.ID); !member || role != tt.orgRole {
				t.Errorf("membership: member %v, role %q; want role %q", member, role, tt.orgRole)
			}
			ctx := viewer.NewContext(ent.NewContext(context.Background(), client), subject)
			for _, id := range []string{gone.ID, elsewhere.ID} {
				if role, err := rule.RoleOn(ctx, org.ID, id, true); role != none || err != nil {
					t.Errorf("role on %s (deleted, or of another organization) = %q, %v", id, role, err)
				}
			}
			for id, want := range tt.roles {
				if got, err := rule.RoleOn(ctx, org.ID, id, spaces[id]); got != want || err != nil {
					t.Errorf("role on %s = %q, %v; want %q", id, got, err, want)
				}
			}
		})
	}
	t.Run("NilForANonMember", func(t *testing.T) {
		if v, err := rule.MemberSubject(sys, client, org.ID, users["stranger"].ID); v != nil || err != nil {
			t.Fatalf("got %+v, %v; want nil, nil", v, err)
		}
	})
}
