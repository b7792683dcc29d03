package backup

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxManifest bounds the bytes of the manifest entry read into memory.
const maxManifest = 64 << 10

// Restore unpacks an archive into dataDir, which must not hold a database or blobs yet (a new or
// empty directory). Everything is unpacked and checked — each blob's bytes against its name, the
// database against the manifest's digest and SQLite's quick_check, the counts against the
// manifest — in a temporary directory inside dataDir before it is moved into place, so a restore
// that fails leaves dataDir as it was.
func Restore(ctx context.Context, r io.Reader, dataDir string) (Manifest, error) {
	if err := checkVacant(dataDir); err != nil {
		return Manifest{}, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return Manifest{}, err
	}
	tmp, err := os.MkdirTemp(dataDir, ".restore-")
	if err != nil {
		return Manifest{}, err
	}
	defer os.RemoveAll(tmp)
	m, err := unpack(ctx, tar.NewReader(r), tmp)
	if err != nil {
		return m, err
	}
	if m.Database == SQLite {
		if err := quickCheck(ctx, filepath.Join(tmp, DatabaseName)); err != nil {
			return m, err
		}
	}
	return m, moveInto(tmp, dataDir)
}

// checkVacant refuses a data directory that holds a database or blobs already: a restore never
// mixes two states, nor replaces data a server may be using.
func checkVacant(dataDir string) error {
	for _, name := range []string{DatabaseName, DatabaseName + "-wal", BlobsDir} {
		if _, err := os.Stat(filepath.Join(dataDir, name)); err == nil {
			return fmt.Errorf("%s already holds %s: restore into a new or empty directory (stop the server and move the old one aside first)", dataDir, name)
		}
	}
	return nil
}

// moveInto moves the unpacked database and blobs from tmp into dataDir.
func moveInto(tmp, dataDir string) error {
	for _, name := range []string{BlobsDir, DatabaseName} {
		if _, err := os.Stat(filepath.Join(tmp, name)); errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err := os.Rename(filepath.Join(tmp, name), filepath.Join(dataDir, name)); err != nil {
			return err
		}
	}
	return nil
}

// unpack reads the manifest, then writes every other entry into dir, checking it.
func unpack(ctx context.Context, tr *tar.Reader, dir string) (Manifest, error) {
	m, err := readManifest(tr)
	if err != nil {
		return m, err
	}
	if err := os.Mkdir(filepath.Join(dir, BlobsDir), 0o700); err != nil {
		return m, err
	}
	var got Manifest
	for {
		if err := ctx.Err(); err != nil {
			return m, err
		}
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return m, fmt.Errorf("read the archive: %w", err)
		}
		if err := unpackEntry(tr, hdr, dir, m, &got); err != nil {
			return m, err
		}
	}
	return m, checkCounts(m, got)
}

func readManifest(tr *tar.Reader) (Manifest, error) {
	var m Manifest
	hdr, err := tr.Next()
	if err != nil || hdr.Name != ManifestName {
		return m, fmt.Errorf("not a Bindery backup: it does not start with %s", ManifestName)
	}
	data, err := io.ReadAll(io.LimitReader(tr, maxManifest))
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	switch {
	case err != nil:
		return m, fmt.Errorf("%s: %w", ManifestName, err)
	case m.Format != Format:
		return m, fmt.Errorf("%s: format %d, this bindery reads format %d", ManifestName, m.Format, Format)
	case m.Database != SQLite && m.Database != PostgreSQL:
		return m, fmt.Errorf("%s: database %q is neither %s nor %s", ManifestName, m.Database, SQLite, PostgreSQL)
	}
	return m, nil
}

// unpackEntry writes one entry under dir, checking its name and bytes, and counts it in got.
func unpackEntry(tr *tar.Reader, hdr *tar.Header, dir string, m Manifest, got *Manifest) error {
	if hdr.Typeflag != tar.TypeReg {
		return fmt.Errorf("the archive entry %s is not a regular file", hdr.Name)
	}
	want, err := expectedDigest(hdr.Name, m)
	if err != nil {
		return err
	}
	sum, n, err := writeNew(filepath.Join(dir, filepath.FromSlash(hdr.Name)), tr)
	if err != nil {
		return fmt.Errorf("unpack %s: %w", hdr.Name, err)
	}
	if sum != want {
		return fmt.Errorf("the archive entry %s is damaged: its bytes hash to sha256:%s", hdr.Name, sum)
	}
	if hdr.Name == DatabaseName {
		got.DatabaseBytes, got.DatabaseSHA256 = n, sum
	} else {
		got.Blobs++
		got.BlobBytes += n
	}
	return nil
}

// expectedDigest is the SHA-256 an entry's bytes must have: the manifest's for the database, the
// name's for a blob. Any other name is refused, so no entry lands outside the data directory.
func expectedDigest(name string, m Manifest) (string, error) {
	if name == DatabaseName && m.Database == SQLite {
		return m.DatabaseSHA256, nil
	}
	rest, ok := strings.CutPrefix(name, BlobsDir+"/")
	prefix, sum, _ := strings.Cut(rest, "/")
	if !ok || !isHex64(sum) || prefix != sum[:2] {
		return "", fmt.Errorf("the archive entry %q is neither %s nor blobs/<2 hex>/<64 hex>", name, DatabaseName)
	}
	return sum, nil
}

// writeNew writes r to a file that must not exist yet (an entry twice is an error), creating its
// directory, and returns the bytes' SHA-256 and count.
func writeNew(path string, r io.Reader) (string, int64, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", 0, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", 0, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return hex.EncodeToString(h.Sum(nil)), n, err
}

// checkCounts compares what was unpacked with what the manifest announced.
func checkCounts(m, got Manifest) error {
	switch {
	case m.Database == SQLite && got.DatabaseSHA256 == "":
		return fmt.Errorf("the archive has no %s although its manifest says it holds one", DatabaseName)
	case got.Blobs != m.Blobs || got.BlobBytes != m.BlobBytes:
		return fmt.Errorf("the archive holds %d blobs of %d bytes, its manifest %d of %d: it is incomplete",
			got.Blobs, got.BlobBytes, m.Blobs, m.BlobBytes)
	}
	return nil
}

// quickCheck runs SQLite's quick_check on the unpacked database.
func quickCheck(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	var result string
	if err := db.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&result); err != nil || result != "ok" {
		return fmt.Errorf("the database in the archive fails SQLite's quick_check: %s %v", result, err)
	}
	return nil
}
