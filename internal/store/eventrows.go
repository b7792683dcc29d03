package store

import (
	"cmp"
	"context"
	"fmt"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// Events were keyed by a text id until decision 536 keyed them by an integer row number and kept
// the text id as their public id. ent's migration cannot turn one key into the other, so a
// database with text-keyed events is migrated around it: setAsideTextKeyedEvents renames the old
// table before ent's migration creates the new one, and moveTextKeyedEvents copies the events
// into it afterwards, numbering them in the order they were recorded, and gives each webhook
// delivery its event's number. Each step can run again after an interruption.

const textKeyedEvents = "events_text_keyed"

// setAsideTextKeyedEvents renames an events table keyed by text, with its index and (on
// PostgreSQL) its key's index and trigger out of the new table's way.
func setAsideTextKeyedEvents(ctx context.Context, db entsql.ExecQuerier, postgres bool) error {
	textKeyed, err := eventsKeyedByText(ctx, db, postgres)
	if err != nil || !textKeyed {
		return err
	}
	statements := []string{`DROP INDEX IF EXISTS event_dispatched_created_at`}
	if postgres {
		statements = append(statements, `DROP TRIGGER IF EXISTS events_notify ON events`,
			`ALTER INDEX IF EXISTS events_pkey RENAME TO `+textKeyedEvents+`_pkey`)
	}
	statements = append(statements, `ALTER TABLE events RENAME TO `+textKeyedEvents)
	for _, stmt := range statements {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("set aside the events keyed by text: %w", err)
		}
	}
	return nil
}

// eventsKeyedByText reports whether the database has an events table whose id is text.
func eventsKeyedByText(ctx context.Context, db entsql.ExecQuerier, postgres bool) (bool, error) {
	query := `SELECT lower(type) FROM pragma_table_info('events') WHERE name = 'id'`
	if postgres {
		query = `SELECT data_type FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = 'events' AND column_name = 'id'`
	}
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return false, fmt.Errorf("inspect the events table: %w", err)
	}
	defer rows.Close()
	var columnType string
	if rows.Next() {
		if err := rows.Scan(&columnType); err != nil {
			return false, err
		}
	}
	return columnType != "" && columnType != "integer" && columnType != "bigint", rows.Err()
}

// moveTextKeyedEvents copies the events set aside into the new table, in one transaction of
// writer: their text ids become their public ids, their rows are numbered in the order they were
// recorded, and each webhook delivery gets its event's number (a delivery whose event the
// retention removed keeps none).
func moveTextKeyedEvents(ctx context.Context, writer dialect.Driver) error {
	tx, err := writer.Tx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	db, ok := tx.(entsql.ExecQuerier)
	if !ok {
		return fmt.Errorf("migrate: unexpected transaction %T", tx)
	}
	if exists, err := tableExists(ctx, db, writer.Dialect() == dialect.Postgres, textKeyedEvents); err != nil || !exists {
		return err
	}
	const columns = `created_at, updated_at, organization_id, type, object_kind, object_id, space_id, site_id, actor_id, details, dispatched`
	for _, stmt := range []string{
		`INSERT INTO events (public_id, ` + columns + `) SELECT id, ` + columns + ` FROM ` + textKeyedEvents + ` ORDER BY created_at, id`,
		`CREATE INDEX events_public_id_moving ON events (public_id)`,
		`UPDATE webhook_deliveries SET event_row = (SELECT e.id FROM events e WHERE e.public_id = webhook_deliveries.event_id)`,
		`DROP INDEX events_public_id_moving`,
		`DROP TABLE ` + textKeyedEvents,
	} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("move the events keyed by text: %w", err)
		}
	}
	return tx.Commit()
}

// tableExists reports whether the database has a table of that name.
func tableExists(ctx context.Context, db entsql.ExecQuerier, postgres bool, name string) (bool, error) {
	query := `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`
	if postgres {
		query = `SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1`
	}
	rows, err := db.QueryContext(ctx, query, name)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	n := 0
	if rows.Next() {
		err = rows.Scan(&n)
	}
	return n > 0, cmp.Or(err, rows.Err())
}
