package customfields

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/customfield"
	"github.com/binderyhq/bindery/ent/customfieldvalue"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/txn"
)

// textMax bounds the value of a text custom field (characters).
const textMax = 256

// Value is the value a space takes for the organization's custom field of that name: any JSON
// value (as decoded), null to remove it.
type Value struct {
	Name  string
	Value any
}

// SetSpaceValues sets, replaces or (value null) removes custom field values of a space, and
// reads the space again. It takes the edit role on the space. Every value is checked against its
// field before anything is written, and all writes happen in one transaction: all or nothing.
// Returns NOT_FOUND for the space, FORBIDDEN below edit, INVALID naming the first bad value.
func (svc *Service) SetSpaceValues(ctx context.Context, spaceID string, values []Value) (*ent.Space, error) {
	s, err := svc.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	role, err := rule.SpaceRole(ctx, s)
	if err != nil {
		return nil, err
	}
	if !role.AtLeast(viewer.RoleEdit) {
		return nil, apperr.Forbiddenf("setting custom field values takes the edit role on the space")
	}
	set, removed, err := svc.checkValues(ctx, s.OrganizationID, values)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if len(removed) > 0 {
			_, err := tx.CustomFieldValue.Delete().Where(customfieldvalue.SpaceID(s.ID),
				customfieldvalue.CustomFieldIDIn(removed...)).Exec(ctx)
			if err != nil {
				return err
			}
		}
		return upsertValues(ctx, tx, s, set)
	})
	if err != nil {
		return nil, err
	}
	return svc.Space(ctx, spaceID)
}

// upsertValues stores the values of a space (field id → value), replacing those it has, in one
// statement.
func upsertValues(ctx context.Context, tx *ent.Tx, s *ent.Space, set map[string]json.RawMessage) error {
	if len(set) == 0 {
		return nil
	}
	creates := make([]*ent.CustomFieldValueCreate, 0, len(set))
	for _, fieldID := range slices.Sorted(maps.Keys(set)) {
		creates = append(creates, tx.CustomFieldValue.Create().SetSpaceID(s.ID).SetCustomFieldID(fieldID).
			SetOrganizationID(s.OrganizationID).SetValue(set[fieldID]))
	}
	return tx.CustomFieldValue.CreateBulk(creates...).
		OnConflictColumns(customfieldvalue.FieldSpaceID, customfieldvalue.FieldCustomFieldID).
		UpdateNewValues().Exec(ctx)
}

// checkValues checks every value against its field of the organization. Returns the values to
// store by field id and the ids of the fields whose value is removed.
func (svc *Service) checkValues(ctx context.Context, orgID string, values []Value) (map[string]json.RawMessage, []string, error) {
	byName, err := svc.fieldsNamed(ctx, orgID, values)
	if err != nil {
		return nil, nil, err
	}
	return checkValuesOf(byName, values)
}

// checkValuesOf checks values, by name, against the fields byName holds. Returns the values to
// store by field id and the ids of the fields whose value is removed; INVALID naming the first
// bad value.
func checkValuesOf(byName map[string]*ent.CustomField, values []Value) (map[string]json.RawMessage, []string, error) {
	sorted := slices.SortedFunc(slices.Values(values), func(a, b Value) int { return strings.Compare(a.Name, b.Name) })
	set := map[string]json.RawMessage{}
	var removed []string
	for _, v := range sorted {
		f := byName[v.Name]
		if f == nil {
			return nil, nil, apperr.Invalidf("values.%s: the organization has no custom field of this name", check.Truncate(v.Name, nameMax))
		}
		raw, err := json.Marshal(v.Value)
		if err != nil {
			return nil, nil, apperr.Invalidf("values.%s: is not a JSON value", f.Name)
		}
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			removed = append(removed, f.ID)
			continue
		}
		stored, err := checkValue(f, raw)
		if err != nil {
			return nil, nil, apperr.Invalidf("values.%s: %v", f.Name, err)
		}
		set[f.ID] = stored
	}
	return set, removed, nil
}

// fieldsNamed returns the organization's custom fields named by values, by name. Returns INVALID
// when a name is given twice.
func (svc *Service) fieldsNamed(ctx context.Context, orgID string, values []Value) (map[string]*ent.CustomField, error) {
	names := make([]string, 0, len(values))
	seen := make(map[string]bool, len(values))
	for _, v := range values {
		if seen[v.Name] {
			return nil, apperr.Invalidf("values.%s: is given twice", check.Truncate(v.Name, nameMax))
		}
		seen[v.Name] = true
		names = append(names, v.Name)
	}
	// An editor of the space may be a guest, whom the CustomField read policy does not serve; the
	// definitions of the space's organization are what the values are checked against, and the
	// caller shows no more of them than the names it was given.
	fields, err := svc.Client.CustomField.Query().Where(customfield.OrganizationID(orgID), customfield.NameIn(names...)).
		All(privacy.DecisionContext(ctx, privacy.Allow))
	if err != nil {
		return nil, err
	}
	byName := make(map[string]*ent.CustomField, len(fields))
	for _, f := range fields {
		byName[f.Name] = f
	}
	return byName, nil
}

// checkValue checks a JSON value against a field's type and returns it as stored (compact).
func checkValue(f *ent.CustomField, raw json.RawMessage) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("is not a JSON value")
	}
	switch f.Type {
	case customfield.TypeText:
		s, ok := v.(string)
		if !ok || utf8.RuneCountInString(s) > textMax {
			return nil, fmt.Errorf("must be a string of at most %d characters (text field)", textMax)
		}
	case customfield.TypeNumber:
		if !isFiniteNumber(v) {
			return nil, fmt.Errorf("must be a number (number field)")
		}
	case customfield.TypeBoolean:
		if _, ok := v.(bool); !ok {
			return nil, fmt.Errorf("must be true or false (boolean field)")
		}
	case customfield.TypeSelect:
		list, err := optionList(f, v)
		if err != nil {
			return nil, err
		}
		if len(list) != 1 {
			return nil, fmt.Errorf("must be a list of exactly one of the field's options (select field, got %d)", len(list))
		}
	case customfield.TypeMultiSelect:
		if _, err := optionList(f, v); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("the field's type %s takes no values", f.Type)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, raw); err != nil {
		return nil, fmt.Errorf("is not a JSON value")
	}
	return out.Bytes(), nil
}

// isFiniteNumber reports whether a decoded JSON value (UseNumber) is a number that fits a float64.
func isFiniteNumber(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	x, err := n.Float64()
	return err == nil && !math.IsInf(x, 0)
}

// optionList reads a list of distinct options of the field.
func optionList(f *ent.CustomField, v any) ([]string, error) {
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("must be a list of the field's options (%s field)", f.Type)
	}
	out := make([]string, len(items))
	seen := map[string]bool{}
	for i, it := range items {
		s, ok := it.(string)
		if !ok || !slices.Contains(f.Options, s) {
			return nil, fmt.Errorf("[%d] must be one of the field's options", i)
		}
		if seen[s] {
			return nil, fmt.Errorf("[%d] %q is listed twice", i, check.Truncate(s, 80))
		}
		seen[s] = true
		out[i] = s
	}
	return out, nil
}
