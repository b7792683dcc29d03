package rule

import (
	"context"
	"errors"

	entgo "entgo.io/ent"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/viewer"
)

// contentKey caches the viewer's content facts for the request (viewer.Remember).
const contentKey = "rule.content"

// ContentOf returns the facts that decide the viewer's role on content, per organization the
// viewer belongs to: loaded once per request (three statements for all organizations) and
// forgotten when a write changes them (ForgetContent), with the share keys the viewer presented
// so far. Reads use the client in ctx (ent.NewContext).
func ContentOf(ctx context.Context) (map[string]*Content, error) {
	v := viewer.FromContext(ctx)
	client := ent.FromContext(ctx)
	if v == nil || client == nil {
		return nil, errors.New("rule: content access needs a viewer and a client in the context")
	}
	val, err := v.Remember(contentKey, func() (any, error) { return loadContent(ctx, client, v) })
	if err != nil {
		return nil, err
	}
	return withShareKeys(val.(map[string]*Content), v.ShareKeys()), nil
}

// withShareKeys returns the cached facts with the presented share keys. Keys may be presented
// after the facts were cached, and the cached facts are shared by the request's goroutines, so
// the keys go on shallow copies.
func withShareKeys(byOrg map[string]*Content, keys []string) map[string]*Content {
	if len(keys) == 0 {
		return byOrg
	}
	out := make(map[string]*Content, len(byOrg))
	for org, c := range byOrg {
		withKeys := *c
		withKeys.ShareKeys = keys
		out[org] = &withKeys
	}
	return out
}

// SpaceRole is the viewer's effective role on a live space (ContentRole); outside the viewer's
// organizations only the space's visibility, and a share key they presented, count.
func SpaceRole(ctx context.Context, s *ent.Space) (viewer.Role, error) {
	byOrg, err := ContentOf(ctx)
	if err != nil {
		return "", err
	}
	c := byOrg[s.OrganizationID]
	if c == nil {
		c = &Content{Nodes: map[string]ContentNode{s.ID: spaceNode(s)}, ShareKeys: viewer.FromContext(ctx).ShareKeys()}
	}
	return ContentRole(c, s.ID), nil
}

func loadContent(ctx context.Context, client *ent.Client, v *viewer.Viewer) (map[string]*Content, error) {
	orgs := v.OrganizationIDs("")
	roles := make(map[string]viewer.Role, len(orgs))
	for _, o := range orgs {
		roles[o], _ = v.Membership(o)
	}
	return loadContentOf(ctx, client, v.UserID, roles)
}

// MemberContent returns the facts that decide a member's role on the content of their
// organization, read from the database (the same load as the viewer's ContentOf, for another
// user). It is nil when the user is no member of the organization. Callers check first that the
// viewer may know this.
func MemberContent(ctx context.Context, client *ent.Client, orgID, userID string) (*Content, error) {
	m, err := client.Member.Query().Where(member.OrganizationID(orgID), member.UserID(userID)).
		Only(privacy.DecisionContext(ctx, privacy.Allow))
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var role viewer.Role
	if m.Role != nil {
		role = *m.Role
	}
	byOrg, err := loadContentOf(ctx, client, userID, map[string]viewer.Role{orgID: role})
	if err != nil {
		return nil, err
	}
	return byOrg[orgID], nil
}

// loadContentOf loads the content facts of a user in the organizations they belong to, given
// their role in each ("" for a guest).
func loadContentOf(ctx context.Context, client *ent.Client, userID string, roles map[string]viewer.Role) (map[string]*Content, error) {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	orgs := make([]string, 0, len(roles))
	byOrg := make(map[string]*Content, len(roles))
	for o, role := range roles {
		orgs = append(orgs, o)
		byOrg[o] = &Content{Member: true, OrgRole: role, Nodes: map[string]ContentNode{}, Grants: map[string]viewer.Role{}}
	}
	cols, err := client.Collection.Query().Where(collection.OrganizationIDIn(orgs...)).All(sys)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		byOrg[c.OrganizationID].Nodes[c.ID] = ContentNode{Parent: deref(c.ParentID), DefaultLevel: levelOf(c.DefaultLevel)}
	}
	spaces, err := client.Space.Query().Where(space.OrganizationIDIn(orgs...), space.DeletedAtIsNil()).All(sys)
	if err != nil {
		return nil, err
	}
	for _, s := range spaces {
		byOrg[s.OrganizationID].Nodes[s.ID] = spaceNode(s)
	}
	return byOrg, addGrants(sys, client, userID, byOrg, orgs)
}

// spaceNode is a space's place in the content tree.
func spaceNode(s *ent.Space) ContentNode {
	n := ContentNode{Parent: deref(s.ParentID), DefaultLevel: levelOf(s.DefaultLevel), Visibility: string(s.Visibility), Space: true}
	if s.Visibility == space.VisibilityShareLink {
		n.ShareKey = deref(s.ShareKey)
	}
	return n
}

// addGrants records the grants made to the user or to one of their teams.
func addGrants(sys context.Context, client *ent.Client, userID string, byOrg map[string]*Content, orgs []string) error {
	grants, err := client.PermissionGrant.Query().Where(
		permissiongrant.OrganizationIDIn(orgs...),
		permissiongrant.Or(
			permissiongrant.UserID(userID),
			permissiongrant.HasTeamWith(team.HasMembershipsWith(teammember.UserID(userID))),
		)).All(sys)
	for _, g := range grants {
		target := deref(g.SpaceID) + deref(g.CollectionID) // exactly one is set
		c := byOrg[g.OrganizationID]
		c.Grants[target] = higher(c.Grants[target], g.Role)
	}
	return err
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
// spaces, grants, team memberships): after a write the viewer's cached facts are reloaded.
func ForgetContent() entgo.Hook {
	return func(next entgo.Mutator) entgo.Mutator {
		return entgo.MutateFunc(func(ctx context.Context, m entgo.Mutation) (entgo.Value, error) {
			val, err := next.Mutate(ctx, m)
			if err == nil {
				viewer.FromContext(ctx).Forget(contentKey)
			}
			return val, err
		})
	}
}

// contentIDs lists, over the viewer's organizations, the spaces or collections on which the
// viewer's role is at least min.
func contentIDs(ctx context.Context, min viewer.Role, spaces bool) ([]any, error) {
	byOrg, err := ContentOf(ctx)
	if err != nil {
		return nil, err
	}
	var ids []any
	for _, c := range byOrg {
		for _, id := range c.IDsWithRole(min, spaces) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
