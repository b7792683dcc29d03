package blobs_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// stores are the blob stores under test: a directory, the test database (SQLite, or PostgreSQL
// when BINDERY_TEST_DB is set) and an S3-compatible server on loopback.
func stores(t *testing.T) map[string]func(t *testing.T) blobs.Store {
	return map[string]func(t *testing.T) blobs.Store{
		"Dir": func(t *testing.T) blobs.Store {
			d, err := blobs.NewDir(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			return d
		},
		"DB": func(t *testing.T) blobs.Store {
			st := testenv.OpenStore(t, new(atomic.Int64))
			s, err := st.OpenBlobs(context.Background(), "db")
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		"S3": func(t *testing.T) blobs.Store { return testenv.OpenS3(t, "some/prefix") },
	}
}

func TestStores(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) { testStore(t, open(t), name != "S3") })
	}
}

// randomBytes are n bytes that do not compress, spanning chunks of the DB store when n is large.
func randomBytes(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// testStore checks a store's contract. withEmpty includes an empty blob: the S3 test server
// (gofakes3) refuses an empty PUT, whose zero Content-Length Go's HTTP server drops before it looks.
func testStore(t *testing.T, s blobs.Store, withEmpty bool) {
	ctx := context.Background()
	big := randomBytes(2*blobs.ChunkSize + 12345)
	small := []byte("\x00\x01 bytes \xff")
	empty := []byte("empty stand-in")
	if withEmpty {
		empty = []byte{}
	}
	for _, data := range [][]byte{big, small, empty, small} { // a second put of the same bytes is harmless
		if err := s.Put(ctx, blobs.Hash(data), data); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("ReadWhole", func(t *testing.T) {
		for _, data := range [][]byte{big, small, empty} {
			got, err := blobs.Read(ctx, s, blobs.Hash(data))
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("read %d bytes (%v), want %d", len(got), err, len(data))
			}
		}
	})
	t.Run("ReadRanges", func(t *testing.T) {
		f, err := s.Open(ctx, blobs.Hash(big))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if end, err := f.Seek(0, io.SeekEnd); err != nil || end != int64(len(big)) {
			t.Fatalf("Seek to the end: %d, %v; want %d", end, err, len(big))
		}
		for _, r := range [][2]int{{blobs.ChunkSize - 10, 20}, {5, 100}, {len(big) - 7, 7}, {2 * blobs.ChunkSize, 3000}} {
			if _, err := f.Seek(int64(r[0]), io.SeekStart); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, r[1])
			if _, err := io.ReadFull(f, got); err != nil || !bytes.Equal(got, big[r[0]:r[0]+r[1]]) {
				t.Errorf("bytes %d..+%d: %v, or not the bytes stored", r[0], r[1], err)
			}
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		if _, err := s.Open(ctx, blobs.Hash([]byte("other"))); !errors.Is(err, blobs.ErrNotFound) {
			t.Errorf("Open of a missing blob: %v, want ErrNotFound", err)
		}
	})
	t.Run("BadHashes", func(t *testing.T) {
		for _, bad := range []string{"", "sha256:../../etc/passwd", "md5:abc", "sha256:" + string(make([]byte, 64))} {
			if err := s.Put(ctx, bad, small); err == nil {
				t.Errorf("Put(%q) succeeded", bad)
			}
			if _, err := s.Open(ctx, bad); err == nil || errors.Is(err, blobs.ErrNotFound) {
				t.Errorf("Open(%q): %v, want an error about the hash", bad, err)
			}
		}
	})
	t.Run("ListAndDelete", func(t *testing.T) {
		past, future := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
		if got := list(t, s, past); len(got) != 0 {
			t.Errorf("blobs written before an hour ago: %v", got)
		}
		want := []string{blobs.Hash(big), blobs.Hash(small), blobs.Hash(empty)}
		slices.Sort(want)
		if got := list(t, s, future); !slices.Equal(got, want) {
			t.Errorf("blobs written before an hour from now: %v, want %v", got, want)
		}
		if err := s.Delete(ctx, blobs.Hash(small), past); err != nil {
			t.Fatal(err)
		}
		if _, err := blobs.Read(ctx, s, blobs.Hash(small)); err != nil {
			t.Errorf("a blob written after the cutoff was deleted: %v", err)
		}
		for range 2 { // deleting a missing blob is no error
			if err := s.Delete(ctx, blobs.Hash(small), future); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Open(ctx, blobs.Hash(small)); !errors.Is(err, blobs.ErrNotFound) {
			t.Errorf("Open after Delete: %v, want ErrNotFound", err)
		}
		if got := list(t, s, future); len(got) != 2 {
			t.Errorf("after a delete the store lists %v", got)
		}
	})
}

func list(t *testing.T, s blobs.Store, before time.Time) []string {
	t.Helper()
	var got []string
	if err := s.List(context.Background(), before, func(h string) error { got = append(got, h); return nil }); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got
}

func TestS3Link(t *testing.T) {
	ctx := context.Background()
	o := testenv.S3(t, "")
	plain, err := blobs.NewS3(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("report body")
	if err := plain.Put(ctx, blobs.Hash(data), data); err != nil {
		t.Fatal(err)
	}
	if u, err := plain.Link(ctx, blobs.Hash(data), "r.txt", "text/plain", time.Hour); u != "" || err != nil {
		t.Errorf("a store not told to presign linked %q, %v", u, err)
	}
	o.Presign = true
	presigning, err := blobs.NewS3(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	u, err := presigning.Link(ctx, blobs.Hash(data), "r.txt", "text/plain", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !bytes.Equal(got, data) {
		t.Errorf("GET of the presigned URL: %d %q", res.StatusCode, got)
	}
}

func TestNewS3Refuses(t *testing.T) {
	o := testenv.S3(t, "")
	for _, bad := range []blobs.S3Options{
		{URL: "s3://", Endpoint: o.Endpoint, Creds: o.Creds},
		{URL: "http://bucket/x", Endpoint: o.Endpoint, Creds: o.Creds},
		{URL: "s3://bindery", Endpoint: "ftp://host", Creds: o.Creds},
		{URL: "s3://no-such-bucket", Endpoint: o.Endpoint, Creds: o.Creds},
	} {
		if _, err := blobs.NewS3(context.Background(), bad); err == nil {
			t.Errorf("NewS3(%+v) succeeded", bad)
		}
	}
}
