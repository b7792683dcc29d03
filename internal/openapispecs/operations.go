package openapispecs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/openapispec"
	"github.com/binderyhq/bindery/ent/openapispecversion"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apiref"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/openapi"
	"github.com/binderyhq/bindery/internal/sizedlru"
)

// ReadSpecs are what a server keeps of the specs' versions that pages show: each version's files
// read (apiref.Spec), by version id — a version never changes, and a spec's new version has a new
// id, so a page shows the new one as soon as it is processed.
type ReadSpecs struct {
	specs *sizedlru.Cache[string, *apiref.Spec]
}

// ReadSpecsBudget is the bytes of specs' files a server keeps read: GitHub's 13 MB description
// among others (a version over a quarter of the budget is not kept).
const ReadSpecsBudget = 64 << 20

// NewReadSpecs keeps read versions within budget bytes of their files; a version larger than a
// quarter of it is read again for each page (sizedlru).
func NewReadSpecs(budget int) *ReadSpecs {
	return &ReadSpecs{specs: sizedlru.New[string, *apiref.Spec](budget)}
}

// PageSpecs are the specs the OpenAPI blocks of a page name, as the page's site shows them:
// every spec of the site's organization, whatever its visibility — publishing a page publishes
// the operations it shows.
type PageSpecs struct {
	ctx     context.Context // the system's, for the organization's specs
	client  *ent.Client
	read    *ReadSpecs
	orgID   string
	bySlug  map[string]*ent.OpenAPISpec
	byURL   map[string]*ent.OpenAPISpec
	ordered []document.OpenAPIRef
}

// PageSpecs reads the specs of the organization that refs name: by slug, or, for GitBook's older
// block, by slug or source URL. One query, none when refs is empty.
func (svc *Service) PageSpecs(ctx context.Context, read *ReadSpecs, orgID string, refs []document.OpenAPIRef) (*PageSpecs, error) {
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	p := &PageSpecs{ctx: sys, client: svc.Client, read: read, orgID: orgID, ordered: refs,
		bySlug: map[string]*ent.OpenAPISpec{}, byURL: map[string]*ent.OpenAPISpec{}}
	if len(refs) == 0 {
		return p, nil
	}
	var names []string
	for _, ref := range refs {
		names = append(names, ref.Spec)
	}
	specs, err := svc.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(orgID),
		openapispec.Or(openapispec.SlugIn(names...), openapispec.SourceURLIn(names...))).All(sys)
	if err != nil {
		return nil, err
	}
	for _, s := range specs {
		p.bySlug[s.Slug] = s
		if s.SourceURL != nil {
			p.byURL[*s.SourceURL] = s
		}
	}
	return p, nil
}

// Key names what the page shows of its specs: each named spec's latest version, or its absence.
// A page cached under a key that names the versions is shown until one of them changes.
func (p *PageSpecs) Key() string {
	var b strings.Builder
	for _, ref := range p.ordered {
		s := p.spec(ref)
		fmt.Fprintf(&b, "%q:", ref.Spec)
		if s != nil {
			fmt.Fprintf(&b, " %s %s %s", s.ID, valueOf(s.LastVersionID), valueOf(s.LastProcessErrorCode))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// spec is the spec ref names, nil for none.
func (p *PageSpecs) spec(ref document.OpenAPIRef) *ent.OpenAPISpec {
	if s := p.bySlug[ref.Spec]; s != nil {
		return s
	}
	if ref.BySrc {
		return p.byURL[ref.Spec]
	}
	return nil
}

// Operation returns the operation or webhook ref points at in its spec's latest version, or why
// a reader sees none instead: no such spec, no version yet, no such operation.
func (p *PageSpecs) Operation(ref document.OpenAPIRef) (*apiref.Operation, string) {
	spec, notice := p.latest(ref)
	if spec == nil {
		return nil, notice
	}
	name := check.Truncate(ref.Spec, 100)
	var found *apiref.Operation
	var err error
	if ref.Name != "" {
		found, err = spec.Webhook(ref.Name, ref.Method)
	} else {
		found, err = spec.Operation(ref.Path, ref.Method)
	}
	switch {
	case errors.Is(err, apiref.ErrNoPath):
		return nil, fmt.Sprintf("The OpenAPI specification %q has no path %q.", name, check.Truncate(ref.Path, 200))
	case errors.Is(err, apiref.ErrNoWebhook):
		return nil, fmt.Sprintf("The OpenAPI specification %q has no webhook %q.", name, check.Truncate(ref.Name, 200))
	case errors.Is(err, apiref.ErrNoMethod):
		return nil, fmt.Sprintf("The OpenAPI specification %q has no operation %s %q.", name,
			strings.ToUpper(check.Truncate(ref.Method, 20)), check.Truncate(ref.Path+ref.Name, 200))
	case err != nil:
		return nil, fmt.Sprintf("The OpenAPI specification %q cannot be read.", name)
	}
	return found, ""
}

// Schemas returns the schemas an openapi-schemas block names in its spec's latest version, or
// why a reader sees none instead.
func (p *PageSpecs) Schemas(ref document.OpenAPIRef) ([]*apiref.Schema, string) {
	spec, notice := p.latest(ref)
	if spec == nil {
		return nil, notice
	}
	return spec.Schemas(ref.Schemas), ""
}

// latest is the latest version of the spec ref names, read, or the notice a reader sees when
// there is none.
func (p *PageSpecs) latest(ref document.OpenAPIRef) (*apiref.Spec, string) {
	name := check.Truncate(ref.Spec, 100)
	s := p.spec(ref)
	switch {
	case s == nil:
		return nil, fmt.Sprintf("The organization has no OpenAPI specification %q.", name)
	case s.LastVersionID == nil && s.LastProcessErrorCode != nil:
		return nil, fmt.Sprintf("The OpenAPI specification %q could not be processed (%s).", name, *s.LastProcessErrorCode)
	case s.LastVersionID == nil:
		return nil, fmt.Sprintf("The OpenAPI specification %q is not processed yet.", name)
	}
	spec, err := p.version(*s.LastVersionID)
	if err != nil {
		return nil, fmt.Sprintf("The OpenAPI specification %q cannot be read.", name)
	}
	return spec, ""
}

// errUnreadable is a version whose stored files cannot be read.
var errUnreadable = errors.New("the version's files cannot be read")

// version is a version's files read, kept by id.
func (p *PageSpecs) version(id string) (*apiref.Spec, error) {
	if s, ok := p.read.specs.Get(id); ok {
		return s, nil
	}
	v, err := p.client.OpenAPISpecVersion.Query().Where(openapispecversion.ID(id), openapispecversion.OrganizationID(p.orgID)).
		Select(openapispecversion.FieldURL, openapispecversion.FieldFormat, openapispecversion.FieldFilesystem).Only(p.ctx)
	if err != nil {
		return nil, err
	}
	s, ok := apiref.NewSpec(v.Filesystem, openapi.EntryName(v.URL, string(v.Format)))
	if !ok {
		return nil, errUnreadable
	}
	p.read.specs.Add(id, s, s.Size())
	return s, nil
}
