package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
)

func (a *api) listTeams(w http.ResponseWriter, r *http.Request) {
	q := query{r}
	serveList(w, r, a.team, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.Team], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().Teams(ctx, o, limit, page, q.str("title"), q.str("owner"))
	})
}

type createTeamBody struct {
	Title   *string  `json:"title"`
	Members []string `json:"members"`
}

func (a *api) createTeam(w http.ResponseWriter, r *http.Request) {
	var body createTeamBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Title == nil {
		writeError(w, r, missing("title"))
		return
	}
	t, err := a.r.Mutation().CreateTeam(r.Context(), chi.URLParam(r, "organizationId"),
		model.CreateTeamInput{Title: *body.Title, Members: body.Members})
	respondWith(w, r, http.StatusCreated, t, err, a.team)
}

func (a *api) getTeam(w http.ResponseWriter, r *http.Request) {
	t, err := a.teamOf(r.Context(), r)
	respondWith(w, r, http.StatusOK, t, err, a.team)
}

// teamOf loads the team named in the path.
func (a *api) teamOf(ctx context.Context, r *http.Request) (*ent.Team, error) {
	o, err := a.orgOf(ctx, r)
	if err != nil {
		return nil, err
	}
	return a.r.Organization().Team(ctx, o, chi.URLParam(r, "teamId"))
}

type updateTeamBody struct {
	Title *string `json:"title"`
}

func (a *api) updateTeam(w http.ResponseWriter, r *http.Request) {
	var body updateTeamBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Title == nil {
		writeError(w, r, missing("title"))
		return
	}
	t, err := a.r.Mutation().UpdateTeam(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "teamId"),
		model.UpdateTeamInput{Title: *body.Title})
	respondWith(w, r, http.StatusOK, t, err, a.team)
}

func (a *api) deleteTeam(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteTeam(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "teamId"))
	respondEmpty(w, r, http.StatusNoContent, err)
}

func (a *api) listTeamMembers(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.rosterItem, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.TeamMember], error) {
		t, err := a.teamOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Team().Members(ctx, t, limit, page)
	})
}

type updateTeamMembersBody struct {
	Add         []string `json:"add"`
	Remove      []string `json:"remove"`
	Memberships map[string]struct {
		Role teamRole `json:"role"`
	} `json:"memberships"`
}

func (a *api) updateTeamMembers(w http.ResponseWriter, r *http.Request) {
	var body updateTeamMembersBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	in := model.UpdateTeamMembersInput{Add: body.Add, Remove: body.Remove}
	for userID, m := range body.Memberships {
		if m.Role == "" {
			writeError(w, r, missing("memberships."+truncate(userID, 80)+".role"))
			return
		}
		in.Memberships = append(in.Memberships, &model.TeamMembershipInput{User: userID, Role: viewer.TeamRole(m.Role)})
	}
	_, err := a.r.Mutation().UpdateTeamMembers(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "teamId"), in)
	respondEmpty(w, r, http.StatusNoContent, err)
}

type setTeamMemberBody struct {
	Role *teamRole `json:"role"`
}

func (a *api) setTeamMember(w http.ResponseWriter, r *http.Request) {
	var body setTeamMemberBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	var tr *viewer.TeamRole
	if body.Role != nil {
		v := viewer.TeamRole(*body.Role)
		tr = &v
	}
	_, err := a.r.Mutation().SetTeamMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "teamId"),
		chi.URLParam(r, "userId"), tr)
	respondEmpty(w, r, http.StatusNoContent, err)
}

func (a *api) removeTeamMember(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().RemoveTeamMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "teamId"),
		chi.URLParam(r, "userId"))
	respondEmpty(w, r, http.StatusNoContent, err)
}
