// Package openapispecs holds the OpenAPI specifications of organizations: creating one from a URL
// or a text, giving it a new source, changing its visibility, deleting it, and processing its
// source in a background job (internal/jobs) into versions — a new one when the content changed —
// or the error of the processing. Reviewers and up manage an organization's specs; its members
// read them; anyone reads the versions of a public spec.
//
// It is the stored side of internal/openapi, which turns one document into a version's content
// and knows no database (a pure processor whose tests and benchmarks run without one), so the
// specs' rows, jobs and access live here rather than there; internal/apispec is test support for
// the reference client's document, unrelated. It knows nothing of the surfaces: graph and rest
// translate, and graph keeps the lists.
package openapispecs

import (
	"context"
	"regexp"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/openapispec"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/openapi"
	"github.com/binderyhq/bindery/internal/txn"
)

// Job is the kind of the background job that processes a spec (its key is the spec's id).
const Job = "openapi"

// Bounds of OpenAPI specs (spec/03 Limits).
const (
	slugMax   = 100
	sourceMax = 2048
)

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// manager is the role that manages specs: the one rule.ForOrganization's createOpenAPISpec
// and the schema's policy name.
const manager = viewer.RoleReview

// Service is the OpenAPI specifications of one server, as the viewer of a context reads and
// writes them.
type Service struct {
	Client *ent.Client
	// Now is the current time, as stored.
	Now func(context.Context) time.Time
	// Organization reads an organization the viewer belongs to. Returns NOT_FOUND otherwise,
	// FORBIDDEN to a session its single sign-on refuses.
	Organization func(ctx context.Context, id string) (*ent.Organization, error)
	// Fetcher makes the outbound requests of URL sources (SSRF-guarded); Limits bound a
	// processing and a source given as text.
	Fetcher *fetch.Client
	Limits  openapi.Limits
	// Refresh is how often a spec with a URL source is processed again (0: only when asked).
	Refresh time.Duration
	// Jobs is this process's job runner, woken when a write asks for a processing (nil: the
	// processing waits for a runner's next look at the jobs table).
	Jobs *jobs.Runner
}

// Source is the source of a spec as given: exactly one of a URL and a text.
type Source struct {
	URL  *string
	Text *string
}

// checkedSource is a source that passed checkSource: a URL or the bytes of a text.
type checkedSource struct {
	url  *string
	text []byte
}

// Spec returns the spec of an organization with this slug.
// Returns NOT_FOUND if either does not exist or the viewer may not see it.
func (svc *Service) Spec(ctx context.Context, orgID, slug string) (*ent.OpenAPISpec, error) {
	if _, err := svc.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	s, err := svc.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(orgID), openapispec.Slug(slug)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("no OpenAPI specification has the slug %q", check.Truncate(slug, 100))
	}
	return s, err
}

// requireManager checks that the viewer manages the organization's specs; action says what, for
// the refusal. Returns NOT_FOUND or FORBIDDEN.
func (svc *Service) requireManager(ctx context.Context, orgID, action string) error {
	if _, err := svc.Organization(ctx, orgID); err != nil {
		return err
	}
	return rule.RequireOrgRole(ctx, orgID, manager, action)
}

// checkSource checks a source: exactly one of an absolute http(s) URL of at most 2048
// characters and a non-empty text within the processing bound. Returns INVALID or TOO_LARGE.
func (svc *Service) checkSource(in *Source) (checkedSource, error) {
	switch {
	case in == nil:
		return checkedSource{}, apperr.Invalidf("source: is required")
	case in.URL != nil && in.Text != nil:
		return checkedSource{}, apperr.Invalidf("source: give url or text, not both")
	case in.URL != nil:
		return checkedSource{url: in.URL}, check.URL("source.url", *in.URL, sourceMax)
	case in.Text == nil:
		return checkedSource{}, apperr.Invalidf("source: needs url or text")
	case *in.Text == "":
		return checkedSource{}, apperr.Invalidf("source.text: must not be empty")
	case int64(len(*in.Text)) > svc.Limits.MaxBytes:
		return checkedSource{}, apperr.TooLargef("source.text: must be at most %d bytes", svc.Limits.MaxBytes)
	}
	return checkedSource{text: []byte(*in.Text)}, nil
}

// checkSlug checks a spec's slug: 1 to 100 characters, lower-case words of letters and digits
// joined by single hyphens. Returns INVALID.
func checkSlug(slug string) error {
	if err := check.Text("slug", slug, 1, slugMax); err != nil {
		return err
	}
	if !slugPattern.MatchString(slug) {
		return apperr.Invalidf("slug: must be lower-case letters and digits in words joined by single hyphens (got %q)", check.Truncate(slug, 100))
	}
	return nil
}

// Create creates a spec and asks for its processing.
// Returns NOT_FOUND, FORBIDDEN, INVALID, or CONFLICT when the slug is taken.
func (svc *Service) Create(ctx context.Context, orgID, slug string, source *Source) (*ent.OpenAPISpec, error) {
	if err := svc.requireManager(ctx, orgID, "create OpenAPI specifications"); err != nil {
		return nil, err
	}
	if err := checkSlug(slug); err != nil {
		return nil, err
	}
	src, err := svc.checkSource(source)
	if err != nil {
		return nil, err
	}
	return svc.write(ctx, func(tx *ent.Tx) (*ent.OpenAPISpec, error) {
		create := tx.OpenAPISpec.Create().SetOrganizationID(orgID).SetSlug(slug).SetNillableSourceURL(src.url)
		if src.text != nil {
			create.SetSourceText(src.text)
		}
		return create.Save(ctx)
	})
}

// write runs write in a transaction that also asks for the written spec's processing, then
// wakes this process's runner. A taken slug is CONFLICT.
func (svc *Service) write(ctx context.Context, write func(tx *ent.Tx) (*ent.OpenAPISpec, error)) (*ent.OpenAPISpec, error) {
	var s *ent.OpenAPISpec
	err := txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		var err error
		if s, err = write(tx); err != nil {
			return err
		}
		return jobs.Enqueue(ctx, tx.Client(), Job, s.ID, svc.Now(ctx))
	})
	if ent.IsConstraintError(err) {
		return nil, apperr.Conflictf("slug: the organization already has an OpenAPI specification with this slug")
	}
	if err == nil {
		svc.Jobs.Wake()
	}
	return s, err
}

// Put creates the spec with this slug, or sets the source of the existing one; either way the
// source is processed again. It reports whether it created the spec.
// Returns NOT_FOUND, FORBIDDEN or INVALID.
func (svc *Service) Put(ctx context.Context, orgID, slug string, source *Source) (*ent.OpenAPISpec, bool, error) {
	if err := svc.requireManager(ctx, orgID, "publish OpenAPI specifications"); err != nil {
		return nil, false, err
	}
	existing, err := svc.Spec(ctx, orgID, slug)
	if apperr.IsNotFound(err) {
		s, err := svc.Create(ctx, orgID, slug, source)
		return s, err == nil, err
	}
	if err != nil {
		return nil, false, err
	}
	src, err := svc.checkSource(source)
	if err != nil {
		return nil, false, err
	}
	s, err := svc.write(ctx, func(tx *ent.Tx) (*ent.OpenAPISpec, error) {
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

// Update changes a spec's visibility. Returns NOT_FOUND or FORBIDDEN.
func (svc *Service) Update(ctx context.Context, orgID, slug string, visibility openapispec.Visibility) (*ent.OpenAPISpec, error) {
	if err := svc.requireManager(ctx, orgID, "change OpenAPI specifications"); err != nil {
		return nil, err
	}
	s, err := svc.Spec(ctx, orgID, slug)
	if err != nil {
		return nil, err
	}
	return svc.Client.OpenAPISpec.UpdateOne(s).SetVisibility(visibility).Save(ctx)
}

// Delete deletes a spec with its versions (their foreign key cascades) and its pending
// processing. It reports false when the organization has no spec with this slug.
// Returns NOT_FOUND (the organization) or FORBIDDEN.
func (svc *Service) Delete(ctx context.Context, orgID, slug string) (bool, error) {
	if err := svc.requireManager(ctx, orgID, "delete OpenAPI specifications"); err != nil {
		return false, err
	}
	s, err := svc.Spec(ctx, orgID, slug)
	if apperr.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if err := tx.OpenAPISpec.DeleteOne(s).Exec(ctx); err != nil {
			return err
		}
		return jobs.Cancel(ctx, tx.Client(), Job, s.ID)
	})
	return err == nil, err
}
