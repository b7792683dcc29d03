package spaces

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/mergerules"
	"github.com/binderyhq/bindery/internal/orgs"
	"github.com/binderyhq/bindery/internal/sites"
	"github.com/binderyhq/bindery/internal/sweep"
	"github.com/binderyhq/bindery/internal/txn"
)

// Bounds of a space's texts (characters), and what a duplicate's title ends with.
const (
	TitleMax   = 50
	emojiMax   = 50
	copySuffix = " (copy)"
)

// AdminSpace returns a live space on which the viewer has the admin role; action says what they
// do, for the refusal. Returns NOT_FOUND when they cannot read it, FORBIDDEN when they can but are
// no admin of it.
func (svc *Service) AdminSpace(ctx context.Context, id, action string) (*ent.Space, error) {
	return admin(ctx, "space", id, action, svc.Space, rule.SpaceRole)
}

// ShareKey is the secret of a share-link space, for admins of the space; nil for anyone else and
// for any other space.
func ShareKey(ctx context.Context, s *ent.Space) (*string, error) {
	if s.Visibility != space.VisibilityShareLink || s.DeletedAt != nil {
		return nil, nil
	}
	role, err := rule.SpaceRole(ctx, s)
	if err != nil || !role.AtLeast(viewer.RoleAdmin) {
		return nil, err
	}
	return s.ShareKey, nil
}

// NewSpace is a space to create: its title (default "Untitled") and emoji (default none), and the
// collection it goes in (nil: the top level).
type NewSpace struct {
	Title, Emoji, Parent *string
}

// CreateSpace creates a space at the end of its parent collection's children (or of the top level)
// with one empty revision. It takes the create role where the space goes.
func (svc *Service) CreateSpace(ctx context.Context, orgID string, in NewSpace) (*ent.Space, error) {
	if _, err := svc.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	title, err := check.Trimmed("title", valueOr(in.Title, untitled), 1, TitleMax)
	if err != nil {
		return nil, err
	}
	emoji, err := check.Trimmed("emoji", valueOr(in.Emoji, ""), 0, emojiMax)
	if err != nil {
		return nil, err
	}
	if err := checkCreateIn(ctx, orgID, in.Parent); err != nil {
		return nil, err
	}
	id, err := svc.insertSpace(ctx, orgID, in.Parent, nil, tree.EmptyRoot, func(c *ent.SpaceCreate) {
		c.SetTitle(title).SetEmoji(emoji).SetDefaultLevel(space.DefaultLevelInherit)
	})
	if err != nil {
		return nil, err
	}
	return svc.Space(ctx, id)
}

// NewEmptySpace makes, in tx, an empty space at the end of the top level of organization orgID,
// titled title (cut to TitleMax), for a viewer with the create role there (a site's new space).
// Returns FORBIDDEN otherwise.
func (svc *Service) NewEmptySpace(ctx context.Context, tx *ent.Tx, orgID, title string) (*ent.Space, error) {
	if err := checkCreateIn(ctx, orgID, nil); err != nil {
		return nil, err
	}
	return svc.insertSpaceTx(ctx, tx, orgID, nil, nil, tree.EmptyRoot, func(c *ent.SpaceCreate) {
		c.SetTitle(check.Cut(title, TitleMax)).SetDefaultLevel(space.DefaultLevelInherit)
	})
}

// insertSpace makes a space of organization orgID in one transaction: set fills in its fields,
// it is placed under parent where pos says (nil: at the end), and it gets a first revision over
// the root tree. Returns the new space's id.
func (svc *Service) insertSpace(ctx context.Context, orgID string, parent *string, pos *Position,
	root string, set func(*ent.SpaceCreate)) (string, error) {
	var id string
	err := txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		s, err := svc.insertSpaceTx(ctx, tx, orgID, parent, pos, root, set)
		if err == nil {
			id = s.ID
		}
		return err
	})
	return id, err
}

// insertSpaceTx is insertSpace in the transaction tx, for writes that make a space among others.
func (svc *Service) insertSpaceTx(ctx context.Context, tx *ent.Tx, orgID string, parent *string, pos *Position,
	root string, set func(*ent.SpaceCreate)) (*ent.Space, error) {
	key, err := place(ctx, tx, orgID, parent, "", pos)
	if err != nil {
		return nil, err
	}
	c := tx.Space.Create().SetOrganizationID(orgID).SetNillableParentID(parent).SetPosition(key)
	set(c)
	s, err := c.Save(ctx)
	if err != nil {
		return nil, err
	}
	if err := recordSpace(ctx, tx, events.SpaceCreated, s.OrganizationID, s.ID, nil); err != nil {
		return nil, err
	}
	if err := recordCreatedVisibility(ctx, tx, s); err != nil {
		return nil, err
	}
	return s, svc.StartContent(ctx, tx, s, root)
}

// recordCreatedVisibility records in the audit log a space made with a visibility other than the
// default (private): who reads it was decided then, as an update of its visibility decides it
// (decision 503).
func recordCreatedVisibility(ctx context.Context, tx *ent.Tx, s *ent.Space) error {
	if s.Visibility == space.DefaultVisibility {
		return nil
	}
	return audit.RecordSettings(ctx, tx.Client(), s.OrganizationID, audit.SpaceSettingsChanged, "space", s.ID, []string{"visibility"})
}

// recordSpace records an event about a space in the transaction that changes it.
func recordSpace(ctx context.Context, tx *ent.Tx, typ, orgID, spaceID string, details map[string]any) error {
	return events.Record(ctx, tx.Client(), events.Event{Type: typ, Organization: orgID, ObjectKind: "space",
		ObjectID: spaceID, Space: spaceID, Details: details})
}

// SpaceChange is a change to a space: each field given is set, DefaultLevel null clears it.
type SpaceChange struct {
	Title, Emoji *string
	Visibility   *space.Visibility
	EditMode     *space.EditMode
	DefaultLevel check.Nullable[string]
	// MergeRules, when given, replaces the space's merge rules (inherit clears them).
	MergeRules *mergerules.Config
}

// UpdateSpace changes a space's title, emoji, visibility, edit mode, default level and merge
// rules. It takes the admin role on the space; every field is checked before anything is
// written (INVALID naming a merge rule the server does not enforce, or a user who is not a
// member of the organization).
func (svc *Service) UpdateSpace(ctx context.Context, spaceID string, in SpaceChange) (*ent.Space, error) {
	s, err := svc.AdminSpace(ctx, spaceID, "change it")
	if err != nil {
		return nil, err
	}
	var rules json.RawMessage
	if in.MergeRules != nil {
		if rules, err = orgs.CheckMergeRules(ctx, svc.Client, s.OrganizationID, *in.MergeRules); err != nil {
			return nil, err
		}
	}
	// In a transaction: a new default level resolves again (rule.ResolveLevels) with the change.
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		upd := tx.Space.UpdateOne(s)
		if err := setSpaceFields(upd, s, in); err != nil {
			return err
		}
		if in.MergeRules != nil {
			setMergeRules(rules, upd.SetMergeRules, upd.ClearMergeRules)
		}
		if err := upd.Exec(ctx); err != nil {
			return err
		}
		return recordSpace(ctx, tx, events.SpaceUpdated, s.OrganizationID, s.ID, map[string]any{"fields": events.FieldsChanged(upd.Mutation())})
	})
	if err != nil {
		return nil, err
	}
	return svc.Space(ctx, spaceID)
}

// setSpaceFields puts the changes of in to space s on upd. Returns INVALID naming the field.
func setSpaceFields(upd *ent.SpaceUpdateOne, s *ent.Space, in SpaceChange) error {
	if err := check.SetTrimmed("title", in.Title, 1, TitleMax, upd.SetTitle); err != nil {
		return err
	}
	if err := check.SetTrimmed("emoji", in.Emoji, 0, emojiMax, upd.SetEmoji); err != nil {
		return err
	}
	if v := in.Visibility; v != nil {
		if *v == space.VisibilityInCollection && s.ParentID == nil {
			return apperr.Invalidf("visibility: in-collection is only for a space in a collection")
		}
		setShareKey(upd, s.Visibility, *v)
		upd.SetVisibility(*v)
	}
	if in.EditMode != nil {
		upd.SetEditMode(*in.EditMode)
	}
	return check.SetOrClear(in.DefaultLevel, checkDefaultLevel,
		func(l string) *ent.SpaceUpdateOne { return upd.SetDefaultLevel(space.DefaultLevel(l)) }, upd.ClearDefaultLevel)
}

// setMergeRules sets checked merge rules, or clears them to inherit (nil).
func setMergeRules[U any](rules json.RawMessage, set func(json.RawMessage) U, clear func() U) {
	if rules == nil {
		clear()
		return
	}
	set(rules)
}

// setShareKey keeps a space's share key while it stays share-link, makes a new one when it becomes
// share-link (a link shared before is not revived), and drops it when it stops being share-link.
func setShareKey(upd *ent.SpaceUpdateOne, from, to space.Visibility) {
	switch {
	case to != space.VisibilityShareLink:
		upd.ClearShareKey()
	case from != to:
		upd.SetShareKey(*newShareKey(to))
	}
}

// newShareKey is a fresh, unguessable share key (internal/id: about 119 random bits) for a space
// with share-link visibility; nil for any other visibility.
func newShareKey(v space.Visibility) *string {
	if v != space.VisibilityShareLink {
		return nil
	}
	key := id.New()
	return &key
}

// DeleteSpace deletes a space softly: it disappears from lists and reads, and organization
// admins may restore it for sweep.Retention. It leaves the sites that showed it, in the same
// transaction (a restore does not bring it back on them). It takes the admin role on the space.
func (svc *Service) DeleteSpace(ctx context.Context, id string) error {
	s, err := svc.AdminSpace(ctx, id, "delete it")
	if err != nil {
		return err
	}
	return txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if err := tx.Space.UpdateOne(s).SetDeletedAt(svc.Now(ctx)).Exec(ctx); err != nil {
			return err
		}
		if _, err := sites.Leave(ctx, tx, sitespace.SpaceID(s.ID)); err != nil {
			return err
		}
		return recordSpace(ctx, tx, events.SpaceDeleted, s.OrganizationID, s.ID, nil)
	})
}

// RestoreSpace brings back a space deleted less than sweep.Retention ago, for a signed-in viewer
// (the caller checks there is one). Only organization admins see deleted spaces, so only they
// restore them; for everyone else, and after the retention, the space is NOT_FOUND. A live space
// is INVALID (nothing to restore).
func (svc *Service) RestoreSpace(ctx context.Context, id string) (*ent.Space, error) {
	s, err := svc.Client.Space.Query().Where(space.ID(id)).Only(ctx)
	if err != nil {
		return nil, rule.NotFound(err, "space")
	}
	if s.DeletedAt == nil {
		return nil, apperr.Invalidf("the space is not deleted")
	}
	if !rule.HasOrgRole(viewer.FromContext(ctx), s.OrganizationID, viewer.RoleAdmin) {
		return nil, apperr.NotFoundf("space not found")
	}
	if svc.Now(ctx).Sub(*s.DeletedAt) > sweep.Retention {
		return nil, apperr.NotFoundf("space not found: it was deleted more than 7 days ago")
	}
	if err := svc.Client.Space.UpdateOne(s).ClearDeletedAt().Exec(ctx); err != nil {
		return nil, err
	}
	return svc.Space(ctx, id)
}

// DuplicateSpace copies a space next to itself: same settings and content (a new revision over
// the same root tree), new ids, titled "<title> (copy)" within the title bound. Grants, custom
// field values and share keys are not copied (a share-link copy gets its own key). It takes read
// access to the space and the create role where the copy goes.
func (svc *Service) DuplicateSpace(ctx context.Context, id string) (*ent.Space, error) {
	s, err := svc.Space(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, member := viewer.FromContext(ctx).Membership(s.OrganizationID); !member {
		return nil, apperr.Forbiddenf("only members of the space's organization may duplicate it")
	}
	if err := checkCreateIn(ctx, s.OrganizationID, s.ParentID); err != nil {
		return nil, err
	}
	root, err := svc.CopyContent(ctx, s)
	if err != nil {
		return nil, err
	}
	next := &Position{After: &Pointer{Space: &s.ID}}
	newID, err := svc.insertSpace(ctx, s.OrganizationID, s.ParentID, next, root, func(c *ent.SpaceCreate) {
		c.SetTitle(copyTitle(s.Title)).SetEmoji(s.Emoji).SetVisibility(s.Visibility).
			SetNillableShareKey(newShareKey(s.Visibility)).SetEditMode(s.EditMode).SetNillableDefaultLevel(s.DefaultLevel)
	})
	if err != nil {
		return nil, err
	}
	return svc.Space(ctx, newID)
}

// copyTitle is "<title> (copy)", the title cut so the whole stays within TitleMax characters.
func copyTitle(title string) string {
	keep := TitleMax - utf8.RuneCountInString(copySuffix)
	if utf8.RuneCountInString(title) > keep {
		title = strings.TrimSpace(string([]rune(title)[:keep]))
	}
	return title + copySuffix
}

// Move is where a collection or space moves: under Parent when it is set (null: the top level;
// absent keeps the current parent), at Position among its new siblings (nil: at the end).
type Move struct {
	Parent   check.Nullable[string]
	Position *Position
}

// MoveSpace moves a space to another parent collection (or the top level) and/or another place
// among its siblings. It takes the admin role on the space, and the create role where it goes
// when the parent changes.
func (svc *Service) MoveSpace(ctx context.Context, id string, in Move) (*ent.Space, error) {
	s, err := svc.AdminSpace(ctx, id, "move it")
	if err != nil {
		return nil, err
	}
	parent := s.ParentID
	if in.Parent.Set {
		parent = in.Parent.Value
		if valueOr(parent, "") != valueOr(s.ParentID, "") {
			if err := checkCreateIn(ctx, s.OrganizationID, parent); err != nil {
				return nil, err
			}
		}
	}
	if parent == nil && s.Visibility == space.VisibilityInCollection {
		return nil, apperr.Invalidf("parent: a space with visibility in-collection must stay in a collection (change its visibility first)")
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		pos, err := place(ctx, tx, s.OrganizationID, parent, s.ID, in.Position)
		if err != nil {
			return err
		}
		if err := setParent(tx.Space.UpdateOneID(s.ID).SetPosition(pos), parent).Exec(ctx); err != nil {
			return err
		}
		return recordSpace(ctx, tx, events.SpaceMoved, s.OrganizationID, s.ID, map[string]any{"parent": parent})
	})
	if err != nil {
		return nil, err
	}
	return svc.Space(ctx, id)
}
