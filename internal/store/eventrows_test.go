package store_test

import (
	"context"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/binderyhq/bindery/ent/event"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestMigrationNumbersTextKeyedEvents: a database whose events are keyed by text (before
// decision 536) is migrated to events numbered in the order they were recorded, their text ids
// kept as public ids, each webhook delivery given its event's number (none for an event the
// retention removed), and new events numbered after them.
func TestMigrationNumbersTextKeyedEvents(t *testing.T) {
	ctx := context.Background()
	sys := accounts.System(ctx)
	o := store.Options{DataDir: t.TempDir(), DSN: testenv.PostgresDSN(t)}
	st, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	org := st.Client.Organization.Create().SetTitle("Acme").SaveX(sys)
	hook := st.Client.Webhook.Create().SetOrganizationID(org.ID).SetURL("https://hooks.example.com/").
		SetSealedSecret([]byte("sealed")).SaveX(sys)
	postgres := st.Driver.Dialect() == dialect.Postgres
	textType, timeType := "text", "datetime"
	if postgres {
		textType, timeType = "varchar(64)", "timestamptz"
	}
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	statements := []string{
		`DROP TABLE events`,
		`CREATE TABLE events (id ` + textType + ` NOT NULL PRIMARY KEY, created_at ` + timeType + ` NOT NULL,
			updated_at ` + timeType + ` NOT NULL, type ` + textType + ` NOT NULL, object_kind ` + textType + ` NOT NULL,
			object_id ` + textType + ` NOT NULL, space_id ` + textType + `, site_id ` + textType + `,
			actor_id ` + textType + `, details ` + map[bool]string{false: "json", true: "jsonb"}[postgres] + ` NOT NULL,
			dispatched boolean NOT NULL, organization_id ` + textType + ` NOT NULL)`,
		`CREATE INDEX event_dispatched_created_at ON events (dispatched, created_at)`,
		`UPDATE bindery_schema SET fingerprint = 'older'`,
	}
	for _, stmt := range statements {
		if _, err := st.Client.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	// Recorded in the order second, first (by time), whatever their ids; "gone" has a delivery
	// but no event (the retention removed it).
	for i, id := range []string{"zzSecond", "aaFirst"} {
		insert := `INSERT INTO events (id, created_at, updated_at, type, object_kind, object_id, details, dispatched, organization_id)
			VALUES ($1, $2, $2, 'space.created', 'space', 'space1', '{"n":1}', true, $3)`
		if _, err := st.Client.ExecContext(ctx, insert, id, at.Add(-time.Duration(i)*time.Minute), org.ID); err != nil {
			t.Fatal(err)
		}
	}
	for _, eventID := range []string{"zzSecond", "aaFirst", "gone"} {
		st.Client.WebhookDelivery.Create().SetOrganizationID(org.ID).SetWebhookID(hook.ID).SetEventID(eventID).
			SetEventType("space.created").SetRetryUntil(at).ExecX(sys)
	}
	st.Close()

	if st, err = store.Open(ctx, o); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recorded := st.Client.Event.Query().Order(event.ByID()).AllX(sys)
	if len(recorded) != 2 || recorded[0].PublicID != "aaFirst" || recorded[1].PublicID != "zzSecond" ||
		recorded[0].ID >= recorded[1].ID || recorded[0].Details["n"] != 1.0 || !recorded[0].Dispatched {
		t.Fatalf("events after the migration: %+v", recorded)
	}
	rows := map[string]*int64{}
	for _, d := range st.Client.WebhookDelivery.Query().AllX(sys) {
		rows[d.EventID] = d.EventRow
	}
	if rows["aaFirst"] == nil || *rows["aaFirst"] != recorded[0].ID || rows["zzSecond"] == nil ||
		*rows["zzSecond"] != recorded[1].ID || rows["gone"] != nil {
		t.Fatalf("deliveries' event rows: %v", rows)
	}
	if tableExists(st, "events_text_keyed") || !indexExists(t, st, "event_dispatched_created_at") {
		t.Fatal("the events set aside, or the new table's index, left as they were")
	}
	if err := events.Record(sys, st.Client, events.Event{Type: events.SpaceCreated, Organization: org.ID,
		ObjectKind: "space", ObjectID: "space2"}); err != nil {
		t.Fatal(err)
	}
	newest := st.Client.Event.Query().Order(event.ByID()).AllX(sys)[2]
	if newest.ObjectID != "space2" || newest.ID <= recorded[1].ID || newest.PublicID == "" {
		t.Fatalf("the event recorded after the migration: %+v", newest)
	}
}
