package rest

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/model"
)

var memberSorts = map[string]model.MemberSort{"joinedAt": model.MemberSortJoinedAt, "lastSeenAt": model.MemberSortLastSeenAt}

func (a *api) listMembers(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	args, err := memberListArgs(query{r})
	if err != nil {
		writeError(w, r, err)
		return
	}
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	conn, err := a.r.Organization().Members(ctx, o, args.First, args.After, args.Role, args.Search, args.Sort, args.Order)
	if err != nil {
		writeError(w, r, err)
		return
	}
	members := nodes(conn.Edges, func(e *model.MemberEdge) *ent.Member { return e.Node })
	l, err := list(ctx, members, conn.PageInfo, conn.TotalCount, a.member)
	respond(w, r, http.StatusOK, l, err)
}

func memberListArgs(q query) (graph.MemberListArgs, error) {
	args := graph.MemberListArgs{After: q.str("page"), Search: q.str("search")}
	var err error
	if args.First, err = q.limit(); err != nil {
		return args, err
	}
	order, err := q.oneOf("order", "asc", "desc")
	if err != nil {
		return args, err
	}
	if order != "" {
		o := model.SortOrder(strings.ToUpper(order))
		args.Order = &o
	}
	sort, err := q.oneOf("sort", "joinedAt", "lastSeenAt")
	if err != nil {
		return args, err
	}
	if sort != "" {
		s := memberSorts[sort]
		args.Sort = &s
	}
	role, err := q.oneOf("role", "admin", "create", "edit", "review", "comment", "read", "guest")
	if role != "" {
		f := model.MemberRoleFilter(strings.ToUpper(role))
		args.Role = &f
	}
	return args, err
}

func (a *api) getMember(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	m, err := a.r.Organization().Member(ctx, o, chi.URLParam(r, "userId"))
	a.respondMember(w, r, m, err)
}

func (a *api) updateMember(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Role nullable[role] `json:"role"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	m, err := a.r.Mutation().UpdateMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId"),
		model.UpdateMemberInput{Role: omittable(body.Role, asRole)})
	a.respondMember(w, r, m, err)
}

func (a *api) removeMember(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().RemoveMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId"))
	respondEmpty(w, r, http.StatusNoContent, err)
}

func (a *api) setMemberSSO(w http.ResponseWriter, r *http.Request) {
	m, err := a.r.Mutation().SetMemberSso(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId"))
	a.respondMember(w, r, m, err)
}

func (a *api) respondMember(w http.ResponseWriter, r *http.Request, m *ent.Member, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	wm, err := a.member(r.Context(), m)
	respond(w, r, http.StatusOK, wm, err)
}

func (a *api) listMemberTeams(w http.ResponseWriter, r *http.Request) {
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
	m, err := a.r.Organization().Member(ctx, o, chi.URLParam(r, "userId"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	conn, err := a.r.Member().Teams(ctx, m, limit, query{r}.str("page"), query{r}.str("title"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	items := nodes(conn.Edges, func(e *model.TeamMemberEdge) *ent.TeamMember { return e.Node })
	l, err := list(ctx, items, conn.PageInfo, conn.TotalCount, a.memberTeamItem)
	respond(w, r, http.StatusOK, l, err)
}
