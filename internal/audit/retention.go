package audit

import (
	"context"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/auditevent"
	"github.com/binderyhq/bindery/ent/privacy"
)

// DefaultRetention is how long the audit log keeps an action unless the server is told otherwise
// (`bindery serve --audit-retention`).
const DefaultRetention = 365 * 24 * time.Hour

// purgeBatch is how many audit events one statement of Purge removes.
const purgeBatch = 1000

// Purge removes the audit events that occurred more than retention before now, in batches of
// purgeBatch, as the system, and returns how many it removed; a retention of 0 or less keeps
// them all. Nothing else reads or changes audit events, so batches need no lock: two processes
// purging at once remove each row once between them.
func Purge(ctx context.Context, client *ent.Client, now time.Time, retention time.Duration) (int, error) {
	if retention <= 0 {
		return 0, nil
	}
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	old := auditevent.CreatedAtLT(now.UTC().Add(-retention))
	total := 0
	for {
		ids, err := client.AuditEvent.Query().Where(old).Order(auditevent.ByCreatedAt()).Limit(purgeBatch).IDs(sys)
		if err != nil || len(ids) == 0 {
			return total, err
		}
		n, err := client.AuditEvent.Delete().Where(auditevent.IDIn(ids...)).Exec(sys)
		total += n
		if err != nil || len(ids) < purgeBatch {
			return total, err
		}
	}
}
