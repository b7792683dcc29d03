package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	atlas "ariga.io/atlas/sql/schema"
	"ariga.io/atlas/sql/sqlite"
	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"

	"github.com/binderyhq/bindery/ent/event"
)

// Events were keyed by a text id until decision 536 keyed them by an integer row number and kept
// the text id as their public id. ent's migration cannot turn one key into the other, so a
// database with text-keyed events is migrated around it: setAsideEvents renames the old table
// before ent's migration creates the new one, and moveEventsBack copies the events into it
// afterwards, numbering them in the order they were recorded, and gives each webhook delivery its
// event's number. Each step can run again after an interruption.
//
// On SQLite the events table has neither AUTOINCREMENT nor the dispatcher's index (decision 562):
// readers walk its row numbers, which SQLite's one writer gives in commit order (eventsByRow). A
// SQLite table made with them, or with the foreign key to organizations that events no longer
// have (decision 587; PostgreSQL drops the constraint in ent's migration), is set aside the same
// way and copied back with its numbers.

const (
	textKeyedEvents = "events_text_keyed"
	// rebuiltEvents is a SQLite events table set aside to be made again (its name since decision
	// 562, which rebuilt tables made with AUTOINCREMENT).
	rebuiltEvents = "events_autoincrement"
	dispatchIndex = "event_dispatched_created_at"
)

// eventsByRow is ent's migration on SQLite with the events table as SQLite keeps it: its rows
// numbered without AUTOINCREMENT (whose sqlite_sequence row is one more page each commit writes)
// and without the index (dispatched, created_at), which PostgreSQL keeps.
func eventsByRow(next schema.Differ) schema.Differ {
	return schema.DiffFunc(func(current, desired *atlas.Schema) ([]atlas.Change, error) {
		if t, ok := desired.Table(event.Table); ok {
			autoincrement := func(a atlas.Attr) bool { _, ok := a.(*sqlite.AutoIncrement); return ok }
			t.Attrs = slices.DeleteFunc(t.Attrs, autoincrement)
			for _, c := range t.Columns {
				c.Attrs = slices.DeleteFunc(c.Attrs, autoincrement)
			}
			if t.PrimaryKey != nil {
				t.PrimaryKey.Attrs = slices.DeleteFunc(t.PrimaryKey.Attrs, autoincrement)
			}
			t.Indexes = slices.DeleteFunc(t.Indexes, func(i *atlas.Index) bool { return i.Name == dispatchIndex })
		}
		return next.Diff(current, desired)
	})
}

// setAsideEvents renames an events table keyed by text, or on SQLite one made with AUTOINCREMENT
// or a foreign key, with its index and (on PostgreSQL) its key's index and trigger out of the new
// table's way.
func setAsideEvents(ctx context.Context, db entsql.ExecQuerier, postgres bool) error {
	textKeyed, err := eventsKeyedByText(ctx, db, postgres)
	if err != nil {
		return err
	}
	aside := textKeyedEvents
	if !textKeyed {
		if postgres {
			return nil
		}
		if rebuild, err := sqliteEventsToRebuild(ctx, db); err != nil || !rebuild {
			return err
		}
		aside = rebuiltEvents
	}
	statements := []string{`DROP INDEX IF EXISTS ` + dispatchIndex}
	if postgres {
		statements = append(statements, `DROP TRIGGER IF EXISTS events_notify ON events`,
			`ALTER INDEX IF EXISTS events_pkey RENAME TO `+aside+`_pkey`)
	}
	statements = append(statements, `ALTER TABLE events RENAME TO `+aside)
	for _, stmt := range statements {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("set aside the events table: %w", err)
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
	columnType, err := queryString(ctx, db, query)
	if err != nil {
		return false, fmt.Errorf("inspect the events table: %w", err)
	}
	return columnType != "" && columnType != "integer" && columnType != "bigint", nil
}

// sqliteEventsToRebuild reports whether the SQLite database has an events table made with
// AUTOINCREMENT (before decision 562) or with a foreign key (before decision 587).
func sqliteEventsToRebuild(ctx context.Context, db entsql.ExecQuerier) (bool, error) {
	made, err := queryString(ctx, db, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events'`)
	if err != nil {
		return false, fmt.Errorf("inspect the events table: %w", err)
	}
	made = strings.ToUpper(made)
	return strings.Contains(made, "AUTOINCREMENT") || strings.Contains(made, "FOREIGN KEY"), nil
}

// queryString is the first column of query's first row ("" when it has none).
func queryString(ctx context.Context, db entsql.ExecQuerier, query string) (string, error) {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var s string
	if rows.Next() {
		if err := rows.Scan(&s); err != nil {
			return "", err
		}
	}
	return s, rows.Err()
}

// eventColumns are the columns an events table set aside is copied back by, beside its key.
const eventColumns = `created_at, updated_at, organization_id, type, object_kind, object_id, space_id, site_id, actor_id, details, dispatched`

// moveEventsBack copies the events set aside into the new table, in one transaction of writer.
// Events keyed by text get their text ids as public ids, and rows numbered in the order they were
// recorded; each webhook delivery gets its event's number (a delivery whose event the retention
// removed keeps none). Events of a SQLite table rebuilt keep their numbers; a delivery whose event
// the retention removed, numbered above every event kept, loses its number, which the next event
// recorded would be given.
func moveEventsBack(ctx context.Context, writer dialect.Driver) error {
	return inTx(ctx, writer, func(db entsql.ExecQuerier) error {
		statements, err := movesBack(ctx, db, writer.Dialect() == dialect.Postgres)
		if err != nil {
			return err
		}
		for _, stmt := range statements {
			if _, err := db.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("move the events back: %w", err)
			}
		}
		return nil
	})
}

// movesBack are the statements that move the events set aside back (none when no table is aside).
func movesBack(ctx context.Context, db entsql.ExecQuerier, postgres bool) ([]string, error) {
	for _, aside := range []string{textKeyedEvents, rebuiltEvents} {
		found, err := tableExists(ctx, db, postgres, aside)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		if aside == rebuiltEvents {
			return []string{
				`INSERT INTO events (id, public_id, ` + eventColumns + `) SELECT id, public_id, ` + eventColumns + ` FROM ` + aside + ` ORDER BY id`,
				`UPDATE webhook_deliveries SET event_row = NULL WHERE event_row > (SELECT coalesce(max(id), 0) FROM events)`,
				`DROP TABLE ` + aside,
			}, nil
		}
		return []string{
			`INSERT INTO events (public_id, ` + eventColumns + `) SELECT id, ` + eventColumns + ` FROM ` + aside + ` ORDER BY created_at, id`,
			`CREATE INDEX events_public_id_moving ON events (public_id)`,
			`UPDATE webhook_deliveries SET event_row = (SELECT e.id FROM events e WHERE e.public_id = webhook_deliveries.event_id)`,
			`DROP INDEX events_public_id_moving`,
			`DROP TABLE ` + aside,
		}, nil
	}
	return nil, nil
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
