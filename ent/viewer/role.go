package viewer

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Role is a member's role in an organization, and the level of access granted on content
// (spec/01 convention 4). Roles are ordered: each one can do everything the ones below it can.
type Role string

// The roles, from most to least powerful.
const (
	RoleAdmin   Role = "admin"
	RoleCreate  Role = "create"
	RoleReview  Role = "review"
	RoleEdit    Role = "edit"
	RoleComment Role = "comment"
	RoleRead    Role = "read"
)

// rank orders the roles; a higher rank includes every power of a lower one.
var rank = map[Role]int{RoleRead: 1, RoleComment: 2, RoleEdit: 3, RoleReview: 4, RoleCreate: 5, RoleAdmin: 6}

// Values lists the roles in the order the reference client declares them; ent uses it for the enum column.
func (Role) Values() []string {
	return []string{"admin", "create", "edit", "review", "comment", "read"}
}

// Valid reports whether r is one of the six roles.
func (r Role) Valid() bool { return rank[r] > 0 }

// AtLeast reports whether r includes the powers of min. The empty role (a guest) includes none.
func (r Role) AtLeast(min Role) bool { return rank[r] >= rank[min] && rank[r] > 0 }

// ParseRole reads a role from its wire name.
func ParseRole(s string) (Role, error) {
	r := Role(s)
	if !r.Valid() {
		return "", fmt.Errorf("%q is not a role (one of admin, create, edit, review, comment, read)", s)
	}
	return r, nil
}

// MarshalGQL writes the role as its upper-case GraphQL enum value.
func (r Role) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(strings.ToUpper(string(r))))
}

// UnmarshalGQL reads the upper-case GraphQL enum value.
func (r *Role) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("role must be a string")
	}
	parsed, err := ParseRole(strings.ToLower(s))
	if err != nil {
		return err
	}
	*r = parsed
	return nil
}

// TeamRole is a member's role inside a team.
type TeamRole string

// The team roles: an owner manages the team's members.
const (
	TeamOwner  TeamRole = "owner"
	TeamMember TeamRole = "member"
)

// Values lists the team roles for ent.
func (TeamRole) Values() []string { return []string{"owner", "member"} }

// MarshalGQL writes the team role as its upper-case GraphQL enum value.
func (r TeamRole) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(strings.ToUpper(string(r))))
}

// UnmarshalGQL reads the upper-case GraphQL enum value.
func (r *TeamRole) UnmarshalGQL(v any) error {
	s, _ := v.(string)
	switch TeamRole(strings.ToLower(s)) {
	case TeamOwner, TeamMember:
		*r = TeamRole(strings.ToLower(s))
		return nil
	}
	return fmt.Errorf("%q is not a team role (OWNER or MEMBER)", s)
}
