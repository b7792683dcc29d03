package graph

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/customfield"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
)

// Bounds of custom field definitions (spec/03).
const (
	fieldNameMax    = 50
	fieldTitleMax   = 100
	fieldDescMax    = 200
	fieldPlaceMax   = 100
	fieldOptionsMax = 50
	fieldOptionMax  = 100
)

var fieldNamePattern = regexp.MustCompile(`^[a-z_\-0-9]+$`)

// customField returns a custom field of an organization the viewer sees, by name.
// Returns NOT_FOUND if either does not exist or the viewer may not see it.
func (r *Resolver) customField(ctx context.Context, orgID, name string) (*ent.CustomField, error) {
	if _, err := r.organization(ctx, orgID); err != nil {
		return nil, err
	}
	if len(name) > fieldNameMax || !fieldNamePattern.MatchString(name) {
		return nil, apperr.NotFoundf("custom field not found") // no field can have this name: not looked up
	}
	f, err := r.Client.CustomField.Query().Where(customfield.OrganizationID(orgID), customfield.Name(name)).Only(ctx)
	return f, rule.NotFound(err, "custom field")
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

func (r *Resolver) createCustomField(ctx context.Context, orgID string, in model.CreateCustomFieldInput) (*ent.CustomField, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "create custom fields"); err != nil {
		return nil, err
	}
	if err := checkFieldName(in.Name); err != nil {
		return nil, err
	}
	if customfield.TypeValidator(in.Type) != nil {
		return nil, apperr.Invalidf("type: must be one of text, number, boolean, select, multi-select (got %q)", truncate(string(in.Type), 40))
	}
	create := r.Client.CustomField.Create().SetOrganizationID(orgID).SetName(in.Name).SetType(in.Type)
	for _, t := range []struct {
		field string
		value *string
		max   int
		set   func(*string) *ent.CustomFieldCreate
	}{
		{"title", in.Title, fieldTitleMax, create.SetNillableTitle},
		{"description", in.Description, fieldDescMax, create.SetNillableDescription},
		{"placeholder", in.Placeholder, fieldPlaceMax, create.SetNillablePlaceholder},
	} {
		v, err := optionalText(t.field, t.value, t.max)
		if err != nil {
			return nil, err
		}
		t.set(v)
	}
	if hasOptions(in.Type) && in.Options == nil {
		return nil, apperr.Invalidf("options: is required for %s fields", in.Type)
	}
	options, err := checkOptions(in.Type, in.Options)
	if err != nil {
		return nil, err
	}
	f, err := create.SetOptions(options).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, apperr.Conflictf("name: the organization already has a custom field named %q", in.Name)
	}
	return f, err
}

func (r *Resolver) updateCustomField(ctx context.Context, orgID, name string, in model.UpdateCustomFieldInput) (*ent.CustomField, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "change custom fields"); err != nil {
		return nil, err
	}
	f, err := r.customField(ctx, orgID, name)
	if err != nil {
		return nil, err
	}
	upd := r.Client.CustomField.UpdateOne(f)
	for _, t := range []struct {
		field string
		value graphql.Omittable[*string]
		max   int
		set   func(string) *ent.CustomFieldUpdateOne
		clear func() *ent.CustomFieldUpdateOne
	}{
		{"title", in.Title, fieldTitleMax, upd.SetTitle, upd.ClearTitle},
		{"description", in.Description, fieldDescMax, upd.SetDescription, upd.ClearDescription},
		{"placeholder", in.Placeholder, fieldPlaceMax, upd.SetPlaceholder, upd.ClearPlaceholder},
	} {
		check := func(s string) error { return checkText(t.field, s, 1, t.max) }
		if err := setOrClear(trimmedOrNull(t.value), check, t.set, t.clear); err != nil {
			return nil, err
		}
	}
	if in.Options != nil {
		options, err := checkOptions(f.Type, in.Options)
		if err != nil {
			return nil, err
		}
		upd.SetOptions(options)
	}
	f, err = upd.Save(ctx)
	return f, rule.NotFound(err, "custom field")
}

// deleteCustomField deletes a field; its values on spaces go with it (custom_field_values
// references the field ON DELETE CASCADE).
func (r *Resolver) deleteCustomField(ctx context.Context, orgID, name string) (bool, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "delete custom fields"); err != nil {
		return false, err
	}
	f, err := r.customField(ctx, orgID, name)
	if err != nil {
		return false, err
	}
	err = r.Client.CustomField.DeleteOne(f).Exec(ctx)
	return err == nil, rule.NotFound(err, "custom field")
}

// checkFieldName validates a new field's name: 1..50 characters of a-z, 0-9, _ and -.
func checkFieldName(name string) error {
	if err := checkText("name", name, 1, fieldNameMax); err != nil {
		return err
	}
	if !fieldNamePattern.MatchString(name) {
		return apperr.Invalidf("name: must contain only a-z, 0-9, _ and - (pattern %s)", fieldNamePattern)
	}
	return nil
}

// optionalText trims an optional text and checks it against max characters; a blank text is none.
func optionalText(field string, v *string, max int) (*string, error) {
	if v == nil {
		return nil, nil
	}
	s := strings.TrimSpace(*v)
	if err := checkText(field, s, 0, max); err != nil || s == "" {
		return nil, err
	}
	return &s, nil
}

// trimmedOrNull trims a nullable update value; a blank text becomes null (it removes the value).
func trimmedOrNull(in graphql.Omittable[*string]) graphql.Omittable[*string] {
	v := in.Value()
	if v == nil {
		return in
	}
	s := strings.TrimSpace(*v)
	if s == "" {
		return graphql.OmittableOf[*string](nil)
	}
	return graphql.OmittableOf(&s)
}

// hasOptions reports whether fields of the type choose among options.
func hasOptions(t customfield.Type) bool {
	return t == customfield.TypeSelect || t == customfield.TypeMultiSelect
}

// checkOptions validates the options of a field of type t: select and multi-select fields take
// 1..50 distinct options of 1..100 characters (trimmed), other types none. Returns the options to
// store.
func checkOptions(t customfield.Type, options []string) ([]string, error) {
	if !hasOptions(t) {
		if options != nil {
			return nil, apperr.Invalidf("options: only select and multi-select fields have options (this field is %s)", t)
		}
		return []string{}, nil
	}
	if n := len(options); n < 1 || n > fieldOptionsMax {
		return nil, apperr.Invalidf("options: must have 1 to %d entries (got %d)", fieldOptionsMax, n)
	}
	out := make([]string, len(options))
	seen := make(map[string]bool, len(options))
	for i, o := range options {
		o = strings.TrimSpace(o)
		field := fmt.Sprintf("options[%d]", i)
		if err := checkText(field, o, 1, fieldOptionMax); err != nil {
			return nil, err
		}
		if seen[o] {
			return nil, apperr.Invalidf("%s: %q is listed twice", field, truncate(o, 80))
		}
		seen[o] = true
		out[i] = o
	}
	return out, nil
}
