package rule

import (
	"context"
	"errors"
	"sync"

	entgo "entgo.io/ent"
	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
)

// Point checks — the role shown in permissions, or checked early by a resolver for a clear
// message — compute ContentRole over the facts of the objects asked about: the objects, the
// collections above them (one recursive statement) and the viewer's own grants on those (one
// statement, by the grants' target indexes). None of it grows with what the organization holds,
// nor with the viewer's other grants or organizations.

// factsKey caches the request's facts on the viewer (viewer.Remember).
const factsKey = "rule.facts"

// facts are what point checks of one request learned: the collections seen, and the viewer's
// grants on the objects looked up (object id → best role), loaded on first need. Writes that
// change access drop them (ForgetContent).
type facts struct {
	mu          sync.Mutex
	collections map[string]*ent.Collection
	grants      map[string]viewer.Role // object id → best role granted to the viewer or their teams
	looked      map[string]bool        // the objects whose grants are in grants
}

func factsOf(v *viewer.Viewer) *facts {
	val, _ := v.Remember(factsKey, func() (any, error) { // the load cannot fail
		return &facts{collections: map[string]*ent.Collection{}, grants: map[string]viewer.Role{}, looked: map[string]bool{}}, nil
	})
	return val.(*facts)
}

// clientOf returns the client of ctx (ent.NewContext), which point checks read through.
func clientOf(ctx context.Context) (*ent.Client, *viewer.Viewer, error) {
	v, client := viewer.FromContext(ctx), ent.FromContext(ctx)
	if v == nil || client == nil {
		return nil, nil, errors.New("rule: content access needs a viewer and a client in the context")
	}
	return client, v, nil
}

// administers reports whether v is an admin of the organization: their role on everything in it
// is admin, whatever its collections, grants and visibility say.
func administers(v *viewer.Viewer, org string) bool {
	role, member := v.Membership(org)
	return member && role == viewer.RoleAdmin
}

// AdministersOrganization reports whether the viewer is an admin of the organization, so that
// their role on any of its spaces and collections is admin (what SpaceRoles and CollectionRoles
// answer for them without a statement).
func AdministersOrganization(ctx context.Context, org string) bool {
	_, v, err := clientOf(ctx)
	return err == nil && administers(v, org)
}

// SpaceRole is the viewer's effective role on a space (ContentRole); outside the viewer's
// organizations only the space's visibility, and a share key they presented, count.
func SpaceRole(ctx context.Context, s *ent.Space) (viewer.Role, error) {
	roles, err := SpaceRoles(ctx, []*ent.Space{s})
	return roles[s.ID], err
}

// RequireSpaceRole answers FORBIDDEN, saying what for, unless the viewer's role on the space is
// at least min.
func RequireSpaceRole(ctx context.Context, s *ent.Space, min viewer.Role, what string) error {
	role, err := SpaceRole(ctx, s)
	if err != nil {
		return err
	}
	if !role.AtLeast(min) {
		return apperr.Forbiddenf("it takes the %s role on the space to %s", min, what)
	}
	return nil
}

// SpaceRoles is SpaceRole for several spaces at once: at most two statements whatever their
// number (the collections above them not seen yet in the request, the viewer's grants).
func SpaceRoles(ctx context.Context, spaces []*ent.Space) (map[string]viewer.Role, error) {
	nodes := make([]objectNode, len(spaces))
	for i, s := range spaces {
		nodes[i] = objectNode{id: s.ID, org: s.OrganizationID, node: SpaceNode(s)}
	}
	return rolesOf(ctx, nodes)
}

// CollectionRole is the viewer's effective role on a collection.
func CollectionRole(ctx context.Context, c *ent.Collection) (viewer.Role, error) {
	roles, err := CollectionRoles(ctx, []*ent.Collection{c})
	return roles[c.ID], err
}

// CollectionRoles is CollectionRole for several collections at once, in at most two statements.
func CollectionRoles(ctx context.Context, cols []*ent.Collection) (map[string]viewer.Role, error) {
	nodes := make([]objectNode, len(cols))
	for i, c := range cols {
		nodes[i] = objectNode{id: c.ID, org: c.OrganizationID, node: CollectionNode(c)}
	}
	return rolesOf(ctx, nodes)
}

// RoleOn is the viewer's effective role on the collection or (space true) the live space id of
// an organization; "" when there is no such object there.
func RoleOn(ctx context.Context, orgID, id string, isSpace bool) (viewer.Role, error) {
	client, _, err := clientOf(ctx)
	if err != nil {
		return "", err
	}
	o, found, err := object(ctx, client, orgID, id, isSpace)
	if err != nil || !found {
		return "", err
	}
	roles, err := rolesOf(ctx, []objectNode{o})
	return roles[id], err
}

// Above returns the collection or (space true) the live space id of an organization with the
// collections above it, as a Content with no subject: the tree that roles on it depend on
// besides a person's membership and grants. It is nil when there is no such object there.
func Above(ctx context.Context, orgID, id string, isSpace bool) (*Content, error) {
	client, _, err := clientOf(ctx)
	if err != nil {
		return nil, err
	}
	o, found, err := object(ctx, client, orgID, id, isSpace)
	if err != nil || !found {
		return nil, err
	}
	c := &Content{Nodes: map[string]ContentNode{id: o.node}}
	if o.node.Parent == "" {
		return c, nil
	}
	above, err := collectionsAbove(ctx, client, []string{o.node.Parent})
	for _, col := range above {
		if col.OrganizationID == orgID {
			c.Nodes[col.ID] = CollectionNode(col)
		}
	}
	return c, err
}

// Ancestry lists a collection and the collections above it, nearest first.
func Ancestry(ctx context.Context, orgID, collectionID string) ([]string, error) {
	c, err := Above(ctx, orgID, collectionID, false)
	if err != nil || c == nil {
		return nil, err
	}
	return c.Ancestry(collectionID), nil
}

// object reads the collection or (space true) the live space id of an organization, as the
// system: whether the viewer may know of it is what the caller computes.
func object(ctx context.Context, client *ent.Client, orgID, id string, isSpace bool) (objectNode, bool, error) {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	o := objectNode{id: id, org: orgID}
	if isSpace {
		s, err := client.Space.Query().Where(space.ID(id), space.OrganizationID(orgID), space.DeletedAtIsNil()).Only(sys)
		if err == nil {
			o.node = SpaceNode(s)
		}
		return o, err == nil, notFoundIsNil(err)
	}
	c, err := client.Collection.Query().Where(collection.ID(id), collection.OrganizationID(orgID)).Only(sys)
	if err == nil {
		o.node = CollectionNode(c)
	}
	return o, err == nil, notFoundIsNil(err)
}

// NotFound turns ent's not-found (which the privacy filters also produce for rows the viewer may
// not see, so another organization's objects answer as missing ones do) into a NOT_FOUND naming
// the object; other errors pass through.
func NotFound(err error, what string) error {
	if ent.IsNotFound(err) {
		return apperr.NotFoundf("%s not found", what)
	}
	return err
}

func notFoundIsNil(err error) error {
	if ent.IsNotFound(err) {
		return nil
	}
	return err
}

// objectNode is a space or collection to compute a role on.
type objectNode struct {
	id, org string
	node    ContentNode
}

// rolesOf computes the viewer's role on each object. An admin of the object's organization holds
// every role there (ContentRole's first rule), which needs none of the request's facts.
func rolesOf(ctx context.Context, objects []objectNode) (map[string]viewer.Role, error) {
	client, v, err := clientOf(ctx)
	if err != nil {
		return nil, err
	}
	roles := make(map[string]viewer.Role, len(objects))
	var others []objectNode
	for _, o := range objects {
		if administers(v, o.org) {
			roles[o.id] = viewer.RoleAdmin
		} else {
			others = append(others, o)
		}
	}
	if len(others) == 0 {
		return roles, nil
	}
	f := factsOf(v)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.learn(ctx, client, v, others); err != nil {
		return nil, err
	}
	for _, o := range others {
		roles[o.id] = ContentRole(f.content(v, o), o.id)
	}
	return roles, nil
}

// learn loads what the roles on objects (none in an organization the viewer administers) need
// and the request has not seen yet, only in the organizations where the viewer is a member (the
// only ones where it counts): the collections above the objects, then the viewer's grants on the
// objects and those collections.
func (f *facts) learn(ctx context.Context, client *ent.Client, v *viewer.Viewer, objects []objectNode) error {
	var members []objectNode
	var parents []string
	for _, o := range objects {
		if _, member := v.Membership(o.org); !member {
			continue
		}
		members = append(members, o)
		if p := o.node.Parent; p != "" && f.collections[p] == nil {
			parents = append(parents, p)
		}
	}
	if len(parents) > 0 {
		above, err := collectionsAbove(ctx, client, parents)
		if err != nil {
			return err
		}
		for _, c := range above {
			f.collections[c.ID] = c
		}
	}
	return f.learnGrants(ctx, client, v, members)
}

// learnGrants loads the viewer's grants on the objects and the collections above them, those
// not looked up yet in the request.
func (f *facts) learnGrants(ctx context.Context, client *ent.Client, v *viewer.Viewer, objects []objectNode) error {
	var spaces, cols []string
	for _, o := range objects {
		for i, id := range f.content(v, o).Ancestry(o.id) {
			switch {
			case f.looked[id]:
			case i == 0 && o.node.Space:
				spaces = append(spaces, id)
			default:
				cols = append(cols, id)
			}
			f.looked[id] = true
		}
	}
	return grantsOn(ctx, client, v.UserID, spaces, cols, f.grants)
}

// content is the Content deciding the viewer's role on o: o, the collections above it, the
// viewer's membership and grants and the share keys they presented.
func (f *facts) content(v *viewer.Viewer, o objectNode) *Content {
	role, member := v.Membership(o.org)
	c := &Content{Member: member, OrgRole: role, Nodes: map[string]ContentNode{o.id: o.node}, Grants: f.grants,
		ShareKeys: v.ShareKeys(), Admitted: v.Admitted()}
	// Bounded by the steps taken, not the nodes gathered: on a corrupt tree with a cycle the walk
	// comes back to collections it has, and the count of nodes stops growing.
	for depth, id := 0, o.node.Parent; id != "" && depth < maxDepth; depth++ {
		p := f.collections[id]
		if p == nil || p.OrganizationID != o.org {
			break
		}
		c.Nodes[id] = CollectionNode(p)
		id = deref(p.ParentID)
	}
	return c
}

// collectionsAbove reads the collections ids and every collection above them in one recursive
// statement through the primary key.
func collectionsAbove(ctx context.Context, client *ent.Client, ids []string) ([]*ent.Collection, error) {
	up := func(b *sql.Builder) {
		b.WriteString("WITH RECURSIVE up(id) AS (SELECT c.id FROM collections c WHERE ")
		in("c.id", ids)(b)
		b.WriteString(" UNION SELECT c.parent_id FROM collections c JOIN up ON c.id = up.id WHERE c.parent_id IS NOT NULL) SELECT id FROM up")
	}
	above := predicate.Collection(func(s *sql.Selector) { s.Where(inQuery(s.C(collection.FieldID), up).predicate()) })
	return client.Collection.Query().Where(above).All(privacy.DecisionContext(ctx, privacy.Allow))
}

// grantsOn adds to into the grants made to the user or to one of their teams on the spaces and
// collections, as object id → best role, read through the grants' target indexes. (A grant is in
// its target's organization: a transfer deletes the space's.)
func grantsOn(ctx context.Context, client *ent.Client, userID string, spaces, cols []string, into map[string]viewer.Role) error {
	var targets []predicate.PermissionGrant
	for _, ids := range chunks(spaces) {
		targets = append(targets, permissiongrant.SpaceIDIn(ids...))
	}
	for _, ids := range chunks(cols) {
		targets = append(targets, permissiongrant.CollectionIDIn(ids...))
	}
	for _, target := range targets {
		grants, err := client.PermissionGrant.Query().Where(target, permissiongrant.Or(
			permissiongrant.UserID(userID),
			permissiongrant.HasTeamWith(team.HasMembershipsWith(teammember.UserID(userID))),
		)).All(privacy.DecisionContext(ctx, privacy.Allow))
		if err != nil {
			return err
		}
		for _, g := range grants {
			id := deref(g.SpaceID) + deref(g.CollectionID) // exactly one is set
			into[id] = higher(into[id], g.Role)
		}
	}
	return nil
}

// SpaceNode is a space's place in the content tree.
func SpaceNode(s *ent.Space) ContentNode {
	n := ContentNode{Parent: deref(s.ParentID), DefaultLevel: levelOf(s.DefaultLevel), Visibility: string(s.Visibility), Space: true}
	if s.Visibility == space.VisibilityShareLink {
		n.ShareKey = deref(s.ShareKey)
	}
	return n
}

// CollectionNode is a collection's place in the content tree.
func CollectionNode(c *ent.Collection) ContentNode {
	return ContentNode{Parent: deref(c.ParentID), DefaultLevel: levelOf(c.DefaultLevel)}
}

// MemberSubject returns the viewer standing for another member of an organization, to compute
// their access (HasRole, SpaceRoles) the way theirs is computed; nil when the user is no member.
// A disabled membership counts for nothing, as in their own requests (accounts' memberships): the
// viewer is then no member of the organization, and sees what anyone signed in sees.
// Callers check first that the viewer may know this.
func MemberSubject(ctx context.Context, client *ent.Client, orgID, userID string) (*viewer.Viewer, error) {
	m, err := client.Member.Query().Where(member.OrganizationID(orgID), member.UserID(userID)).
		Only(privacy.DecisionContext(ctx, privacy.Allow))
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	roles := map[string]*viewer.Role{}
	if !m.Disabled {
		roles[orgID] = m.Role
	}
	return viewer.NewUser(userID, "", roles), nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func levelOf[T ~string](l *T) string {
	if l == nil {
		return ""
	}
	return string(*l)
}

// ForgetContent is a hook for every entity whose writes change content access (collections,
// spaces, grants, team memberships): after a write the request's facts are loaded again.
func ForgetContent() entgo.Hook {
	return func(next entgo.Mutator) entgo.Mutator {
		return entgo.MutateFunc(func(ctx context.Context, m entgo.Mutation) (entgo.Value, error) {
			val, err := next.Mutate(ctx, m)
			if err == nil {
				viewer.FromContext(ctx).Forget(factsKey)
			}
			return val, err
		})
	}
}
