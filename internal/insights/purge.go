package insights

import (
	"context"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/siteinsightevent"
	"github.com/binderyhq/bindery/ent/siteinsightrollup"
	"github.com/binderyhq/bindery/ent/siteinsightvisitor"
	"github.com/binderyhq/bindery/ent/viewer"
)

// DefaultRetention is how long events and their daily counts are kept unless `serve
// --insights-retention` says otherwise: 13 months, so that lastYear has a whole year.
const DefaultRetention = 395 * 24 * time.Hour

// purgeBatch is how many rows one statement of Purge removes.
const purgeBatch = 5000

// Purge removes the events, daily counts and daily visitors older than retention, and the visitor salts of the
// days before yesterday, and returns how many rows it removed. The hourly sweep
// (internal/sweep) calls it.
func Purge(ctx context.Context, client *ent.Client, now time.Time, retention time.Duration) (int, error) {
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	if _, err := client.ServerKey.Delete().Where(oldSalts(Day(now))).Exec(sys); err != nil {
		return 0, err
	}
	cutoff := now.UTC().Add(-retention)
	events, err := inBatches(
		func() ([]int, error) {
			return client.SiteInsightEvent.Query().Where(siteinsightevent.CreatedAtLT(cutoff)).Limit(purgeBatch).IDs(sys)
		},
		func(ids []int) error {
			_, err := client.SiteInsightEvent.Delete().Where(siteinsightevent.IDIn(ids...)).Exec(sys)
			return err
		})
	if err != nil {
		return events, err
	}
	counts, err := inBatches(
		func() ([]int, error) {
			return client.SiteInsightRollup.Query().Where(siteinsightrollup.DayLT(Day(cutoff))).Limit(purgeBatch).IDs(sys)
		},
		func(ids []int) error {
			_, err := client.SiteInsightRollup.Delete().Where(siteinsightrollup.IDIn(ids...)).Exec(sys)
			return err
		})
	if err != nil {
		return events + counts, err
	}
	visitors, err := inBatches(
		func() ([]int, error) {
			return client.SiteInsightVisitor.Query().Where(siteinsightvisitor.DayLT(Day(cutoff))).Limit(purgeBatch).IDs(sys)
		},
		func(ids []int) error {
			_, err := client.SiteInsightVisitor.Delete().Where(siteinsightvisitor.IDIn(ids...)).Exec(sys)
			return err
		})
	return events + counts + visitors, err
}

// inBatches removes the rows next names, purgeBatch at a time, until none is left, and returns
// how many it removed.
func inBatches(next func() ([]int, error), remove func([]int) error) (int, error) {
	total := 0
	for {
		ids, err := next()
		if err == nil && len(ids) > 0 {
			err = remove(ids)
		}
		if err != nil {
			return total, err
		}
		total += len(ids)
		if len(ids) < purgeBatch {
			return total, nil
		}
	}
}
