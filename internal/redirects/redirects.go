// Package redirects keeps a published site's old URLs working: the site's redirects (a source
// path of the site, a destination, and how readers are sent there, after the reference client's
// site-redirects), the redirects that renamed sections and site spaces leave, and the paths that
// pages of a space left when a merge or an import moved them. Members with a role read a site's
// redirects; those who manage the site change them, one site at a time (the site's row is locked,
// as for its structure). It knows nothing of the surfaces: graph, rest and publish translate.
package redirects

import (
	"context"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/siteredirect"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// Bounds of site redirects: the items of a bulk upsert (the reference's maxItems), and the rows
// or values one statement names (a few parameters each, well below the databases' limits).
const (
	BulkMax = 500
	batch   = 500
)

// Service is the site redirects of one server.
type Service struct {
	Client *ent.Client
	// Now is the current time, as stored.
	Now func(context.Context) time.Time
	// WriteSite runs fn in a transaction holding the site's row, for a viewer who manages the
	// site (action says what they do, for the refusal). Returns NOT_FOUND or FORBIDDEN before fn
	// runs.
	WriteSite func(ctx context.Context, orgID, siteID, action string, fn func(tx *ent.Tx, s *ent.Site) error) error
	// SpaceTree is the tree of a space's current content, as the viewer reads it.
	SpaceTree func(ctx context.Context, spaceID string) (*tree.Tree, error)
}

// CreateInput is a redirect to create.
type CreateInput struct {
	Source                            string
	Destination                       *DestinationInput
	CaptureWildcard, Draft, Permanent bool
}

// UpdateInput is what changes in a redirect: the fields given (nil stays as it is).
type UpdateInput struct {
	Source                            *string
	Destination                       *DestinationInput
	CaptureWildcard, Draft, Permanent *bool
}

// ParseSource reads a source path. Returns INVALID naming the field.
func ParseSource(field, s string) (Source, error) {
	src, err := Parse(s)
	if err != nil {
		return src, apperr.Invalidf("%s: %v (got %q)", field, err, check.Truncate(s, 80))
	}
	return src, nil
}

func (svc *Service) write(ctx context.Context, orgID, siteID string, fn func(tx *ent.Tx, s *ent.Site) error) error {
	return svc.WriteSite(ctx, orgID, siteID, "manage a site's redirects", fn)
}

// Create creates a redirect of a site, for a viewer who manages the site. Returns NOT_FOUND,
// FORBIDDEN, INVALID naming the field, NOT_FOUND naming a destination the site does not have,
// CONFLICT when the site has a redirect of the same source (live or draft, as this one) or holds
// the most redirects a site may.
func (svc *Service) Create(ctx context.Context, orgID, siteID string, in CreateInput) (*ent.SiteRedirect, error) {
	var out *ent.SiteRedirect
	err := svc.write(ctx, orgID, siteID, func(tx *ent.Tx, s *ent.Site) error {
		src, err := ParseSource("source", in.Source)
		if err != nil {
			return err
		}
		dest, err := svc.destinationsOf(s).check(ctx, "destination", in.Destination)
		if err != nil {
			return err
		}
		if err := sourceFree(ctx, tx, s.ID, in.Draft, src.Path, ""); err != nil {
			return err
		}
		if err := room(ctx, tx, s.ID, "redirects"); err != nil {
			return err
		}
		out, err = svc.newRedirect(ctx, tx, s, src, in.Draft, dest).
			SetCaptureWildcard(in.CaptureWildcard).SetPermanent(in.Permanent).Save(ctx)
		return err
	})
	return out, err
}

// newRedirect is the creation of a redirect, its two times equal (UpdatedAt).
func (svc *Service) newRedirect(ctx context.Context, tx *ent.Tx, s *ent.Site, src Source, draft bool, dest Destination) *ent.SiteRedirectCreate {
	now := svc.Now(ctx)
	c := tx.SiteRedirect.Create().SetOrganizationID(s.OrganizationID).SetSiteID(s.ID).SetDraft(draft).
		SetCreatedAt(now).SetUpdatedAt(now)
	setSource(c.Mutation(), src)
	dest.setOn(c.Mutation())
	return c
}

func setSource(m *ent.SiteRedirectMutation, src Source) {
	m.SetSource(src.Path)
	if src.Wildcard() {
		m.SetPrefix(src.Prefix)
	} else {
		m.ClearPrefix()
	}
}

// sourceFree checks that no redirect of the site but except has the source among the live
// redirects (or the drafts). Returns CONFLICT naming the source.
func sourceFree(ctx context.Context, tx *ent.Tx, siteID string, draft bool, source, except string) error {
	taken, err := tx.SiteRedirect.Query().Where(siteredirect.SiteID(siteID), siteredirect.Draft(draft),
		siteredirect.Source(source), siteredirect.IDNEQ(except)).Exist(ctx)
	if err != nil || !taken {
		return err
	}
	return apperr.Conflictf("source: the site has a %s redirect from %s already", liveOrDraft(draft), source)
}

func liveOrDraft(draft bool) string {
	if draft {
		return "draft"
	}
	return "live"
}

// Update changes the fields given of a redirect, for a viewer who manages its site. Returns
// NOT_FOUND, FORBIDDEN, INVALID naming the field, CONFLICT when another redirect of the site holds
// the source (live or draft, as this one will be).
func (svc *Service) Update(ctx context.Context, orgID, siteID, id string, in UpdateInput) (*ent.SiteRedirect, error) {
	var out *ent.SiteRedirect
	err := svc.write(ctx, orgID, siteID, func(tx *ent.Tx, s *ent.Site) error {
		red, err := tx.SiteRedirect.Query().Where(siteredirect.ID(id), siteredirect.SiteID(s.ID)).Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFoundf("site redirect not found")
		}
		if err != nil {
			return err
		}
		upd := tx.SiteRedirect.UpdateOne(red).SetNillableDraft(in.Draft).
			SetNillableCaptureWildcard(in.CaptureWildcard).SetNillablePermanent(in.Permanent)
		source := red.Source
		if in.Source != nil {
			src, err := ParseSource("source", *in.Source)
			if err != nil {
				return err
			}
			setSource(upd.Mutation(), src)
			source = src.Path
		}
		if in.Destination != nil {
			dest, err := svc.destinationsOf(s).check(ctx, "destination", in.Destination)
			if err != nil {
				return err
			}
			dest.setOn(upd.Mutation())
		}
		draft := red.Draft
		if in.Draft != nil {
			draft = *in.Draft
		}
		if err := sourceFree(ctx, tx, s.ID, draft, source, red.ID); err != nil {
			return err
		}
		if len(upd.Mutation().Fields())+len(upd.Mutation().ClearedFields()) == 0 {
			out = red // nothing given: nothing changes, not even updatedAt
			return nil
		}
		out, err = upd.Save(ctx)
		return err
	})
	return out, err
}

// Delete deletes a redirect, for a viewer who manages its site. Reports false when the site has
// no such redirect. Returns NOT_FOUND for the site, FORBIDDEN.
func (svc *Service) Delete(ctx context.Context, orgID, siteID, id string) (bool, error) {
	var deleted bool
	err := svc.write(ctx, orgID, siteID, func(tx *ent.Tx, s *ent.Site) error {
		n, err := tx.SiteRedirect.Delete().Where(siteredirect.ID(id), siteredirect.SiteID(s.ID)).Exec(ctx)
		deleted = n > 0
		return err
	})
	return deleted, err
}

// Find returns the redirect a reader of source follows on a site (the live one, else a draft),
// for a member who reads the site's redirects: a wildcard source names the redirect of that very
// source; with the part of the path its wildcard matched. Returns INVALID for a source that is
// not one; nil when no redirect matches.
func Find(ctx context.Context, client *ent.Client, siteID, source string) (*ent.SiteRedirect, string, error) {
	src, err := ParseSource("source", source)
	if err != nil {
		return nil, "", err
	}
	for _, draft := range []bool{false, true} {
		red, suffix, err := redirectFor(ctx, client, siteID, draft, src)
		if red != nil || err != nil {
			return red, suffix, err
		}
	}
	return nil, "", nil
}

// redirectFor returns the redirect of the site with the source src names (a wildcard source) or
// that a reader of its path follows (an exact one).
func redirectFor(ctx context.Context, client *ent.Client, siteID string, draft bool, src Source) (*ent.SiteRedirect, string, error) {
	if !src.Wildcard() {
		return match(ctx, client, siteID, draft, src.Path)
	}
	red, err := client.SiteRedirect.Query().Where(siteredirect.SiteID(siteID), siteredirect.Draft(draft),
		siteredirect.Source(src.Path)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, "", nil
	}
	return red, "", err
}

// match returns the redirect of a site that a reader of path (canonical) follows among its live
// redirects (or its drafts): the one of that exact source, else the wildcard one with the longest
// prefix; and the part of the path its wildcard matched. nil when none matches. One statement,
// through the indexes of sources and prefixes.
func match(ctx context.Context, client *ent.Client, siteID string, draft bool, path string) (*ent.SiteRedirect, string, error) {
	rows, err := client.SiteRedirect.Query().Where(siteredirect.SiteID(siteID), siteredirect.Draft(draft),
		siteredirect.Or(siteredirect.Source(path), siteredirect.PrefixIn(Prefixes(path)...))).All(ctx)
	if err != nil {
		return nil, "", err
	}
	candidates := make([]Source, len(rows))
	for i, red := range rows {
		candidates[i] = Source{Path: red.Source, Prefix: str(red.Prefix)}
	}
	i, suffix, ok := Best(candidates, path)
	if !ok {
		return nil, "", nil
	}
	return rows[i], suffix, nil
}

// str is the value of an optional string, "" when absent.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
