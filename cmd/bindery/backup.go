package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/backup"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/store"
)

// pgDumpAdvice is what backup and restore say about a PostgreSQL database, which they leave to
// PostgreSQL's own tools.
const pgDumpAdvice = `The database is PostgreSQL: this archive holds the file blobs only. Back up the database with
pg_dump before writing the archive (so every blob the dump names is in it), e.g.
    pg_dump --format=custom --file=bindery.dump "$BINDERY_DB"
and restore it with pg_restore --dbname="$BINDERY_DB" bindery.dump.`

// stdin is what `restore --from -` reads (tests replace it).
var stdin io.Reader = os.Stdin

func backupCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	var sf storeFlags
	sf.register(fs)
	out := fs.String("out", "", "file to write the archive to (a tar), or - for standard output")
	if err := parse(fs, args, "out"); err != nil {
		return err
	}
	if sf.db != "" && !store.IsPostgres(sf.db) {
		return fmt.Errorf("--db: %q is not a postgres:// URL (leave it empty for the embedded SQLite database)", sf.db)
	}
	where := blobsOf(sf)
	o := backup.Options{DataDir: sf.data, Postgres: sf.db != "", NoBlobs: where != store.BlobsDir,
		TempDir: filepath.Dir(*out), Version: server.Version}
	report := stdout
	var m backup.Manifest
	var err error
	if *out == "-" {
		o.TempDir, report = "", stderr
		m, err = backup.Write(ctx, stdout, o)
	} else {
		m, err = writeAtomically(*out, func(w io.Writer) (backup.Manifest, error) { return backup.Write(ctx, w, o) })
	}
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := recordBackup(ctx, sf, "bindery backup", audit.BackupCreated, m); err != nil {
		return fmt.Errorf("backup: the archive %s is written, but its audit events are not: %w", *out, err)
	}
	if o.Postgres {
		fmt.Fprintln(stderr, pgDumpAdvice)
	}
	if o.NoBlobs {
		fmt.Fprintf(stderr, "File bytes are not in the data directory (--blobs %s): the archive holds none; "+
			"they are in the database's backup, or back up the object store apart.\n", where)
	}
	return encodeLine(report, map[string]any{"backup": *out, "manifest": m})
}

// writeAtomically writes a new file through write: to a temporary file beside it, renamed into
// place once complete, so a failed or interrupted backup leaves no partial archive under the name.
func writeAtomically(path string, write func(io.Writer) (backup.Manifest, error)) (backup.Manifest, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".partial-*")
	if err != nil {
		return backup.Manifest{}, err
	}
	defer os.Remove(f.Name()) // after the rename, a no-op
	m, err := write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	return m, err
}

func restoreCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	data := fs.String("data", envOr("BINDERY_DATA", "./bindery-data"), "new or empty data directory to restore into (env BINDERY_DATA)")
	from := fs.String("from", "", "archive written by bindery backup, or - for standard input")
	if err := parse(fs, args, "from"); err != nil {
		return err
	}
	in := stdin
	if *from != "-" {
		f, err := os.Open(*from)
		if err != nil {
			return fmt.Errorf("restore: %w", err)
		}
		defer f.Close()
		in = f
	}
	m, err := backup.Restore(ctx, in, *data)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if m.Database == backup.PostgreSQL {
		fmt.Fprintln(stderr, pgDumpAdvice) // the database comes back with pg_restore: nothing to record in
	} else if err := recordBackup(ctx, storeFlags{data: *data}, "bindery restore", audit.BackupRestored, m); err != nil {
		return fmt.Errorf("restore: %s is restored, but its audit events are not: %w", *data, err)
	}
	return printJSON(map[string]any{"restored": *data, "manifest": m})
}

// recordBackup records action (a backup made or restored, the archive of m) in the audit log of
// every organization of the database sf opens, in one transaction, as the operator's command
// (decision 520).
func recordBackup(ctx context.Context, sf storeFlags, command, action string, m backup.Manifest) error {
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx = viewer.WithSource(accounts.System(ctx), viewer.SourceScript, command)
	return audit.RecordInEvery(ctx, st.Client, audit.Entry{Action: action, TargetType: "backup",
		TargetID: cmp.Or(m.ID, m.CreatedAt.Format(time.RFC3339)), TargetLabel: "Backup of " + m.CreatedAt.Format(time.RFC3339),
		Payload: map[string]any{"database": m.Database, "blobs": m.Blobs, "blobBytes": m.BlobBytes, "version": m.Version}})
}

// blobsOf is where the server keeps file bytes, as `serve` with the same flags decides it
// (store.DefaultBlobs); blobs an earlier version left in the data directory are archived.
func blobsOf(sf storeFlags) string {
	if sf.blobs.where != "" {
		return sf.blobs.where
	}
	where, err := store.DefaultBlobs(sf.data, sf.db != "")
	if err != nil {
		return store.BlobsDir
	}
	return where
}
