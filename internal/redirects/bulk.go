package redirects

import (
	"context"
	"fmt"
	"slices"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/siteredirect"
	"github.com/binderyhq/bindery/internal/apperr"
)

// Intent is what an item of a bulk upsert does, named as the API names it.
type Intent string

// The intents: LIVE and DRAFT create or update the live or draft redirect of the source, or
// delete it when the destination is null; PUBLISH makes the source's draft live.
const (
	IntentLive    Intent = "LIVE"
	IntentDraft   Intent = "DRAFT"
	IntentPublish Intent = "PUBLISH"
)

// UpsertItem is an item of a bulk upsert. Destination is nil with HasDestination to delete.
type UpsertItem struct {
	Source                     string
	Intent                     Intent // LIVE when ""
	CaptureWildcard, Permanent *bool
	Destination                *DestinationInput
	HasDestination             bool
}

// UpsertStatus is what became of an item, named as the API names it.
type UpsertStatus string

// The statuses of items.
const (
	StatusCreated   UpsertStatus = "CREATED"
	StatusUpdated   UpsertStatus = "UPDATED"
	StatusDeleted   UpsertStatus = "DELETED"
	StatusPublished UpsertStatus = "PUBLISHED"
	StatusError     UpsertStatus = "ERROR"
)

// UpsertResult is what became of an item: the redirect concerned (ID), or why it was not done
// (Error).
type UpsertResult struct {
	Status UpsertStatus
	Source string
	Draft  bool
	ID     *string
	Error  *string
}

func (it UpsertItem) intent() Intent {
	if it.Intent == "" {
		return IntentLive
	}
	return it.Intent
}

// redirectKey names a redirect of a site by what is unique in it.
type redirectKey struct {
	draft  bool
	source string
}

// BulkUpsert applies up to BulkMax items in order, each on its own, for a viewer who manages the
// site: an item that cannot be done (one more redirect than a site may hold too) answers an ERROR
// result saying why, and the others are still done, all in one transaction. Returns INVALID
// naming the field for a list of the wrong size, a source that is not one, or a LIVE or DRAFT
// item without a destination (null deletes); NOT_FOUND, FORBIDDEN.
func (svc *Service) BulkUpsert(ctx context.Context, orgID, siteID string, items []UpsertItem) ([]UpsertResult, error) {
	if len(items) == 0 || len(items) > BulkMax {
		return nil, apperr.Invalidf("redirects: must hold 1 to %d items (got %d)", BulkMax, len(items))
	}
	sources := make([]Source, len(items))
	for i, it := range items {
		field := itemField(i)
		src, err := ParseSource(field+".source", it.Source)
		if err != nil {
			return nil, err
		}
		if it.intent() != IntentPublish && !it.HasDestination {
			return nil, apperr.Invalidf("%s.destination: required (null deletes the redirect)", field)
		}
		sources[i] = src
	}
	results := make([]UpsertResult, len(items))
	err := svc.write(ctx, orgID, siteID, func(tx *ent.Tx, s *ent.Site) error {
		b, err := svc.newBulk(ctx, tx, s, sources)
		if err != nil {
			return err
		}
		for i, it := range items {
			if results[i], err = b.apply(ctx, itemField(i), sources[i], it); err != nil {
				return err
			}
		}
		return nil
	})
	return results, err
}

// itemField names the item i of a bulk upsert.
func itemField(i int) string { return fmt.Sprintf("redirects[%d]", i) }

// bulk is a bulk upsert under way: the site's redirects of the sources named, as the items done
// so far left them.
type bulk struct {
	svc      *Service
	tx       *ent.Tx
	site     *ent.Site
	dests    *destinations
	existing map[redirectKey]*ent.SiteRedirect
	count    int // the site's redirects
}

func (svc *Service) newBulk(ctx context.Context, tx *ent.Tx, s *ent.Site, sources []Source) (*bulk, error) {
	b := &bulk{svc: svc, tx: tx, site: s, dests: svc.destinationsOf(s), existing: map[redirectKey]*ent.SiteRedirect{}}
	for chunk := range slices.Chunk(sourcePaths(sources), batch) {
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
func (b *bulk) apply(ctx context.Context, field string, src Source, it UpsertItem) (UpsertResult, error) {
	intent := it.intent()
	res := UpsertResult{Source: src.Path, Draft: intent == IntentDraft}
	var err error
	switch {
	case intent == IntentPublish:
		err = b.publish(ctx, src, &res)
	case it.Destination == nil:
		err = b.delete(ctx, src, &res)
	default:
		err = b.upsert(ctx, field, src, it, &res)
	}
	if e := apperr.As(err); e != nil && (e.Kind == apperr.Invalid || e.Kind == apperr.NotFound || e.Kind == apperr.Conflict) {
		res.Status, res.Error = StatusError, &e.Message
		return res, nil
	}
	return res, err
}

// publish makes the source's draft live, in place of the live redirect of the source.
func (b *bulk) publish(ctx context.Context, src Source, res *UpsertResult) error {
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
	res.Status, res.ID = StatusPublished, &published.ID
	return nil
}

// delete deletes the source's live redirect (or draft, as the item says).
func (b *bulk) delete(ctx context.Context, src Source, res *UpsertResult) error {
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
	res.Status = StatusDeleted
	return nil
}

// upsert creates the source's live redirect (or draft), or updates it: its destination, and the
// flags the item gives.
func (b *bulk) upsert(ctx context.Context, field string, src Source, it UpsertItem, res *UpsertResult) error {
	dest, err := b.dests.check(ctx, field+".destination", it.Destination)
	if err != nil {
		return err
	}
	key := redirectKey{res.Draft, src.Path}
	var red *ent.SiteRedirect
	if old := b.existing[key]; old != nil {
		upd := b.tx.SiteRedirect.UpdateOne(old).SetNillableCaptureWildcard(it.CaptureWildcard).SetNillablePermanent(it.Permanent)
		dest.setOn(upd.Mutation())
		red, err = upd.Save(ctx)
		res.Status = StatusUpdated
	} else {
		if err := roomFor(field, b.count); err != nil {
			return err
		}
		red, err = b.svc.newRedirect(ctx, b.tx, b.site, src, res.Draft, dest).
			SetCaptureWildcard(isTrue(it.CaptureWildcard)).SetPermanent(isTrue(it.Permanent)).Save(ctx)
		res.Status = StatusCreated
		b.count++
	}
	if err != nil {
		return apperr.Internalw(err) // checked before: a failure here fails the whole request
	}
	b.existing[key] = red
	res.ID = &red.ID
	return nil
}

func isTrue(p *bool) bool { return p != nil && *p }

// sourcePaths are the paths of sources.
func sourcePaths(sources []Source) []string {
	paths := make([]string, len(sources))
	for i, src := range sources {
		paths[i] = src.Path
	}
	return paths
}
