package loader

import (
	"context"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/customfield"
	"github.com/binderyhq/bindery/ent/customfieldvalue"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/privacy"
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
