package scim

import (
	"context"
	"slices"
	"strings"
	"time"

	filter "github.com/scim2/filter-parser/v2"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/scimuser"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/orgs"
)

// Bounds of what a provider sends.
const (
	userNameMax   = 320
	externalIDMax = 255
	nameMax       = 255
)

// User is a provisioned user as SCIM shows it: its id is the Bindery user's; Active is whether
// their membership is enabled; Attributes are the others the provider sent.
type User struct {
	ID, UserName      string
	ExternalID        *string
	Active            bool
	Attributes        map[string]any
	Created, Modified time.Time
}

// Service provisions the people and teams of an organization through SCIM, as the viewer of a
// context (a SCIM token's, an admin of the organization): users are members, found or created by
// email, deactivated by disabling their membership; groups are teams. Every change of members
// and teams goes through orgs, which records its events in the change's transaction.
type Service struct {
	Client *ent.Client
	Orgs   *orgs.Service
}

// CreateUser provisions a user: the Bindery user with its email (the primary of emails, else the
// userName) is found or created, joins the organization with its default role (a member already
// stays as they are), and is disabled there when active is false. Returns CONFLICT when the
// userName or the user is provisioned already, INVALID without an email.
func (s Service) CreateUser(ctx context.Context, orgID string, attrs map[string]any) (User, error) {
	in, err := userInput(attrs)
	if err != nil {
		return User{}, err
	}
	o, err := s.Orgs.Organization(ctx, orgID)
	if err != nil {
		return User{}, err
	}
	email, err := emailOf(in)
	if err != nil {
		return User{}, err
	}
	u, err := findOrCreateUser(ctx, s.Client, email, displayName(in))
	if err != nil {
		return User{}, err
	}
	taken, err := s.Client.SCIMUser.Query().Where(scimuser.OrganizationID(orgID),
		scimuser.Or(scimuser.UserID(u.ID), scimuser.UserName(in.UserName))).Exist(ctx)
	if err != nil {
		return User{}, err
	}
	if taken {
		return User{}, apperr.Conflictf("uniqueness: the user %q is provisioned already", check.Truncate(in.UserName, 80))
	}
	record := func(tx *ent.Tx) error {
		return tx.SCIMUser.Create().SetOrganizationID(orgID).SetUserID(u.ID).SetUserName(in.UserName).
			SetNillableExternalID(in.ExternalID).SetAttributes(in.Attributes).Exec(ctx)
	}
	m, err := s.Orgs.AddMember(ctx, orgID, u.ID, o.DefaultRole, record)
	if err != nil {
		return User{}, err
	}
	if m.Disabled == in.Active {
		if _, err := s.Orgs.SetMemberDisabled(ctx, orgID, u.ID, !in.Active); err != nil {
			return User{}, err
		}
	}
	return s.User(ctx, orgID, u.ID)
}

// userFields are a user's SCIM attributes, split as they are kept.
type userFields struct {
	UserName   string
	ExternalID *string
	Active     bool
	Attributes map[string]any
}

// userInput splits and checks the attributes of a user (a create's, a replace's or a patched
// resource's): userName is required, active is true unless given false.
func userInput(attrs map[string]any) (userFields, error) {
	rest := map[string]any{}
	for k, v := range attrs {
		rest[k] = v
	}
	name, _ := take(rest, "userName").(string)
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" || len(name) > userNameMax {
		return userFields{}, apperr.Invalidf("invalidValue: userName is required, at most %d bytes", userNameMax)
	}
	in := userFields{UserName: name, Active: true, Attributes: rest}
	if active, ok := take(rest, "active").(bool); ok {
		in.Active = active
	}
	ext, err := externalID(take(rest, "externalId"))
	in.ExternalID = ext
	for _, k := range []string{"id", "meta", "schemas", "password"} { // read-only, or never kept
		take(rest, k)
	}
	return in, err
}

// take removes the attribute name (any case) from attrs and returns its value.
func take(attrs map[string]any, name string) any {
	key := keyOf(attrs, name)
	v := attrs[key]
	delete(attrs, key)
	return v
}

// externalID is a provider's externalId: nil when absent or empty, INVALID over its bound.
func externalID(v any) (*string, error) {
	s, _ := v.(string)
	if s == "" {
		return nil, nil
	}
	if len(s) > externalIDMax {
		return nil, apperr.Invalidf("invalidValue: externalId must be at most %d bytes", externalIDMax)
	}
	return &s, nil
}

// emailOf is the email of a new user: the primary of emails (else the first), else the userName
// when it is an address. Returns INVALID without one.
func emailOf(in userFields) (string, error) {
	email := in.UserName
	if emails, ok := in.Attributes[keyOf(in.Attributes, "emails")].([]any); ok {
		for i, e := range emails {
			m, _ := e.(map[string]any)
			v, _ := m["value"].(string)
			if primary, _ := m["primary"].(bool); v != "" && (primary || i == 0) {
				email = v
			}
		}
	}
	email = strings.ToLower(strings.TrimSpace(email))
	if !strings.Contains(email, "@") || len(email) > userNameMax {
		return "", apperr.Invalidf("invalidValue: a user needs an email address, as userName or in emails")
	}
	return email, nil
}

// displayName is the name a new user gets: displayName, else name.formatted, else the given and
// family names, else the userName.
func displayName(in userFields) string {
	name, _ := in.Attributes[keyOf(in.Attributes, "displayName")].(string)
	if parts, ok := in.Attributes[keyOf(in.Attributes, "name")].(map[string]any); ok && strings.TrimSpace(name) == "" {
		name, _ = parts[keyOf(parts, "formatted")].(string)
		if strings.TrimSpace(name) == "" {
			given, _ := parts[keyOf(parts, "givenName")].(string)
			family, _ := parts[keyOf(parts, "familyName")].(string)
			name = given + " " + family
		}
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = in.UserName
	}
	return check.Truncate(name, nameMax)
}

// findOrCreateUser returns the user with the email, created with the name when there is none, as
// the system (users are not the organization's: another organization's people are found too, as
// single sign-on finds them).
func findOrCreateUser(ctx context.Context, client *ent.Client, email, name string) (*ent.User, error) {
	sys := accounts.System(ctx)
	u, err := client.User.Query().Where(user.Email(email)).Only(sys)
	if ent.IsNotFound(err) {
		return client.User.Create().SetEmail(email).SetDisplayName(name).Save(sys)
	}
	return u, err
}

// User returns a provisioned user of the organization. Returns NOT_FOUND.
func (s Service) User(ctx context.Context, orgID, id string) (User, error) {
	row, err := s.userRow(ctx, orgID, id)
	if err != nil {
		return User{}, err
	}
	users, err := s.withActive(ctx, orgID, []*ent.SCIMUser{row})
	if err != nil {
		return User{}, err
	}
	return users[0], nil
}

func (s Service) userRow(ctx context.Context, orgID, id string) (*ent.SCIMUser, error) {
	if _, err := s.Orgs.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	row, err := s.Client.SCIMUser.Query().Where(scimuser.OrganizationID(orgID), scimuser.UserID(id)).Only(ctx)
	return row, rule.NotFound(err, "user")
}

// withActive is the rows as users, each active when their membership is enabled.
func (s Service) withActive(ctx context.Context, orgID string, rows []*ent.SCIMUser) ([]User, error) {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.UserID
	}
	disabled, err := s.Client.Member.Query().Where(member.OrganizationID(orgID), member.UserIDIn(ids...), member.Disabled(true)).
		Select(member.FieldUserID).Strings(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]User, len(rows))
	for i, r := range rows {
		out[i] = User{ID: r.UserID, UserName: r.UserName, ExternalID: r.ExternalID, Active: !slices.Contains(disabled, r.UserID),
			Attributes: r.Attributes, Created: r.CreatedAt, Modified: r.UpdatedAt}
	}
	return out, nil
}

// Users lists the organization's provisioned users passing a filter (nil: all), oldest first, from
// the 1-based startIndex, at most count, with the number of all that pass. Returns INVALID
// (invalidFilter) for a filter other than equalities of userName, externalId and id.
func (s Service) Users(ctx context.Context, orgID string, f filter.Expression, startIndex, count int) (int, []User, error) {
	if _, err := s.Orgs.Organization(ctx, orgID); err != nil {
		return 0, nil, err
	}
	where, err := predicateOf(f, userPredicate)
	if err != nil {
		return 0, nil, err
	}
	q := s.Client.SCIMUser.Query().Where(scimuser.OrganizationID(orgID), where)
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return 0, nil, err
	}
	rows, err := q.Order(ent.Asc(scimuser.FieldCreatedAt), ent.Asc(scimuser.FieldID)).Offset(startIndex - 1).Limit(count).All(ctx)
	if err != nil {
		return 0, nil, err
	}
	users, err := s.withActive(ctx, orgID, rows)
	return total, users, err
}

// userPredicate is the predicate of one comparison of a user filter.
func userPredicate(e *filter.AttributeExpression, value string) (predicate.SCIMUser, bool) {
	switch strings.ToLower(e.AttributePath.String()) {
	case "username":
		return scimuser.UserName(strings.ToLower(value)), true
	case "externalid":
		return scimuser.ExternalID(value), true
	case "id":
		return scimuser.UserID(value), true
	}
	return nil, false
}

// ReplaceUser replaces a provisioned user's attributes (PUT): their userName, externalId and
// other attributes are the given ones, and their membership is enabled or disabled as active
// says (true when absent). Returns NOT_FOUND, CONFLICT for a userName provisioned already,
// INVALID.
func (s Service) ReplaceUser(ctx context.Context, orgID, id string, attrs map[string]any) (User, error) {
	row, err := s.userRow(ctx, orgID, id)
	if err != nil {
		return User{}, err
	}
	in, err := userInput(attrs)
	if err != nil {
		return User{}, err
	}
	return s.writeUser(ctx, row, in)
}

// PatchUser applies PATCH operations to a provisioned user's attributes, then writes the result
// as ReplaceUser does.
func (s Service) PatchUser(ctx context.Context, orgID, id string, ops []Operation) (User, error) {
	current, err := s.User(ctx, orgID, id)
	if err != nil {
		return User{}, err
	}
	attrs := current.Resource()
	if err := Apply(attrs, ops); err != nil {
		return User{}, err
	}
	in, err := userInput(attrs)
	if err != nil {
		return User{}, err
	}
	row, err := s.userRow(ctx, orgID, id)
	if err != nil {
		return User{}, err
	}
	return s.writeUser(ctx, row, in)
}

// Resource is the user's attributes as one object: the kept ones, userName, externalId and
// active.
func (u User) Resource() map[string]any {
	attrs := deepCopy(u.Attributes).(map[string]any) // a nil map copies as an empty one
	attrs["userName"] = u.UserName
	attrs["active"] = u.Active
	if u.ExternalID != nil {
		attrs["externalId"] = *u.ExternalID
	}
	return attrs
}

// deepCopy copies the objects and lists of a decoded JSON value, which a patch changes in place.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// writeUser writes a provisioned user's new fields, and enables or disables their membership as
// Active says, in one transaction (orgs records member.disabled or member.enabled with it).
func (s Service) writeUser(ctx context.Context, row *ent.SCIMUser, in userFields) (User, error) {
	write := func(tx *ent.Tx) error {
		upd := tx.SCIMUser.UpdateOne(row).SetUserName(in.UserName).SetAttributes(in.Attributes)
		if in.ExternalID == nil {
			upd.ClearExternalID()
		} else {
			upd.SetExternalID(*in.ExternalID)
		}
		err := upd.Exec(ctx)
		if ent.IsConstraintError(err) {
			return apperr.Conflictf("uniqueness: the userName %q is another user's", check.Truncate(in.UserName, 80))
		}
		return err
	}
	if _, err := s.Orgs.SetMemberDisabled(ctx, row.OrganizationID, row.UserID, !in.Active, write); err != nil {
		return User{}, err
	}
	return s.User(ctx, row.OrganizationID, row.UserID)
}

// DeleteUser removes a provisioned user from the organization (orgs.RemoveMember: their teams and
// this record go too, recording member.removed). Returns NOT_FOUND, or INVALID for the last admin.
func (s Service) DeleteUser(ctx context.Context, orgID, id string) error {
	if _, err := s.userRow(ctx, orgID, id); err != nil {
		return err
	}
	return s.Orgs.RemoveMember(ctx, orgID, id)
}
