package rest

import (
	"context"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/model"
)

var memberSorts = map[string]model.MemberSort{"joinedAt": model.MemberSortJoinedAt, "lastSeenAt": model.MemberSortLastSeenAt}

func (a *api) listMembers(w http.ResponseWriter, r *http.Request) {
	args, err := memberListArgs(query{r})
	if err != nil {
		writeError(w, r, err)
		return
	}
	serveList(w, r, a.member, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.Member], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().Members(ctx, o, limit, page, args.Role, args.Search, args.Sort, args.Order)
	})
}

func memberListArgs(q query) (graph.MemberListArgs, error) {
	args := graph.MemberListArgs{Search: q.str("search")}
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
	respondWith(w, r, http.StatusOK, m, err, a.member)
}

type updateMemberBody struct {
	Role nullable[role] `json:"role"`
}

func (a *api) updateMember(w http.ResponseWriter, r *http.Request) {
	var body updateMemberBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	m, err := a.r.Mutation().UpdateMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId"),
		model.UpdateMemberInput{Role: omittable(body.Role, asRole)})
	respondWith(w, r, http.StatusOK, m, err, a.member)
}

func (a *api) removeMember(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().RemoveMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId"))
	respondEmpty(w, r, http.StatusNoContent, err)
}

func (a *api) setMemberSSO(w http.ResponseWriter, r *http.Request) {
	m, err := a.r.Mutation().SetMemberSso(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId"))
	respondWith(w, r, http.StatusOK, m, err, a.member)
}

func (a *api) listMemberTeams(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.memberTeamItem, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.TeamMember], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		m, err := a.r.Organization().Member(ctx, o, chi.URLParam(r, "userId"))
		if err != nil {
			return nil, err
		}
		return a.r.Member().Teams(ctx, m, limit, page, query{r}.str("title"))
	})
}
