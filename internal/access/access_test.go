package access

import (
	"reflect"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
)

func TestTarget(t *testing.T) {
	space, collection := Target{OrgID: "o", SpaceID: "s"}, Target{OrgID: "o", CollectionID: "c"}
	if space.ID() != "s" || space.Kind() != "space" || collection.ID() != "c" || collection.Kind() != "collection" {
		t.Fatalf("targets: %s %s, %s %s", space.ID(), space.Kind(), collection.ID(), collection.Kind())
	}
}

func TestFirstMissing(t *testing.T) {
	if i, missing := firstMissing([]string{"a", "b", "c"}, []string{"c", "a"}); !missing || i != 1 {
		t.Fatalf("firstMissing = %d, %v; want 1, true", i, missing)
	}
	if _, missing := firstMissing([]string{"a"}, []string{"a", "x"}); missing {
		t.Fatal("firstMissing found a missing id where none is")
	}
}

func TestSubject(t *testing.T) {
	u, tm := "u1", "t1"
	for name, c := range map[string]struct {
		s    Subject
		kind string
	}{"OKUser": {Subject{User: &u}, "user"}, "OKTeam": {Subject{Team: &tm}, "team"}} {
		t.Run(name, func(t *testing.T) {
			if p, kind, err := c.s.where(); err != nil || p == nil || kind != c.kind {
				t.Fatalf("where = %v, %q, %v; want a %s", p, kind, err, c.kind)
			}
		})
	}
	for name, s := range map[string]Subject{"ErrNone": {}, "ErrBoth": {User: &u, Team: &tm}} {
		t.Run(name, func(t *testing.T) {
			_, _, err := s.where()
			if e := apperr.As(err); e == nil || e.Kind != apperr.Invalid || e.Message != "subject: name exactly one of user and team" {
				t.Fatalf("where = %v, want INVALID", err)
			}
		})
	}
}

func TestCheckRole(t *testing.T) {
	if err := checkRole(viewer.RoleComment); err != nil {
		t.Fatal(err)
	}
	err := checkRole("owner")
	if e := apperr.As(err); e == nil || e.Kind != apperr.Invalid || !strings.HasPrefix(e.Message, "role: must be one of") {
		t.Fatalf("checkRole(owner) = %v, want INVALID", err)
	}
}

func TestUserGrantsKeepTheHighestRole(t *testing.T) {
	s, c := "s1", "c1"
	u := userGrants{}
	u.add("ada", &ent.PermissionGrant{SpaceID: &s, Role: viewer.RoleEdit})
	u.add("ada", &ent.PermissionGrant{SpaceID: &s, Role: viewer.RoleRead})
	u.add("ada", &ent.PermissionGrant{CollectionID: &c, Role: viewer.RoleRead})
	u.add("ada", &ent.PermissionGrant{CollectionID: &c, Role: viewer.RoleAdmin})
	u.add("bob", &ent.PermissionGrant{SpaceID: &s, Role: viewer.RoleComment})
	want := userGrants{"ada": {"s1": viewer.RoleEdit, "c1": viewer.RoleAdmin}, "bob": {"s1": viewer.RoleComment}}
	if !reflect.DeepEqual(u, want) {
		t.Fatalf("grants = %v, want %v", u, want)
	}
}
