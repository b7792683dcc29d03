// Package customfields holds the rules of an organization's custom fields: their definitions (a
// name unique in the organization, a type, texts, the options of select fields), which its admins
// create, change and delete, and the values spaces take for them, which editors of a space set,
// each checked against its field's type. Members of the organization with a role (not guests) read
// the definitions, readers of a space its values (the privacy rules of ent/rule decide in the
// statements). It knows nothing of the surfaces: graph and rest translate, and graph keeps the
// reads it batches.
package customfields

import (
	"context"
	"fmt"
	"regexp"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/customfield"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
)

// Bounds of custom field definitions (spec/03).
const (
	nameMax    = 50
	titleMax   = 100
	descMax    = 200
	placeMax   = 100
	optionsMax = 50
	optionMax  = 100
)

var namePattern = regexp.MustCompile(`^[a-z_\-0-9]+$`)

// Service is the custom fields of one server, as the viewer of a context reads and writes them.
type Service struct {
	Client *ent.Client
	// Organization reads an organization the viewer belongs to. Returns NOT_FOUND otherwise,
	// FORBIDDEN to a session its single sign-on refuses.
	Organization func(ctx context.Context, id string) (*ent.Organization, error)
	// RequireOrgRole returns an organization the viewer sees with at least a role there (orgs).
	// Returns NOT_FOUND otherwise, FORBIDDEN below the role.
	RequireOrgRole func(ctx context.Context, orgID string, min viewer.Role, action string) (*ent.Organization, error)
	// Space reads a live space the viewer reads. Returns NOT_FOUND otherwise.
	Space func(ctx context.Context, id string) (*ent.Space, error)
}

// Field returns a custom field of an organization the viewer sees, by name. Returns NOT_FOUND if
// either does not exist or the viewer may not see it.
func (svc *Service) Field(ctx context.Context, orgID, name string) (*ent.CustomField, error) {
	if _, err := svc.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	if len(name) > nameMax || !namePattern.MatchString(name) {
		return nil, apperr.NotFoundf("custom field not found") // no field can have this name: not looked up
	}
	f, err := svc.Client.CustomField.Query().Where(customfield.OrganizationID(orgID), customfield.Name(name)).Only(ctx)
	return f, rule.NotFound(err, "custom field")
}

// NewField is a custom field to create.
type NewField struct {
	Name string
	Type customfield.Type
	// Title, Description and Placeholder are trimmed; nil or blank for none.
	Title, Description, Placeholder *string
	// Options are the choices of a select or multi-select field (required for them, refused for
	// the other types).
	Options []string
}

// Create adds a custom field to an organization, for its admins. Returns NOT_FOUND or FORBIDDEN
// for the organization, INVALID for a bad name, type, text or options, CONFLICT for a name the
// organization has already.
func (svc *Service) Create(ctx context.Context, orgID string, in NewField) (*ent.CustomField, error) {
	if err := svc.requireAdmin(ctx, orgID, "create custom fields"); err != nil {
		return nil, err
	}
	if err := checkName(in.Name); err != nil {
		return nil, err
	}
	if customfield.TypeValidator(in.Type) != nil {
		return nil, apperr.Invalidf("type: must be one of text, number, boolean, select, multi-select (got %q)", check.Truncate(string(in.Type), 40))
	}
	create := svc.Client.CustomField.Create().SetOrganizationID(orgID).SetName(in.Name).SetType(in.Type)
	for _, t := range []struct {
		field string
		value *string
		max   int
		set   func(*string) *ent.CustomFieldCreate
	}{
		{"title", in.Title, titleMax, create.SetNillableTitle},
		{"description", in.Description, descMax, create.SetNillableDescription},
		{"placeholder", in.Placeholder, placeMax, create.SetNillablePlaceholder},
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

// FieldChange is what an update changes of a custom field.
type FieldChange struct {
	// Title, Description and Placeholder are set trimmed; null or blank removes one.
	Title, Description, Placeholder check.Nullable[string]
	// Options replace the field's choices; nil leaves them.
	Options []string
}

// Update changes a custom field of an organization, for its admins. Returns NOT_FOUND or
// FORBIDDEN, INVALID for a bad text or options.
func (svc *Service) Update(ctx context.Context, orgID, name string, in FieldChange) (*ent.CustomField, error) {
	if err := svc.requireAdmin(ctx, orgID, "change custom fields"); err != nil {
		return nil, err
	}
	f, err := svc.Field(ctx, orgID, name)
	if err != nil {
		return nil, err
	}
	upd := svc.Client.CustomField.UpdateOne(f)
	for _, t := range []struct {
		field string
		value check.Nullable[string]
		max   int
		set   func(string) *ent.CustomFieldUpdateOne
		clear func() *ent.CustomFieldUpdateOne
	}{
		{"title", in.Title, titleMax, upd.SetTitle, upd.ClearTitle},
		{"description", in.Description, descMax, upd.SetDescription, upd.ClearDescription},
		{"placeholder", in.Placeholder, placeMax, upd.SetPlaceholder, upd.ClearPlaceholder},
	} {
		valid := func(s string) error { return check.Text(t.field, s, 1, t.max) }
		if err := check.SetOrClear(check.TrimmedOrNull(t.value), valid, t.set, t.clear); err != nil {
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

// Delete deletes a custom field of an organization, for its admins; its values on spaces go with
// it (custom_field_values references the field ON DELETE CASCADE). Returns NOT_FOUND or FORBIDDEN.
func (svc *Service) Delete(ctx context.Context, orgID, name string) (bool, error) {
	if err := svc.requireAdmin(ctx, orgID, "delete custom fields"); err != nil {
		return false, err
	}
	f, err := svc.Field(ctx, orgID, name)
	if err != nil {
		return false, err
	}
	err = svc.Client.CustomField.DeleteOne(f).Exec(ctx)
	return err == nil, rule.NotFound(err, "custom field")
}

// requireAdmin checks that the viewer is an admin of the organization; action says what for, in
// the refusal. Returns NOT_FOUND if the viewer may not see it, FORBIDDEN below admin.
func (svc *Service) requireAdmin(ctx context.Context, orgID, action string) error {
	_, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, action)
	return err
}

// checkName validates a new field's name: 1..50 characters of a-z, 0-9, _ and -.
func checkName(name string) error {
	if err := check.Text("name", name, 1, nameMax); err != nil {
		return err
	}
	if !namePattern.MatchString(name) {
		return apperr.Invalidf("name: must contain only a-z, 0-9, _ and - (pattern %s)", namePattern)
	}
	return nil
}

// optionalText trims an optional text and checks it against max characters; a blank text is none.
func optionalText(field string, v *string, max int) (*string, error) {
	if v == nil {
		return nil, nil
	}
	s, err := check.Trimmed(field, *v, 0, max)
	if err != nil || s == "" {
		return nil, err
	}
	return &s, nil
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
	if n := len(options); n < 1 || n > optionsMax {
		return nil, apperr.Invalidf("options: must have 1 to %d entries (got %d)", optionsMax, n)
	}
	out := make([]string, len(options))
	seen := make(map[string]bool, len(options))
	for i, o := range options {
		field := fmt.Sprintf("options[%d]", i)
		o, err := check.Trimmed(field, o, 1, optionMax)
		if err != nil {
			return nil, err
		}
		if seen[o] {
			return nil, apperr.Invalidf("%s: %q is listed twice", field, check.Truncate(o, 80))
		}
		seen[o] = true
		out[i] = o
	}
	return out, nil
}
