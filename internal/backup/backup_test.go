package backup_test

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/backup"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/store"
)

// entry is a file of a hand-made archive.
type entry struct {
	name string
	data []byte
}

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

func blobEntry(data []byte) entry {
	s := sum(data)
	return entry{"blobs/" + s[:2] + "/" + s, data}
}

// archive builds a tar of a manifest announcing the blob entries, then the entries.
func archive(t *testing.T, entries ...entry) []byte {
	t.Helper()
	m := backup.Manifest{Format: backup.Format, Database: backup.PostgreSQL}
	for _, e := range entries {
		m.Blobs++
		m.BlobBytes += int64(len(e.data))
	}
	manifest, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range append([]entry{{backup.ManifestName, manifest}}, entries...) {
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o600, Size: int64(len(e.data))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// dataDirWithBlobs is a data directory whose blob store holds each of contents.
func dataDirWithBlobs(t *testing.T, contents ...[]byte) string {
	t.Helper()
	dir := t.TempDir()
	store, err := blobs.NewDir(filepath.Join(dir, backup.BlobsDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range contents {
		if err := store.Put(context.Background(), "sha256:"+sum(b), b); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestBlobsOnlyRoundTrip(t *testing.T) {
	contents := [][]byte{[]byte("one"), []byte("two"), {}}
	var buf bytes.Buffer
	m, err := backup.Write(context.Background(), &buf, backup.Options{DataDir: dataDirWithBlobs(t, contents...), Postgres: true})
	if err != nil || m.Blobs != 3 || m.BlobBytes != 6 || m.Database != backup.PostgreSQL {
		t.Fatalf("write: %+v %v", m, err)
	}
	dir := filepath.Join(t.TempDir(), "new")
	got, err := backup.Restore(context.Background(), &buf, dir)
	if err != nil || got != m {
		t.Fatalf("restore: %+v %v, want %+v", got, err, m)
	}
	store, _ := blobs.NewDir(filepath.Join(dir, backup.BlobsDir))
	for _, b := range contents {
		f, err := store.Open(context.Background(), "sha256:"+sum(b))
		if err != nil {
			t.Fatalf("blob %q: %v", b, err)
		}
		f.Close()
	}
	if _, err := os.Stat(filepath.Join(dir, backup.DatabaseName)); err == nil {
		t.Error("a blobs-only archive restored a database")
	}
}

func TestWriteRefusesDamagedBlob(t *testing.T) {
	dir := dataDirWithBlobs(t, []byte("good bytes"))
	s := sum([]byte("good bytes"))
	if err := os.WriteFile(filepath.Join(dir, "blobs", s[:2], s), []byte("evil bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := backup.Write(context.Background(), &bytes.Buffer{}, backup.Options{DataDir: dir, Postgres: true})
	if err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), s) {
		t.Fatalf("err = %v, want one naming the damaged blob", err)
	}
}

func TestRestoreRefuses(t *testing.T) {
	good := blobEntry([]byte("good"))
	tampered := blobEntry([]byte("good"))
	tampered.data = []byte("evil")
	for _, c := range []struct {
		name    string
		archive []byte
		words   []string
	}{
		{"ErrTamperedBlob", archive(t, tampered), []string{"damaged", good.name}},
		{"ErrPathOutside", archive(t, entry{"blobs/../../etc/passwd", []byte("x")}), []string{"neither", "passwd"}},
		{"ErrUnknownEntry", archive(t, entry{"notes.txt", []byte("x")}), []string{"notes.txt"}},
		{"ErrDatabaseInBlobsOnlyArchive", archive(t, entry{backup.DatabaseName, []byte("x")}), []string{backup.DatabaseName}},
		{"ErrEntryTwice", archive(t, good, good), []string{good.name, "exists"}},
		{"ErrEmpty", nil, []string{"not a Bindery backup"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := backup.Restore(context.Background(), bytes.NewReader(c.archive), dir)
			if err == nil {
				t.Fatal("restored")
			}
			for _, w := range c.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("a failed restore left %v", left)
			}
		})
	}
}

func TestRestoreRefusesMissingBlob(t *testing.T) {
	data := archive(t, blobEntry([]byte("a")), blobEntry([]byte("b")))
	// The same manifest over one blob only: the archive was cut between two entries.
	var buf bytes.Buffer
	tr, tw := tar.NewReader(bytes.NewReader(data)), tar.NewWriter(&buf)
	for range 2 {
		hdr, err := tr.Next()
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(tr)
		if err == nil {
			err = tw.WriteHeader(hdr)
		}
		if err == nil {
			_, err = tw.Write(body)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := backup.Restore(context.Background(), &buf, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "incomplete") {
		t.Fatalf("err = %v, want incomplete", err)
	}
}

// TestSnapshotWhileWriting backs up a SQLite data directory while blobs are written as the
// server writes them (bytes first, then the row that records them), and restores it: every blob
// the restored database records is there, and no other.
func TestSnapshotWhileWriting(t *testing.T) {
	ctx := accounts.System(context.Background())
	dir := t.TempDir()
	st, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stop := make(chan struct{})
	written := make(chan error, 1)
	first := make(chan struct{}) // closed once one blob is recorded: the backup starts mid-stream
	go func() {
		defer func() {
			select {
			case <-first:
			default:
				close(first) // the writer failed before recording one: let the test see why
			}
		}()
		for i := 0; ; i++ {
			select {
			case <-stop:
				written <- nil
				return
			default:
			}
			data := []byte(fmt.Sprint("blob ", i))
			hash := "sha256:" + sum(data)
			if err := st.Blobs.Put(ctx, hash, data); err != nil {
				written <- err
				return
			}
			if err := st.Client.FileBlob.Create().SetID(hash).SetSize(int64(len(data))).Exec(ctx); err != nil {
				written <- err
				return
			}
			if i == 0 {
				close(first)
			}
		}
	}()
	<-first
	var buf bytes.Buffer
	m, err := backup.Write(ctx, &buf, backup.Options{DataDir: dir})
	close(stop)
	if werr := <-written; werr != nil || err != nil {
		t.Fatalf("write: %v; the writer: %v", err, werr)
	}
	restored := t.TempDir()
	if _, err := backup.Restore(ctx, &buf, restored); err != nil {
		t.Fatal(err)
	}
	st2, err := store.Open(ctx, store.Options{DataDir: restored})
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	recorded := st2.Client.FileBlob.Query().AllX(ctx)
	files, _ := filepath.Glob(filepath.Join(restored, backup.BlobsDir, "*", "*"))
	if len(recorded) != m.Blobs || len(files) != m.Blobs || m.Blobs == 0 {
		t.Fatalf("%d blobs recorded, %d restored, manifest %d", len(recorded), len(files), m.Blobs)
	}
	for _, b := range recorded {
		f, err := st2.Blobs.Open(ctx, b.ID)
		if err != nil {
			t.Fatalf("recorded blob %s: %v", b.ID, err)
		}
		f.Close()
	}
}
