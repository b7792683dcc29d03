package access

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/txn"
)

// maxGrantSubjects bounds the users and teams of one grant request.
const maxGrantSubjects = 100

// Grant gives role on the target to the users and teams (by id, repeats counted once), replacing
// their current grants there. Every user must be a member and every team a team of the target's
// organization. Returns INVALID naming the role, the count, or the first entry that is not.
func (svc *Service) Grant(ctx context.Context, t Target, role viewer.Role, users, teams []string) error {
	if err := checkRole(role); err != nil {
		return err
	}
	users, teams = check.Distinct(users), check.Distinct(teams)
	if n := len(users) + len(teams); n == 0 {
		return apperr.Invalidf("users, teams: name at least one user or team")
	} else if n > maxGrantSubjects {
		return apperr.Invalidf("users, teams: at most %d in all (got %d)", maxGrantSubjects, n)
	}
	if err := svc.checkSubjects(ctx, t, users, teams); err != nil {
		return err
	}
	return txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		_, err := tx.PermissionGrant.Delete().Where(t.Where(), permissiongrant.Or(
			permissiongrant.UserIDIn(users...), permissiongrant.TeamIDIn(teams...))).Exec(ctx)
		if err != nil {
			return err
		}
		creates := make([]*ent.PermissionGrantCreate, 0, len(users)+len(teams))
		newGrant := func() *ent.PermissionGrantCreate {
			c := tx.PermissionGrant.Create().SetOrganizationID(t.OrgID).SetRole(role)
			if t.SpaceID != "" {
				return c.SetSpaceID(t.SpaceID)
			}
			return c.SetCollectionID(t.CollectionID)
		}
		for _, u := range users {
			creates = append(creates, newGrant().SetUserID(u))
		}
		for _, tm := range teams {
			creates = append(creates, newGrant().SetTeamID(tm))
		}
		if err := tx.PermissionGrant.CreateBulk(creates...).Exec(ctx); err != nil {
			return err
		}
		return recordGrant(ctx, tx, t, audit.GrantCreated, map[string]any{"role": role, "users": users, "teams": teams})
	})
}

// recordGrant records a change of the grants on the target in the audit log, in the transaction
// tx that makes it.
func recordGrant(ctx context.Context, tx *ent.Tx, t Target, action string, payload map[string]any) error {
	return audit.Record(ctx, tx.Client(), audit.Entry{Organization: t.OrgID, Action: action,
		TargetType: t.Kind(), TargetID: t.ID(), Payload: payload})
}

// grantPayload names the subject of a grant and its role, for the audit log.
func grantPayload(g *ent.PermissionGrant) map[string]any {
	p := map[string]any{"role": g.Role}
	if g.UserID != nil {
		p["users"] = []string{*g.UserID}
	}
	if g.TeamID != nil {
		p["teams"] = []string{*g.TeamID}
	}
	return p
}

// checkRole refuses a role that is none of the roles. Returns INVALID.
func checkRole(role viewer.Role) error {
	if !role.Valid() {
		return apperr.Invalidf("role: must be one of admin, create, review, edit, comment, read")
	}
	return nil
}

// checkSubjects checks that the users are members and the teams teams of the target's
// organization. The viewer may be a guest with the admin role on the object, so the lookups are
// made by the system: they only answer whether each id belongs there.
func (svc *Service) checkSubjects(ctx context.Context, t Target, users, teams []string) error {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	if len(users) > 0 {
		found, err := svc.Client.Member.Query().Where(member.OrganizationID(t.OrgID), member.UserIDIn(users...)).
			Select(member.FieldUserID).Strings(sys)
		if err != nil {
			return err
		}
		if i, missing := firstMissing(users, found); missing {
			return apperr.Invalidf("users[%d]: %q is not a member of the %s's organization", i, check.Truncate(users[i], 64), t.Kind())
		}
	}
	if len(teams) > 0 {
		found, err := svc.Client.Team.Query().Where(team.OrganizationID(t.OrgID), team.IDIn(teams...)).
			Select(team.FieldID).Strings(sys)
		if err != nil {
			return err
		}
		if i, missing := firstMissing(teams, found); missing {
			return apperr.Invalidf("teams[%d]: %q is not a team of the %s's organization", i, check.Truncate(teams[i], 64), t.Kind())
		}
	}
	return nil
}

// firstMissing returns the index of the first of want that found lacks, and whether there is one.
func firstMissing(want, found []string) (int, bool) {
	have := make(map[string]bool, len(found))
	for _, f := range found {
		have[f] = true
	}
	for i, w := range want {
		if !have[w] {
			return i, true
		}
	}
	return 0, false
}

// Subject is whom a grant is to: exactly one of a user and a team (ids).
type Subject struct {
	User, Team *string
}

// where matches the grants to the subject, and says which kind it is. Returns INVALID unless
// exactly one of user and team is given.
func (s Subject) where() (predicate.PermissionGrant, string, error) {
	switch {
	case s.User != nil && s.Team == nil:
		return permissiongrant.UserID(*s.User), "user", nil
	case s.Team != nil && s.User == nil:
		return permissiongrant.TeamID(*s.Team), "team", nil
	}
	return nil, "", apperr.Invalidf("subject: name exactly one of user and team")
}

// grantOf returns the grant of a subject on the target (the viewer administers it: the grant
// read policy serves its admins, guests included). Returns NOT_FOUND when there is none.
func (svc *Service) grantOf(ctx context.Context, t Target, s Subject) (*ent.PermissionGrant, error) {
	who, kind, err := s.where()
	if err != nil {
		return nil, err
	}
	g, err := svc.Client.PermissionGrant.Query().Where(t.Where(), who).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("this %s has no grant on the %s", kind, t.Kind())
	}
	return g, err
}

// UpdateGrant changes the role of a subject's grant on the target. Returns INVALID for a bad
// role or subject, NOT_FOUND when the subject has no grant there.
func (svc *Service) UpdateGrant(ctx context.Context, t Target, s Subject, role viewer.Role) (*ent.PermissionGrant, error) {
	if err := checkRole(role); err != nil {
		return nil, err
	}
	g, err := svc.grantOf(ctx, t, s)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		payload := grantPayload(g)
		payload["from"] = g.Role
		if g, err = tx.PermissionGrant.UpdateOne(g).SetRole(role).Save(ctx); err != nil {
			return err
		}
		payload["role"] = role
		return recordGrant(ctx, tx, t, audit.GrantUpdated, payload)
	})
	return g, err
}

// Revoke removes the grant of a subject on the target. Returns INVALID for a bad subject,
// NOT_FOUND when it has no grant there.
func (svc *Service) Revoke(ctx context.Context, t Target, s Subject) error {
	g, err := svc.grantOf(ctx, t, s)
	if err != nil {
		return err
	}
	return txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if err := tx.PermissionGrant.DeleteOne(g).Exec(ctx); err != nil {
			return err
		}
		return recordGrant(ctx, tx, t, audit.GrantRemoved, grantPayload(g))
	})
}
