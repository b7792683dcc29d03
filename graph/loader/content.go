package loader

import (
	"context"

	"entgo.io/ent/dialect/sql"
	"github.com/graph-gophers/dataloader/v7"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/customfield"
	"github.com/binderyhq/bindery/ent/customfieldvalue"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/graph/page"
)

// Organization returns the organization with the id, or nil when there is none the viewer may see.
// Organizations are cached for the request (newCachedLoader).
func (l *Loaders) Organization(ctx context.Context, id string) (*ent.Organization, error) {
	return l.orgs.Load(ctx, id)()
}

// Collection returns the collection with the id, or nil when there is none the viewer may read.
func (l *Loaders) Collection(ctx context.Context, id string) (*ent.Collection, error) {
	return l.collections.Load(ctx, id)()
}

// SpaceFieldValues returns the custom field values of a space with their fields, by field name.
// Callers ask only for spaces the viewer reads; whoever reads a space reads its values, so the
// batch reads them with the policy's decision made.
func (l *Loaders) SpaceFieldValues(ctx context.Context, spaceID string) ([]*ent.CustomFieldValue, error) {
	return l.fieldValues.Load(ctx, spaceID)()
}

func (l *Loaders) loadOrganizations(ctx context.Context, ids []string) []*dataloader.Result[*ent.Organization] {
	rows, err := l.client.Organization.Query().Where(organization.IDIn(ids...)).All(ctx)
	if err != nil {
		return failAll[string, *ent.Organization](ids, err)
	}
	return results(ids, byKey(rows, func(o *ent.Organization) string { return o.ID }), nil)
}

func (l *Loaders) loadCollections(ctx context.Context, ids []string) []*dataloader.Result[*ent.Collection] {
	rows, err := l.client.Collection.Query().Where(collection.IDIn(ids...)).All(ctx)
	if err != nil {
		return failAll[string, *ent.Collection](ids, err)
	}
	return results(ids, byKey(rows, func(c *ent.Collection) string { return c.ID }), nil)
}

// loadFieldValues reads the custom field values of spaces with their fields. The spaces were read
// by the viewer (SpaceFieldValues is only asked for a space already loaded through its policy),
// and whoever reads a space reads its values and their definitions, guests and readers of a
// public space included, whom the CustomField and value read policies (members with a role) do
// not serve: so the read is made with the policy's decision taken.
func (l *Loaders) loadFieldValues(ctx context.Context, spaceIDs []string) []*dataloader.Result[[]*ent.CustomFieldValue] {
	allowed := privacy.DecisionContext(ctx, privacy.Allow)
	rows, err := l.client.CustomFieldValue.Query().Where(customfieldvalue.SpaceIDIn(spaceIDs...)).
		WithCustomField().Order(customfieldvalue.ByCustomFieldField(customfield.FieldName), ent.Asc(customfieldvalue.FieldID)).
		All(allowed)
	if err != nil {
		return failAll[string, []*ent.CustomFieldValue](spaceIDs, err)
	}
	bySpace := map[string][]*ent.CustomFieldValue{}
	for _, v := range rows {
		bySpace[v.SpaceID] = append(bySpace[v.SpaceID], v)
	}
	return results(spaceIDs, bySpace, nil)
}

// ChildCollectionPage returns one page of a collection's sub-collections the viewer can read, in
// sibling order.
func (l *Loaders) ChildCollectionPage(ctx context.Context, parentID string, a page.Args) (Page[*ent.Collection], error) {
	return l.childCollections.Load(ctx, pageKey[struct{}]{parentID, struct{}{}, a.Limit, encode(a.After)})()
}

// CollectionSpacePage returns one page of the live spaces in a collection the viewer can read, in
// sibling order.
func (l *Loaders) CollectionSpacePage(ctx context.Context, parentID string, a page.Args) (Page[*ent.Space], error) {
	return l.collectionSpaces.Load(ctx, pageKey[struct{}]{parentID, struct{}{}, a.Limit, encode(a.After)})()
}

func (l *Loaders) loadChildCollectionPages(ctx context.Context, keys []pageKey[struct{}]) []*dataloader.Result[Page[*ent.Collection]] {
	return loadPages(ctx, pageSource[struct{}, *ent.Collection]{
		partition: []string{collection.FieldParentID},
		order:     func(struct{}) page.Order { return page.Order{Column: collection.FieldPosition} },
		parentOf:  func(c *ent.Collection) string { return derefString(c.ParentID) },
		idOf:      func(c *ent.Collection) string { return c.ID },
		cursorKey: func(c *ent.Collection, _ struct{}) any { return c.Position },
		fetch: func(ctx context.Context, parents []string, _ struct{}, modify ...func(*sql.Selector)) ([]*ent.Collection, map[string]int, error) {
			q := l.client.Collection.Query().Where(collection.ParentIDIn(parents...))
			q.Modify(modify...)
			rows, err := q.All(ctx)
			if err != nil {
				return nil, nil, err
			}
			counts, err := countBy(ctx, collection.FieldParentID, l.client.Collection.Query().Where(collection.ParentIDIn(parents...)).Modify)
			return rows, counts, err
		},
	}, keys)
}

func (l *Loaders) loadCollectionSpacePages(ctx context.Context, keys []pageKey[struct{}]) []*dataloader.Result[Page[*ent.Space]] {
	return loadPages(ctx, pageSource[struct{}, *ent.Space]{
		partition: []string{space.FieldParentID},
		order:     func(struct{}) page.Order { return page.Order{Column: space.FieldPosition} },
		parentOf:  func(s *ent.Space) string { return derefString(s.ParentID) },
		idOf:      func(s *ent.Space) string { return s.ID },
		cursorKey: func(s *ent.Space, _ struct{}) any { return s.Position },
		fetch: func(ctx context.Context, parents []string, _ struct{}, modify ...func(*sql.Selector)) ([]*ent.Space, map[string]int, error) {
			where := []predicate.Space{space.ParentIDIn(parents...), space.DeletedAtIsNil()}
			q := l.client.Space.Query().Where(where...)
			q.Modify(modify...)
			rows, err := q.All(ctx)
			if err != nil {
				return nil, nil, err
			}
			counts, err := countBy(ctx, space.FieldParentID, l.client.Space.Query().Where(where...).Modify)
			return rows, counts, err
		},
	}, keys)
}

func derefString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
