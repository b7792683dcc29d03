package viewer

import (
	"maps"
	"testing"
)

// TestViewersShareTheMembershipsGiven: the memberships a viewer is given may be those of other
// requests' viewers too (the authenticator keeps one map per user), so a viewer records its
// request's changes, and a session withholds memberships, in a copy of its own.
func TestViewersShareTheMembershipsGiven(t *testing.T) {
	admin := RoleAdmin
	given := map[string]*Role{"acme": &admin, "sso-org": &admin}
	kept := maps.Clone(given)
	one, other := NewUser("u1", "u1@example.com", given), NewUser("u1", "u1@example.com", given)

	one.SetMembership("new-org", nil)
	one.DropMembership("acme")
	session := NewSessionUser("u1", "u1@example.com", "acme", given, map[string]bool{"sso-org": true})
	if !maps.Equal(given, kept) {
		t.Fatalf("the memberships given changed: %v", given)
	}
	if _, member := one.Membership("acme"); member {
		t.Error("a dropped membership is still read")
	}
	if _, member := one.Membership("new-org"); !member {
		t.Error("a membership set is not read")
	}
	if _, member := other.Membership("acme"); !member {
		t.Error("another viewer of the same memberships lost one")
	}
	if _, member := session.Membership("sso-org"); member {
		t.Error("a session reads an organization that enforces another provider")
	}
	if n := len(System().OrganizationIDs("")); n != 0 {
		t.Error("the system viewer has memberships")
	}
	v := Visitor()
	v.SetMembership("acme", nil) // a viewer with none still records one
	if _, member := v.Membership("acme"); !member {
		t.Error("a membership set on a viewer with none is not read")
	}
}

// TestSessionReadsItsOrganizationOnly: a session an organization's provider began holds that
// organization's membership only; the others are withheld, each saying whether it enforces
// single sign-on.
func TestSessionReadsItsOrganizationOnly(t *testing.T) {
	admin, read := RoleAdmin, RoleRead
	given := map[string]*Role{"acme": &admin, "open": &read, "strict": &read}
	v := NewSessionUser("u1", "u1@example.com", "acme", given, map[string]bool{"strict": true, "acme": true})
	if role, member := v.Membership("acme"); !member || role != RoleAdmin {
		t.Fatal("the session's own organization is withheld")
	}
	for org, enforced := range map[string]bool{"open": false, "strict": true} {
		if _, member := v.Membership(org); member || !v.SSORequired(org) || v.SSOEnforced(org) != enforced {
			t.Errorf("%s: member %v, withheld %v, enforced %v", org, member, v.SSORequired(org), v.SSOEnforced(org))
		}
	}
	if v.SSORequired("acme") || v.SSORequired("elsewhere") || NewUser("u1", "", given).SSORequired("open") {
		t.Error("withheld where nothing was")
	}
}
