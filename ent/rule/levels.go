package rule

import (
	"context"
	"fmt"
	"slices"

	entgo "entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/space"
)

// A resolved level is the default level of a collection or space once "inherit" is followed up
// the collections above it: a role, Inherit (every level up to the top inherits: the member's
// organization role), or NoLevel. It is stored on the row (resolved_level), kept by the writes
// that change a default level or a parent, so the privacy filters read a member's default access
// from the row itself (memberDefault) instead of walking the tree.
const (
	NoLevel = "none"
	// Unresolved marks rows written before the column existed; ResolveAllLevels fills them at
	// start. It matches no role, so such a row opens nothing by default until then.
	Unresolved = "unresolved"
)

// maxBatch bounds the ids of one statement, below SQLite's and PostgreSQL's parameter limits.
const maxBatch = 500

// resolve is the resolved level of an object of default level level: under a parent of resolved
// level parent, or at the top when hasParent is false (as ContentRole's defaultRole walks).
func resolve(level string, parent string, hasParent bool) string {
	switch {
	case level == "":
		return NoLevel
	case level != Inherit:
		return level
	case !hasParent:
		return Inherit
	case parent == "":
		return NoLevel // a parent that does not exist gives nothing
	}
	return parent
}

// ResolveLevels is the hook of collections and spaces that keeps resolved levels: a new row gets
// its own; a write that changes default levels or parents resolves the rows it changed again,
// and for collections every row below them that inherits; a delete of collections resolves
// again the rows the database moved to the top level (their parent_id is ON DELETE SET NULL).
func ResolveLevels() entgo.Hook {
	return func(next entgo.Mutator) entgo.Mutator {
		return entgo.MutateFunc(func(ctx context.Context, m entgo.Mutation) (entgo.Value, error) {
			if !changesLevels(m) {
				return next.Mutate(ctx, m)
			}
			sys := privacy.DecisionContext(ctx, privacy.Allow)
			client := mutationClient(ctx, m)
			if m.Op().Is(entgo.OpDelete | entgo.OpDeleteOne) {
				return deleteCollections(ctx, sys, client, m, next)
			}
			if m.Op().Is(entgo.OpCreate) {
				if err := setNewLevel(sys, client, m); err != nil {
					return nil, err
				}
				return next.Mutate(ctx, m)
			}
			ids, err := mutationIDs(sys, m)
			if err != nil {
				return nil, err
			}
			val, err := next.Mutate(ctx, m)
			if err != nil {
				return val, err
			}
			return val, resolveAgain(sys, client, m.Type() == "Space", ids)
		})
	}
}

// changesLevels reports whether m creates a row, changes a default level or a parent, or deletes
// collections (which moves the rows in them to the top level).
func changesLevels(m entgo.Mutation) bool {
	if m.Op().Is(entgo.OpCreate) {
		return true
	}
	if m.Op().Is(entgo.OpDelete | entgo.OpDeleteOne) {
		return m.Type() == "Collection"
	}
	return m.Op().Is(entgo.OpUpdate|entgo.OpUpdateOne) && setsAny(m, "default_level", "parent_id")
}

// deleteCollections runs m, a delete of collections, and resolves again the spaces and
// collections that were in them: the database clears their parent_id (ON DELETE SET NULL), which
// takes them to the top level, where "inherit" means the organization role, without a write
// this hook sees. (The deleteCollection resolver moves the children up first, through hooked
// writes; this keeps every other delete, and a row put in the collection meanwhile, right.)
func deleteCollections(ctx, sys context.Context, client *ent.Client, m entgo.Mutation, next entgo.Mutator) (entgo.Value, error) {
	ids, err := mutationIDs(sys, m)
	if err != nil {
		return nil, err
	}
	spaces, cols, err := childrenOf(sys, client, ids)
	if err != nil {
		return nil, err
	}
	val, err := next.Mutate(ctx, m)
	if err != nil {
		return val, err
	}
	if err := resolveAgain(sys, client, true, spaces); err != nil {
		return val, err
	}
	return val, resolveAgain(sys, client, false, cols)
}

// childrenOf lists the spaces (deleted ones too) and the collections whose parent is one of the
// collections ids and that are not among them. On PostgreSQL the collections are locked for
// update first, until the write's transaction ends: a create or move into one of them reads its
// level for share, so it either ended before (and its row is listed here) or waits for the
// delete (and then finds no parent).
func childrenOf(ctx context.Context, client *ent.Client, ids []string) (spaces, cols []string, err error) {
	deleted := make(map[string]bool, len(ids))
	for _, id := range ids {
		deleted[id] = true
	}
	for _, part := range chunks(ids) {
		if _, err := client.Collection.Query().Where(collection.IDIn(part...)).Modify(updateLockOnPostgres).IDs(ctx); err != nil {
			return nil, nil, err
		}
		ss, err := client.Space.Query().Where(space.ParentIDIn(part...)).IDs(ctx)
		if err != nil {
			return nil, nil, err
		}
		cs, err := client.Collection.Query().Where(collection.ParentIDIn(part...)).IDs(ctx)
		if err != nil {
			return nil, nil, err
		}
		spaces = append(spaces, ss...)
		for _, id := range cs {
			if !deleted[id] {
				cols = append(cols, id)
			}
		}
	}
	return spaces, cols, nil
}

// setsAny reports whether m sets or clears one of the fields.
func setsAny(m entgo.Mutation, fields ...string) bool {
	for _, f := range append(m.Fields(), m.ClearedFields()...) {
		if slices.Contains(fields, f) {
			return true
		}
	}
	return false
}

// setNewLevel sets the resolved level of a row m creates, from its parent's.
func setNewLevel(ctx context.Context, client *ent.Client, m entgo.Mutation) error {
	parentID, hasParent := m.Field("parent_id")
	level, _ := m.Field("default_level")
	var parentLevel string
	if hasParent {
		levels, err := resolvedLevels(ctx, client, []string{parentID.(string)})
		if err != nil {
			return err
		}
		parentLevel = levels[parentID.(string)]
	}
	resolved := resolve(levelString(level), parentLevel, hasParent)
	switch m := m.(type) {
	case *ent.SpaceMutation:
		m.SetResolvedLevel(space.ResolvedLevel(resolved))
	case *ent.CollectionMutation:
		m.SetResolvedLevel(collection.ResolvedLevel(resolved))
	default:
		return fmt.Errorf("rule: %T has no resolved level", m)
	}
	return nil
}

// levelString reads a default level field's value (nil when the mutation does not set it).
func levelString(v entgo.Value) string {
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return ""
}

// mutationIDs lists the rows an update will change, read before it runs.
func mutationIDs(ctx context.Context, m entgo.Mutation) ([]string, error) {
	idser, ok := m.(interface {
		IDs(context.Context) ([]string, error)
	})
	if !ok {
		return nil, fmt.Errorf("rule: %T cannot list its rows", m)
	}
	return idser.IDs(ctx)
}

// mutationClient is the client m writes through (its transaction's, if it has one), so rules
// and hooks read the rows the transaction wrote; the request's client otherwise.
func mutationClient(ctx context.Context, m entgo.Mutation) *ent.Client {
	if c, ok := m.(interface{ Client() *ent.Client }); ok {
		return c.Client()
	}
	return ent.FromContext(ctx)
}

// resolvedLevels reads the resolved levels of collections, by id. On PostgreSQL the rows are
// locked for share until the write's transaction ends: a concurrent change of one of these
// levels waits for it (and then resolves the rows below, this write's among them), or this read
// waits for that change and sees its level.
func resolvedLevels(ctx context.Context, client *ent.Client, ids []string) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range chunks(ids) {
		cols, err := client.Collection.Query().Where(collection.IDIn(part...)).Modify(shareLockOnPostgres).
			Select(collection.FieldID, collection.FieldResolvedLevel).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, c := range cols {
			out[c.ID] = string(c.ResolvedLevel)
		}
	}
	return out, nil
}

// resolveAgain resolves the rows ids (spaces or collections) from their parents, and the rows
// below the collections whose level changed.
func resolveAgain(ctx context.Context, client *ent.Client, spaces bool, ids []string) error {
	rows, err := levelRows(ctx, client, spaces, ids)
	if err != nil {
		return err
	}
	var parentIDs []string
	for _, r := range rows {
		if r.parent != "" {
			parentIDs = append(parentIDs, r.parent)
		}
	}
	parents, err := resolvedLevels(ctx, client, parentIDs)
	if err != nil {
		return err
	}
	changed := map[string]string{}
	for _, r := range rows {
		if level := resolve(r.level, parents[r.parent], r.parent != ""); level != r.resolved {
			changed[r.id] = level
		}
	}
	if err := setLevels(ctx, client, spaces, changed); err != nil || spaces {
		return err
	}
	return resolveBelow(ctx, client, changed)
}

// levelRow is what resolving a row reads of it.
type levelRow struct{ id, parent, level, resolved string }

func levelRows(ctx context.Context, client *ent.Client, spaces bool, ids []string) ([]levelRow, error) {
	var rows []levelRow
	for _, part := range chunks(ids) {
		if spaces {
			ss, err := client.Space.Query().Where(space.IDIn(part...)).All(ctx)
			for _, s := range ss {
				rows = append(rows, levelRow{s.ID, deref(s.ParentID), levelOf(s.DefaultLevel), string(s.ResolvedLevel)})
			}
			if err != nil {
				return nil, err
			}
			continue
		}
		cs, err := client.Collection.Query().Where(collection.IDIn(part...)).All(ctx)
		for _, c := range cs {
			rows = append(rows, levelRow{c.ID, deref(c.ParentID), levelOf(c.DefaultLevel), string(c.ResolvedLevel)})
		}
		if err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// resolveBelow gives the rows that inherit under the collections of changed (id → new level)
// their parent's level, level by level down the tree.
func resolveBelow(ctx context.Context, client *ent.Client, changed map[string]string) error {
	for depth := 0; len(changed) > 0 && depth < maxDepth; depth++ {
		next := map[string]string{}
		for level, parents := range byLevel(changed) {
			for _, part := range chunks(parents) {
				err := client.Space.Update().Where(space.ParentIDIn(part...), space.DefaultLevelEQ(space.DefaultLevelInherit)).
					SetResolvedLevel(space.ResolvedLevel(level)).Modify(keepUpdatedAt).Exec(ctx)
				if err != nil {
					return err
				}
				children, err := client.Collection.Query().
					Where(collection.ParentIDIn(part...), collection.DefaultLevelEQ(collection.DefaultLevelInherit)).IDs(ctx)
				if err != nil {
					return err
				}
				for _, id := range children {
					next[id] = level
				}
			}
		}
		if err := setLevels(ctx, client, false, next); err != nil {
			return err
		}
		changed = next
	}
	return nil
}

// setLevels stores resolved levels (row id → level) of spaces or collections.
func setLevels(ctx context.Context, client *ent.Client, spaces bool, levels map[string]string) error {
	for level, ids := range byLevel(levels) {
		for _, part := range chunks(ids) {
			var err error
			if spaces {
				err = client.Space.Update().Where(space.IDIn(part...)).SetResolvedLevel(space.ResolvedLevel(level)).
					Modify(keepUpdatedAt).Exec(ctx)
			} else {
				err = client.Collection.Update().Where(collection.IDIn(part...)).
					SetResolvedLevel(collection.ResolvedLevel(level)).Modify(keepUpdatedAt).Exec(ctx)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func shareLockOnPostgres(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.ForShare()
	}
}

func updateLockOnPostgres(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.ForUpdate()
	}
}

// keepUpdatedAt leaves a row's update time as it was: a resolved level follows from another
// row's change, it is no change of this one.
func keepUpdatedAt(u *sql.UpdateBuilder) { u.Set("updated_at", sql.Expr("updated_at")) }

func byLevel(levels map[string]string) map[string][]string {
	out := map[string][]string{}
	for id, level := range levels {
		out[level] = append(out[level], id)
	}
	return out
}

func chunks(ids []string) [][]string {
	var out [][]string
	for len(ids) > maxBatch {
		out = append(out, ids[:maxBatch])
		ids = ids[maxBatch:]
	}
	if len(ids) > 0 {
		out = append(out, ids)
	}
	return out
}

// ResolveAllLevels resolves the levels of rows written before resolved levels were stored
// (Unresolved), top-down, and reports how many rows it resolved. Run at start, as the system.
func ResolveAllLevels(ctx context.Context, client *ent.Client) (int, error) {
	pending, err := client.Collection.Query().Where(collection.ResolvedLevelEQ(collection.ResolvedLevelUnresolved)).IDs(ctx)
	if err != nil {
		return 0, err
	}
	spaces, err := client.Space.Query().Where(space.ResolvedLevelEQ(space.ResolvedLevelUnresolved)).IDs(ctx)
	if err != nil || len(pending)+len(spaces) == 0 {
		return 0, err
	}
	resolved := len(pending) + len(spaces)
	// Collections from the top down, so each finds its parent resolved: a pass resolves those
	// whose parent is resolved (or who have none), until none is left.
	for depth := 0; len(pending) > 0 && depth <= maxDepth; depth++ {
		if err := resolveAgain(ctx, client, false, pending); err != nil {
			return 0, err
		}
		if pending, err = client.Collection.Query().Where(collection.ResolvedLevelEQ(collection.ResolvedLevelUnresolved)).IDs(ctx); err != nil {
			return 0, err
		}
	}
	for _, part := range chunks(spaces) {
		if err := resolveAgain(ctx, client, true, part); err != nil {
			return 0, err
		}
	}
	return resolved, nil
}
