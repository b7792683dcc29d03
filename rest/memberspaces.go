package rest

import (
	"context"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
)

// MemberSpace is the wire shape of MemberContentPermission: a space and the member's role on it.
type MemberSpace struct {
	Permission viewer.Role `json:"permission"`
	Space      Space       `json:"space"`
}

func (a *api) memberSpace(ctx context.Context, ms *model.MemberSpace) (MemberSpace, error) {
	s, err := a.space(ctx, ms.Space)
	return MemberSpace{Permission: ms.Role, Space: s}, err
}

func (a *api) listMemberSpaces(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.memberSpace, func(ctx context.Context, limit *int, page *string) (model.Connection[*model.MemberSpace], error) {
		order, err := query{r}.oneOf("order", "asc", "desc")
		if err != nil {
			return nil, err
		}
		var o *model.SortOrder
		if order != "" {
			so := model.SortOrder(strings.ToUpper(order))
			o = &so
		}
		org, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		m, err := a.r.Organization().Member(ctx, org, chi.URLParam(r, "userId"))
		if err != nil {
			return nil, err
		}
		return a.r.Member().Spaces(ctx, m, limit, page, o)
	})
}
