package spaces

import (
	"context"
	"slices"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/orderkey"
)

// Collections and spaces that share a parent (or the top level of an organization) are siblings
// in one order: by position key (internal/content/orderkey), then id. These helpers place an item
// among them.

// Position is where a collection or space goes among its siblings: just before Before, just after
// After (both: they must be neighbours), or at the end (neither, or no Position).
type Position struct {
	Before, After *Pointer
}

// Pointer names a sibling: exactly one of a collection and a space.
type Pointer struct {
	Collection, Space *string
}

// sibling is a collection or a live space under one parent.
type sibling struct {
	ID, Key string
	Space   bool
}

// compareSiblings orders siblings: by key, then id.
func compareSiblings(a, b sibling) int { return orderkey.Compare(a.Key, a.ID, b.Key, b.ID) }

// place returns the position key of an item (self; "" for a new one) among the siblings under
// parent (nil: the top level of organization orgID): where pos says, or at the end. It reads the
// neighbours only, unless their keys leave no room between them (renumber).
func place(ctx context.Context, tx *ent.Tx, orgID string, parent *string, self string, pos *Position) (string, error) {
	at := siblingsOf{client: tx.Client(), orgID: orgID, parent: parent, self: self}
	lo, hi, err := bounds(ctx, at, pos)
	if err != nil {
		return "", err
	}
	if key, ok := keyBetween(lo, hi); ok {
		return key, nil
	}
	return renumber(ctx, at, hi)
}

// keyBetween returns a key between the siblings lo and hi (nil: no bound on that side). ok is
// false when their keys leave no room: equal, too long, or hi's empty (a legacy key, which bounds
// nothing from above).
func keyBetween(lo, hi *sibling) (key string, ok bool) {
	loKey, hiKey := "", ""
	if lo != nil {
		loKey = lo.Key
	}
	if hi != nil {
		if hi.Key == "" {
			return "", false
		}
		hiKey = hi.Key
	}
	return orderkey.Between(loKey, hiKey)
}

// neighbours finds the siblings a position bounds an item by (siblingsOf reads them).
type neighbours interface {
	// nearest returns the sibling just after from (next) or just before it, or the last sibling
	// when from is nil; nil when there is none.
	nearest(ctx context.Context, from *sibling, next bool) (*sibling, error)
	// pointed returns the sibling a position's pointer names, if the viewer can read it. Returns
	// INVALID naming the field otherwise.
	pointed(ctx context.Context, field string, p *Pointer) (*sibling, error)
}

// bounds returns the siblings between which an item goes (nil at either end): just before
// pos.Before, just after pos.After (both: they must be neighbours), or after the last one. It
// reads the named siblings and their neighbours only, whatever the number of siblings. Returns
// INVALID naming the field for a pointer that names no sibling the viewer can read.
func bounds(ctx context.Context, at neighbours, pos *Position) (lo, hi *sibling, err error) {
	if pos == nil || (pos.Before == nil && pos.After == nil) {
		lo, err = at.nearest(ctx, nil, false)
		return lo, nil, err
	}
	if pos.Before != nil {
		if hi, err = at.pointed(ctx, "position.before", pos.Before); err != nil {
			return nil, nil, err
		}
		if lo, err = at.nearest(ctx, hi, false); err != nil || pos.After == nil {
			return lo, hi, err
		}
		after, err := at.pointed(ctx, "position.after", pos.After)
		if err != nil {
			return nil, nil, err
		}
		if lo == nil || lo.ID != after.ID {
			return nil, nil, apperr.Invalidf("position: before and after must name neighbours (after just before before)")
		}
		return lo, hi, nil
	}
	if lo, err = at.pointed(ctx, "position.after", pos.After); err != nil {
		return nil, nil, err
	}
	hi, err = at.nearest(ctx, lo, true)
	return lo, hi, err
}

// siblingsOf names the siblings under one parent (nil: the top level of an organization), less
// the item being placed (self, "" for a new one), and reads them through client as the system,
// also those the viewer may not see: their keys bound the item's. Only ids and keys are read,
// and callers return neither (pointed checks that a position names a sibling the viewer can read).
type siblingsOf struct {
	client *ent.Client
	orgID  string
	parent *string
	self   string
}

// where holds for the siblings, on the columns every collection and space has.
func (at siblingsOf) where(s *sql.Selector) {
	s.Where(sql.And(sql.EQ(s.C("organization_id"), at.orgID), sql.NEQ(s.C("id"), at.self)))
	if at.parent == nil {
		s.Where(sql.IsNull(s.C("parent_id")))
	} else {
		s.Where(sql.EQ(s.C("parent_id"), *at.parent))
	}
}

// nearest reads the sibling just after from (next) or just before it, or the last sibling when
// from is nil, through the (organization, parent, position) index: at most one collection and one
// space. Collections and spaces are one order, by key then id.
func (at siblingsOf) nearest(ctx context.Context, from *sibling, next bool) (*sibling, error) {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	beyond := func(s *sql.Selector) {
		if from == nil {
			return
		}
		op := sql.LT
		if next {
			op = sql.GT
		}
		s.Where(sql.Or(op(s.C("position"), from.Key), sql.And(sql.EQ(s.C("position"), from.Key), op(s.C("id"), from.ID))))
	}
	// Every sibling has the same parent, so ordering by it first changes nothing; but PostgreSQL
	// only reads the order off the (organization, parent, position, id) index when the query's
	// order starts with the parent: it does not take "parent_id IS NULL" to fix the column as it
	// takes "=" (without it, a top-level append sorted every space of the organization: 65 ms
	// at 100,000).
	order := func(s *sql.Selector) {
		if next {
			s.OrderBy(s.C("parent_id"), s.C("position"), s.C("id"))
		} else {
			s.OrderBy(sql.Desc(s.C("parent_id")), sql.Desc(s.C("position")), sql.Desc(s.C("id")))
		}
	}
	c, err := at.client.Collection.Query().Where(at.where, beyond).Order(order).
		Select(collection.FieldID, collection.FieldPosition).First(sys)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	sp, err := at.client.Space.Query().Where(at.where, beyond, space.DeletedAtIsNil()).Order(order).
		Select(space.FieldID, space.FieldPosition).First(sys)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	var found []sibling
	if c != nil {
		found = append(found, sibling{ID: c.ID, Key: c.Position})
	}
	if sp != nil {
		found = append(found, sibling{ID: sp.ID, Key: sp.Position, Space: true})
	}
	return closest(found, next), nil
}

// closest is the first of found in sibling order (next) or the last; nil when found is empty.
func closest(found []sibling, next bool) *sibling {
	if len(found) == 0 {
		return nil
	}
	nearest := slices.MinFunc(found, compareSiblings)
	if !next {
		nearest = slices.MaxFunc(found, compareSiblings)
	}
	return &nearest
}

// pointed reads the sibling a position's pointer names, if the viewer can read it.
func (at siblingsOf) pointed(ctx context.Context, field string, p *Pointer) (*sibling, error) {
	id, kind, err := pointee(field, p)
	if err != nil {
		return nil, err
	}
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	var found *sibling
	var role viewer.Role
	if p.Space != nil {
		s, err := at.client.Space.Query().Where(at.where, space.ID(id), space.DeletedAtIsNil()).Only(sys)
		if err != nil && !ent.IsNotFound(err) {
			return nil, err
		}
		if s != nil {
			found = &sibling{ID: s.ID, Key: s.Position, Space: true}
			if role, err = rule.SpaceRole(ctx, s); err != nil {
				return nil, err
			}
		}
	} else {
		c, err := at.client.Collection.Query().Where(at.where, collection.ID(id)).Only(sys)
		if err != nil && !ent.IsNotFound(err) {
			return nil, err
		}
		if c != nil {
			found = &sibling{ID: c.ID, Key: c.Position}
			if role, err = rule.CollectionRole(ctx, c); err != nil {
				return nil, err
			}
		}
	}
	if found == nil || !role.AtLeast(viewer.RoleRead) {
		return nil, apperr.Invalidf("%s: no %s %q at the destination (it must be a sibling, other than the moved item)", field, kind, check.Truncate(id, 80))
	}
	return found, nil
}

// pointee is the id a pointer names and its kind ("collection" or "space"). Returns INVALID
// naming the field unless it names exactly one.
func pointee(field string, p *Pointer) (id, kind string, err error) {
	switch {
	case (p.Collection == nil) == (p.Space == nil):
		return "", "", apperr.Invalidf("%s: must name exactly one collection or one space", field)
	case p.Space != nil:
		return *p.Space, "space", nil
	}
	return *p.Collection, "collection", nil
}

// renumber spreads the keys of the siblings anew, leaving room just before hi (at the end for
// nil), and returns the key of that room: for when the neighbours' keys leave none (equal or
// legacy empty keys, or keys grown too long). It reads and writes every sibling in the
// transaction of at.client, as the system: only position keys change, in the same order, on
// siblings the viewer may not see or administer (the viewer's right to place an item here was
// checked by the caller).
func renumber(ctx context.Context, at siblingsOf, hi *sibling) (string, error) {
	sibs, err := at.all(ctx)
	if err != nil {
		return "", err
	}
	sibs = slices.DeleteFunc(sibs, func(s sibling) bool { return s.ID == at.self })
	keys, room := spread(sibs, hi)
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	for i, s := range sibs {
		if keys[i] == s.Key {
			continue
		}
		if s.Space {
			err = at.client.Space.UpdateOneID(s.ID).SetPosition(keys[i]).Exec(sys)
		} else {
			err = at.client.Collection.UpdateOneID(s.ID).SetPosition(keys[i]).Exec(sys)
		}
		if err != nil {
			return "", err
		}
	}
	return room, nil
}

// spread returns new keys for sibs (in their order), keys[i] for sibs[i], leaving room just before
// hi (one of sibs; nil: at the end), and the key of that room.
func spread(sibs []sibling, hi *sibling) (keys []string, room string) {
	at := len(sibs)
	if hi != nil {
		at = slices.IndexFunc(sibs, func(s sibling) bool { return s.ID == hi.ID })
	}
	all := orderkey.Spread(len(sibs) + 1)
	keys = slices.Delete(slices.Clone(all), at, at+1)
	return keys, all[at]
}

// all reads the collections and live spaces under the parent (self included) in their order.
func (at siblingsOf) all(ctx context.Context) ([]sibling, error) {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	cq := at.client.Collection.Query().Where(collection.OrganizationID(at.orgID))
	sq := at.client.Space.Query().Where(space.OrganizationID(at.orgID), space.DeletedAtIsNil())
	if at.parent == nil {
		cq.Where(collection.ParentIDIsNil())
		sq.Where(space.ParentIDIsNil())
	} else {
		cq.Where(collection.ParentID(*at.parent))
		sq.Where(space.ParentID(*at.parent))
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
	slices.SortFunc(out, compareSiblings)
	return out, nil
}
