package blobs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

func system() context.Context {
	return privacy.DecisionContext(viewer.NewContext(context.Background(), viewer.System()), privacy.Allow)
}

// reference records blobs as a revision's transaction does: a FileBlob row each.
func reference(t *testing.T, client *ent.Client, data ...[]byte) {
	t.Helper()
	for _, d := range data {
		if err := client.FileBlob.Create().SetID(blobs.Hash(d)).SetSize(int64(len(d))).Exec(system()); err != nil {
			t.Fatal(err)
		}
	}
}

func put(t *testing.T, s blobs.Store, data ...[]byte) {
	t.Helper()
	for _, d := range data {
		if err := s.Put(context.Background(), blobs.Hash(d), d); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMigrate(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t, new(atomic.Int64))
	srcDir := t.TempDir()
	src, err := blobs.NewDir(srcDir)
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := []byte("first file"), []byte(strings.Repeat("second file ", 200_000)), []byte("third file")
	lost, corrupt, orphan := []byte("never stored"), []byte("stored wrong"), []byte("no row names me")
	reference(t, st.Client, a, b, c, lost, corrupt)
	put(t, src, a, b, c, orphan)
	corruptHex := strings.TrimPrefix(blobs.Hash(corrupt), "sha256:")
	if err := os.MkdirAll(filepath.Join(srcDir, corruptHex[:2]), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(srcDir, corruptHex[:2], corruptHex), []byte("other bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, dst := range map[string]blobs.Store{"DB": dbStore(t, st), "S3": testenv.OpenS3(t, "moved")} {
		t.Run(name, func(t *testing.T) {
			put(t, dst, a) // as if a first run had stopped after one blob
			res, err := blobs.Migrate(ctx, st.Client, src, dst)
			if err != nil {
				t.Fatal(err)
			}
			if res.Copied != 2 || res.Present != 1 || len(res.Missing) != 2 {
				t.Errorf("first run: %+v, want 2 copied, 1 present, 2 missing", res)
			}
			for _, d := range [][]byte{a, b, c} {
				if _, err := blobs.Read(ctx, dst, blobs.Hash(d)); err != nil {
					t.Errorf("%s in the destination: %v", blobs.Hash(d), err)
				}
			}
			if _, err := dst.Open(ctx, blobs.Hash(orphan)); !errors.Is(err, blobs.ErrNotFound) {
				t.Errorf("an unreferenced blob was copied: %v", err)
			}
			res, err = blobs.Migrate(ctx, st.Client, src, dst)
			if err != nil || res.Copied != 0 || res.Present != 3 {
				t.Errorf("second run: %+v, %v; want all 3 present", res, err)
			}
		})
	}
}

func dbStore(t *testing.T, st *store.Store) blobs.Store {
	t.Helper()
	s, err := st.OpenBlobs(context.Background(), "db")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCollect(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t, new(atomic.Int64))
	dir, err := blobs.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]blobs.Store{"DB": dbStore(t, st), "Dir": dir, "S3": testenv.OpenS3(t, "")} {
		t.Run(name, func(t *testing.T) {
			kept, orphan := []byte("kept "+name), []byte("orphan "+name)
			reference(t, st.Client, kept)
			put(t, s, kept, orphan)
			// Within the grace period nothing goes.
			if n, err := blobs.Collect(ctx, st.Client, s, time.Now().Add(-time.Hour)); n != 0 || err != nil {
				t.Errorf("collected %d blobs (%v) written within the grace period", n, err)
			}
			n, err := blobs.Collect(ctx, st.Client, s, time.Now().Add(time.Hour))
			if n != 1 || err != nil {
				t.Errorf("collected %d blobs (%v), want the 1 orphan", n, err)
			}
			if _, err := s.Open(ctx, blobs.Hash(orphan)); !errors.Is(err, blobs.ErrNotFound) {
				t.Errorf("the orphan is still there: %v", err)
			}
			if _, err := blobs.Read(ctx, s, blobs.Hash(kept)); err != nil {
				t.Errorf("a referenced blob went: %v", err)
			}
		})
	}
}

// TestCollectJob runs the collection as a server does: a job of its runner, a day's grace.
func TestCollectJob(t *testing.T) {
	later := func(o *server.Options) {
		o.Clock = func() time.Time { return time.Now().Add(blobs.DefaultGrace + time.Minute) }
	}
	e := testenv.New(t, later)
	orphan := []byte("bytes of a transaction that failed")
	put(t, e.Store.Blobs, orphan)
	if err := blobs.Schedule(context.Background(), e.Store.Client, time.Now()); err != nil {
		t.Fatal(err)
	}
	if n := e.RunDueJobs(); n != 1 {
		t.Fatalf("ran %d jobs, want the collection", n)
	}
	if _, err := e.Store.Blobs.Open(context.Background(), blobs.Hash(orphan)); !errors.Is(err, blobs.ErrNotFound) {
		t.Errorf("the orphan outlived its grace period: %v", err)
	}
	if n := e.RunDueJobs(); n != 0 {
		t.Errorf("ran %d jobs again at once, want the next collection an hour later", n)
	}
}
