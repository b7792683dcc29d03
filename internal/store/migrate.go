package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/migrate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/slots"
)

// SchemaTable is the table holding the fingerprint of the schema the database was last migrated
// to (one row, id 1).
const SchemaTable = "bindery_schema"

// dataMigrations counts the steps of migrateAll that ent's tables and the raw statements do not
// describe: rows changed (rule.ResolveAllLevels, numberGitCommits, markGitPagesPending) and SQLite's events table
// shaped apart (eventsByRow, decision 562). Raise it when one is added or changed, so that
// databases migrated before run it.
const dataMigrations = 3

// migrateSchema migrates the database unless its stored fingerprint is this version's
// (Fingerprint): then the schema is already what this version creates, and starting costs one
// query instead of Atlas's inspection of every table. On PostgreSQL an advisory lock keeps several
// server processes starting at once from migrating concurrently; the fingerprint is read again
// under it, so the processes that waited do not migrate again.
func migrateSchema(ctx context.Context, drv dialect.Driver) error {
	writer := writerOf(drv)
	sqlDriver, ok := writer.(*entsql.Driver)
	if !ok {
		return fmt.Errorf("migrate: unexpected driver %T", writer)
	}
	want, err := Fingerprint(drv.Dialect())
	if err != nil {
		return err
	}
	if storedFingerprint(ctx, sqlDriver.DB()) == want {
		return nil
	}
	if drv.Dialect() != dialect.Postgres {
		return migrateAll(ctx, writer, sqlDriver.DB(), want)
	}
	conn, err := sqlDriver.DB().Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	const lockKey = 0x62696e64 // "bind"
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return fmt.Errorf("lock for migration: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", lockKey)
	if storedFingerprint(ctx, conn) == want {
		return nil
	}
	return migrateAll(ctx, writer, conn, want)
}

// migrateAll runs ent's migration (dropping indexes of its tables it no longer declares; on
// SQLite the events table without AUTOINCREMENT and index, eventsByRow; events keyed by text or
// with AUTOINCREMENT set aside before it and moved back after it, moveEventsBack; git commits
// recorded without a number numbered, numberGitCommits, and those whose pages were never
// recorded marked for the backfill, markGitPagesPending), then
// the search index's and the rate limit counters' through db, then resolves the levels of content
// written before resolved levels were stored (rule.ResolveAllLevels), and last stores the
// fingerprint: a migration cut short runs again.
func migrateAll(ctx context.Context, writer dialect.Driver, db entsql.ExecQuerier, fingerprint string) error {
	postgres := writer.Dialect() == dialect.Postgres
	if err := setAsideEvents(ctx, db, postgres); err != nil {
		return err
	}
	// Indexes the schema no longer declares are dropped (decision 333 replaced one): left in place
	// they would cost every write and could still be chosen by the planner.
	options := []schema.MigrateOption{schema.WithDropIndex(true)}
	if !postgres {
		options = append(options, schema.WithDiffHook(eventsByRow))
	}
	if err := migrate.NewSchema(writer).Create(ctx, options...); err != nil {
		return fmt.Errorf("migrate the database schema: %w", err)
	}
	if err := moveEventsBack(ctx, writer); err != nil {
		return err
	}
	if err := numberGitCommits(ctx, writer); err != nil {
		return err
	}
	if err := markGitPagesPending(ctx, writer); err != nil {
		return err
	}
	if err := migrateRaw(ctx, db, postgres); err != nil {
		return err
	}
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	if _, err := rule.ResolveAllLevels(sys, ent.NewClient(ent.Driver(writer))); err != nil {
		return fmt.Errorf("resolve the default levels of content: %w", err)
	}
	return storeFingerprint(ctx, db, writer.Dialect(), fingerprint)
}

// migrateRaw creates the tables ent does not know: the search index's, the blobs', the rate
// limit counters' and the slots' (subscriptions held across servers), and the events'
// notification trigger on PostgreSQL (idempotent statements).
func migrateRaw(ctx context.Context, db entsql.ExecQuerier, postgres bool) error {
	if err := CreateSearchTables(ctx, db, postgres); err != nil {
		return err
	}
	if err := blobs.CreateDBTables(ctx, db, postgres); err != nil {
		return err
	}
	if err := ratelimit.Migrate(ctx, db, postgres); err != nil {
		return fmt.Errorf("migrate the rate limit counters: %w", err)
	}
	if err := slots.Migrate(ctx, db, postgres); err != nil {
		return fmt.Errorf("migrate the slots: %w", err)
	}
	return createEventsTrigger(ctx, db, postgres)
}

// storedFingerprint returns the fingerprint the database was last migrated to, or "" when it has
// none (a new database, or one migrated before fingerprints were stored) or cannot be read (the
// migration then reports what is wrong).
func storedFingerprint(ctx context.Context, db entsql.ExecQuerier) string {
	rows, err := db.QueryContext(ctx, `SELECT fingerprint FROM `+SchemaTable+` WHERE id = 1`)
	if err != nil {
		return ""
	}
	defer rows.Close()
	var fp string
	if rows.Next() && rows.Scan(&fp) != nil {
		return ""
	}
	return fp
}

// storeFingerprint records that the database is migrated to fingerprint.
func storeFingerprint(ctx context.Context, db entsql.ExecQuerier, dialectName, fingerprint string) error {
	create := `CREATE TABLE IF NOT EXISTS ` + SchemaTable + ` (id INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL)`
	upsert := `INSERT INTO ` + SchemaTable + ` (id, fingerprint) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET fingerprint = excluded.fingerprint`
	if dialectName != dialect.Postgres {
		upsert = strings.Replace(upsert, "$1", "?", 1)
	}
	if _, err := db.ExecContext(ctx, create); err != nil {
		return fmt.Errorf("store the schema fingerprint: %w", err)
	}
	if _, err := db.ExecContext(ctx, upsert, fingerprint); err != nil {
		return fmt.Errorf("store the schema fingerprint: %w", err)
	}
	return nil
}

var fingerprints sync.Map // dialect → string

// Fingerprint is the SHA-256 (hex) of what migrating a database of the dialect creates: ent's
// tables as the generated ent/migrate describes them (columns, types, defaults, indexes, foreign
// keys, annotations), the statements of the raw tables (search index, blobs, rate limit counters)
// and dataMigrations. A database whose stored fingerprint differs, or that has none, is migrated.
func Fingerprint(dialectName string) (string, error) {
	if fp, ok := fingerprints.Load(dialectName); ok {
		return fp.(string), nil
	}
	raw := &statementRecorder{}
	if err := migrateRaw(context.Background(), raw, dialectName == dialect.Postgres); err != nil {
		return "", fmt.Errorf("fingerprint the schema: %w", err)
	}
	described, err := json.Marshal(struct {
		Dialect        string
		Tables         []tableDescription
		Raw            []string
		DataMigrations int
	}{dialectName, describeTables(migrate.Tables), raw.statements, dataMigrations})
	if err != nil {
		return "", fmt.Errorf("fingerprint the schema: %w", err)
	}
	sum := sha256.Sum256(described)
	fp := hex.EncodeToString(sum[:])
	fingerprints.Store(dialectName, fp)
	return fp, nil
}

// tableDescription is an ent table as JSON can hold it: the foreign keys name the tables and
// columns they join (schema.ForeignKey points at tables, which point back), and the position of
// the schema's source is left out, which moves with edits that change nothing.
type tableDescription struct {
	schema.Table
	ForeignKeys []foreignKeyDescription // hides Table's
}

type foreignKeyDescription struct {
	Symbol, RefTable   string
	Columns, RefColumn []string
	OnUpdate, OnDelete schema.ReferenceOption
}

func describeTables(tables []*schema.Table) []tableDescription {
	out := make([]tableDescription, len(tables))
	for i, t := range tables {
		out[i] = tableDescription{Table: *t}
		out[i].Table.Pos = ""
		for _, fk := range t.ForeignKeys {
			out[i].ForeignKeys = append(out[i].ForeignKeys, foreignKeyDescription{
				Symbol: fk.Symbol, RefTable: fk.RefTable.Name, Columns: columnNames(fk.Columns),
				RefColumn: columnNames(fk.RefColumns), OnUpdate: fk.OnUpdate, OnDelete: fk.OnDelete,
			})
		}
	}
	return out
}

func columnNames(columns []*schema.Column) []string {
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = c.Name
	}
	return names
}

// statementRecorder is a database that only writes down the statements it is sent: the raw
// migrations' text, for the fingerprint.
type statementRecorder struct{ statements []string }

func (r *statementRecorder) ExecContext(_ context.Context, query string, args ...any) (sql.Result, error) {
	r.statements = append(r.statements, fmt.Sprint(query, args))
	return driver.RowsAffected(0), nil
}

func (r *statementRecorder) QueryContext(context.Context, string, ...any) (*sql.Rows, error) {
	return nil, errors.New("a migration step that queries cannot be fingerprinted")
}

// inTx runs fn in one transaction of writer, committed when fn returns no error: a data step of
// the migration that must leave all or nothing.
func inTx(ctx context.Context, writer dialect.Driver, fn func(db entsql.ExecQuerier) error) error {
	tx, err := writer.Tx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	db, ok := tx.(entsql.ExecQuerier)
	if !ok {
		return fmt.Errorf("migrate: unexpected transaction %T", tx)
	}
	if err := fn(db); err != nil {
		return err
	}
	return tx.Commit()
}
