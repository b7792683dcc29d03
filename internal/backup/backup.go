// Package backup writes a consistent copy of a Bindery data directory into one tar archive while a
// server runs on it, and restores such an archive into an empty data directory.
//
// The archive holds, in this order:
//
//	bindery-backup.json   the Manifest: format, time, server version, database kind, counts, digests
//	bindery.db            a snapshot of the SQLite database (VACUUM INTO); absent for PostgreSQL
//	blobs/ab/ab12…        file bytes, named by their SHA-256 as in the data directory
//
// A snapshot is consistent on its own (VACUUM INTO reads in one transaction), and every blob it
// names is in the archive: a blob is written before the transaction that records it commits, and
// blobs are never removed, so the blobs recorded in the snapshot (its file_blobs table) are all on
// disk when they are copied afterwards. Only those are copied, so a restore holds exactly what the
// snapshot holds. With PostgreSQL the database is backed up with pg_dump, before this archive of
// every blob on disk is written, for the same reason.
package backup

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	_ "github.com/mattn/go-sqlite3" // the "sqlite3" database/sql driver
)

// Names inside the archive and the data directory.
const (
	ManifestName = "bindery-backup.json"
	DatabaseName = "bindery.db"
	BlobsDir     = "blobs"
)

// Format is the version of the archive layout this package writes and reads.
const Format = 1

// The kinds of database a Manifest names.
const (
	SQLite     = "sqlite"
	PostgreSQL = "postgresql"
)

// Manifest describes an archive; it is its first entry.
type Manifest struct {
	Format int `json:"format"`
	// ID names the archive (a UUID): the audit log's backup events name it (absent from archives
	// written before it was).
	ID        string    `json:"id,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	Version   string    `json:"version"` // of the server that wrote it
	// Database is SQLite when the archive holds the database, PostgreSQL when it is backed up
	// with pg_dump beside the archive.
	Database       string `json:"database"`
	DatabaseBytes  int64  `json:"databaseBytes,omitempty"`
	DatabaseSHA256 string `json:"databaseSHA256,omitempty"`
	Blobs          int    `json:"blobs"`
	BlobBytes      int64  `json:"blobBytes"`
}

// Options say what to back up.
type Options struct {
	DataDir  string
	Postgres bool // the database is PostgreSQL: the archive holds the blobs only
	// NoBlobs: file bytes are not in the data directory (they are in the database, which the
	// snapshot or pg_dump holds, or in an object store backed up apart): the archive holds none.
	NoBlobs bool
	TempDir string // where the SQLite snapshot waits before it is archived (default DataDir)
	Version string // of this server, recorded in the manifest
	Now     func() time.Time
}

// blob is a file of the blob store.
type blob struct {
	hex  string // its SHA-256
	size int64
}

func (b blob) name() string { return BlobsDir + "/" + b.hex[:2] + "/" + b.hex }

// Write writes an archive of the data directory to w and returns its manifest.
func Write(ctx context.Context, w io.Writer, o Options) (Manifest, error) {
	m := Manifest{Format: Format, ID: uuid.NewString(), CreatedAt: now(o).UTC().Truncate(time.Second), Version: o.Version, Database: PostgreSQL}
	var snap string
	var blobs []blob
	var err error
	if o.Postgres {
		blobs, err = storedBlobs(filepath.Join(o.DataDir, BlobsDir))
	} else {
		m.Database = SQLite
		if snap, err = snapshot(ctx, o); err != nil {
			return m, err
		}
		defer os.Remove(snap)
		if m.DatabaseBytes, m.DatabaseSHA256, err = digest(snap); err != nil {
			return m, err
		}
		blobs, err = recordedBlobs(ctx, snap)
	}
	if err != nil {
		return m, err
	}
	if o.NoBlobs {
		blobs = nil
	}
	for _, b := range blobs {
		m.Blobs++
		m.BlobBytes += b.size
	}
	return m, writeArchive(ctx, w, m, snap, blobs, o.DataDir)
}

func now(o Options) time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// writeArchive writes the manifest, the snapshot (when there is one) and the blobs.
func writeArchive(ctx context.Context, w io.Writer, m Manifest, snap string, blobs []blob, dataDir string) error {
	tw := tar.NewWriter(w)
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := writeEntry(tw, ManifestName, m.CreatedAt, int64(len(manifest)), strings.NewReader(string(manifest))); err != nil {
		return err
	}
	if snap != "" {
		if err := copyFile(tw, DatabaseName, m.CreatedAt, snap, m.DatabaseBytes, m.DatabaseSHA256); err != nil {
			return err
		}
	}
	for _, b := range blobs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := copyFile(tw, b.name(), m.CreatedAt, filepath.Join(dataDir, filepath.FromSlash(b.name())), b.size, b.hex); err != nil {
			return err
		}
	}
	return tw.Close()
}

func writeEntry(tw *tar.Writer, name string, mod time.Time, size int64, r io.Reader) error {
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o600, Size: size, ModTime: mod, Format: tar.FormatPAX}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err := io.CopyN(tw, r, size)
	return err
}

// copyFile archives the file at path as name, checking that its bytes have the size and SHA-256
// expected: a blob whose bytes were damaged on disk fails the backup, naming it.
func copyFile(tw *tar.Writer, name string, mod time.Time, path string, size int64, sum string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	defer f.Close()
	h := sha256.New()
	if err := writeEntry(tw, name, mod, size, io.TeeReader(f, h)); err != nil {
		return fmt.Errorf("archive %s (%d bytes expected): %w", name, size, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum {
		return fmt.Errorf("%s is damaged: its bytes hash to sha256:%s", path, got)
	}
	return nil
}

// snapshot copies the SQLite database into a new file of o.TempDir with VACUUM INTO, which reads
// it in one transaction while the server goes on writing, and returns the file's path.
func snapshot(ctx context.Context, o Options) (string, error) {
	path := filepath.Join(o.DataDir, DatabaseName)
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("no SQLite database at %s (is --data the server's data directory?): %w", path, err)
	}
	tmp := o.TempDir
	if tmp == "" {
		tmp = o.DataDir
	}
	out, err := os.CreateTemp(tmp, ".bindery-snapshot-*.db")
	if err != nil {
		return "", err
	}
	out.Close()
	os.Remove(out.Name()) // VACUUM INTO writes a file that does not exist
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=rw&_busy_timeout=10000")
	if err != nil {
		return "", err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", out.Name()); err != nil {
		os.Remove(out.Name())
		return "", fmt.Errorf("snapshot %s: %w", path, err)
	}
	return out.Name(), nil
}

// recordedBlobs lists the blobs a snapshot records, by hash.
func recordedBlobs(ctx context.Context, snap string) ([]blob, error) {
	db, err := sql.Open("sqlite3", "file:"+snap+"?mode=ro")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "SELECT id, size FROM file_blobs ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("list the blobs of the snapshot: %w", err)
	}
	defer rows.Close()
	var blobs []blob
	for rows.Next() {
		var hash string
		var b blob
		if err := rows.Scan(&hash, &b.size); err != nil {
			return nil, err
		}
		var ok bool
		if b.hex, ok = strings.CutPrefix(hash, "sha256:"); !ok || !isHex64(b.hex) {
			return nil, fmt.Errorf("the database records a blob named %q, not sha256:<64 hex digits>", hash)
		}
		blobs = append(blobs, b)
	}
	return blobs, rows.Err()
}

// storedBlobs lists the blobs in a blob directory, skipping files being written (.put-*).
func storedBlobs(dir string) ([]blob, error) {
	var blobs []blob
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !isHex64(d.Name()) || filepath.Base(filepath.Dir(path)) != d.Name()[:2] {
			return err
		}
		info, err := d.Info()
		if err == nil {
			blobs = append(blobs, blob{hex: d.Name(), size: info.Size()})
		}
		return err
	})
	if os.IsNotExist(err) {
		return nil, nil
	}
	return blobs, err
}

// digest returns a file's size and SHA-256.
func digest(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return n, hex.EncodeToString(h.Sum(nil)), err
}

func isHex64(s string) bool {
	return len(s) == 64 && strings.Trim(s, "0123456789abcdef") == ""
}
