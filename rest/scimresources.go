package rest

import (
	"net/http"
	"time"

	scimlib "github.com/elimity-com/scim"
	"github.com/elimity-com/scim/optional"
	filter "github.com/scim2/filter-parser/v2"

	"github.com/binderyhq/bindery/internal/scim"
)

// scimUsers serves /scim/v2/Users: the organization's provisioned members.
type scimUsers struct{ a *api }

func (h scimUsers) Create(r *http.Request, attrs scimlib.ResourceAttributes) (scimlib.Resource, error) {
	u, err := h.a.r.SCIM().CreateUser(r.Context(), scimOrg(r), attrs)
	return userResource(u), scimErr(r, err)
}

func (h scimUsers) Get(r *http.Request, id string) (scimlib.Resource, error) {
	u, err := h.a.r.SCIM().User(r.Context(), scimOrg(r), id)
	return userResource(u), scimErr(r, err)
}

func (h scimUsers) GetAll(r *http.Request, params scimlib.ListRequestParams) (scimlib.Page, error) {
	total, users, err := h.a.r.SCIM().Users(r.Context(), scimOrg(r), filterOf(params), params.StartIndex, params.Count)
	page := scimlib.Page{TotalResults: total, Resources: make([]scimlib.Resource, len(users))}
	for i, u := range users {
		page.Resources[i] = userResource(u)
	}
	return page, scimErr(r, err)
}

func (h scimUsers) Replace(r *http.Request, id string, attrs scimlib.ResourceAttributes) (scimlib.Resource, error) {
	u, err := h.a.r.SCIM().ReplaceUser(r.Context(), scimOrg(r), id, attrs)
	return userResource(u), scimErr(r, err)
}

func (h scimUsers) Delete(r *http.Request, id string) error {
	return scimErr(r, h.a.r.SCIM().DeleteUser(r.Context(), scimOrg(r), id))
}

func (h scimUsers) Patch(r *http.Request, id string, ops []scimlib.PatchOperation) (scimlib.Resource, error) {
	u, err := h.a.r.SCIM().PatchUser(r.Context(), scimOrg(r), id, patchOperations(ops))
	return userResource(u), scimErr(r, err)
}

func userResource(u scim.User) scimlib.Resource {
	attrs := scimlib.ResourceAttributes(u.Resource())
	delete(attrs, "externalId") // the Resource's own field
	return scimlib.Resource{ID: u.ID, ExternalID: optionalString(u.ExternalID), Attributes: attrs, Meta: meta(u.Created, u.Modified)}
}

// scimGroups serves /scim/v2/Groups: the organization's teams.
type scimGroups struct{ a *api }

func (h scimGroups) Create(r *http.Request, attrs scimlib.ResourceAttributes) (scimlib.Resource, error) {
	g, err := h.a.r.SCIM().CreateGroup(r.Context(), scimOrg(r), attrs)
	return groupResource(g), scimErr(r, err)
}

func (h scimGroups) Get(r *http.Request, id string) (scimlib.Resource, error) {
	g, err := h.a.r.SCIM().Group(r.Context(), scimOrg(r), id)
	return groupResource(g), scimErr(r, err)
}

func (h scimGroups) GetAll(r *http.Request, params scimlib.ListRequestParams) (scimlib.Page, error) {
	total, groups, err := h.a.r.SCIM().Groups(r.Context(), scimOrg(r), filterOf(params), params.StartIndex, params.Count)
	page := scimlib.Page{TotalResults: total, Resources: make([]scimlib.Resource, len(groups))}
	for i, g := range groups {
		page.Resources[i] = groupResource(g)
	}
	return page, scimErr(r, err)
}

func (h scimGroups) Replace(r *http.Request, id string, attrs scimlib.ResourceAttributes) (scimlib.Resource, error) {
	g, err := h.a.r.SCIM().ReplaceGroup(r.Context(), scimOrg(r), id, attrs)
	return groupResource(g), scimErr(r, err)
}

func (h scimGroups) Delete(r *http.Request, id string) error {
	return scimErr(r, h.a.r.SCIM().DeleteGroup(r.Context(), scimOrg(r), id))
}

func (h scimGroups) Patch(r *http.Request, id string, ops []scimlib.PatchOperation) (scimlib.Resource, error) {
	g, err := h.a.r.SCIM().PatchGroup(r.Context(), scimOrg(r), id, patchOperations(ops))
	return groupResource(g), scimErr(r, err)
}

func groupResource(g scim.Group) scimlib.Resource {
	attrs := scimlib.ResourceAttributes(g.Resource())
	delete(attrs, "externalId")
	return scimlib.Resource{ID: g.ID, ExternalID: optionalString(g.ExternalID), Attributes: attrs, Meta: meta(g.Created, g.Modified)}
}

// scimErr is err (nil stays nil) as the SCIM error elimity-com/scim answers.
func scimErr(r *http.Request, err error) error {
	if err == nil {
		return nil
	}
	return scimError(r, err)
}

// filterOf is the parsed filter of a list request; nil without one.
func filterOf(params scimlib.ListRequestParams) filter.Expression {
	if params.FilterValidator == nil {
		return nil
	}
	return params.FilterValidator.GetFilter()
}

func patchOperations(ops []scimlib.PatchOperation) []scim.Operation {
	out := make([]scim.Operation, len(ops))
	for i, op := range ops {
		out[i] = scim.Operation{Op: op.Op, Path: op.Path, Value: op.Value}
	}
	return out
}

func optionalString(s *string) optional.String {
	if s == nil {
		return optional.String{}
	}
	return optional.NewString(*s)
}

func meta(created, modified time.Time) scimlib.Meta {
	return scimlib.Meta{Created: &created, LastModified: &modified}
}
