package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
		fmt.Fprintln(stderr, pgDumpAdvice)
	}
	return printJSON(map[string]any{"restored": *data, "manifest": m})
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
