package graph

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/siteredirect"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/graph/page"
	"github.com/binderyhq/bindery/internal/apperr"
	sourcepath "github.com/binderyhq/bindery/internal/siteredirect"
)

// Site redirects (the reference client's site-redirects): a source path of a published site, a
// destination, and how readers are sent there. Members with a role read them; creators and admins
// change them, one site at a time (the site's row is locked, as for its structure).

// Bounds of site redirects: the items of a bulk upsert (the reference's maxItems), a search.
const (
	redirectBulkMax   = 500
	redirectSearchMax = sourcepath.MaxSource
)

// redirectOrders maps the list's orders to their columns.
var redirectOrders = map[model.SiteRedirectOrder]string{
	model.SiteRedirectOrderCreatedAt: siteredirect.FieldCreatedAt,
	model.SiteRedirectOrderUpdatedAt: siteredirect.FieldUpdatedAt,
	model.SiteRedirectOrderSource:    siteredirect.FieldSource,
}

// siteRedirects is Site.redirects: a page of the site's live redirects (drafts when draft is
// true), newest first unless ordered otherwise; search keeps those whose source contains it.
// Returns INVALID for a search too long to be in a source.
func (r *Resolver) siteRedirects(ctx context.Context, s *ent.Site, first *int, after, search *string, draft *bool,
	orderBy *model.SiteRedirectOrder) (*model.SiteRedirectConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	f := loader.RedirectFilter{Draft: derefOr(draft, false), Search: derefOr(search, ""),
		Order: redirectOrders[derefOr(orderBy, model.SiteRedirectOrderCreatedAt)]}
	if err := checkText("search", f.Search, 0, redirectSearchMax); err != nil {
		return nil, err
	}
	p, err := loader.For(ctx, r.Client).SiteRedirectPage(ctx, s, f, args)
	if err != nil {
		return nil, err
	}
	cursorOf := func(red *ent.SiteRedirect) page.Cursor {
		return page.Cursor{Key: loader.RedirectSortKey(red, f.Order), ID: red.ID}
	}
	return &model.SiteRedirectConnection{
		Edges: edges(ctx, p.Items, cursorOf, func(c string, n *ent.SiteRedirect) *model.SiteRedirectEdge {
			return &model.SiteRedirectEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

// redirectUpdatedAt is SiteRedirect.updatedAt: absent until the redirect changed after its
// creation (a new redirect has both times equal).
func redirectUpdatedAt(red *ent.SiteRedirect) *time.Time {
	if red.UpdatedAt.Equal(red.CreatedAt) {
		return nil
	}
	return &red.UpdatedAt
}

// parseSource reads a source path. Returns INVALID naming the field.
func parseSource(field, s string) (sourcepath.Source, error) {
	src, err := sourcepath.Parse(s)
	if err != nil {
		return src, apperr.Invalidf("%s: %v (got %q)", field, err, truncate(s, 80))
	}
	return src, nil
}

// writeRedirects runs fn in a transaction holding the site's row, for a viewer who manages the
// site. Returns NOT_FOUND or FORBIDDEN before fn runs.
func (r *Resolver) writeRedirects(ctx context.Context, orgID, siteID string, fn func(tx *ent.Tx, s *ent.Site) error) error {
	return r.writeStructure(ctx, orgID, siteID, "manage a site's redirects", fn)
}

// createSiteRedirect creates a redirect. Returns NOT_FOUND, FORBIDDEN, INVALID naming the field,
// NOT_FOUND naming a destination the site does not have, CONFLICT when the site has a redirect of
// the same source (live or draft, as this one) or holds the most redirects a site may.
func (r *Resolver) createSiteRedirect(ctx context.Context, orgID, siteID string, in model.CreateSiteRedirectInput) (*ent.SiteRedirect, error) {
	var out *ent.SiteRedirect
	err := r.writeRedirects(ctx, orgID, siteID, func(tx *ent.Tx, s *ent.Site) error {
		src, err := parseSource("source", in.Source)
		if err != nil {
			return err
		}
		dest, err := r.destinationsOf(s).check(ctx, "destination", in.Destination)
		if err != nil {
			return err
		}
		draft := derefOr(in.Draft, false)
		if err := sourceFree(ctx, tx, s.ID, draft, src.Path, ""); err != nil {
			return err
		}
		if err := redirectRoom(ctx, tx, s.ID, "redirects"); err != nil {
			return err
		}
		out, err = r.newRedirect(ctx, tx, s, src, draft, dest).
			SetCaptureWildcard(derefOr(in.CaptureWildcard, false)).SetPermanent(derefOr(in.Permanent, false)).Save(ctx)
		return err
	})
	return out, err
}

// newRedirect is the creation of a redirect, its two times equal (SiteRedirect.updatedAt).
func (r *Resolver) newRedirect(ctx context.Context, tx *ent.Tx, s *ent.Site, src sourcepath.Source, draft bool, dest redirectDestination) *ent.SiteRedirectCreate {
	now := r.now(ctx)
	c := tx.SiteRedirect.Create().SetOrganizationID(s.OrganizationID).SetSiteID(s.ID).SetDraft(draft).
		SetCreatedAt(now).SetUpdatedAt(now)
	setSource(c.Mutation(), src)
	dest.setOn(c.Mutation())
	return c
}

func setSource(m *ent.SiteRedirectMutation, src sourcepath.Source) {
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

// updateSiteRedirect changes the fields given of a redirect. Returns NOT_FOUND, FORBIDDEN, INVALID
// naming the field, CONFLICT when another redirect of the site holds the source (live or draft,
// as this one will be).
func (r *Resolver) updateSiteRedirect(ctx context.Context, orgID, siteID, id string, in model.UpdateSiteRedirectInput) (*ent.SiteRedirect, error) {
	var out *ent.SiteRedirect
	err := r.writeRedirects(ctx, orgID, siteID, func(tx *ent.Tx, s *ent.Site) error {
		red, err := tx.SiteRedirect.Query().Where(siteredirect.ID(id), siteredirect.SiteID(s.ID)).Only(ctx)
		if err != nil {
			return notFound(err, "site redirect")
		}
		upd := tx.SiteRedirect.UpdateOne(red).SetNillableDraft(in.Draft).
			SetNillableCaptureWildcard(in.CaptureWildcard).SetNillablePermanent(in.Permanent)
		source := red.Source
		if in.Source != nil {
			src, err := parseSource("source", *in.Source)
			if err != nil {
				return err
			}
			setSource(upd.Mutation(), src)
			source = src.Path
		}
		if in.Destination != nil {
			dest, err := r.destinationsOf(s).check(ctx, "destination", in.Destination)
			if err != nil {
				return err
			}
			dest.setOn(upd.Mutation())
		}
		if err := sourceFree(ctx, tx, s.ID, derefOr(in.Draft, red.Draft), source, red.ID); err != nil {
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

// deleteSiteRedirect deletes a redirect. Reports false when the site has no such redirect.
// Returns NOT_FOUND for the site, FORBIDDEN.
func (r *Resolver) deleteSiteRedirect(ctx context.Context, orgID, siteID, id string) (bool, error) {
	var deleted bool
	err := r.writeRedirects(ctx, orgID, siteID, func(tx *ent.Tx, s *ent.Site) error {
		n, err := tx.SiteRedirect.Delete().Where(siteredirect.ID(id), siteredirect.SiteID(s.ID)).Exec(ctx)
		deleted = n > 0
		return err
	})
	return deleted, err
}

// redirectKey names a redirect of a site by what is unique in it.
type redirectKey struct {
	draft  bool
	source string
}

// bulkUpsertSiteRedirects applies up to 500 items in order, each on its own: an item that cannot
// be done (one more redirect than a site may hold too) answers an ERROR result saying why, and
// the others are still done, all in one transaction. Returns INVALID naming the field for a list of the wrong size, a source that is
// not one, or a LIVE or DRAFT item without a destination (null deletes); NOT_FOUND, FORBIDDEN.
func (r *Resolver) bulkUpsertSiteRedirects(ctx context.Context, orgID, siteID string, items []*model.SiteRedirectUpsertInput) ([]*model.SiteRedirectUpsertResult, error) {
	if len(items) == 0 || len(items) > redirectBulkMax {
		return nil, apperr.Invalidf("redirects: must hold 1 to %d items (got %d)", redirectBulkMax, len(items))
	}
	sources := make([]sourcepath.Source, len(items))
	for i, it := range items {
		field := fmt.Sprintf("redirects[%d]", i)
		src, err := parseSource(field+".source", it.Source)
		if err != nil {
			return nil, err
		}
		if intentOf(it) != model.SiteRedirectIntentPublish && !it.Destination.IsSet() {
			return nil, apperr.Invalidf("%s.destination: required (null deletes the redirect)", field)
		}
		sources[i] = src
	}
	results := make([]*model.SiteRedirectUpsertResult, len(items))
	err := r.writeRedirects(ctx, orgID, siteID, func(tx *ent.Tx, s *ent.Site) error {
		b, err := r.newBulk(ctx, tx, s, sources)
		if err != nil {
			return err
		}
		for i, it := range items {
			if results[i], err = b.apply(ctx, fmt.Sprintf("redirects[%d]", i), sources[i], it); err != nil {
				return err
			}
		}
		return nil
	})
	return results, err
}

func intentOf(it *model.SiteRedirectUpsertInput) model.SiteRedirectIntent {
	return derefOr(it.Intent, model.SiteRedirectIntentLive)
}

// bulk is a bulk upsert under way: the site's redirects of the sources named, as the items done
// so far left them.
type bulk struct {
	r        *Resolver
	tx       *ent.Tx
	site     *ent.Site
	dests    *destinations
	existing map[redirectKey]*ent.SiteRedirect
	count    int // the site's redirects
}

func (r *Resolver) newBulk(ctx context.Context, tx *ent.Tx, s *ent.Site, sources []sourcepath.Source) (*bulk, error) {
	b := &bulk{r: r, tx: tx, site: s, dests: r.destinationsOf(s), existing: map[redirectKey]*ent.SiteRedirect{}}
	paths := make([]string, len(sources))
	for i, src := range sources {
		paths[i] = src.Path
	}
	for chunk := range chunks(paths, objectBatch) {
		rows, err := tx.SiteRedirect.Query().Where(siteredirect.SiteID(s.ID), siteredirect.SourceIn(chunk...)).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, red := range rows {
			b.existing[redirectKey{red.Draft, red.Source}] = red
		}
	}
	var err error
	b.count, err = tx.SiteRedirect.Query().Where(siteredirect.SiteID(s.ID)).Count(ctx)
	return b, err
}

// apply does one item. An item that cannot be done (a bad or missing destination, nothing to
// delete or publish) is an ERROR result; the error returned fails the whole request.
func (b *bulk) apply(ctx context.Context, field string, src sourcepath.Source, it *model.SiteRedirectUpsertInput) (*model.SiteRedirectUpsertResult, error) {
	intent := intentOf(it)
	res := &model.SiteRedirectUpsertResult{Source: src.Path, Draft: intent == model.SiteRedirectIntentDraft}
	var err error
	switch {
	case intent == model.SiteRedirectIntentPublish:
		err = b.publish(ctx, src, res)
	case it.Destination.Value() == nil:
		err = b.delete(ctx, src, res)
	default:
		err = b.upsert(ctx, field, src, it, res)
	}
	if e := apperr.As(err); e != nil && (e.Kind == apperr.Invalid || e.Kind == apperr.NotFound || e.Kind == apperr.Conflict) {
		res.Status, res.Error = model.SiteRedirectUpsertStatusError, &e.Message
		return res, nil
	}
	return res, err
}

// publish makes the source's draft live, in place of the live redirect of the source.
func (b *bulk) publish(ctx context.Context, src sourcepath.Source, res *model.SiteRedirectUpsertResult) error {
	draft := b.existing[redirectKey{true, src.Path}]
	if draft == nil {
		return apperr.NotFoundf("source: the site has no draft redirect from %s to publish", src.Path)
	}
	if live := b.existing[redirectKey{false, src.Path}]; live != nil {
		if err := b.tx.SiteRedirect.DeleteOne(live).Exec(ctx); err != nil {
			return err
		}
		b.count--
	}
	published, err := b.tx.SiteRedirect.UpdateOne(draft).SetDraft(false).Save(ctx)
	if err != nil {
		return err
	}
	delete(b.existing, redirectKey{true, src.Path})
	b.existing[redirectKey{false, src.Path}] = published
	res.Status, res.ID = model.SiteRedirectUpsertStatusPublished, &published.ID
	return nil
}

// delete deletes the source's live redirect (or draft, as the item says).
func (b *bulk) delete(ctx context.Context, src sourcepath.Source, res *model.SiteRedirectUpsertResult) error {
	key := redirectKey{res.Draft, src.Path}
	red := b.existing[key]
	if red == nil {
		return apperr.NotFoundf("source: the site has no %s redirect from %s to delete", liveOrDraft(res.Draft), src.Path)
	}
	if err := b.tx.SiteRedirect.DeleteOne(red).Exec(ctx); err != nil {
		return err
	}
	b.count--
	delete(b.existing, key)
	res.Status = model.SiteRedirectUpsertStatusDeleted
	return nil
}

// upsert creates the source's live redirect (or draft), or updates it: its destination, and the
// flags the item gives.
func (b *bulk) upsert(ctx context.Context, field string, src sourcepath.Source, it *model.SiteRedirectUpsertInput, res *model.SiteRedirectUpsertResult) error {
	dest, err := b.dests.check(ctx, field+".destination", it.Destination.Value())
	if err != nil {
		return err
	}
	key := redirectKey{res.Draft, src.Path}
	var red *ent.SiteRedirect
	if old := b.existing[key]; old != nil {
		upd := b.tx.SiteRedirect.UpdateOne(old).SetNillableCaptureWildcard(it.CaptureWildcard).SetNillablePermanent(it.Permanent)
		dest.setOn(upd.Mutation())
		red, err = upd.Save(ctx)
		res.Status = model.SiteRedirectUpsertStatusUpdated
	} else {
		if err := roomFor(field, b.count); err != nil {
			return err
		}
		red, err = b.r.newRedirect(ctx, b.tx, b.site, src, res.Draft, dest).
			SetCaptureWildcard(derefOr(it.CaptureWildcard, false)).SetPermanent(derefOr(it.Permanent, false)).Save(ctx)
		res.Status = model.SiteRedirectUpsertStatusCreated
		b.count++
	}
	if err != nil {
		return apperr.Internalw(err) // checked before: a failure here fails the whole request
	}
	b.existing[key] = red
	res.ID = &red.ID
	return nil
}

// siteRedirectTarget is Site.redirect and getSiteRedirectBySource: the redirect a reader of source
// follows (the live one, else a draft), and the URL it leads to ("" when its destination is not
// there any more, or not one the viewer sees), with the request's share key when it is on the
// site (keyedURL). A wildcard source names the redirect of that very
// source. Returns INVALID for a source that is not one; nil when no redirect matches.
func (r *Resolver) siteRedirectTarget(ctx context.Context, s *ent.Site, source string) (*model.SiteRedirectTarget, error) {
	src, err := parseSource("source", source)
	if err != nil {
		return nil, err
	}
	for _, draft := range []bool{false, true} {
		red, suffix, err := r.redirectFor(ctx, s.ID, draft, src)
		if err != nil {
			return nil, err
		}
		if red == nil {
			continue
		}
		target, err := RedirectURL(ctx, red, suffix, apiURLs{r: r, site: s})
		if err != nil {
			return nil, err
		}
		if target != "" && red.DestinationKind != siteredirect.DestinationKindExternal {
			target = keyedURL(ctx, s.ID, target) // never on an address outside the site
		}
		return &model.SiteRedirectTarget{Redirect: red, Target: target}, nil
	}
	return nil, nil
}

// redirectFor returns the redirect of the site with the source src names (a wildcard source) or
// that a reader of its path follows (an exact one).
func (r *Resolver) redirectFor(ctx context.Context, siteID string, draft bool, src sourcepath.Source) (*ent.SiteRedirect, string, error) {
	if !src.Wildcard() {
		return matchRedirect(ctx, r.Client, siteID, draft, src.Path)
	}
	red, err := r.Client.SiteRedirect.Query().Where(siteredirect.SiteID(siteID), siteredirect.Draft(draft),
		siteredirect.Source(src.Path)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, "", nil
	}
	return red, "", err
}

// siteRedirectDestination is SiteRedirect.destination.
func siteRedirectDestination(red *ent.SiteRedirect) *model.SiteRedirectDestination {
	kind := model.SiteRedirectDestinationKind(strings.ToUpper(strings.ReplaceAll(string(red.DestinationKind), "-", "_")))
	return &model.SiteRedirectDestination{Kind: kind, SiteSectionID: red.DestinationSectionID,
		SiteSpaceID: red.DestinationSiteSpaceID, PageID: red.DestinationPageID, URL: red.DestinationURL}
}
