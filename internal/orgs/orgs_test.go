package orgs

import (
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
)

func TestWithout(t *testing.T) {
	list := []string{"a", "b", "c", "b"}
	if got := without(list, []string{"b", "x"}); strings.Join(got, ",") != "a,c" {
		t.Fatalf("without = %q, want [a c]", got)
	}
	if strings.Join(list, ",") != "a,b,c,b" {
		t.Fatalf("without changed its list: %q", list)
	}
}

func TestInviteRedundant(t *testing.T) {
	edit, admin := viewer.RoleEdit, viewer.RoleAdmin
	v := viewer.NewUser("u1", "ada@example.com", map[string]*viewer.Role{"editors": &edit, "guests": nil})
	cases := map[string]struct {
		invite *ent.InviteLink
		want   bool
	}{
		"OutsiderNeedsIt":     {&ent.InviteLink{OrganizationID: "other"}, false},
		"GuestInviteToGuest":  {&ent.InviteLink{OrganizationID: "guests"}, true},
		"RoleInviteToGuest":   {&ent.InviteLink{OrganizationID: "guests", Role: &edit}, false},
		"SameRole":            {&ent.InviteLink{OrganizationID: "editors", Role: &edit}, true},
		"HigherRole":          {&ent.InviteLink{OrganizationID: "editors", Role: &admin}, false},
		"GuestInviteToMember": {&ent.InviteLink{OrganizationID: "editors"}, true},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := InviteRedundant(v, c.invite); got != c.want {
				t.Fatalf("InviteRedundant = %v, want %v", got, c.want)
			}
		})
	}
}

func TestMemberClaims(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	v := viewer.NewUser("u1", "ada@example.com", nil)
	review := viewer.RoleReview
	for name, c := range map[string]struct {
		role *viewer.Role
		want string
	}{"Member": {&review, "review"}, "Guest": {nil, "guest"}} {
		t.Run(name, func(t *testing.T) {
			claims := memberClaims("https://docs.example.com", v, &ent.Member{OrganizationID: "o1", Role: c.role}, now)
			want := map[string]any{"iss": "https://docs.example.com", "sub": "u1", "email": "ada@example.com",
				"organization": "o1", "role": c.want, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
			if len(claims) != len(want) {
				t.Fatalf("claims = %v, want %v", claims, want)
			}
			for k, w := range want {
				if claims[k] != w {
					t.Errorf("claims[%q] = %v, want %v", k, claims[k], w)
				}
			}
		})
	}
}
