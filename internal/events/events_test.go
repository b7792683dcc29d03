package events_test

import (
	"context"
	"errors"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/event"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/internal/txn"
)

// TestRecordCommitsWithTheWrite: an event is kept iff the transaction that records it commits,
// on both databases, though on PostgreSQL its insert is sent with the COMMIT (decision 586): a
// write that fails after recording leaves no event, and an event whose insert the database
// refuses (a constraint the test adds) fails its write, which is then not kept either.
func TestRecordCommitsWithTheWrite(t *testing.T) {
	e := testenv.New(t)
	_, org := e.Bootstrap("ada@acme.io", "Acme")
	sys := accounts.System(context.Background())
	c := e.Store.Client
	write := func(title, orgOfEvent, object string, fail error) error {
		return txn.Run(sys, c, func(tx *ent.Tx) error {
			if err := tx.Organization.UpdateOneID(org).SetTitle(title).Exec(sys); err != nil {
				return err
			}
			if err := events.Record(sys, tx.Client(), events.Event{Type: events.SpaceUpdated, Organization: orgOfEvent,
				ObjectKind: "space", ObjectID: object, Space: object}); err != nil {
				return err
			}
			return fail
		})
	}
	check := func(t *testing.T, object string, wantEvents int, wantTitle string) {
		t.Helper()
		n, err := c.Event.Query().Where(event.ObjectID(object)).Count(sys)
		if err != nil {
			t.Fatal(err)
		}
		o, err := c.Organization.Query().Where(organization.ID(org)).Only(sys)
		if err != nil {
			t.Fatal(err)
		}
		if n != wantEvents || o.Title != wantTitle {
			t.Fatalf("events about %s: %d, title %q; want %d, %q", object, n, o.Title, wantEvents, wantTitle)
		}
	}

	t.Run("OKCommitted", func(t *testing.T) {
		if err := write("Committed", org, "committed", nil); err != nil {
			t.Fatal(err)
		}
		check(t, "committed", 1, "Committed")
	})

	t.Run("OKFailedWriteRecordsNothing", func(t *testing.T) {
		failed := errors.New("the write failed after its event")
		if err := write("Rolled back", org, "rolled-back", failed); !errors.Is(err, failed) {
			t.Fatalf("write: %v", err)
		}
		check(t, "rolled-back", 0, "Committed")
	})

	t.Run("ErrRefusedEventFailsTheWrite", func(t *testing.T) {
		refuse := `CREATE TRIGGER refuse_events BEFORE INSERT ON events WHEN NEW.object_id = 'refused'
			BEGIN SELECT RAISE(ABORT, 'refused'); END`
		if e.Store.Postgres() {
			refuse = `ALTER TABLE events ADD CONSTRAINT refuse_events CHECK (object_id <> 'refused')`
		}
		if _, err := c.ExecContext(context.Background(), refuse); err != nil {
			t.Fatal(err)
		}
		if err := write("Refused", org, "refused", nil); err == nil {
			t.Fatal("an event the database refuses was recorded")
		}
		check(t, "refused", 0, "Committed")
	})
}
