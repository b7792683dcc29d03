package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/customfields"
)

// Custom fields translate between GraphQL (and REST, which calls these resolvers) and
// internal/customfields, which holds their rules; graph keeps the lists it reads through its
// loaders, batched for a whole level of a query.

// customFieldService is the custom fields as this resolver's viewer reads and writes them.
func (r *Resolver) customFieldService() *customfields.Service {
	return &customfields.Service{Client: r.Client, Organization: r.organization, RequireOrgRole: r.requireOrgRole,
		Space: r.space}
}

// customField is Organization.customField (customfields.Service.Field).
func (r *Resolver) customField(ctx context.Context, orgID, name string) (*ent.CustomField, error) {
	return r.customFieldService().Field(ctx, orgID, name)
}

func (r *Resolver) customFields(ctx context.Context, o *ent.Organization, first *int, after *string) (*model.CustomFieldConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	if !rule.HasOrgRole(viewer.FromContext(ctx), o.ID, viewer.RoleRead) {
		return nil, apperr.Forbiddenf("guests may not list the organization's custom fields")
	}
	p, err := loader.For(ctx, r.Client).CustomFieldPage(ctx, o, args)
	if err != nil {
		return nil, err
	}
	return customFieldConnection(ctx, p), nil
}

func (r *Resolver) customFieldPermissions(ctx context.Context, f *ent.CustomField) *model.CustomFieldPermissions {
	p := rule.ForCustomField(viewer.FromContext(ctx), f.OrganizationID)
	return &model.CustomFieldPermissions{View: p.View, Edit: p.Edit}
}

// createCustomField is Mutation.createCustomField (customfields.Service.Create).
func (r *Resolver) createCustomField(ctx context.Context, orgID string, in model.CreateCustomFieldInput) (*ent.CustomField, error) {
	return r.customFieldService().Create(ctx, orgID, customfields.NewField{Name: in.Name, Type: in.Type,
		Title: in.Title, Description: in.Description, Placeholder: in.Placeholder, Options: in.Options})
}

// updateCustomField is Mutation.updateCustomField (customfields.Service.Update).
func (r *Resolver) updateCustomField(ctx context.Context, orgID, name string, in model.UpdateCustomFieldInput) (*ent.CustomField, error) {
	return r.customFieldService().Update(ctx, orgID, name, customfields.FieldChange{Title: nullable(in.Title),
		Description: nullable(in.Description), Placeholder: nullable(in.Placeholder), Options: in.Options})
}

// deleteCustomField is Mutation.deleteCustomField (customfields.Service.Delete).
func (r *Resolver) deleteCustomField(ctx context.Context, orgID, name string) (bool, error) {
	return r.customFieldService().Delete(ctx, orgID, name)
}
