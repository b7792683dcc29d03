package rule

import (
	"context"

	entgo "entgo.io/ent"
	"entgo.io/ent/entql"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
)

// FilterCollections limits reads of collections to those the viewer's role lets them read.
func FilterCollections() privacy.QueryRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		ids, err := contentIDs(ctx, viewer.RoleRead, false)
		if err != nil {
			return err
		}
		f.Where(fieldIn("id", ids))
		return privacy.Allow
	})
}

// FilterSpaces limits reads of spaces to those the viewer may read: by role, by visibility
// (public and unlisted spaces are readable by everyone, a share-link space by whoever presented
// its key), and, for organization admins, deleted spaces too (so they can restore them).
func FilterSpaces() privacy.QueryRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		ids, err := contentIDs(ctx, viewer.RoleRead, true)
		if err != nil {
			return err
		}
		v := viewer.FromContext(ctx)
		f.Where(entql.Or(fieldIn("id", ids), orgIn(v.OrganizationIDs(viewer.RoleAdmin)), readableByAnyone(v)))
		return privacy.Allow
	})
}

// readableByAnyone matches the spaces whose visibility opens them to the viewer whatever their
// role: public and unlisted ones, and share-link ones whose key the viewer presented.
func readableByAnyone(v *viewer.Viewer) entql.P {
	return entql.Or(entql.FieldIn("visibility", "public", "unlisted"),
		entql.And(entql.FieldEQ("visibility", "share-link"), fieldIn("share_key", anys(v.ShareKeys()))))
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
	narrow := privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		ids, err := contentIDs(ctx, viewer.RoleAdmin, spaces)
		if err != nil {
			return err
		}
		f.Where(orOrgAdmin(ctx, fieldIn("id", ids)))
		return privacy.Allow
	})
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
		if can, err := canCreateIn(ctx, orgID, parentID, hasParent); err != nil || !can {
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
	v := viewer.FromContext(ctx)
	if !HasOrgRole(v, to, viewer.RoleAdmin) {
		return privacy.Denyf("moving content to another organization takes the admin role there")
	}
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		f.Where(orgIn(v.OrganizationIDs(viewer.RoleAdmin)))
		return privacy.Allow
	}).EvalMutation(ctx, m)
}

// orOrgAdmin matches the rows p matches and every row of the organizations where the viewer is
// admin. Write narrows built on the content snapshot need it for deleted spaces: the snapshot
// holds live spaces only, and organization admins also manage deleted ones (restore, transfer).
func orOrgAdmin(ctx context.Context, p entql.P) entql.P {
	return entql.Or(p, orgIn(viewer.FromContext(ctx).OrganizationIDs(viewer.RoleAdmin)))
}

func canCreateIn(ctx context.Context, orgID, parentID string, hasParent bool) (bool, error) {
	if !hasParent {
		return HasOrgRole(viewer.FromContext(ctx), orgID, viewer.RoleCreate), nil
	}
	byOrg, err := ContentOf(ctx)
	if err != nil || byOrg[orgID] == nil {
		return false, err
	}
	c := byOrg[orgID]
	_, isCollection := c.Nodes[parentID]
	return isCollection && !c.Nodes[parentID].Space && ContentRole(c, parentID).AtLeast(viewer.RoleCreate), nil
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
	narrow := privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		administered, err := grantsOnAdministered(ctx)
		if err != nil {
			return err
		}
		f.Where(orOrgAdmin(ctx, administered))
		return privacy.Allow
	})
	return privacy.MutationRuleFunc(func(ctx context.Context, m entgo.Mutation) error {
		if !m.Op().Is(entgo.OpCreate) {
			return narrow.EvalMutation(ctx, m)
		}
		g, ok := m.(grantCreate)
		if !ok {
			return privacy.Denyf("%T is not a grant", m)
		}
		spaceID, _ := g.SpaceID()
		collectionID, _ := g.CollectionID()
		if isContentAdmin(ctx, spaceID+collectionID) {
			return privacy.Allow
		}
		return privacy.Denyf("granting access takes the admin role on the space or collection")
	})
}

// FilterGrants limits reads of grants to the organizations where the viewer has a role, and to
// the spaces and collections the viewer administers: a guest may hold the admin role on an
// object, and changes or revokes the grants they can see there.
func FilterGrants() privacy.QueryRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		administered, err := grantsOnAdministered(ctx)
		if err != nil {
			return err
		}
		f.Where(entql.Or(orgIn(viewer.FromContext(ctx).OrganizationIDs(viewer.RoleRead)), administered))
		return privacy.Allow
	})
}

// grantsOnAdministered matches the grants on the spaces and collections where the viewer is admin.
func grantsOnAdministered(ctx context.Context) (entql.P, error) {
	spaces, err := contentIDs(ctx, viewer.RoleAdmin, true)
	if err != nil {
		return nil, err
	}
	cols, err := contentIDs(ctx, viewer.RoleAdmin, false)
	if err != nil {
		return nil, err
	}
	return entql.Or(fieldIn("space_id", spaces), fieldIn("collection_id", cols)), nil
}

func isContentAdmin(ctx context.Context, id string) bool {
	return hasContentRole(ctx, id, viewer.RoleAdmin)
}

// hasContentRole reports whether the viewer's role on a collection or space is at least min.
func hasContentRole(ctx context.Context, id string, min viewer.Role) bool {
	byOrg, err := ContentOf(ctx)
	if err != nil {
		return false
	}
	for _, c := range byOrg {
		if _, ok := c.Nodes[id]; ok {
			return ContentRole(c, id).AtLeast(min)
		}
	}
	return false
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
	narrow := privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		spaces, err := contentIDs(ctx, min, true)
		if err != nil {
			return err
		}
		f.Where(orOrgAdmin(ctx, fieldIn("space_id", spaces)))
		return privacy.Allow
	})
	return privacy.MutationRuleFunc(func(ctx context.Context, m entgo.Mutation) error {
		if !m.Op().Is(entgo.OpCreate) {
			return narrow.EvalMutation(ctx, m)
		}
		sc, ok := m.(spaceRowCreate)
		if !ok {
			return privacy.Denyf("%T does not belong to a space", m)
		}
		if spaceID, _ := sc.SpaceID(); hasContentRole(ctx, spaceID, min) {
			return privacy.Allow
		}
		return privacy.Denyf("this takes the %s role on the space", min)
	})
}

// fieldIn matches rows whose field is in values. An empty list matches no row: entql would
// write "IN ()", which PostgreSQL rejects, so it asks for a null id instead (ids are never null).
func fieldIn(name string, values []any) entql.P {
	if len(values) == 0 {
		return entql.FieldNil("id")
	}
	return entql.FieldIn(name, values...)
}
