package orgs

import (
	"context"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/txn"
)

const (
	teamTitleMax = 64
	memberRefMax = 1000 // users named in one list of a team write
)

// Team returns a team of an organization the viewer sees.
// Returns NOT_FOUND if either does not exist or the viewer may not see it.
func (svc *Service) Team(ctx context.Context, orgID, teamID string) (*ent.Team, error) {
	if _, err := svc.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	t, err := svc.Client.Team.Query().Where(team.ID(teamID), team.OrganizationID(orgID)).Only(ctx)
	return t, rule.NotFound(err, "team")
}

// TeamPermissions are the viewer's permissions on a team (rule.ForTeam): the organization's
// admins and the team's owners manage it.
func (svc *Service) TeamPermissions(ctx context.Context, t *ent.Team) (rule.TeamPermissions, error) {
	owns, err := svc.OwnsTeam(ctx, t.ID)
	if err != nil {
		return rule.TeamPermissions{}, err
	}
	return rule.ForTeam(viewer.FromContext(ctx), t.OrganizationID, owns), nil
}

// manageableTeam returns a team the viewer may manage (an admin, or one of its owners).
// Returns NOT_FOUND or FORBIDDEN.
func (svc *Service) manageableTeam(ctx context.Context, orgID, teamID string) (*ent.Team, error) {
	t, err := svc.Team(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	perms, err := svc.TeamPermissions(ctx, t)
	if err != nil {
		return nil, err
	}
	if !perms.Admin {
		return nil, apperr.Forbiddenf("only admins and the team's owners may change its members")
	}
	return t, nil
}

// CreateTeam makes a team of the organization, for its admins, with the members named (by user
// id or email); each of also, given the team, writes more in its transaction. Returns NOT_FOUND, FORBIDDEN, or INVALID naming a bad title or the first entry
// that is no member.
func (svc *Service) CreateTeam(ctx context.Context, orgID, title string, members []string, also ...func(*ent.Team) Also) (*ent.Team, error) {
	if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "create teams"); err != nil {
		return nil, err
	}
	title, err := check.Trimmed("title", title, 1, teamTitleMax)
	if err != nil {
		return nil, err
	}
	users, err := svc.resolveMembers(ctx, orgID, "members", members)
	if err != nil {
		return nil, err
	}
	var t *ent.Team
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if t, err = tx.Team.Create().SetOrganizationID(orgID).SetTitle(title).Save(ctx); err != nil {
			return err
		}
		if err := addTeamMembers(ctx, tx, t, users); err != nil {
			return err
		}
		for _, write := range also {
			if err := write(t)(tx); err != nil {
				return err
			}
		}
		return events.Record(ctx, tx.Client(), teamEvent(events.TeamCreated, t, map[string]any{"members": users}))
	})
	return t, err
}

// teamEvent is an event about a team.
func teamEvent(typ string, t *ent.Team, details map[string]any) events.Event {
	return events.Event{Type: typ, Organization: t.OrganizationID, ObjectKind: "team", ObjectID: t.ID, Details: details, Label: t.Title}
}

// addTeamMembers adds the users to the team, leaving those already in it as they are.
func addTeamMembers(ctx context.Context, tx *ent.Tx, t *ent.Team, userIDs []string) error {
	creates := make([]*ent.TeamMemberCreate, len(userIDs))
	for i, uid := range userIDs {
		creates[i] = tx.TeamMember.Create().SetOrganizationID(t.OrganizationID).SetTeamID(t.ID).SetUserID(uid)
	}
	return tx.TeamMember.CreateBulk(creates...).
		OnConflictColumns(teammember.FieldTeamID, teammember.FieldUserID).DoNothing().Exec(ctx)
}

// resolveMembers maps user ids or emails to the user ids of the organization's members.
// Returns INVALID naming the first entry that is no member.
func (svc *Service) resolveMembers(ctx context.Context, orgID, field string, refs []string) ([]string, error) {
	if len(refs) > memberRefMax {
		return nil, apperr.Invalidf("%s: at most %d entries (got %d)", field, memberRefMax, len(refs))
	}
	if len(refs) == 0 {
		return nil, nil
	}
	lowered := make([]string, len(refs))
	for i, ref := range refs {
		lowered[i] = strings.ToLower(ref)
	}
	rows, err := svc.Client.Member.Query().Where(member.OrganizationID(orgID),
		member.HasUserWith(user.Or(user.IDIn(refs...), user.EmailIn(lowered...)))).WithUser().All(ctx)
	if err != nil {
		return nil, err
	}
	byRef := map[string]string{}
	for _, m := range rows {
		byRef[m.UserID] = m.UserID
		byRef[strings.ToLower(m.Edges.User.Email)] = m.UserID
	}
	ids := make([]string, len(refs))
	for i, ref := range refs {
		id, ok := byRef[ref]
		if !ok {
			id, ok = byRef[strings.ToLower(ref)]
		}
		if !ok {
			return nil, apperr.Invalidf("%s[%d]: no member of this organization has the id or email %q", field, i, check.Truncate(ref, 80))
		}
		ids[i] = id
	}
	return ids, nil
}

// RenameTeam retitles a team, for the organization's admins (also writes more in its
// transaction). Returns NOT_FOUND, FORBIDDEN or INVALID.
func (svc *Service) RenameTeam(ctx context.Context, orgID, teamID, title string, also ...Also) (*ent.Team, error) {
	rename, err := svc.TeamRename(ctx, orgID, teamID, title)
	if err != nil {
		return nil, err
	}
	if err := txn.Run(ctx, svc.Client, func(tx *ent.Tx) error { return alsoWrite(tx, append([]Also{rename}, also...)) }); err != nil {
		return nil, err
	}
	return svc.Team(ctx, orgID, teamID)
}

// TeamRename checks the renaming of a team as RenameTeam does, and returns the write that
// renames it and records its event, for a transaction that writes more (a SCIM group replaced:
// its title and members change at once, or not at all).
func (svc *Service) TeamRename(ctx context.Context, orgID, teamID, title string) (Also, error) {
	if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "rename teams"); err != nil {
		return nil, err
	}
	t, err := svc.Team(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	title, err = check.Trimmed("title", title, 1, teamTitleMax)
	if err != nil {
		return nil, err
	}
	return func(tx *ent.Tx) error {
		if err := tx.Team.UpdateOne(t).SetTitle(title).Exec(ctx); err != nil {
			return err
		}
		return events.Record(ctx, tx.Client(), teamEvent(events.TeamUpdated, t, map[string]any{"fields": []string{"title"}}))
	}, nil
}

// DeleteTeam deletes a team and its memberships, for the organization's admins. Returns
// NOT_FOUND or FORBIDDEN.
func (svc *Service) DeleteTeam(ctx context.Context, orgID, teamID string) error {
	if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "delete teams"); err != nil {
		return err
	}
	t, err := svc.Team(ctx, orgID, teamID)
	if err != nil {
		return err
	}
	return txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if _, err := tx.TeamMember.Delete().Where(teammember.TeamID(t.ID)).Exec(ctx); err != nil {
			return err
		}
		if err := tx.Team.DeleteOne(t).Exec(ctx); err != nil {
			return err
		}
		return events.Record(ctx, tx.Client(), teamEvent(events.TeamDeleted, t, nil))
	})
}

// TeamChanges are the changes of a team's members written at once: users to add and to remove
// (by user id or email; one in both is removed) and team roles to set.
type TeamChanges struct {
	Add, Remove []string
	Roles       []TeamRole
}

// TeamRole is the role in a team a member is given.
type TeamRole struct {
	User string // user id
	Role viewer.TeamRole
}

// UpdateTeamMembers adds, removes and re-roles a team's members in one transaction (with also),
// for the team's managers. Returns NOT_FOUND, FORBIDDEN, or INVALID naming the first entry that is no
// member (of the organization, or of the team for a role).
func (svc *Service) UpdateTeamMembers(ctx context.Context, orgID, teamID string, in TeamChanges, also ...Also) (*ent.Team, error) {
	t, err := svc.manageableTeam(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	add, err := svc.resolveMembers(ctx, orgID, "add", in.Add)
	if err != nil {
		return nil, err
	}
	remove, err := svc.resolveMembers(ctx, orgID, "remove", in.Remove)
	if err != nil {
		return nil, err
	}
	add = without(add, remove)
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if err := addTeamMembers(ctx, tx, t, add); err != nil {
			return err
		}
		if _, err := tx.TeamMember.Delete().Where(teammember.TeamID(t.ID), teammember.UserIDIn(remove...)).Exec(ctx); err != nil {
			return err
		}
		if err := setTeamRoles(ctx, tx, t, in.Roles); err != nil {
			return err
		}
		if err := alsoWrite(tx, also); err != nil {
			return err
		}
		return events.Record(ctx, tx.Client(), teamEvent(events.TeamMembersChanged, t, map[string]any{"added": add, "removed": remove}))
	})
	return t, err
}

// setTeamRoles sets the team roles of members of the team. Returns INVALID naming the first
// user who is not one.
func setTeamRoles(ctx context.Context, tx *ent.Tx, t *ent.Team, roles []TeamRole) error {
	for i, m := range roles {
		n, err := tx.TeamMember.Update().Where(teammember.TeamID(t.ID), teammember.UserID(m.User)).SetRole(m.Role).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return apperr.Invalidf("memberships[%d]: user %q is not a member of the team", i, check.Truncate(m.User, 80))
		}
	}
	return nil
}

// without is list without the entries of drop, in order.
func without(list, drop []string) []string {
	dropped := map[string]bool{}
	for _, d := range drop {
		dropped[d] = true
	}
	out := list[:0:0]
	for _, s := range list {
		if !dropped[s] {
			out = append(out, s)
		}
	}
	return out
}

// SetTeamMember adds a member of the organization to a team with a role (a plain member by
// default), or changes their team role; without a role, a member of the team keeps theirs. For
// the team's managers. Returns NOT_FOUND or FORBIDDEN.
func (svc *Service) SetTeamMember(ctx context.Context, orgID, teamID, userID string, role *viewer.TeamRole) (*ent.TeamMember, error) {
	t, err := svc.manageableTeam(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	if _, err := svc.Member(ctx, orgID, userID); err != nil {
		return nil, err
	}
	teamRole := viewer.TeamMember
	if role != nil {
		teamRole = *role
	}
	changed := teamEvent(events.TeamMembersChanged, t, map[string]any{"added": []string{userID}, "removed": []string{}})
	err = events.Write(ctx, svc.Client, changed, func(tx *ent.Tx) error {
		upsert := tx.TeamMember.Create().SetOrganizationID(orgID).SetTeamID(t.ID).SetUserID(userID).
			SetRole(teamRole).OnConflictColumns(teammember.FieldTeamID, teammember.FieldUserID)
		// Without a role an existing member keeps theirs: an upsert with nothing to update is invalid SQL.
		var err error
		if role != nil {
			err = upsert.UpdateRole().Exec(ctx)
		} else {
			err = upsert.DoNothing().Exec(ctx)
		}
		if txn.SkippedUpsert(err) {
			return nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return svc.Client.TeamMember.Query().Where(teammember.TeamID(t.ID), teammember.UserID(userID)).Only(ctx)
}

// RemoveTeamMember removes a user from a team, for the team's managers. Returns NOT_FOUND (also
// for a user not in the team) or FORBIDDEN.
func (svc *Service) RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) error {
	t, err := svc.manageableTeam(ctx, orgID, teamID)
	if err != nil {
		return err
	}
	changed := teamEvent(events.TeamMembersChanged, t, map[string]any{"added": []string{}, "removed": []string{userID}})
	return events.Write(ctx, svc.Client, changed, func(tx *ent.Tx) error {
		n, err := tx.TeamMember.Delete().Where(teammember.TeamID(t.ID), teammember.UserID(userID)).Exec(ctx)
		if err == nil && n == 0 {
			err = apperr.NotFoundf("user %q is not a member of the team", check.Truncate(userID, 80))
		}
		return err
	})
}
