package graph

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/openapispec"
	"github.com/binderyhq/bindery/ent/openapispecversion"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/openapi"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/txn"
)

// OpenAPIJob is the kind of the background job that processes a spec (its key is the spec's id).
const OpenAPIJob = "openapi"

// Bounds of OpenAPI specs (spec/03 Limits).
const (
	specSlugMax   = 100
	specSourceMax = 2048
)

var specSlugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// specManager is the role that manages specs: the one rule.ForOrganization's createOpenAPISpec
// and the schema's policy name.
const specManager = viewer.RoleReview

// openAPISpec returns the spec of an organization with this slug.
// Returns NOT_FOUND if either does not exist or the viewer may not see it.
func (r *Resolver) openAPISpec(ctx context.Context, orgID, slug string) (*ent.OpenAPISpec, error) {
	if _, err := r.organization(ctx, orgID); err != nil {
		return nil, err
	}
	s, err := r.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(orgID), openapispec.Slug(slug)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("no OpenAPI specification has the slug %q", truncate(slug, 100))
	}
	return s, err
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

// specSource is a checked source: a URL or a text.
type specSource struct {
	url  *string
	text []byte
}

// checkSpecSource checks a source: exactly one of an absolute http(s) URL of at most 2048
// characters and a non-empty text within the processing bound. Returns INVALID or TOO_LARGE.
func (r *Resolver) checkSpecSource(in *model.OpenAPISpecSourceInput) (specSource, error) {
	switch {
	case in == nil:
		return specSource{}, apperr.Invalidf("source: is required")
	case in.URL != nil && in.Text != nil:
		return specSource{}, apperr.Invalidf("source: give url or text, not both")
	case in.URL != nil:
		return specSource{url: in.URL}, checkURL("source.url", *in.URL, specSourceMax)
	case in.Text == nil:
		return specSource{}, apperr.Invalidf("source: needs url or text")
	case *in.Text == "":
		return specSource{}, apperr.Invalidf("source.text: must not be empty")
	case int64(len(*in.Text)) > r.OpenAPILimits.MaxBytes:
		return specSource{}, apperr.TooLargef("source.text: must be at most %d bytes", r.OpenAPILimits.MaxBytes)
	}
	return specSource{text: []byte(*in.Text)}, nil
}

func checkSpecSlug(slug string) error {
	if err := checkText("slug", slug, 1, specSlugMax); err != nil {
		return err
	}
	if !specSlugPattern.MatchString(slug) {
		return apperr.Invalidf("slug: must be lower-case letters and digits in words joined by single hyphens (got %q)", truncate(slug, 100))
	}
	return nil
}

// createOpenAPISpec creates a spec and asks for its processing.
// Returns NOT_FOUND, FORBIDDEN, INVALID, or CONFLICT when the slug is taken.
func (r *Resolver) createOpenAPISpec(ctx context.Context, orgID string, in model.CreateOpenAPISpecInput) (*ent.OpenAPISpec, error) {
	if _, err := r.requireOrgRole(ctx, orgID, specManager, "create OpenAPI specifications"); err != nil {
		return nil, err
	}
	if err := checkSpecSlug(in.Slug); err != nil {
		return nil, err
	}
	src, err := r.checkSpecSource(in.Source)
	if err != nil {
		return nil, err
	}
	return r.writeSpec(ctx, func(tx *ent.Tx) (*ent.OpenAPISpec, error) {
		create := tx.OpenAPISpec.Create().SetOrganizationID(orgID).SetSlug(in.Slug).SetNillableSourceURL(src.url)
		if src.text != nil {
			create.SetSourceText(src.text)
		}
		return create.Save(ctx)
	})
}

// writeSpec runs write in a transaction that also asks for the written spec's processing, then
// wakes this process's runner. A taken slug is CONFLICT.
func (r *Resolver) writeSpec(ctx context.Context, write func(tx *ent.Tx) (*ent.OpenAPISpec, error)) (*ent.OpenAPISpec, error) {
	var s *ent.OpenAPISpec
	err := txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		var err error
		if s, err = write(tx); err != nil {
			return err
		}
		return jobs.Enqueue(ctx, tx.Client(), OpenAPIJob, s.ID, r.now(ctx))
	})
	if ent.IsConstraintError(err) {
		return nil, apperr.Conflictf("slug: the organization already has an OpenAPI specification with this slug")
	}
	if err == nil {
		r.Jobs.Wake()
	}
	return s, err
}

// PutOpenAPISpec creates the spec with this slug, or sets the source of the existing one; either
// way the source is processed again. It reports whether it created the spec.
// Returns NOT_FOUND, FORBIDDEN or INVALID.
func (r *Resolver) PutOpenAPISpec(ctx context.Context, orgID, slug string, source *model.OpenAPISpecSourceInput) (*ent.OpenAPISpec, bool, error) {
	if _, err := r.requireOrgRole(ctx, orgID, specManager, "publish OpenAPI specifications"); err != nil {
		return nil, false, err
	}
	existing, err := r.openAPISpec(ctx, orgID, slug)
	if isNotFound(err) {
		s, err := r.createOpenAPISpec(ctx, orgID, model.CreateOpenAPISpecInput{Slug: slug, Source: source})
		return s, err == nil, err
	}
	if err != nil {
		return nil, false, err
	}
	src, err := r.checkSpecSource(source)
	if err != nil {
		return nil, false, err
	}
	s, err := r.writeSpec(ctx, func(tx *ent.Tx) (*ent.OpenAPISpec, error) {
		upd := tx.OpenAPISpec.UpdateOne(existing).SetProcessingState(openapispec.ProcessingStatePending)
		if src.url != nil {
			upd.SetSourceURL(*src.url).ClearSourceText()
		} else {
			upd.SetSourceText(src.text).ClearSourceURL()
		}
		return upd.Save(ctx)
	})
	return s, false, err
}

// updateOpenAPISpec changes a spec's visibility. Returns NOT_FOUND or FORBIDDEN.
func (r *Resolver) updateOpenAPISpec(ctx context.Context, orgID, slug string, in model.UpdateOpenAPISpecInput) (*ent.OpenAPISpec, error) {
	if _, err := r.requireOrgRole(ctx, orgID, specManager, "change OpenAPI specifications"); err != nil {
		return nil, err
	}
	s, err := r.openAPISpec(ctx, orgID, slug)
	if err != nil {
		return nil, err
	}
	return r.Client.OpenAPISpec.UpdateOne(s).SetVisibility(in.Visibility).Save(ctx)
}

// deleteOpenAPISpec deletes a spec with its versions (their foreign key cascades) and its pending
// processing. It reports false when the organization has no spec with this slug.
// Returns NOT_FOUND (the organization) or FORBIDDEN.
func (r *Resolver) deleteOpenAPISpec(ctx context.Context, orgID, slug string) (bool, error) {
	if _, err := r.requireOrgRole(ctx, orgID, specManager, "delete OpenAPI specifications"); err != nil {
		return false, err
	}
	s, err := r.openAPISpec(ctx, orgID, slug)
	if isNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if err := tx.OpenAPISpec.DeleteOne(s).Exec(ctx); err != nil {
			return err
		}
		return jobs.Cancel(ctx, tx.Client(), OpenAPIJob, s.ID)
	})
	return err == nil, err
}

// versionMeta are the columns of a version without its content, which lists and point reads
// of metadata leave out (a document can be megabytes).
var versionMeta = []string{
	openapispecversion.FieldID, openapispecversion.FieldOrganizationID, openapispecversion.FieldSpecID,
	openapispecversion.FieldURL, openapispecversion.FieldFormat, openapispecversion.FieldDigest,
	openapispecversion.FieldCreatedAt,
}

// versionQuery selects the versions of a spec, without their content unless withContent.
func (r *Resolver) versionQuery(s *ent.OpenAPISpec, withContent bool) *ent.OpenAPISpecVersionQuery {
	q := r.Client.OpenAPISpecVersion.Query().Where(openapispecversion.SpecID(s.ID))
	if !withContent {
		q.Select(versionMeta...) // sets the query's columns; the builder it returns is not needed
	}
	return q
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
	count := 0
	if args.Count { // counted apart: the page's query selects columns, which COUNT cannot take
		if count, err = r.versionQuery(s, true).Count(ctx); err != nil {
			return nil, err
		}
		args.Count = false
	}
	order := page.Order{Column: openapispecversion.FieldCreatedAt, Desc: true}
	p, err := flat(ctx, r.versionQuery(s, false), order, args, true, versionCursor)
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

// SpecVersion returns a version of a spec by id, or its latest version when id is
// "latest"; with its content when withContent.
// Returns NOT_FOUND when the spec has no such version.
func (r *Resolver) SpecVersion(ctx context.Context, s *ent.OpenAPISpec, id string, withContent bool) (*ent.OpenAPISpecVersion, error) {
	if id == "latest" {
		if s.LastVersionID == nil {
			return nil, apperr.NotFoundf("the OpenAPI specification has no version yet")
		}
		id = *s.LastVersionID
	}
	v, err := r.versionQuery(s, withContent).Where(openapispecversion.ID(id)).Only(ctx)
	return v, rule.NotFound(err, "OpenAPI specification version")
}

// PublicSpecVersion returns a version of a public spec, with its content, for anyone: the spec's
// visibility is the authority, so the system reads it. id may be "latest".
// Returns NOT_FOUND when the organization has no public spec with this slug, or it has no such
// version.
func (r *Resolver) PublicSpecVersion(ctx context.Context, orgID, slug, id string) (*ent.OpenAPISpecVersion, error) {
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	s, err := r.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(orgID), openapispec.Slug(slug),
		openapispec.VisibilityEQ(openapispec.VisibilityPublic)).Only(sys)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("no public OpenAPI specification has the slug %q", truncate(slug, 100))
	}
	if err != nil {
		return nil, err
	}
	return r.SpecVersion(sys, s, id, true)
}

// openAPISpecLastVersion is OpenAPISpec.lastVersion: nil until a processing succeeded.
func (r *Resolver) openAPISpecLastVersion(ctx context.Context, s *ent.OpenAPISpec) (*ent.OpenAPISpecVersion, error) {
	if s.LastVersionID == nil {
		return nil, nil
	}
	return r.SpecVersion(ctx, s, *s.LastVersionID, false)
}

// withContent returns the version with its content, reading it when v was loaded without.
func (r *Resolver) withContent(ctx context.Context, v *ent.OpenAPISpecVersion) (*ent.OpenAPISpecVersion, error) {
	if v.Raw != nil {
		return v, nil
	}
	full, err := r.Client.OpenAPISpecVersion.Get(ctx, v.ID)
	return full, rule.NotFound(err, "OpenAPI specification version")
}

// openAPIVersionRaw is OpenAPISpecVersion.raw: the entry document as fetched.
func (r *Resolver) openAPIVersionRaw(ctx context.Context, v *ent.OpenAPISpecVersion) (string, error) {
	full, err := r.withContent(ctx, v)
	if err != nil {
		return "", err
	}
	return string(full.Raw), nil
}

// OpenAPIVersionFilesystem is OpenAPISpecVersion.filesystem: file path → the file parsed.
func (r *Resolver) OpenAPIVersionFilesystem(ctx context.Context, v *ent.OpenAPISpecVersion) (json.RawMessage, error) {
	full, err := r.withContent(ctx, v)
	if err != nil {
		return nil, err
	}
	return full.Filesystem, nil
}

// ProcessOpenAPISpec is the handler of OpenAPIJob: it processes the spec named by the job's key
// and records the outcome — a new version when the content changed, or the error — in one
// transaction that holds the job's lease. With a refresh interval a URL source is due again
// after it.
func (r *Resolver) ProcessOpenAPISpec(ctx context.Context, j *jobs.Job) (time.Time, error) {
	s, err := r.Client.OpenAPISpec.Get(ctx, j.Key)
	if ent.IsNotFound(err) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	if err := r.Client.OpenAPISpec.UpdateOne(s).SetProcessingState(openapispec.ProcessingStateProgress).Exec(ctx); err != nil {
		return time.Time{}, err
	}
	doc, failure, err := r.processSource(ctx, s)
	if err != nil {
		return time.Time{}, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if err := j.Hold(ctx, tx); err != nil {
			return err
		}
		cur, err := tx.OpenAPISpec.Get(ctx, s.ID)
		if ent.IsNotFound(err) || err == nil && !sameSource(cur, s) {
			return nil // deleted, or a new source is queued
		}
		if err != nil {
			return err
		}
		return r.recordProcessing(ctx, tx, cur, doc, failure)
	})
	if err != nil || s.SourceURL == nil || r.OpenAPIRefresh <= 0 {
		return time.Time{}, err
	}
	return r.now(ctx).Add(r.OpenAPIRefresh), nil
}

// processSource fetches and processes a spec's source. A document that cannot be processed is a
// failure to record; an error is the run's (it was cancelled) and is retried.
func (r *Resolver) processSource(ctx context.Context, s *ent.OpenAPISpec) (*openapi.Document, *openapi.Error, error) {
	var doc *openapi.Document
	var err error
	if s.SourceURL != nil {
		doc, err = openapi.FromURL(ctx, r.Fetcher, *s.SourceURL, r.OpenAPILimits)
	} else {
		doc, err = openapi.FromText(ctx, derefOr(s.SourceText, nil), r.OpenAPILimits)
	}
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	var failure *openapi.Error
	if errors.As(err, &failure) {
		return nil, failure, nil
	}
	return doc, nil, err
}

// versionURL is where a version's entry document was found, or the spec's source URL when that
// place (after redirects) is longer than a URL may be.
func versionURL(doc *openapi.Document, s *ent.OpenAPISpec) string {
	if len(doc.URL) > specSourceMax {
		return derefOr(s.SourceURL, "")
	}
	return doc.URL
}

// sameSource reports whether two reads of a spec have the same source.
func sameSource(a, b *ent.OpenAPISpec) bool {
	return derefOr(a.SourceURL, "") == derefOr(b.SourceURL, "") && string(derefOr(a.SourceText, nil)) == string(derefOr(b.SourceText, nil))
}

// recordProcessing records a processing's outcome on the spec: the failure, or success with a
// new version when the content differs from the latest version's.
func (r *Resolver) recordProcessing(ctx context.Context, tx *ent.Tx, s *ent.OpenAPISpec, doc *openapi.Document, failure *openapi.Error) error {
	upd := tx.OpenAPISpec.UpdateOne(s).SetProcessingState(openapispec.ProcessingStateComplete).SetLastProcessedAt(r.now(ctx))
	if failure != nil {
		return upd.SetLastProcessErrorCode(openapispec.LastProcessErrorCode(failure.Code)).
			SetLastProcessError(truncate(failure.Message, 500)).SetLastProcessErrors(failure.Errors).
			SetLastProcessErrorCount(failure.Count).Exec(ctx)
	}
	upd.ClearLastProcessErrorCode().ClearLastProcessError().ClearLastProcessErrors().SetLastProcessErrorCount(0)
	if s.LastVersionID != nil {
		last, err := tx.OpenAPISpecVersion.Query().Where(openapispecversion.ID(*s.LastVersionID)).
			Select(openapispecversion.FieldDigest).String(ctx)
		if err != nil {
			return err
		}
		if last == doc.Digest {
			return upd.Exec(ctx)
		}
	}
	filesystem, err := json.Marshal(doc.Filesystem)
	if err != nil {
		return err
	}
	v, err := tx.OpenAPISpecVersion.Create().SetOrganizationID(s.OrganizationID).SetSpecID(s.ID).
		SetURL(versionURL(doc, s)).SetRaw(doc.Raw).SetFormat(openapispecversion.Format(doc.Format)).
		SetFilesystem(filesystem).SetDigest(doc.Digest).SetCreatedAt(r.now(ctx)).Save(ctx)
	if err != nil {
		return err
	}
	return upd.SetLastVersionID(v.ID).Exec(ctx)
}
