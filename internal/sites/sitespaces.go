// Package sites holds the rules of sites that every writer of them shares: which site spaces a
// level has, and what follows when site spaces leave (counters, a level's default).
package sites

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/internal/txn"
)

// AtLevel selects the site spaces of a section, or of the root level when section is nil.
func AtLevel(section *string) predicate.SiteSpace {
	if section == nil {
		return sitespace.SectionIDIsNil()
	}
	return sitespace.SectionID(*section)
}

// Leave removes, in tx, the site spaces matching where, and returns how many it removed:
// their sites are locked first (in id order, so writers of several sites cannot deadlock), each
// site's counter goes down by its site spaces removed, and each level whose default left gets
// its first remaining site space as default. It writes as the system: the removal was decided
// by the caller (a site manager removing a site space, or a space leaving the sites of its
// organization on its deletion or transfer, which the space's policy decided), and the counters
// and defaults only follow it, whoever may otherwise write those sites.
func Leave(ctx context.Context, tx *ent.Tx, where predicate.SiteSpace) (int, error) {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	siteIDs, err := tx.SiteSpace.Query().Where(where).Unique(true).Select(sitespace.FieldSiteID).Strings(sys)
	if err != nil || len(siteIDs) == 0 {
		return 0, err
	}
	if _, err := tx.Site.Query().Where(site.IDIn(siteIDs...)).Order(site.ByID()).Modify(txn.ForUpdate).IDs(sys); err != nil {
		return 0, err
	}
	gone, err := tx.SiteSpace.Query().Where(where).All(sys) // again, under the sites' locks
	if err != nil {
		return 0, err
	}
	ids, perSite := make([]string, len(gone)), map[string]int{}
	for i, ss := range gone {
		ids[i] = ss.ID
		perSite[ss.SiteID]++
	}
	if _, err := tx.SiteSpace.Delete().Where(sitespace.IDIn(ids...)).Exec(sys); err != nil {
		return 0, err
	}
	for siteID, n := range perSite {
		if err := tx.Site.UpdateOneID(siteID).AddSiteSpacesCount(-n).Exec(sys); err != nil {
			return 0, err
		}
	}
	for _, ss := range gone {
		if !ss.IsDefault {
			continue
		}
		if err := electDefault(sys, tx, ss.SiteID, ss.SectionID); err != nil {
			return 0, err
		}
	}
	return len(gone), nil
}

// electDefault makes the first site space of a level its default (a level without site spaces
// has none).
func electDefault(ctx context.Context, tx *ent.Tx, siteID string, section *string) error {
	first, err := tx.SiteSpace.Query().Where(sitespace.SiteID(siteID), AtLevel(section)).
		Order(ent.Asc(sitespace.FieldPosition), ent.Asc(sitespace.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return tx.SiteSpace.UpdateOne(first).SetIsDefault(true).Exec(ctx)
}
