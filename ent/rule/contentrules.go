package rule

import (
	"context"

	entgo "entgo.io/ent"
	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/intercept"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
)

// narrowing is a rule that limits a query, or a write to existing rows, to the rows its
// condition holds for (built for the request's viewer over the row's columns), and allows it
// there.
type narrowing func(v *viewer.Viewer, col columns) cond

// EvalQuery narrows a query.
func (n narrowing) EvalQuery(ctx context.Context, q entgo.Query) error {
	wq, err := intercept.NewQuery(q)
	if err != nil {
		return privacy.Denyf("rule: %v", err)
	}
	wq.WhereP(n.selector(viewer.FromContext(ctx), parentScopeOf(ctx)))
	return privacy.Allow
}

// EvalMutation narrows an update or a delete.
func (n narrowing) EvalMutation(ctx context.Context, m entgo.Mutation) error {
	wm, ok := m.(interface{ WhereP(...func(*sql.Selector)) })
	if !ok {
		return privacy.Denyf("rule: %T cannot be narrowed", m)
	}
	wm.WhereP(n.selector(viewer.FromContext(ctx), nil))
	return privacy.Allow
}

// selector narrows a selector to the rows the condition holds for, or leaves the condition to
// the statement of a per-parent read when it is the parent's (ParentScope).
func (n narrowing) selector(v *viewer.Viewer, scope *ParentScope) func(*sql.Selector) {
	return func(s *sql.Selector) {
		if !scope.hoist(s, func(col columns) cond { return n(v, col) }) {
			s.Where(n(v, selectorColumns(s)).predicate())
		}
	}
}

// orOrgAdmin holds where c holds and on every row of the organizations where v is admin: the
// narrowings of writes to rows of spaces need it for deleted spaces, which organization admins
// also manage (restore, transfer) though no role reaches them.
func orOrgAdmin(v *viewer.Viewer, col columns, c cond) cond {
	return or(c, in(col("organization_id"), v.OrganizationIDs(viewer.RoleAdmin)))
}

// FilterCollections limits reads of collections to those the viewer's role lets them read.
func FilterCollections() privacy.QueryRule {
	return narrowing(func(v *viewer.Viewer, col columns) cond { return hasRole(v, viewer.RoleRead, false, col) })
}

// FilterSpaces limits reads of spaces to those the viewer may read: by role, by visibility
// (public and unlisted spaces are readable by everyone, a share-link space by whoever presented
// its key), and, for organization admins, deleted spaces too (so they can restore them).
func FilterSpaces() privacy.QueryRule {
	return narrowing(func(v *viewer.Viewer, col columns) cond { return hasRoleOrOrgAdmin(v, viewer.RoleRead, true, col) })
}

// contentCreate is the creation of a collection or a space, in an organization, maybe in a
// parent collection.
type contentCreate interface {
	OrganizationID() (string, bool)
	ParentID() (string, bool)
}

// ContentWrites decides writes to collections (spaces false) or spaces (spaces true): creating
// takes the create role on the parent collection, or in the organization at the top level;
// changing, moving or deleting takes the admin role on the object itself (organization admins
// hold it on every object of their organizations, deleted spaces included, which they restore);
// moving objects to another organization (transfer) takes the admin role in both organizations.
func ContentWrites(spaces bool) privacy.MutationRule {
	narrow := narrowing(func(v *viewer.Viewer, col columns) cond { return hasRoleOrOrgAdmin(v, viewer.RoleAdmin, spaces, col) })
	return privacy.MutationRuleFunc(func(ctx context.Context, m entgo.Mutation) error {
		if to, moves := newOrganization(m); moves {
			return transferWrite(ctx, m, to)
		}
		if !m.Op().Is(entgo.OpCreate) {
			return narrow.EvalMutation(ctx, m)
		}
		cc, ok := m.(contentCreate)
		if !ok {
			return privacy.Denyf("%T is not content", m)
		}
		orgID, _ := cc.OrganizationID()
		parentID, hasParent := cc.ParentID()
		if can, err := canCreateIn(ctx, m, orgID, parentID, hasParent); err != nil || !can {
			return firstErr(err, privacy.Denyf("creating content here takes the create role"))
		}
		return privacy.Allow
	})
}

// newOrganization is the organization an update moves its rows to, if it changes organization_id.
func newOrganization(m entgo.Mutation) (string, bool) {
	if m.Op().Is(entgo.OpCreate) {
		return "", false
	}
	to, ok := m.Field("organization_id")
	id, _ := to.(string)
	return id, ok
}

// transferWrite narrows a write that moves content to organization to to the rows of the
// organizations where the viewer is admin, and denies it unless they are admin of to as well.
func transferWrite(ctx context.Context, m entgo.Mutation, to string) error {
	if !HasOrgRole(viewer.FromContext(ctx), to, viewer.RoleAdmin) {
		return privacy.Denyf("moving content to another organization takes the admin role there")
	}
	return narrowing(func(v *viewer.Viewer, col columns) cond {
		return in(col("organization_id"), v.OrganizationIDs(viewer.RoleAdmin))
	}).EvalMutation(ctx, m)
}

// canCreateIn reports whether the viewer may create content in a parent collection of the
// organization (the create role on it), or at the top level (the create role there).
func canCreateIn(ctx context.Context, m entgo.Mutation, orgID, parentID string, hasParent bool) (bool, error) {
	v := viewer.FromContext(ctx)
	if !hasParent {
		return HasOrgRole(v, orgID, viewer.RoleCreate), nil
	}
	return mutationClient(ctx, m).Collection.Query().
		Where(collection.ID(parentID), collection.OrganizationID(orgID), collectionHasRole(v, viewer.RoleCreate)).
		Exist(privacy.DecisionContext(ctx, privacy.Allow))
}

func firstErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// grantCreate is the creation of a permission grant on a space or a collection.
type grantCreate interface {
	SpaceID() (string, bool)
	CollectionID() (string, bool)
}

// GrantWrites lets the admins of a space or collection (organization admins included, on deleted
// spaces too) grant, change and revoke access to it.
func GrantWrites() privacy.MutationRule {
	narrow := narrowing(func(v *viewer.Viewer, col columns) cond {
		return orOrgAdmin(v, col, grantsOnAdministered(v, col))
	})
	return privacy.MutationRuleFunc(func(ctx context.Context, m entgo.Mutation) error {
		if !m.Op().Is(entgo.OpCreate) {
			return narrow.EvalMutation(ctx, m)
		}
		g, ok := m.(grantCreate)
		if !ok {
			return privacy.Denyf("%T is not a grant", m)
		}
		spaceID, onSpace := g.SpaceID()
		collectionID, _ := g.CollectionID()
		admin, err := isContentAdmin(ctx, m, spaceID, collectionID, onSpace)
		if err != nil || admin {
			return firstErr(err, privacy.Allow)
		}
		return privacy.Denyf("granting access takes the admin role on the space or collection")
	})
}

// FilterGrants limits reads of grants to the organizations where the viewer has a role, and to
// the spaces and collections the viewer administers: a guest may hold the admin role on an
// object, and changes or revokes the grants they can see there.
func FilterGrants() privacy.QueryRule {
	return narrowing(func(v *viewer.Viewer, col columns) cond {
		return or(in(col("organization_id"), v.OrganizationIDs(viewer.RoleRead)), grantsOnAdministered(v, col))
	})
}

// grantsOnAdministered holds for the grants on the spaces and collections where v is admin.
func grantsOnAdministered(v *viewer.Viewer, col columns) cond {
	return or(spaceWithRole(v, viewer.RoleAdmin, col("space_id")), collectionWithRole(v, viewer.RoleAdmin, col("collection_id")))
}

// isContentAdmin reports whether the viewer is admin of the space (onSpace) or the collection.
func isContentAdmin(ctx context.Context, m entgo.Mutation, spaceID, collectionID string, onSpace bool) (bool, error) {
	v, client, sys := viewer.FromContext(ctx), mutationClient(ctx, m), privacy.DecisionContext(ctx, privacy.Allow)
	if onSpace {
		return client.Space.Query().Where(space.ID(spaceID), spaceHasRole(v, viewer.RoleAdmin)).Exist(sys)
	}
	return client.Collection.Query().Where(collection.ID(collectionID), collectionHasRole(v, viewer.RoleAdmin)).Exist(sys)
}

// hasSpaceRole reports whether the viewer's role on the space is at least min.
func hasSpaceRole(ctx context.Context, m entgo.Mutation, spaceID string, min viewer.Role) (bool, error) {
	return mutationClient(ctx, m).Space.Query().Where(space.ID(spaceID), spaceHasRole(viewer.FromContext(ctx), min)).
		Exist(privacy.DecisionContext(ctx, privacy.Allow))
}

// SpacesWithRole is the predicate of the spaces on which v's role is at least min: the filter
// of reads, for a query that lists another member's spaces (MemberSubject) or checks a role.
func SpacesWithRole(v *viewer.Viewer, min viewer.Role) predicate.Space { return spaceHasRole(v, min) }

func spaceHasRole(v *viewer.Viewer, min viewer.Role) predicate.Space {
	return func(s *sql.Selector) { s.Where(hasRole(v, min, true, selectorColumns(s)).predicate()) }
}

func collectionHasRole(v *viewer.Viewer, min viewer.Role) predicate.Collection {
	return func(s *sql.Selector) { s.Where(hasRole(v, min, false, selectorColumns(s)).predicate()) }
}

// spaceRowCreate is the creation of a row that belongs to a space.
type spaceRowCreate interface {
	SpaceID() (string, bool)
}

// SpaceRowWrites lets viewers whose role on a space is at least min write the rows that belong
// to it (custom field values): a create is checked against the row's space; an update or delete
// is narrowed to rows of the spaces where the viewer has that role (organization admins: every
// space, deleted ones too).
func SpaceRowWrites(min viewer.Role) privacy.MutationRule {
	narrow := narrowing(func(v *viewer.Viewer, col columns) cond {
		return orOrgAdmin(v, col, spaceWithRole(v, min, col("space_id")))
	})
	return privacy.MutationRuleFunc(func(ctx context.Context, m entgo.Mutation) error {
		if !m.Op().Is(entgo.OpCreate) {
			return narrow.EvalMutation(ctx, m)
		}
		sc, ok := m.(spaceRowCreate)
		if !ok {
			return privacy.Denyf("%T does not belong to a space", m)
		}
		spaceID, _ := sc.SpaceID()
		if ok, err := hasSpaceRole(ctx, m, spaceID, min); err != nil || ok {
			return firstErr(err, privacy.Allow)
		}
		return privacy.Denyf("this takes the %s role on the space", min)
	})
}

// Check the rule types at compile time: narrowing serves as a query and a mutation rule.
var _ privacy.QueryMutationRule = narrowing(nil)
