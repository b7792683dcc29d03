package graph

import (
	"context"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/apperr"
	"github.com/binderyhq/bindery/graph/content/orderkey"
	"github.com/binderyhq/bindery/graph/model"
)

// Collections and spaces that share a parent (or the top level of an organization) are siblings
// in one order: by position key (graph/content/orderkey), then id. These helpers place an item
// among them.

// sibling is a collection or a live space under one parent.
type sibling struct {
	ID, Key string
	Space   bool
}

// siblings returns the collections and live spaces under parent (nil: the top level) in their
// order. It reads every sibling, also those the viewer may not see, as the system: their keys
// bound the new one. Only ids and keys are read, and callers return neither (pointerIndex checks
// that a position names a sibling the viewer can read).
func siblings(ctx context.Context, client *ent.Client, orgID string, parent *string) ([]sibling, error) {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	cq := client.Collection.Query().Where(collection.OrganizationID(orgID))
	sq := client.Space.Query().Where(space.OrganizationID(orgID), space.DeletedAtIsNil())
	if parent == nil {
		cq.Where(collection.ParentIDIsNil())
		sq.Where(space.ParentIDIsNil())
	} else {
		cq.Where(collection.ParentID(*parent))
		sq.Where(space.ParentID(*parent))
	}
	cols, err := cq.Select(collection.FieldID, collection.FieldPosition).All(sys)
	if err != nil {
		return nil, err
	}
	spaces, err := sq.Select(space.FieldID, space.FieldPosition).All(sys)
	if err != nil {
		return nil, err
	}
	out := make([]sibling, 0, len(cols)+len(spaces))
	for _, c := range cols {
		out = append(out, sibling{ID: c.ID, Key: c.Position})
	}
	for _, s := range spaces {
		out = append(out, sibling{ID: s.ID, Key: s.Position, Space: true})
	}
	slices.SortFunc(out, func(a, b sibling) int {
		if c := strings.Compare(a.Key, b.Key); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// withoutSibling drops the item being moved from its siblings.
func withoutSibling(sibs []sibling, id string) []sibling {
	return slices.DeleteFunc(sibs, func(s sibling) bool { return s.ID == id })
}

// placeIndex is where a move's position puts the item among sibs: just before `before`, just after
// `after` (both: they must be neighbours), or at the end. Returns INVALID naming the field for a
// pointer that names no sibling the viewer can read.
func placeIndex(ctx context.Context, orgID string, sibs []sibling, pos *model.ContentPositionInput) (int, error) {
	if pos == nil || (pos.Before == nil && pos.After == nil) {
		return len(sibs), nil
	}
	at := -1
	if pos.Before != nil {
		i, err := pointerIndex(ctx, orgID, sibs, "position.before", pos.Before)
		if err != nil {
			return 0, err
		}
		at = i
	}
	if pos.After != nil {
		i, err := pointerIndex(ctx, orgID, sibs, "position.after", pos.After)
		if err != nil {
			return 0, err
		}
		if at >= 0 && at != i+1 {
			return 0, apperr.Invalidf("position: before and after must name neighbours (after just before before)")
		}
		at = i + 1
	}
	return at, nil
}

func pointerIndex(ctx context.Context, orgID string, sibs []sibling, field string, p *model.ContentPointerInput) (int, error) {
	if (p.Collection == nil) == (p.Space == nil) {
		return 0, apperr.Invalidf("%s: must name exactly one collection or one space", field)
	}
	id, kind := derefOr(p.Collection, ""), "collection"
	if p.Space != nil {
		id, kind = *p.Space, "space"
	}
	i := slices.IndexFunc(sibs, func(s sibling) bool { return s.ID == id && s.Space == (kind == "space") })
	role, err := rule.RoleOn(ctx, orgID, id, kind == "space")
	if err != nil {
		return 0, err
	}
	if i < 0 || !role.AtLeast(viewer.RoleRead) {
		return 0, apperr.Invalidf("%s: no %s %q at the destination (it must be a sibling, other than the moved item)", field, kind, truncate(id, 80))
	}
	return i, nil
}

// insertKey returns the key of an item inserted at index at of sibs. When the neighbours' keys
// leave no room (equal or legacy empty keys, or keys grown too long), it renumbers the siblings
// in the transaction of client, as the system: only position keys change, in the same order, on
// siblings the viewer may not see or administer (the viewer's right to place an item here was
// checked by the caller).
func insertKey(ctx context.Context, client *ent.Client, sibs []sibling, at int) (string, error) {
	lo, hi := "", ""
	if at > 0 {
		lo = sibs[at-1].Key
	}
	if at < len(sibs) {
		hi = sibs[at].Key
	}
	if at == len(sibs) || hi != "" {
		if key, ok := orderkey.Between(lo, hi); ok {
			return key, nil
		}
	}
	keys := orderkey.Spread(len(sibs) + 1)
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	for i, s := range sibs {
		k := keys[i]
		if i >= at {
			k = keys[i+1]
		}
		if k == s.Key {
			continue
		}
		var err error
		if s.Space {
			err = client.Space.UpdateOneID(s.ID).SetPosition(k).Exec(sys)
		} else {
			err = client.Collection.UpdateOneID(s.ID).SetPosition(k).Exec(sys)
		}
		if err != nil {
			return "", err
		}
	}
	return keys[at], nil
}

// place returns the position key of an item (self; "" for a new one) among the siblings under
// parent (nil: the top level of organization orgID): where pos says, or at the end.
func place(ctx context.Context, tx *ent.Tx, orgID string, parent *string, self string, pos *model.ContentPositionInput) (string, error) {
	sibs, err := siblings(ctx, tx.Client(), orgID, parent)
	if err != nil {
		return "", err
	}
	sibs = withoutSibling(sibs, self)
	at, err := placeIndex(ctx, orgID, sibs, pos)
	if err != nil {
		return "", err
	}
	return insertKey(ctx, tx.Client(), sibs, at)
}
