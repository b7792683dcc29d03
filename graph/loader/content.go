package loader

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/customfield"
	"github.com/binderyhq/bindery/ent/customfieldvalue"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/internal/page"
)

// Organizations looks up organizations by id (nil for one the viewer may not see), kept for the
// whole request: a space's organization, then its parent collection's, cost one statement.
var Organizations = func() *Batch[string, *ent.Organization] {
	b := byID("organizations", func(ctx context.Context, c *ent.Client, ids []string) ([]*ent.Organization, error) {
		return c.Organization.Query().Where(organization.IDIn(ids...)).All(ctx)
	}, func(o *ent.Organization) string { return o.ID })
	b.perRequest = true
	return b
}()

// Collections looks up collections by id: nil for one the viewer may not read.
var Collections = byID("collections", func(ctx context.Context, c *ent.Client, ids []string) ([]*ent.Collection, error) {
	return c.Collection.Query().Where(collection.IDIn(ids...)).All(ctx)
}, func(c *ent.Collection) string { return c.ID })

// SpaceFieldValues returns the custom field values of a space with their fields, by field name.
// Callers ask only for spaces the viewer reads.
func (l *Loaders) SpaceFieldValues(ctx context.Context, s *ent.Space) ([]*ent.CustomFieldValue, error) {
	return Get(ctx, l.client, fieldValues, s, func(s *ent.Space) string { return s.ID })
}

// fieldValues reads the custom field values of spaces with their fields. The spaces were read
// by the viewer (SpaceFieldValues is only asked for a space already loaded through its policy),
// and whoever reads a space reads its values and their definitions, guests and readers of a
// public space included, whom the CustomField and value read policies (members with a role) do
// not serve: so the read is made with the policy's decision taken.
var fieldValues = NewBatch("field values", func(ctx context.Context, c *ent.Client, spaceIDs []string) (map[string][]*ent.CustomFieldValue, error) {
	allowed := privacy.DecisionContext(ctx, privacy.Allow)
	rows, err := c.CustomFieldValue.Query().Where(customfieldvalue.SpaceIDIn(spaceIDs...)).
		WithCustomField().Order(customfieldvalue.ByCustomFieldField(customfield.FieldName), ent.Asc(customfieldvalue.FieldID)).
		All(allowed)
	bySpace := map[string][]*ent.CustomFieldValue{}
	for _, v := range rows {
		bySpace[v.SpaceID] = append(bySpace[v.SpaceID], v)
	}
	return bySpace, err
})

// ChildCollectionPage returns one page of a collection's sub-collections the viewer can read, in
// sibling order.
func (l *Loaders) ChildCollectionPage(ctx context.Context, parent *ent.Collection, a page.Args) (Page[*ent.Collection], error) {
	return Get(ctx, l.client, childCollections, parent, func(c *ent.Collection) pageKey[struct{}] { return pageOf(c.ID, struct{}{}, a) })
}

// CollectionSpacePage returns one page of the live spaces in a collection the viewer can read, in
// sibling order.
func (l *Loaders) CollectionSpacePage(ctx context.Context, parent *ent.Collection, a page.Args) (Page[*ent.Space], error) {
	return Get(ctx, l.client, collectionSpaces, parent, func(c *ent.Collection) pageKey[struct{}] { return pageOf(c.ID, struct{}{}, a) })
}

var childCollections = pages("child collection pages", fromQuery(pageSource[struct{}, *ent.Collection]{
	partition: []string{collection.FieldParentID},
	order:     func(struct{}) page.Order { return page.Order{Column: collection.FieldPosition} },
	parentOf:  func(c *ent.Collection) string { return derefString(c.ParentID) },
	idOf:      func(c *ent.Collection) string { return c.ID },
	cursorKey: func(c *ent.Collection, _ struct{}) any { return c.Position },
}, func(c *ent.Client, _ struct{}) *ent.CollectionQuery {
	return c.Collection.Query()
}))

var collectionSpaces = pages("collection space pages", fromQuery(pageSource[struct{}, *ent.Space]{
	partition: []string{space.FieldParentID},
	order:     func(struct{}) page.Order { return page.Order{Column: space.FieldPosition} },
	parentOf:  func(s *ent.Space) string { return derefString(s.ParentID) },
	idOf:      func(s *ent.Space) string { return s.ID },
	cursorKey: func(s *ent.Space, _ struct{}) any { return s.Position },
}, func(c *ent.Client, _ struct{}) *ent.SpaceQuery {
	return c.Space.Query().Where(space.DeletedAtIsNil())
}))

func derefString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
