package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
)

// Access grants on spaces and collections (/permissions endpoints of the reference client). The
// same handlers serve both kinds of object; grantKind says which resolvers they call.

// UserPermission is UserContentPermission: a user and their role on a space or collection.
type UserPermission struct {
	Permission viewer.Role `json:"permission"`
	User       User        `json:"user"`
}

// TeamPermission is a team and its role on a space or collection.
type TeamPermission struct {
	Permission viewer.Role `json:"permission"`
	Team       Team        `json:"team"`
}

// grantKind is spaces or collections: the path parameter of the object and its resolvers.
type grantKind struct {
	param  string
	grants func(ctx context.Context, id string, limit *int, page *string, kind model.GrantSubjectKind) (*model.PermissionGrantConnection, error)
	access func(ctx context.Context, id string, limit *int, page *string, role *viewer.Role) (*model.ContentAccessConnection, error)
	grant  func(ctx context.Context, id string, in model.GrantAccessInput) error
	update func(ctx context.Context, id string, s model.GrantSubjectInput, role viewer.Role) error
	revoke func(ctx context.Context, id string, s model.GrantSubjectInput) error
}

func (a *api) spaceGrants() grantKind {
	return grantKind{
		param: "spaceId",
		grants: func(ctx context.Context, id string, limit *int, page *string, kind model.GrantSubjectKind) (*model.PermissionGrantConnection, error) {
			s, err := a.r.Query().Space(ctx, id, nil)
			if err != nil {
				return nil, err
			}
			return a.r.Space().Grants(ctx, s, limit, page, &kind)
		},
		access: func(ctx context.Context, id string, limit *int, page *string, role *viewer.Role) (*model.ContentAccessConnection, error) {
			s, err := a.r.Query().Space(ctx, id, nil)
			if err != nil {
				return nil, err
			}
			return a.r.Space().Access(ctx, s, limit, page, role)
		},
		grant: func(ctx context.Context, id string, in model.GrantAccessInput) error {
			_, err := a.r.Mutation().GrantSpaceAccess(ctx, id, in)
			return err
		},
		update: func(ctx context.Context, id string, s model.GrantSubjectInput, role viewer.Role) error {
			_, err := a.r.Mutation().UpdateSpaceAccess(ctx, id, s, role)
			return err
		},
		revoke: func(ctx context.Context, id string, s model.GrantSubjectInput) error {
			_, err := a.r.Mutation().RevokeSpaceAccess(ctx, id, s)
			return err
		},
	}
}

func (a *api) collectionGrants() grantKind {
	return grantKind{
		param: "collectionId",
		grants: func(ctx context.Context, id string, limit *int, page *string, kind model.GrantSubjectKind) (*model.PermissionGrantConnection, error) {
			c, err := a.r.Query().Collection(ctx, id)
			if err != nil {
				return nil, err
			}
			return a.r.Collection().Grants(ctx, c, limit, page, &kind)
		},
		access: func(ctx context.Context, id string, limit *int, page *string, role *viewer.Role) (*model.ContentAccessConnection, error) {
			c, err := a.r.Query().Collection(ctx, id)
			if err != nil {
				return nil, err
			}
			return a.r.Collection().Access(ctx, c, limit, page, role)
		},
		grant: func(ctx context.Context, id string, in model.GrantAccessInput) error {
			_, err := a.r.Mutation().GrantCollectionAccess(ctx, id, in)
			return err
		},
		update: func(ctx context.Context, id string, s model.GrantSubjectInput, role viewer.Role) error {
			_, err := a.r.Mutation().UpdateCollectionAccess(ctx, id, s, role)
			return err
		},
		revoke: func(ctx context.Context, id string, s model.GrantSubjectInput) error {
			_, err := a.r.Mutation().RevokeCollectionAccess(ctx, id, s)
			return err
		},
	}
}

type grantInviteBody struct {
	Role  nullable[role]    `json:"role"`
	Users notNull[[]string] `json:"users"`
	Teams notNull[[]string] `json:"teams"`
}

// invite grants a role to users and teams: {role, users?, teams?} (204).
func (k grantKind) invite(w http.ResponseWriter, r *http.Request) {
	var body grantInviteBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Role.Value == nil {
		writeError(w, r, missing("role"))
		return
	}
	in := model.GrantAccessInput{Role: viewer.Role(*body.Role.Value), Users: body.Users.Or(nil), Teams: body.Teams.Or(nil)}
	err := k.grant(r.Context(), chi.URLParam(r, k.param), in)
	respondEmpty(w, r, http.StatusNoContent, err)
}

type grantRoleBody struct {
	Role nullable[role] `json:"role"`
}

// update changes a user's or a team's role (204); a null role removes their grant.
func (k grantKind) updateSubject(subject func(*http.Request) model.GrantSubjectInput) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body grantRoleBody
		if err := decodeBody(r, &body); err != nil {
			writeError(w, r, err)
			return
		}
		if !body.Role.Set {
			writeError(w, r, missing("role"))
			return
		}
		var err error
		if body.Role.Value == nil {
			err = k.revoke(r.Context(), chi.URLParam(r, k.param), subject(r))
		} else {
			err = k.update(r.Context(), chi.URLParam(r, k.param), subject(r), viewer.Role(*body.Role.Value))
		}
		respondEmpty(w, r, http.StatusNoContent, err)
	}
}

func (k grantKind) removeSubject(subject func(*http.Request) model.GrantSubjectInput) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		err := k.revoke(r.Context(), chi.URLParam(r, k.param), subject(r))
		respondEmpty(w, r, http.StatusNoContent, err)
	}
}

func userSubject(r *http.Request) model.GrantSubjectInput {
	id := chi.URLParam(r, "userId")
	return model.GrantSubjectInput{User: &id}
}

func teamSubject(r *http.Request) model.GrantSubjectInput {
	id := chi.URLParam(r, "teamId")
	return model.GrantSubjectInput{Team: &id}
}

func (a *api) listUserGrants(k grantKind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		serveList(w, r, a.userPermission, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.PermissionGrant], error) {
			return k.grants(ctx, chi.URLParam(r, k.param), limit, page, model.GrantSubjectKindUser)
		})
	}
}

func (a *api) listTeamGrants(k grantKind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		serveList(w, r, a.teamPermission, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.PermissionGrant], error) {
			return k.grants(ctx, chi.URLParam(r, k.param), limit, page, model.GrantSubjectKindTeam)
		})
	}
}

// listAccess is /permissions/aggregate: every member with access and their effective role,
// optionally only those with exactly `role`.
func (a *api) listAccess(k grantKind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := query{r}
		name, err := q.oneOf("role", "admin", "create", "edit", "review", "comment", "read")
		if err != nil {
			writeError(w, r, err)
			return
		}
		var only *viewer.Role
		if name != "" {
			v := viewer.Role(name)
			only = &v
		}
		serveList(w, r, a.accessItem, func(ctx context.Context, limit *int, page *string) (model.Connection[*model.ContentAccess], error) {
			return k.access(ctx, chi.URLParam(r, k.param), limit, page, only)
		})
	}
}

func (a *api) userPermission(ctx context.Context, g *ent.PermissionGrant) (UserPermission, error) {
	u, err := a.r.PermissionGrant().User(ctx, g)
	if err != nil || u == nil {
		return UserPermission{}, err
	}
	return UserPermission{Permission: g.Role, User: a.user(u)}, nil
}

func (a *api) teamPermission(ctx context.Context, g *ent.PermissionGrant) (TeamPermission, error) {
	t, err := a.r.PermissionGrant().Team(ctx, g)
	if err != nil || t == nil {
		return TeamPermission{}, err
	}
	wt, err := a.team(ctx, t)
	return TeamPermission{Permission: g.Role, Team: wt}, err
}

func (a *api) accessItem(_ context.Context, c *model.ContentAccess) (UserPermission, error) {
	return UserPermission{Permission: c.Role, User: a.user(c.User)}, nil
}

// grantRoutes adds the /permissions endpoints of spaces or collections under prefix.
func (a *api) grantRoutes(r chi.Router, prefix string, k grantKind) {
	r.Post(prefix+"/permissions", k.invite)
	r.Get(prefix+"/permissions/users", a.listUserGrants(k))
	r.Patch(prefix+"/permissions/users/{userId}", k.updateSubject(userSubject))
	r.Delete(prefix+"/permissions/users/{userId}", k.removeSubject(userSubject))
	r.Get(prefix+"/permissions/teams", a.listTeamGrants(k))
	r.Patch(prefix+"/permissions/teams/{teamId}", k.updateSubject(teamSubject))
	r.Delete(prefix+"/permissions/teams/{teamId}", k.removeSubject(teamSubject))
	r.Get(prefix+"/permissions/aggregate", a.listAccess(k))
}
