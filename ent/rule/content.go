package rule

import (
	"slices"

	"github.com/binderyhq/bindery/ent/viewer"
)

// Content is what decides a viewer's role on the collections and spaces of one organization: the
// viewer's membership, the content tree with each object's defaultLevel and visibility, and the
// grants made to the viewer or to their teams. It is pure data: ContentRole computes from it.
type Content struct {
	Member  bool        // the viewer belongs to the organization
	OrgRole viewer.Role // their role there ("" for a guest or a non-member)
	Nodes   map[string]ContentNode
	Grants  map[string]viewer.Role // object id → best role granted to the viewer or their teams
	// ShareKeys are the share-link keys the viewer presented in this request.
	ShareKeys []string
	// Admitted are the spaces a published site admitted the viewer (its visitor) to read.
	Admitted []string
}

// ContentNode is a collection or a space in the tree.
type ContentNode struct {
	Parent string // id of the parent collection, "" at the top
	// DefaultLevel is the role members get on the object by default: a Role, Inherit (from the
	// parent collection, then the organization role), or "" (none: explicit grants only).
	DefaultLevel string
	Visibility   string // spaces only: public, unlisted, share-link, visitor-auth, in-collection, private
	ShareKey     string // spaces with share-link visibility: the secret that opens them
	Space        bool
}

// Inherit is the defaultLevel that takes the parent collection's level, then the organization role.
const Inherit = "inherit"

// maxDepth bounds the walk up a tree (moves refuse cycles; this guards against a corrupt one).
const maxDepth = 64

// ContentRole is the viewer's effective role on a collection or space: the highest of
//   - admin, for organization admins;
//   - the object's default level, for members with a role (guests get none);
//   - every grant to the viewer or their teams on the object or a collection above it;
//   - read, for a public or unlisted space, for a share-link space whose key the viewer
//     presented, for an in-collection space whose parent collection the viewer can read, and
//     for a space a published site admitted its visitor to.
//
// It is "" when the viewer may not even read the object (or it is not in the tree).
func ContentRole(c *Content, id string) viewer.Role {
	n, ok := c.Nodes[id]
	if !ok {
		return ""
	}
	if c.Member && c.OrgRole == viewer.RoleAdmin {
		return viewer.RoleAdmin
	}
	best := c.grantsAbove(id)
	if c.Member && c.OrgRole != "" {
		best = higher(best, c.defaultRole(n))
	}
	if n.Space && (readableByVisibility(c, n) || slices.Contains(c.Admitted, id)) {
		best = higher(best, viewer.RoleRead)
	}
	return best
}

func (c *Content) grantsAbove(id string) viewer.Role {
	var best viewer.Role
	for depth := 0; id != "" && depth < maxDepth; depth++ {
		best = higher(best, c.Grants[id])
		id = c.Nodes[id].Parent
	}
	return best
}

func (c *Content) defaultRole(n ContentNode) viewer.Role {
	for depth := 0; depth < maxDepth; depth++ {
		switch n.DefaultLevel {
		case "":
			return ""
		case Inherit:
			if n.Parent == "" {
				return c.OrgRole
			}
			n = c.Nodes[n.Parent]
		default:
			return viewer.Role(n.DefaultLevel)
		}
	}
	return ""
}

func readableByVisibility(c *Content, n ContentNode) bool {
	switch n.Visibility {
	case "public", "unlisted":
		return true
	case "share-link":
		return n.ShareKey != "" && slices.Contains(c.ShareKeys, n.ShareKey)
	case "in-collection":
		return n.Parent != "" && ContentRole(c, n.Parent).AtLeast(viewer.RoleRead)
	}
	return false
}

// higher returns the more powerful of two roles ("" is below every role).
func higher(a, b viewer.Role) viewer.Role {
	if b.AtLeast(viewer.RoleRead) && !a.AtLeast(b) {
		return b
	}
	return a
}

// Ancestry lists an object and the collections above it, nearest first (a walk bounded like
// every walk up the tree).
func (c *Content) Ancestry(id string) []string {
	var ids []string
	for depth := 0; id != "" && depth < maxDepth; depth++ {
		ids = append(ids, id)
		id = c.Nodes[id].Parent
	}
	return ids
}
