package spaces

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
)

func TestCopyTitle(t *testing.T) {
	for _, tc := range []struct{ title, want string }{
		{"Guide", "Guide (copy)"},
		{strings.Repeat("a", TitleMax-7), strings.Repeat("a", TitleMax-7) + " (copy)"},
		{strings.Repeat("a", TitleMax), strings.Repeat("a", TitleMax-7) + " (copy)"},
		{strings.Repeat("é", TitleMax), strings.Repeat("é", TitleMax-7) + " (copy)"},
		{strings.Repeat("a", TitleMax-8) + " b", strings.Repeat("a", TitleMax-8) + " (copy)"},
	} {
		got := copyTitle(tc.title)
		if got != tc.want || utf8.RuneCountInString(got) > TitleMax {
			t.Errorf("copyTitle(%q) = %q, want %q", tc.title, got, tc.want)
		}
	}
}

func TestCheckDefaultLevel(t *testing.T) {
	for l, ok := range map[string]bool{"inherit": true, "admin": true, "read": true, "": false, "owner": false} {
		if err := checkDefaultLevel(l); (err == nil) != ok {
			t.Errorf("checkDefaultLevel(%q) = %v, want ok %v", l, err, ok)
		}
	}
}

func TestNewShareKey(t *testing.T) {
	if k := newShareKey(space.VisibilityPrivate); k != nil {
		t.Errorf("a private space's share key = %q, want none", *k)
	}
	a, b := newShareKey(space.VisibilityShareLink), newShareKey(space.VisibilityShareLink)
	if a == nil || b == nil || *a == *b {
		t.Errorf("share-link keys %v, %v; want two different keys", a, b)
	}
}

// asMember is ctx with a viewer whose role in each organization of roles is the one given.
func asMember(ctx context.Context, roles map[string]viewer.Role) context.Context {
	memberships := map[string]*viewer.Role{}
	for org, role := range roles {
		memberships[org] = &role
	}
	return viewer.NewContext(ctx, viewer.NewUser("u", "u@example.com", memberships))
}

func TestCheckCreateAtTheTopLevel(t *testing.T) {
	for role, ok := range map[viewer.Role]bool{viewer.RoleCreate: true, viewer.RoleAdmin: true, viewer.RoleEdit: false} {
		err := checkCreateIn(asMember(t.Context(), map[string]viewer.Role{"o": role}), "o", nil)
		if ok != (err == nil) || err != nil && apperr.As(err).Kind != apperr.Forbidden {
			t.Errorf("creating at the top level as %s: %v, want ok %v (else FORBIDDEN)", role, err, ok)
		}
	}
	parent := "c"
	err := checkCreateIn(asMember(t.Context(), map[string]viewer.Role{"other": viewer.RoleAdmin}), "o", &parent)
	if e := apperr.As(err); e == nil || e.Kind != apperr.NotFound {
		t.Errorf("creating in a collection of an organization one is no member of: %v, want NOT_FOUND", err)
	}
}

// TestCheckTransfer checks the order of a transfer's refusals: no admin of its own organization
// (FORBIDDEN), an organization not seen (NOT_FOUND), the same one (INVALID), no admin of the
// target (FORBIDDEN).
func TestCheckTransfer(t *testing.T) {
	svc := &Service{Organization: func(ctx context.Context, id string) (*ent.Organization, error) {
		if _, member := viewer.FromContext(ctx).Membership(id); !member {
			return nil, apperr.NotFoundf("organization not found")
		}
		return &ent.Organization{ID: id}, nil
	}}
	admin, create := viewer.RoleAdmin, viewer.RoleCreate
	for _, tc := range []struct {
		name  string
		roles map[string]viewer.Role
		to    string
		want  apperr.Kind // Internal for none
	}{
		{"admin of both", map[string]viewer.Role{"a": admin, "b": admin}, "b", apperr.Internal},
		{"no admin of its own", map[string]viewer.Role{"a": create}, "unseen", apperr.Forbidden},
		{"target not seen", map[string]viewer.Role{"a": admin}, "unseen", apperr.NotFound},
		{"same organization", map[string]viewer.Role{"a": admin}, "a", apperr.Invalid},
		{"no admin of the target", map[string]viewer.Role{"a": admin, "b": create}, "b", apperr.Forbidden},
	} {
		err := svc.checkTransfer(asMember(t.Context(), tc.roles), "space", "a", tc.to)
		if tc.want == apperr.Internal {
			if err != nil {
				t.Errorf("%s: %v, want no refusal", tc.name, err)
			}
			continue
		}
		if e := apperr.As(err); e == nil || e.Kind != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want.Code())
		}
	}
}
