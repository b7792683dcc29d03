package redirects

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/siteredirect"
	"github.com/binderyhq/bindery/internal/apperr"
)

// Renamed sections and site spaces keep their old URLs: a section's or site space's new path is
// written with a live, permanent redirect from every URL under the old one ("/old/*", capturing
// the rest) to the section or site space by id, as moved pages keep theirs (decision 317). A site
// holds at most SiteMax redirects, those recorded so counted: a write past it is refused.

// SiteMax is the most redirects (live and drafts) a site holds (decision 318).
const SiteMax = 10_000

// room returns CONFLICT naming field when the site holds SiteMax redirects: one more may not be
// created. Run it in the transaction holding the site's row.
func room(ctx context.Context, tx *ent.Tx, siteID, field string) error {
	n, err := tx.SiteRedirect.Query().Where(siteredirect.SiteID(siteID)).Count(ctx)
	if err != nil {
		return err
	}
	return roomFor(field, n)
}

// roomFor returns CONFLICT naming field when a site holding n redirects may not have one more.
func roomFor(field string, n int) error {
	if n >= SiteMax {
		return apperr.Conflictf("%s: the site has %d redirects, the most a site may have: delete some first", field, n)
	}
	return nil
}

// KeepOldURLs records, in tx (holding the site's row), that the URLs under oldPrefix (a path of
// the site, without its slashes) lead now to dest under newPrefix: a live redirect from
// "/oldPrefix/*", created or, when the site has one of that source, made to lead there. An
// earlier rename's redirect from "/newPrefix/*" to dest is dropped: the path is dest's again.
// Returns CONFLICT naming path when the site holds the most redirects it may.
func (svc *Service) KeepOldURLs(ctx context.Context, tx *ent.Tx, s *ent.Site, oldPrefix, newPrefix string, dest Destination) error {
	if again, ok := prefixSource(newPrefix); ok {
		_, err := tx.SiteRedirect.Delete().Where(siteredirect.SiteID(s.ID), siteredirect.Draft(false), siteredirect.Source(again.Path),
			siteredirect.DestinationKindEQ(dest.kind), sameDestination(dest)).Exec(ctx)
		if err != nil {
			return err
		}
	}
	src, ok := prefixSource(oldPrefix)
	if !ok {
		return nil // a path whose escaped form no source holds: its URLs are not kept
	}
	old, err := tx.SiteRedirect.Query().Where(siteredirect.SiteID(s.ID), siteredirect.Draft(false), siteredirect.Source(src.Path)).Only(ctx)
	switch {
	case err == nil:
		upd := tx.SiteRedirect.UpdateOne(old).SetCaptureWildcard(true).SetPermanent(true)
		dest.setOn(upd.Mutation())
		return upd.Exec(ctx)
	case !ent.IsNotFound(err):
		return err
	}
	if err := room(ctx, tx, s.ID, "path"); err != nil {
		return err
	}
	return svc.newRedirect(ctx, tx, s, src, false, dest).SetCaptureWildcard(true).SetPermanent(true).Exec(ctx)
}

// prefixSource is the wildcard source of every URL under a path of the site; false when the path
// is too long for a source once escaped.
func prefixSource(prefix string) (Source, bool) {
	src, err := Parse(Canonical("/"+prefix) + "/*")
	return src, err == nil
}

// sameDestination selects the redirects leading to a section or site space destination.
func sameDestination(dest Destination) predicate.SiteRedirect {
	if dest.sectionID != nil {
		return siteredirect.DestinationSectionID(*dest.sectionID)
	}
	return siteredirect.DestinationSiteSpaceID(str(dest.siteSpaceID))
}
