package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/internal/blobs"
)

// Where file bytes may live (Options.Blobs), besides an absolute directory and s3://bucket/prefix.
const (
	BlobsDB  = "db"  // in the database (the default on PostgreSQL)
	BlobsDir = "dir" // in <data directory>/blobs (the default on SQLite)
)

// OpenBlobs opens the blob store where names (Options.Blobs): the store of a server, or the
// destination of `bindery blobs migrate`. An object store's settings are the store's Options.S3.
func (s *Store) OpenBlobs(ctx context.Context, where string) (blobs.Store, error) {
	if where == "" {
		var err error
		if where, err = s.defaultBlobs(); err != nil {
			return nil, err
		}
	}
	switch {
	case where == BlobsDB:
		return s.dbBlobs(), nil
	case where == BlobsDir:
		return blobs.NewDir(filepath.Join(s.o.DataDir, "blobs"))
	case strings.HasPrefix(where, "s3://"):
		o := s.o.S3
		o.URL = where
		return blobs.NewS3(ctx, o)
	case filepath.IsAbs(where):
		return blobs.NewDir(where)
	}
	return nil, fmt.Errorf("--blobs: %q is not db, dir, an absolute directory or s3://bucket/prefix", where)
}

// defaultBlobs is where file bytes live when --blobs is not given (DefaultBlobs).
func (s *Store) defaultBlobs() (string, error) {
	return DefaultBlobs(s.o.DataDir, s.Postgres())
}

// DefaultBlobs is where file bytes live when --blobs is not given: the directory on SQLite, the
// database on PostgreSQL. A PostgreSQL server whose data directory still holds blobs of an
// earlier version (which kept them there) refuses to start rather than lose sight of them: the
// error says so.
func DefaultBlobs(dataDir string, postgres bool) (string, error) {
	if !postgres {
		return BlobsDir, nil
	}
	dir := filepath.Join(dataDir, "blobs")
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return "", fmt.Errorf("file bytes are in %s, where earlier versions kept them: keep them there with --blobs dir, "+
			"or copy them to the database with `bindery blobs migrate --blobs dir --to db` and remove the directory", dir)
	}
	return BlobsDB, nil
}

// dbBlobs is the blob store in this database: writes on the writer connection, reads on the
// readers (SQLite), or both on the one pool (PostgreSQL).
func (s *Store) dbBlobs() *blobs.DB {
	writer := writerOf(s.raw).(*entsql.Driver).DB()
	reader := writer
	if split, ok := s.raw.(*splitDriver); ok {
		reader = split.readerStmts.db
	}
	return blobs.NewDB(writer, reader)
}
