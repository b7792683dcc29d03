package scim

import (
	"context"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	filter "github.com/scim2/filter-parser/v2"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/scimgroup"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/orgs"
	"github.com/binderyhq/bindery/internal/txn"
)

// Group is a team as SCIM shows it: its id is the team's, its members the ids of its users.
type Group struct {
	ID, DisplayName   string
	ExternalID        *string
	Members           []string
	Created, Modified time.Time
}

// groupFields are a group's attributes as a create, a replace or a patched resource gives them.
type groupFields struct {
	DisplayName string
	ExternalID  *string
	Members     []string
}

// groupInput reads a group's attributes: displayName is required, members are user ids.
func groupInput(attrs map[string]any) (groupFields, error) {
	name, _ := attrs[keyOf(attrs, "displayName")].(string)
	if strings.TrimSpace(name) == "" {
		return groupFields{}, apperr.Invalidf("invalidValue: displayName is required")
	}
	ext, err := externalID(attrs[keyOf(attrs, "externalId")])
	if err != nil {
		return groupFields{}, err
	}
	in := groupFields{DisplayName: name, ExternalID: ext, Members: []string{}}
	members, _ := attrs[keyOf(attrs, "members")].([]any)
	for i, m := range members {
		value, _ := m.(map[string]any)["value"].(string)
		if value == "" {
			return groupFields{}, apperr.Invalidf("invalidValue: members[%d] has no value (the id of a user)", i)
		}
		in.Members = append(in.Members, value)
	}
	return in, nil
}

// CreateGroup makes a team of the group's displayName and members (orgs.CreateTeam, recording
// team.created), keeping its externalId. Returns INVALID naming a member who is none of the
// organization.
func (s Service) CreateGroup(ctx context.Context, orgID string, attrs map[string]any) (Group, error) {
	in, err := groupInput(attrs)
	if err != nil {
		return Group{}, err
	}
	t, err := s.Orgs.CreateTeam(ctx, orgID, in.DisplayName, in.Members, func(t *ent.Team) orgs.Also {
		return s.keepExternalID(ctx, t, in.ExternalID)
	})
	if err != nil {
		return Group{}, err
	}
	return s.Group(ctx, orgID, t.ID)
}

// keepExternalID writes a team's externalId (nil: none) in a transaction.
func (s Service) keepExternalID(ctx context.Context, t *ent.Team, ext *string) orgs.Also {
	return func(tx *ent.Tx) error {
		if _, err := tx.SCIMGroup.Delete().Where(scimgroup.TeamID(t.ID)).Exec(ctx); err != nil || ext == nil {
			return err
		}
		return tx.SCIMGroup.Create().SetOrganizationID(t.OrganizationID).SetTeamID(t.ID).SetExternalID(*ext).Exec(ctx)
	}
}

// Group returns a team of the organization as a group. Returns NOT_FOUND.
func (s Service) Group(ctx context.Context, orgID, id string) (Group, error) {
	t, err := s.Orgs.Team(ctx, orgID, id)
	if err != nil {
		return Group{}, err
	}
	groups, err := s.asGroups(ctx, []*ent.Team{t})
	if err != nil {
		return Group{}, err
	}
	return groups[0], nil
}

// asGroups is teams as groups, with their externalIds and members.
func (s Service) asGroups(ctx context.Context, teams []*ent.Team) ([]Group, error) {
	ids := make([]string, len(teams))
	for i, t := range teams {
		ids[i] = t.ID
	}
	exts, err := s.Client.SCIMGroup.Query().Where(scimgroup.TeamIDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	members, err := s.Client.TeamMember.Query().Where(teammember.TeamIDIn(ids...)).
		Order(ent.Asc(teammember.FieldCreatedAt), ent.Asc(teammember.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Group, len(teams))
	for i, t := range teams {
		out[i] = Group{ID: t.ID, DisplayName: t.Title, Members: []string{}, Created: t.CreatedAt, Modified: t.UpdatedAt}
		for _, e := range exts {
			if e.TeamID == t.ID {
				out[i].ExternalID = &e.ExternalID
			}
		}
		for _, m := range members {
			if m.TeamID == t.ID {
				out[i].Members = append(out[i].Members, m.UserID)
			}
		}
	}
	return out, nil
}

// Groups lists the organization's teams as groups passing a filter (nil: all), oldest first, from
// the 1-based startIndex, at most count, with the number of all that pass. Returns INVALID
// (invalidFilter) for a filter other than equalities of displayName, externalId and id.
func (s Service) Groups(ctx context.Context, orgID string, f filter.Expression, startIndex, count int) (int, []Group, error) {
	if _, err := s.Orgs.Organization(ctx, orgID); err != nil {
		return 0, nil, err
	}
	where, err := predicateOf(f, groupPredicate)
	if err != nil {
		return 0, nil, err
	}
	q := s.Client.Team.Query().Where(team.OrganizationID(orgID), where)
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return 0, nil, err
	}
	teams, err := q.Order(ent.Asc(team.FieldCreatedAt), ent.Asc(team.FieldID)).Offset(startIndex - 1).Limit(count).All(ctx)
	if err != nil {
		return 0, nil, err
	}
	groups, err := s.asGroups(ctx, teams)
	return total, groups, err
}

// groupPredicate is the predicate of one comparison of a group filter.
func groupPredicate(e *filter.AttributeExpression, value string) (predicate.Team, bool) {
	switch strings.ToLower(e.AttributePath.String()) {
	case "displayname":
		return team.TitleEqualFold(value), true
	case "id":
		return team.ID(value), true
	case "externalid":
		return func(s *sql.Selector) {
			g := sql.Table(scimgroup.Table)
			s.Where(sql.In(s.C(team.FieldID), sql.Select(g.C(scimgroup.FieldTeamID)).From(g).
				Where(sql.EQ(g.C(scimgroup.FieldExternalID), value))))
		}, true
	}
	return nil, false
}

// ReplaceGroup replaces a group's displayName (orgs.RenameTeam, when it changes), members and
// externalId (orgs.UpdateTeamMembers, recording team.members_changed). Returns NOT_FOUND or
// INVALID.
func (s Service) ReplaceGroup(ctx context.Context, orgID, id string, attrs map[string]any) (Group, error) {
	current, err := s.Group(ctx, orgID, id)
	if err != nil {
		return Group{}, err
	}
	in, err := groupInput(attrs)
	if err != nil {
		return Group{}, err
	}
	return s.writeGroup(ctx, orgID, current, in)
}

// PatchGroup applies PATCH operations to a group (members added and removed, Entra ID's
// members[value eq "…"] and lists of values to remove included), then writes the result as
// ReplaceGroup does.
func (s Service) PatchGroup(ctx context.Context, orgID, id string, ops []Operation) (Group, error) {
	current, err := s.Group(ctx, orgID, id)
	if err != nil {
		return Group{}, err
	}
	attrs := current.Resource()
	if err := Apply(attrs, ops); err != nil {
		return Group{}, err
	}
	in, err := groupInput(attrs)
	if err != nil {
		return Group{}, err
	}
	return s.writeGroup(ctx, orgID, current, in)
}

// Resource is the group's attributes as one object.
func (g Group) Resource() map[string]any {
	members := make([]any, len(g.Members))
	for i, m := range g.Members {
		members[i] = map[string]any{"value": m}
	}
	attrs := map[string]any{"displayName": g.DisplayName, "members": members}
	if g.ExternalID != nil {
		attrs["externalId"] = *g.ExternalID
	}
	return attrs
}

func (s Service) writeGroup(ctx context.Context, orgID string, current Group, in groupFields) (Group, error) {
	t, err := s.Orgs.Team(ctx, orgID, current.ID)
	if err != nil {
		return Group{}, err
	}
	writes := []orgs.Also{s.keepExternalID(ctx, t, in.ExternalID)}
	if in.DisplayName != current.DisplayName {
		rename, err := s.Orgs.TeamRename(ctx, orgID, current.ID, in.DisplayName)
		if err != nil {
			return Group{}, err
		}
		writes = append(writes, rename)
	}
	changes := orgs.TeamChanges{Add: missingFrom(in.Members, current.Members), Remove: missingFrom(current.Members, in.Members)}
	switch {
	case len(changes.Add)+len(changes.Remove) > 0:
		_, err = s.Orgs.UpdateTeamMembers(ctx, orgID, current.ID, changes, writes...)
	case len(writes) > 1 || !equalPtr(current.ExternalID, in.ExternalID):
		err = txn.Run(ctx, s.Client, func(tx *ent.Tx) error {
			for _, write := range writes {
				if err := write(tx); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err != nil {
		return Group{}, err
	}
	return s.Group(ctx, orgID, current.ID)
}

func equalPtr(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// missingFrom is the entries of list that others lacks.
func missingFrom(list, others []string) []string {
	out := []string{}
	for _, v := range list {
		if !slices.Contains(others, v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// DeleteGroup deletes a group's team (orgs.DeleteTeam, recording team.deleted). Returns
// NOT_FOUND.
func (s Service) DeleteGroup(ctx context.Context, orgID, id string) error {
	return s.Orgs.DeleteTeam(ctx, orgID, id)
}
