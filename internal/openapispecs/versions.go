package openapispecs

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/openapispec"
	"github.com/binderyhq/bindery/ent/openapispecversion"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
)

// versionMeta are the columns of a version without its content, which lists and point reads
// of metadata leave out (a document can be megabytes).
var versionMeta = []string{
	openapispecversion.FieldID, openapispecversion.FieldOrganizationID, openapispecversion.FieldSpecID,
	openapispecversion.FieldURL, openapispecversion.FieldFormat, openapispecversion.FieldDigest,
	openapispecversion.FieldCreatedAt, openapispecversion.FieldWarnings, openapispecversion.FieldWarningCount,
}

// Versions selects the versions of a spec, without their content unless withContent.
func (svc *Service) Versions(s *ent.OpenAPISpec, withContent bool) *ent.OpenAPISpecVersionQuery {
	q := svc.Client.OpenAPISpecVersion.Query().Where(openapispecversion.SpecID(s.ID))
	if !withContent {
		q.Select(versionMeta...) // sets the query's columns; the builder it returns is not needed
	}
	return q
}

// Version returns a version of a spec by id, or its latest version when id is "latest"; with
// its content when withContent.
// Returns NOT_FOUND when the spec has no such version.
func (svc *Service) Version(ctx context.Context, s *ent.OpenAPISpec, id string, withContent bool) (*ent.OpenAPISpecVersion, error) {
	if id == "latest" {
		if s.LastVersionID == nil {
			return nil, apperr.NotFoundf("the OpenAPI specification has no version yet")
		}
		id = *s.LastVersionID
	}
	v, err := svc.Versions(s, withContent).Where(openapispecversion.ID(id)).Only(ctx)
	return v, rule.NotFound(err, "OpenAPI specification version")
}

// PublicVersion returns a version of a public spec, with its content, for anyone: the spec's
// visibility is the authority, so the system reads it. id may be "latest".
// Returns NOT_FOUND when the organization has no public spec with this slug, or it has no such
// version.
func (svc *Service) PublicVersion(ctx context.Context, orgID, slug, id string) (*ent.OpenAPISpecVersion, error) {
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	s, err := svc.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(orgID), openapispec.Slug(slug),
		openapispec.VisibilityEQ(openapispec.VisibilityPublic)).Only(sys)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("no public OpenAPI specification has the slug %q", check.Truncate(slug, 100))
	}
	if err != nil {
		return nil, err
	}
	return svc.Version(sys, s, id, true)
}

// LastVersion is the latest version of a spec, without its content: nil until a processing
// succeeded.
func (svc *Service) LastVersion(ctx context.Context, s *ent.OpenAPISpec) (*ent.OpenAPISpecVersion, error) {
	if s.LastVersionID == nil {
		return nil, nil
	}
	return svc.Version(ctx, s, *s.LastVersionID, false)
}

// WithContent returns the version with its content, reading it when v was loaded without.
func (svc *Service) WithContent(ctx context.Context, v *ent.OpenAPISpecVersion) (*ent.OpenAPISpecVersion, error) {
	if v.Raw != nil {
		return v, nil
	}
	full, err := svc.Client.OpenAPISpecVersion.Get(ctx, v.ID)
	return full, rule.NotFound(err, "OpenAPI specification version")
}
