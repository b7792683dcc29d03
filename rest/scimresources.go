package rest

import (
	"context"
	"net/http"
	"time"

	scimlib "github.com/elimity-com/scim"
	"github.com/elimity-com/scim/optional"
	filter "github.com/scim2/filter-parser/v2"

	"github.com/binderyhq/bindery/internal/scim"
)

// scimResources serves a SCIM resource type (elimity-com/scim's ResourceHandler) with the methods
// of internal/scim.Service that provision it, T being its resource, in the organization of the
// request's SCIM token.
type scimResources[T any] struct {
	a        *api
	create   func(scim.Service, context.Context, string, map[string]any) (T, error)
	get      func(scim.Service, context.Context, string, string) (T, error)
	list     func(scim.Service, context.Context, string, filter.Expression, int, int) (int, []T, error)
	replace  func(scim.Service, context.Context, string, string, map[string]any) (T, error)
	patch    func(scim.Service, context.Context, string, string, []scim.Operation) (T, error)
	remove   func(scim.Service, context.Context, string, string) error
	resource func(T) scimlib.Resource
}

// scimUsers serves /scim/v2/Users: the organization's provisioned members.
func scimUsers(a *api) scimResources[scim.User] {
	return scimResources[scim.User]{a: a, create: scim.Service.CreateUser, get: scim.Service.User, list: scim.Service.Users,
		replace: scim.Service.ReplaceUser, patch: scim.Service.PatchUser, remove: scim.Service.DeleteUser,
		resource: func(u scim.User) scimlib.Resource {
			return scimResource(u.ID, u.ExternalID, u.Resource(), u.Created, u.Modified)
		}}
}

// scimGroups serves /scim/v2/Groups: the organization's teams.
func scimGroups(a *api) scimResources[scim.Group] {
	return scimResources[scim.Group]{a: a, create: scim.Service.CreateGroup, get: scim.Service.Group, list: scim.Service.Groups,
		replace: scim.Service.ReplaceGroup, patch: scim.Service.PatchGroup, remove: scim.Service.DeleteGroup,
		resource: func(g scim.Group) scimlib.Resource {
			return scimResource(g.ID, g.ExternalID, g.Resource(), g.Created, g.Modified)
		}}
}

func (h scimResources[T]) Create(r *http.Request, attrs scimlib.ResourceAttributes) (scimlib.Resource, error) {
	v, err := h.create(h.a.r.SCIM(), r.Context(), scimOrg(r), attrs)
	return h.answer(r, v, err)
}

func (h scimResources[T]) Get(r *http.Request, id string) (scimlib.Resource, error) {
	v, err := h.get(h.a.r.SCIM(), r.Context(), scimOrg(r), id)
	return h.answer(r, v, err)
}

func (h scimResources[T]) GetAll(r *http.Request, params scimlib.ListRequestParams) (scimlib.Page, error) {
	var f filter.Expression
	if params.FilterValidator != nil {
		f = params.FilterValidator.GetFilter()
	}
	total, found, err := h.list(h.a.r.SCIM(), r.Context(), scimOrg(r), f, params.StartIndex, params.Count)
	page := scimlib.Page{TotalResults: total, Resources: make([]scimlib.Resource, len(found))}
	for i, v := range found {
		page.Resources[i] = h.resource(v)
	}
	return page, scimErr(r, err)
}

func (h scimResources[T]) Replace(r *http.Request, id string, attrs scimlib.ResourceAttributes) (scimlib.Resource, error) {
	v, err := h.replace(h.a.r.SCIM(), r.Context(), scimOrg(r), id, attrs)
	return h.answer(r, v, err)
}

func (h scimResources[T]) Delete(r *http.Request, id string) error {
	return scimErr(r, h.remove(h.a.r.SCIM(), r.Context(), scimOrg(r), id))
}

func (h scimResources[T]) Patch(r *http.Request, id string, ops []scimlib.PatchOperation) (scimlib.Resource, error) {
	operations := make([]scim.Operation, len(ops))
	for i, op := range ops {
		operations[i] = scim.Operation{Op: op.Op, Path: op.Path, Value: op.Value}
	}
	v, err := h.patch(h.a.r.SCIM(), r.Context(), scimOrg(r), id, operations)
	return h.answer(r, v, err)
}

// answer is the resource of v, or err as a SCIM error.
func (h scimResources[T]) answer(r *http.Request, v T, err error) (scimlib.Resource, error) {
	if err != nil {
		return scimlib.Resource{}, scimErr(r, err)
	}
	return h.resource(v), nil
}

// scimResource is a resource of elimity-com/scim: its attributes but externalId, which is a field
// of its own.
func scimResource(id string, externalID *string, attrs map[string]any, created, modified time.Time) scimlib.Resource {
	delete(attrs, "externalId")
	res := scimlib.Resource{ID: id, Attributes: attrs, Meta: scimlib.Meta{Created: &created, LastModified: &modified}}
	if externalID != nil {
		res.ExternalID = optional.NewString(*externalID)
	}
	return res
}

// scimErr is err (nil stays nil) as the SCIM error elimity-com/scim answers.
func scimErr(r *http.Request, err error) error {
	if err == nil {
		return nil
	}
	return scimError(r, err)
}
