package spaces

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/mergerules"
	"github.com/binderyhq/bindery/internal/orgs"
	"github.com/binderyhq/bindery/internal/txn"
)

// Collections: nestable groupings of spaces. Reads go through the Collection policy (a collection
// the viewer may not read is NOT_FOUND); writes check the viewer's effective role first
// (rule.CollectionRole) for a clear FORBIDDEN, and the policy checks again beneath.

// Bounds of a collection's texts (characters).
const (
	collectionTitleMax       = 50
	collectionDescriptionMax = 100
)

// AdminCollection returns a collection on which the viewer has the admin role; action says what
// they do, for the refusal. Returns NOT_FOUND when they cannot read it, FORBIDDEN naming the
// action when they can but are no admin of it.
func (svc *Service) AdminCollection(ctx context.Context, id, action string) (*ent.Collection, error) {
	return admin(ctx, "collection", id, action, svc.Collection, rule.CollectionRole)
}

// NewCollection is a collection to create: its title (default "Untitled") and the collection it
// goes in (nil: the top level).
type NewCollection struct {
	Title, Parent *string
}

// CreateCollection creates a collection at the end of its parent's children (or of the top
// level). New collections inherit their default level (defaultLevel "inherit"). It takes the
// create role where the collection goes.
func (svc *Service) CreateCollection(ctx context.Context, orgID string, in NewCollection) (*ent.Collection, error) {
	if _, err := svc.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	title := strings.TrimSpace(valueOr(in.Title, ""))
	if title == "" {
		title = untitled
	}
	if err := check.Text("title", title, 1, collectionTitleMax); err != nil {
		return nil, err
	}
	if err := checkCreateIn(ctx, orgID, in.Parent); err != nil {
		return nil, err
	}
	var id string
	err := txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		key, err := place(ctx, tx, orgID, in.Parent, "", nil)
		if err != nil {
			return err
		}
		c, err := tx.Collection.Create().SetOrganizationID(orgID).SetTitle(title).SetNillableParentID(in.Parent).
			SetDefaultLevel(collection.DefaultLevel(rule.Inherit)).SetPosition(key).Save(ctx)
		if err == nil {
			id = c.ID
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return svc.Collection(ctx, id)
}

// CollectionChange is a change to a collection: each field given is set, Description and
// DefaultLevel null clear theirs.
type CollectionChange struct {
	Title                     *string
	Description, DefaultLevel check.Nullable[string]
	// MergeRules, when given, replaces the collection's merge rules (inherit clears them).
	MergeRules *mergerules.Config
}

// UpdateCollection changes a collection's title, description, default level and merge rules
// (checked as UpdateSpace checks them). It takes the admin role on the collection.
func (svc *Service) UpdateCollection(ctx context.Context, id string, in CollectionChange) (*ent.Collection, error) {
	c, err := svc.AdminCollection(ctx, id, "change it")
	if err != nil {
		return nil, err
	}
	var rules json.RawMessage
	if in.MergeRules != nil {
		if rules, err = orgs.CheckMergeRules(ctx, svc.Client, c.OrganizationID, *in.MergeRules); err != nil {
			return nil, err
		}
	}
	// In a transaction: a new default level resolves again below the collection
	// (rule.ResolveLevels), all or nothing with the change.
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		upd := tx.Collection.UpdateOne(c)
		if err := setCollectionFields(upd, in); err != nil {
			return err
		}
		if in.MergeRules != nil {
			setMergeRules(rules, upd.SetMergeRules, upd.ClearMergeRules)
		}
		if err := upd.Exec(ctx); err != nil {
			return err
		}
		return audit.RecordSettings(ctx, tx.Client(), c.OrganizationID, audit.CollectionSettingsChanged, "collection", c.ID,
			events.FieldsChanged(upd.Mutation()))
	})
	if err != nil {
		return nil, err
	}
	return svc.Collection(ctx, id)
}

// setCollectionFields puts the changes of in on upd. Returns INVALID naming the field.
func setCollectionFields(upd *ent.CollectionUpdateOne, in CollectionChange) error {
	if err := check.SetTrimmed("title", in.Title, 1, collectionTitleMax, upd.SetTitle); err != nil {
		return err
	}
	err := check.SetOrClear(in.Description, func(s string) error { return check.Text("description", s, 0, collectionDescriptionMax) },
		upd.SetDescription, upd.ClearDescription)
	if err != nil {
		return err
	}
	return check.SetOrClear(in.DefaultLevel, checkDefaultLevel, func(l string) *ent.CollectionUpdateOne {
		return upd.SetDefaultLevel(collection.DefaultLevel(l))
	}, upd.ClearDefaultLevel)
}

// DeleteCollection deletes a collection; its sub-collections and spaces (deleted ones included)
// move up to its parent, keeping their position keys. Grants on it go with it. It takes the admin
// role on the collection.
func (svc *Service) DeleteCollection(ctx context.Context, id string) error {
	c, err := svc.AdminCollection(ctx, id, "delete it")
	if err != nil {
		return err
	}
	return txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		// The children move up with the policy's decision taken: the viewer administers the
		// collection, and its children, which they may not administer (or, deleted spaces, not even
		// see), must not be left without a parent. Only their parent_id changes, to its parent.
		sys := privacy.DecisionContext(ctx, privacy.Allow)
		cols := tx.Collection.Update().Where(collection.ParentID(c.ID))
		if err := setParent(cols, c.ParentID).Exec(sys); err != nil {
			return err
		}
		spaces := tx.Space.Update().Where(space.ParentID(c.ID))
		if err := setParent(spaces, c.ParentID).Exec(sys); err != nil {
			return err
		}
		return tx.Collection.DeleteOne(c).Exec(ctx)
	})
}

// MoveCollection moves a collection under another parent (or the top level), at a place among its
// new siblings (collections and spaces): before or after one of them, or at the end. Only the
// moved collection's row changes, unless its neighbours' keys leave no room (then the siblings are
// renumbered in the same transaction). It takes the admin role on the collection, and the create
// role where it goes when a parent is given.
func (svc *Service) MoveCollection(ctx context.Context, id string, in Move) (*ent.Collection, error) {
	c, err := svc.AdminCollection(ctx, id, "move it")
	if err != nil {
		return nil, err
	}
	parent := c.ParentID
	if in.Parent.Set {
		parent = in.Parent.Value
		if err := checkMoveUnder(ctx, c, parent); err != nil {
			return nil, err
		}
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		key, err := place(ctx, tx, c.OrganizationID, parent, c.ID, in.Position)
		if err != nil {
			return err
		}
		return setParent(tx.Collection.UpdateOne(c).SetPosition(key), parent).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return svc.Collection(ctx, id)
}

// checkMoveUnder checks a move's new parent: a collection of the same organization the viewer may
// create in (or the top level), and neither the collection itself nor one below it.
func checkMoveUnder(ctx context.Context, c *ent.Collection, parent *string) error {
	if err := checkCreateIn(ctx, c.OrganizationID, parent); err != nil {
		return err
	}
	if parent == nil {
		return nil
	}
	ancestry, err := rule.Ancestry(ctx, c.OrganizationID, *parent)
	if err != nil {
		return err
	}
	if slices.Contains(ancestry, c.ID) {
		return apperr.Invalidf("parent: a collection cannot move under itself or one of its sub-collections")
	}
	return nil
}
