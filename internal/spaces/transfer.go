package spaces

import (
	"context"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/changerequestreview"
	"github.com/binderyhq/bindery/ent/changerequestreviewer"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/comment"
	"github.com/binderyhq/bindery/ent/commentreply"
	"github.com/binderyhq/bindery/ent/customfieldvalue"
	"github.com/binderyhq/bindery/ent/gitcommit"
	"github.com/binderyhq/bindery/ent/gitpage"
	"github.com/binderyhq/bindery/ent/gitsync"
	"github.com/binderyhq/bindery/ent/movedpage"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/reaction"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/sites"
	"github.com/binderyhq/bindery/internal/txn"
)

// A transfer moves a space, or a collection with everything below it, to another organization.
// What ties the moved objects to the old organization's people, definitions and sites is dropped
// (grants, custom field values, site spaces); the spaces' content follows them.

// TransferSpace moves a space to the top level of another organization. The caller must be an
// admin of both organizations. Grants, custom field values and site links belong to the old
// organization and are dropped; the space's revisions, change requests and comments follow it.
func (svc *Service) TransferSpace(ctx context.Context, id, orgID string) (*ent.Space, error) {
	s, err := svc.Space(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := svc.checkTransfer(ctx, "space", s.OrganizationID, orgID); err != nil {
		return nil, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		pos, err := place(ctx, tx, orgID, nil, s.ID, nil)
		if err != nil {
			return err
		}
		if err := moveSpaceRows(ctx, tx, orgID, s.ID); err != nil {
			return err
		}
		upd := tx.Space.UpdateOneID(s.ID).SetOrganizationID(orgID).ClearParentID().SetPosition(pos).ClearMergeRules()
		if s.Visibility == space.VisibilityInCollection {
			upd.SetVisibility(space.VisibilityPrivate)
		}
		return upd.Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return svc.Space(ctx, id)
}

// TransferCollection moves a collection with its sub-collections and their spaces (deleted ones
// too) to another organization, at the end of its top level; the nesting below it is kept. The
// caller must be admin in both organizations. What ties the moved objects to the old
// organization's people and definitions goes, as for a space transfer (TransferSpace): grants,
// custom field values, site links; the spaces' content follows them.
func (svc *Service) TransferCollection(ctx context.Context, id, orgID string) (*ent.Collection, error) {
	c, err := svc.Collection(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := svc.checkTransfer(ctx, "collection", c.OrganizationID, orgID); err != nil {
		return nil, err
	}
	ids, err := subtree(ctx, svc.Client, c)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if err := transferSpacesIn(ctx, tx, ids, orgID); err != nil {
			return err
		}
		key, err := place(ctx, tx, orgID, nil, "", nil)
		if err != nil {
			return err
		}
		if _, err := tx.PermissionGrant.Delete().Where(permissiongrant.CollectionIDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
		if err := tx.Collection.Update().Where(collection.IDIn(ids...)).SetOrganizationID(orgID).ClearMergeRules().Exec(ctx); err != nil {
			return err
		}
		return tx.Collection.UpdateOneID(c.ID).ClearParentID().SetPosition(key).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return svc.Collection(ctx, id)
}

// checkTransfer checks that the viewer may move a space or collection (kind) from organization
// from to organization to: admin of both. Returns FORBIDDEN when they are no admin of from,
// NOT_FOUND when they cannot see to, INVALID when to is from, FORBIDDEN when they are no admin of to.
func (svc *Service) checkTransfer(ctx context.Context, kind, from, to string) error {
	v := viewer.FromContext(ctx)
	if !rule.HasOrgRole(v, from, viewer.RoleAdmin) {
		return apperr.Forbiddenf("transferring a %s takes the admin role in both organizations, its own included", kind)
	}
	if _, err := svc.Organization(ctx, to); err != nil {
		return err
	}
	if to == from {
		return apperr.Invalidf("organization: the %s is already in this organization", kind)
	}
	if !rule.HasOrgRole(v, to, viewer.RoleAdmin) {
		return apperr.Forbiddenf("organization: transferring a %s takes the admin role in both organizations, the target one included", kind)
	}
	return nil
}

// subtree returns the ids of a collection and of every collection below it that the viewer sees
// (an organization admin, who transfers, sees them all).
func subtree(ctx context.Context, client *ent.Client, c *ent.Collection) ([]string, error) {
	ids, level := []string{c.ID}, []string{c.ID}
	for depth := 0; len(level) > 0 && depth < 64; depth++ {
		next, err := client.Collection.Query().Where(collection.ParentIDIn(level...)).IDs(ctx)
		if err != nil {
			return nil, err
		}
		ids, level = append(ids, next...), next
	}
	return ids, nil
}

// transferSpacesIn moves the spaces (deleted ones too) of the given collections to orgID, keeping
// their parents and positions. The viewer is an admin of both organizations: they see and write
// every space of the old one, deleted ones included.
func transferSpacesIn(ctx context.Context, tx *ent.Tx, collectionIDs []string, orgID string) error {
	spaceIDs, err := tx.Space.Query().Where(space.ParentIDIn(collectionIDs...)).IDs(ctx)
	if err != nil || len(spaceIDs) == 0 {
		return err
	}
	if err := moveSpaceRows(ctx, tx, orgID, spaceIDs...); err != nil {
		return err
	}
	return tx.Space.Update().Where(space.IDIn(spaceIDs...)).SetOrganizationID(orgID).ClearMergeRules().Exec(ctx)
}

// moveSpaceRows makes the rows of spaces that move to organization orgID follow them: the rows that
// tie them to their old organization's people, definitions and sites are dropped, the rows of
// their content rehomed.
func moveSpaceRows(ctx context.Context, tx *ent.Tx, orgID string, spaceIDs ...string) error {
	if err := dropSpaceLinks(ctx, tx, spaceIDs); err != nil {
		return err
	}
	return rehomeSpaceRows(ctx, tx, orgID, spaceIDs)
}

// dropSpaceLinks removes the grants, custom field values, review requests and site spaces of
// spaces (their policies let organization admins remove them, from deleted spaces too); the spaces
// leave their sites as sites.Leave says. (Their merge rules, which name the old organization's
// people, are cleared by the caller: moved spaces and collections inherit.)
func dropSpaceLinks(ctx context.Context, tx *ent.Tx, spaceIDs []string) error {
	if _, err := tx.PermissionGrant.Delete().Where(permissiongrant.SpaceIDIn(spaceIDs...)).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.CustomFieldValue.Delete().Where(customfieldvalue.SpaceIDIn(spaceIDs...)).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.ChangeRequestReviewer.Delete().Where(changerequestreviewer.SpaceIDIn(spaceIDs...)).Exec(ctx); err != nil {
		return err
	}
	_, err := sites.Leave(ctx, tx, sitespace.SpaceIDIn(spaceIDs...))
	return err
}

// rehomeSpaceRows moves the rows of spaces' content (revisions, change requests, comments,
// reviews, replies, reactions, moved pages, Git Sync links and commits) to organization orgID. Their organization_id is immutable for
// every other write and no rule lets a viewer change it: it is set by a modifier, with the
// policy's decision made, because these rows only follow their space, whose move the space policy
// decides (admin of both organizations) in the same transaction.
func rehomeSpaceRows(ctx context.Context, tx *ent.Tx, orgID string, spaceIDs []string) error {
	allowed := privacy.DecisionContext(ctx, privacy.Allow)
	set := func(u *sql.UpdateBuilder) { u.Set("organization_id", orgID) }
	steps := []func() error{
		func() error {
			return tx.Revision.Update().Where(revision.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.ChangeRequest.Update().Where(changerequest.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.Comment.Update().Where(comment.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.ChangeRequestReview.Update().Where(changerequestreview.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.CommentReply.Update().Where(commentreply.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.Reaction.Update().Where(reaction.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.MovedPage.Update().Where(movedpage.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.GitSync.Update().Where(gitsync.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.GitCommit.Update().Where(gitcommit.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.GitPage.Update().Where(gitpage.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}
