package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
)

func (a *api) listTeams(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := query{r}
	limit, err := q.limit()
	if err != nil {
		writeError(w, r, err)
		return
	}
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	conn, err := a.r.Organization().Teams(ctx, o, limit, q.str("page"), q.str("title"), q.str("owner"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	teams := nodes(conn.Edges, func(e *model.TeamEdge) *ent.Team { return e.Node })
	l, err := list(ctx, teams, conn.PageInfo, conn.TotalCount, a.team)
	respond(w, r, http.StatusOK, l, err)
}

func (a *api) createTeam(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Title   *string  `json:"title"`
		Members []string `json:"members"`
	}
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
	a.respondTeam(w, r, http.StatusCreated, t, err)
}

func (a *api) getTeam(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	t, err := a.r.Organization().Team(ctx, o, chi.URLParam(r, "teamId"))
	a.respondTeam(w, r, http.StatusOK, t, err)
}

func (a *api) updateTeam(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Title *string `json:"title"`
	}
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
	a.respondTeam(w, r, http.StatusOK, t, err)
}

func (a *api) respondTeam(w http.ResponseWriter, r *http.Request, status int, t *ent.Team, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	wt, err := a.team(r.Context(), t)
	respond(w, r, status, wt, err)
}

func (a *api) deleteTeam(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteTeam(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "teamId"))
	respondEmpty(w, r, http.StatusNoContent, err)
}

func (a *api) listTeamMembers(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	limit, err := query{r}.limit()
	if err != nil {
		writeError(w, r, err)
		return
	}
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	t, err := a.r.Organization().Team(ctx, o, chi.URLParam(r, "teamId"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	conn, err := a.r.Team().Members(ctx, t, limit, query{r}.str("page"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	items := nodes(conn.Edges, func(e *model.TeamMemberEdge) *ent.TeamMember { return e.Node })
	l, err := list(ctx, items, conn.PageInfo, conn.TotalCount, a.rosterItem)
	respond(w, r, http.StatusOK, l, err)
}

func (a *api) updateTeamMembers(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Add         []string `json:"add"`
		Remove      []string `json:"remove"`
		Memberships map[string]struct {
			Role teamRole `json:"role"`
		} `json:"memberships"`
	}
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

func (a *api) setTeamMember(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Role *teamRole `json:"role"`
	}
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
