package graph

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/openapispec"
	"github.com/binderyhq/bindery/ent/openapispecversion"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/openapispecs"
	"github.com/binderyhq/bindery/internal/page"
)

// OpenAPI specs translate between GraphQL and internal/openapispecs, which holds their rules and
// their processing; graph keeps the lists.

// openAPISpecsService is the OpenAPI specs as this resolver's viewer reads and writes them.
func (r *Resolver) openAPISpecsService() *openapispecs.Service {
	return &openapispecs.Service{Client: r.Client, Now: r.now, Organization: r.organization, Fetcher: r.Fetcher,
		Limits: r.OpenAPILimits, Refresh: r.OpenAPIRefresh, Jobs: r.Jobs}
}

// readSpecsState is what the Resolver keeps of the specs' versions pages show: built on first use.
type readSpecsState struct {
	readSpecsOnce sync.Once
	readSpecs     *openapispecs.ReadSpecs
}

// PageSpecs reads the specs of an organization that a published page's operation blocks name
// (openapispecs.Service.PageSpecs), their versions read once per server.
func (r *Resolver) PageSpecs(ctx context.Context, orgID string, ops []document.OpenAPIRef) (*openapispecs.PageSpecs, error) {
	r.readSpecsOnce.Do(func() { r.readSpecs = openapispecs.NewReadSpecs(openapispecs.ReadSpecsBudget) })
	return r.openAPISpecsService().PageSpecs(ctx, r.readSpecs, orgID, ops)
}

// openAPISpec returns the spec of an organization with this slug (openapispecs.Service.Spec).
func (r *Resolver) openAPISpec(ctx context.Context, orgID, slug string) (*ent.OpenAPISpec, error) {
	return r.openAPISpecsService().Spec(ctx, orgID, slug)
}

func (r *Resolver) openAPISpecs(ctx context.Context, o *ent.Organization, first *int, after *string) (*model.OpenAPISpecConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	if !rule.HasOrgRole(viewer.FromContext(ctx), o.ID, viewer.RoleRead) {
		return nil, apperr.Forbiddenf("guests may not list the organization's OpenAPI specifications")
	}
	cursorOf := func(s *ent.OpenAPISpec) page.Cursor { return page.Cursor{Key: s.Slug, ID: s.ID} }
	q := r.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(o.ID))
	p, err := flat(ctx, q, page.Order{Column: openapispec.FieldSlug}, args, false, cursorOf)
	if err != nil {
		return nil, err
	}
	return &model.OpenAPISpecConnection{
		Edges: edges(ctx, p.Items, cursorOf, func(c string, n *ent.OpenAPISpec) *model.OpenAPISpecEdge {
			return &model.OpenAPISpecEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func openAPISpecPermissions(ctx context.Context, s *ent.OpenAPISpec) *model.OpenAPISpecPermissions {
	v := viewer.FromContext(ctx)
	return &model.OpenAPISpecPermissions{
		View: rule.HasOrgRole(v, s.OrganizationID, viewer.RoleRead),
		Edit: rule.ForOrganization(v, s.OrganizationID, false).CreateOpenAPISpec,
	}
}

// specSource is the source of a spec input as internal/openapispecs takes it; nil stays nil.
func specSource(in *model.OpenAPISpecSourceInput) *openapispecs.Source {
	if in == nil {
		return nil
	}
	return &openapispecs.Source{URL: in.URL, Text: in.Text}
}

// createOpenAPISpec is Mutation.createOpenAPISpec (openapispecs.Service.Create).
func (r *Resolver) createOpenAPISpec(ctx context.Context, orgID string, in model.CreateOpenAPISpecInput) (*ent.OpenAPISpec, error) {
	return r.openAPISpecsService().Create(ctx, orgID, in.Slug, specSource(in.Source))
}

// PutOpenAPISpec creates the spec with this slug, or sets the source of the existing one, and
// reports whether it created it (openapispecs.Service.Put).
func (r *Resolver) PutOpenAPISpec(ctx context.Context, orgID, slug string, source *model.OpenAPISpecSourceInput) (*ent.OpenAPISpec, bool, error) {
	return r.openAPISpecsService().Put(ctx, orgID, slug, specSource(source))
}

// updateOpenAPISpec is Mutation.updateOpenAPISpec (openapispecs.Service.Update).
func (r *Resolver) updateOpenAPISpec(ctx context.Context, orgID, slug string, in model.UpdateOpenAPISpecInput) (*ent.OpenAPISpec, error) {
	return r.openAPISpecsService().Update(ctx, orgID, slug, in.Visibility)
}

// deleteOpenAPISpec is Mutation.deleteOpenAPISpec (openapispecs.Service.Delete).
func (r *Resolver) deleteOpenAPISpec(ctx context.Context, orgID, slug string) (bool, error) {
	return r.openAPISpecsService().Delete(ctx, orgID, slug)
}

func versionCursor(v *ent.OpenAPISpecVersion) page.Cursor {
	return page.Cursor{Key: v.CreatedAt, ID: v.ID}
}

// openAPISpecVersions lists a spec's versions, newest first.
func (r *Resolver) openAPISpecVersions(ctx context.Context, s *ent.OpenAPISpec, first *int, after *string) (*model.OpenAPISpecVersionConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	svc := r.openAPISpecsService()
	count := 0
	if args.Count { // counted apart: the page's query selects columns, which COUNT cannot take
		if count, err = svc.Versions(s, true).Count(ctx); err != nil {
			return nil, err
		}
		args.Count = false
	}
	order := page.Order{Column: openapispecversion.FieldCreatedAt, Desc: true}
	p, err := flat(ctx, svc.Versions(s, false), order, args, true, versionCursor)
	if err != nil {
		return nil, err
	}
	p.Count = count
	return &model.OpenAPISpecVersionConnection{
		Edges: edges(ctx, p.Items, versionCursor, func(c string, n *ent.OpenAPISpecVersion) *model.OpenAPISpecVersionEdge {
			return &model.OpenAPISpecVersionEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

// SpecVersion returns a version of a spec by id, or its latest version when id is "latest"; with
// its content when withContent (openapispecs.Service.Version).
func (r *Resolver) SpecVersion(ctx context.Context, s *ent.OpenAPISpec, id string, withContent bool) (*ent.OpenAPISpecVersion, error) {
	return r.openAPISpecsService().Version(ctx, s, id, withContent)
}

// PublicSpecVersion returns a version of a public spec, with its content, for anyone
// (openapispecs.Service.PublicVersion).
func (r *Resolver) PublicSpecVersion(ctx context.Context, orgID, slug, id string) (*ent.OpenAPISpecVersion, error) {
	return r.openAPISpecsService().PublicVersion(ctx, orgID, slug, id)
}

// openAPISpecLastVersion is OpenAPISpec.lastVersion: nil until a processing succeeded.
func (r *Resolver) openAPISpecLastVersion(ctx context.Context, s *ent.OpenAPISpec) (*ent.OpenAPISpecVersion, error) {
	return r.openAPISpecsService().LastVersion(ctx, s)
}

// openAPIVersionRaw is OpenAPISpecVersion.raw: the entry document as fetched.
func (r *Resolver) openAPIVersionRaw(ctx context.Context, v *ent.OpenAPISpecVersion) (string, error) {
	full, err := r.openAPISpecsService().WithContent(ctx, v)
	if err != nil {
		return "", err
	}
	return string(full.Raw), nil
}

// OpenAPIVersionFilesystem is OpenAPISpecVersion.filesystem: file path → the file parsed.
func (r *Resolver) OpenAPIVersionFilesystem(ctx context.Context, v *ent.OpenAPISpecVersion) (json.RawMessage, error) {
	full, err := r.openAPISpecsService().WithContent(ctx, v)
	if err != nil {
		return nil, err
	}
	return full.Filesystem, nil
}

// ProcessOpenAPISpec is the handler of openapispecs.Job (openapispecs.Service.Process).
func (r *Resolver) ProcessOpenAPISpec(ctx context.Context, j *jobs.Job) (time.Time, error) {
	return r.openAPISpecsService().Process(ctx, j)
}
