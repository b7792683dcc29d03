package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/binderyhq/bindery/ent"
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
	if tableExists(st, "events_text_keyed") || indexExists(t, st, "event_dispatched_created_at") != postgres {
		t.Fatal("the events set aside left, or the new table's index not as its database keeps it (PostgreSQL only)")
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

// TestMigrationRebuildsSQLiteEventsByRow: on SQLite, an events table made with AUTOINCREMENT and
// the dispatcher's index (before decision 562) is made again without either, its events keeping
// their numbers; a delivery of an event the retention removed above every event kept loses its
// number, which the next event recorded is given.
func TestMigrationRebuildsSQLiteEventsByRow(t *testing.T) {
	ctx := context.Background()
	sys := accounts.System(ctx)
	if testenv.PostgresDSN(t) != "" {
		t.Skip("SQLite only")
	}
	o := store.Options{DataDir: t.TempDir()}
	st, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if made := eventsTable(t, st); strings.Contains(made, "AUTOINCREMENT") || indexExists(t, st, "event_dispatched_created_at") {
		t.Fatalf("a new database's events table: %s, or with the dispatcher's index", made)
	}
	org := st.Client.Organization.Create().SetTitle("Acme").SaveX(sys)
	hook := st.Client.Webhook.Create().SetOrganizationID(org.ID).SetURL("https://hooks.example.com/").
		SetSealedSecret([]byte("sealed")).SaveX(sys)
	for _, stmt := range []string{
		`DROP TABLE events`,
		"CREATE TABLE `events` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, " +
			"`updated_at` datetime NOT NULL, `public_id` text NOT NULL, `type` text NOT NULL, `object_kind` text NOT NULL, " +
			"`object_id` text NOT NULL, `space_id` text NULL, `site_id` text NULL, `actor_id` text NULL, `details` json NOT NULL, " +
			"`dispatched` bool NOT NULL DEFAULT (false), `organization_id` text NOT NULL, CONSTRAINT `events_organizations_organization` " +
			"FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE NO ACTION)",
		`CREATE INDEX event_dispatched_created_at ON events (dispatched, created_at)`,
	} {
		if _, err := st.Client.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	for _, space := range []string{"s1", "s2", "s3", "s4"} {
		if err := events.Record(sys, st.Client, events.Event{Type: events.SpaceCreated, Organization: org.ID,
			ObjectKind: "space", ObjectID: space}); err != nil {
			t.Fatal(err)
		}
	}
	recorded := st.Client.Event.Query().Order(event.ByID()).AllX(sys)
	st.Client.Event.DeleteOneID(recorded[3].ID).ExecX(sys) // the retention of the time, which removed the newest
	for _, e := range []*ent.Event{recorded[1], recorded[3]} {
		st.Client.WebhookDelivery.Create().SetOrganizationID(org.ID).SetWebhookID(hook.ID).SetEventID(e.PublicID).
			SetEventRow(e.ID).SetEventType(e.Type).SetRetryUntil(time.Now()).ExecX(sys)
	}
	if _, err := st.Client.ExecContext(ctx, `UPDATE bindery_schema SET fingerprint = 'older'`); err != nil {
		t.Fatal(err)
	}
	st.Close()

	if st, err = store.Open(ctx, o); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if made := eventsTable(t, st); strings.Contains(made, "AUTOINCREMENT") || indexExists(t, st, "event_dispatched_created_at") ||
		strings.Contains(made, "FOREIGN KEY") || tableExists(st, "events_autoincrement") {
		t.Fatalf("the events table after the migration: %s, or with the index, or the old one left", made)
	}
	kept := st.Client.Event.Query().Order(event.ByID()).AllX(sys)
	if len(kept) != 3 || kept[0].ID != recorded[0].ID || kept[2].ID != recorded[2].ID || kept[1].PublicID != recorded[1].PublicID {
		t.Fatalf("events after the migration: %+v", kept)
	}
	rows := map[string]*int64{}
	for _, d := range st.Client.WebhookDelivery.Query().AllX(sys) {
		rows[d.EventID] = d.EventRow
	}
	if r := rows[recorded[1].PublicID]; r == nil || *r != recorded[1].ID || rows[recorded[3].PublicID] != nil {
		t.Fatalf("deliveries' event rows: %v", rows)
	}
	if err := events.Record(sys, st.Client, events.Event{Type: events.SpaceCreated, Organization: org.ID,
		ObjectKind: "space", ObjectID: "s5"}); err != nil {
		t.Fatal(err)
	}
	if newest := st.Client.Event.Query().Order(event.ByID()).AllX(sys)[3]; newest.ObjectID != "s5" || newest.ID != recorded[3].ID {
		t.Fatalf("the event recorded after the migration: %+v, numbered %d", newest, recorded[3].ID)
	}
}

// eventsTable is the statement that made the SQLite database's events table.
func eventsTable(t *testing.T, st *store.Store) string {
	t.Helper()
	rows, err := st.Client.QueryContext(context.Background(), `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var made string
	if !rows.Next() || rows.Scan(&made) != nil {
		t.Fatal("no events table")
	}
	return made
}

// TestMigrationDropsEventsForeignKey: an events table with the foreign key to organizations
// (before decision 587) loses it, its events keeping their numbers: PostgreSQL drops the
// constraint, SQLite makes the table again.
func TestMigrationDropsEventsForeignKey(t *testing.T) {
	ctx := context.Background()
	sys := accounts.System(ctx)
	o := store.Options{DataDir: t.TempDir(), DSN: testenv.PostgresDSN(t)}
	st, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	postgres := st.Driver.Dialect() == dialect.Postgres
	if foreignKeys(t, st, postgres) != 0 {
		t.Fatal("a new database's events have a foreign key")
	}
	org := st.Client.Organization.Create().SetTitle("Acme").SaveX(sys)
	keyed := []string{`ALTER TABLE events ADD CONSTRAINT events_organizations_organization
		FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE NO ACTION`}
	if !postgres { // as ent made it on SQLite after decision 562
		keyed = []string{`DROP TABLE events`,
			"CREATE TABLE `events` (`id` integer NOT NULL PRIMARY KEY, `created_at` datetime NOT NULL, " +
				"`updated_at` datetime NOT NULL, `public_id` text NOT NULL, `type` text NOT NULL, `object_kind` text NOT NULL, " +
				"`object_id` text NOT NULL, `space_id` text NULL, `site_id` text NULL, `actor_id` text NULL, `details` json NOT NULL, " +
				"`dispatched` bool NOT NULL DEFAULT (false), `organization_id` text NOT NULL, CONSTRAINT `events_organizations_organization` " +
				"FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE NO ACTION)"}
	}
	for _, stmt := range append(keyed, `UPDATE bindery_schema SET fingerprint = 'older'`) {
		if _, err := st.Client.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if foreignKeys(t, st, postgres) != 1 {
		t.Fatal("the events' foreign key was not made")
	}
	for _, space := range []string{"s1", "s2"} {
		if err := events.Record(sys, st.Client, events.Event{Type: events.SpaceCreated, Organization: org.ID,
			ObjectKind: "space", ObjectID: space}); err != nil {
			t.Fatal(err)
		}
	}
	recorded := st.Client.Event.Query().Order(event.ByID()).AllX(sys)
	st.Close()

	if st, err = store.Open(ctx, o); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n := foreignKeys(t, st, postgres); n != 0 {
		t.Fatalf("the events' foreign keys after the migration: %d", n)
	}
	kept := st.Client.Event.Query().Order(event.ByID()).AllX(sys)
	if len(kept) != 2 || kept[0].ID != recorded[0].ID || kept[1].ID != recorded[1].ID || kept[1].PublicID != recorded[1].PublicID {
		t.Fatalf("events after the migration: %+v, before: %+v", kept, recorded)
	}
	if err := events.Record(sys, st.Client, events.Event{Type: events.SpaceCreated, Organization: org.ID,
		ObjectKind: "space", ObjectID: "s3"}); err != nil {
		t.Fatal(err)
	}
}

// foreignKeys counts the foreign keys of the events table.
func foreignKeys(t *testing.T, st *store.Store, postgres bool) int {
	t.Helper()
	query := `SELECT count(*) FROM pragma_foreign_key_list('events')`
	if postgres {
		query = `SELECT count(*) FROM information_schema.table_constraints
			WHERE table_schema = current_schema() AND table_name = 'events' AND constraint_type = 'FOREIGN KEY'`
	}
	rows, err := st.Client.QueryContext(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	if !rows.Next() || rows.Scan(&n) != nil {
		t.Fatal("no count of foreign keys")
	}
	return n
}
