package blobs_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/fileblob"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/sweep"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestPurgeFreesBytes: purging a deleted space removes the records of the file bytes only it held,
// so the blob collector frees them, in the database and in S3; bytes another space holds (an
// upload of the same bytes, a copy of the purged space) stay, and so do records of earlier versions.
func TestPurgeFreesBytes(t *testing.T) {
	s3 := testenv.S3(t, "purge/")
	for name, so := range map[string]store.Options{
		"DB": {DataDir: t.TempDir(), DSN: testenv.PostgresDSN(t), Blobs: store.BlobsDB},
		"S3": {DataDir: t.TempDir(), DSN: testenv.PostgresDSN(t), Blobs: s3.URL, S3: s3},
	} {
		t.Run(name, func(t *testing.T) {
			e := testenv.NewOn(t, so)
			admin, org := e.Bootstrap("ada@example.com", "Acme")
			only, shared, copied := []byte("only in the purged space "+name), []byte("in two spaces "+name), []byte("also in its copy "+name)
			gone := []string{uploadSpace(t, e, admin, org, only, shared), uploadSpace(t, e, admin, org, copied)}
			uploadSpace(t, e, admin, org, shared)
			if r := e.Do(admin, "POST", "/v1/spaces/"+gone[1]+"/duplicate", nil); r.Status != http.StatusCreated {
				t.Fatalf("duplicate: %d %s", r.Status, r.Body)
			}
			legacy := []byte("recorded by an earlier version " + name)
			reference(t, e.Store.Client, legacy) // untracked: no space says it holds it
			put(t, e.Store.Blobs, legacy)

			for _, id := range gone {
				if r := e.Do(admin, "DELETE", "/v1/spaces/"+id, nil); r.Status != http.StatusResetContent {
					t.Fatalf("delete: %d %s", r.Status, r.Body)
				}
			}
			later := time.Now().Add(sweep.Retention + time.Hour)
			if n, err := sweep.Sweep(context.Background(), e.Store.Client, later); n != 2 || err != nil {
				t.Fatalf("purged %d spaces (%v)", n, err)
			}
			n, err := blobs.Collect(context.Background(), e.Store.Client, e.Store.Blobs, later.Add(blobs.DefaultGrace))
			if n != 1 || err != nil {
				t.Errorf("collected %d blobs (%v), want the 1 only the purged space held", n, err)
			}
			if _, err := e.Store.Blobs.Open(context.Background(), blobs.Hash(only)); !errors.Is(err, blobs.ErrNotFound) {
				t.Errorf("the purged space's bytes are still stored: %v", err)
			}
			for _, kept := range [][]byte{shared, copied, legacy} {
				if _, err := blobs.Read(context.Background(), e.Store.Blobs, blobs.Hash(kept)); err != nil {
					t.Errorf("bytes another space holds went: %q %v", kept, err)
				}
			}
			if left, _ := e.Store.Client.FileBlob.Query().Where(fileblob.ID(blobs.Hash(only))).Exist(system()); left {
				t.Error("the purged space's file record is left")
			}
		})
	}
}

// uploadSpace creates a space holding a file of each of data, through a merged change request,
// and returns its id.
func uploadSpace(t *testing.T, e *testenv.Env, admin testenv.Actor, org string, data ...[]byte) string {
	t.Helper()
	space := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Files"}).Map(t)["id"].(string)
	var files []any
	for i, d := range data {
		files = append(files, map[string]any{"name": fmt.Sprintf("f%d.txt", i), "contentType": "text/plain", "base64": base64.StdEncoding.EncodeToString(d)})
	}
	cr := "/v1/spaces/" + space + "/change-requests"
	n := e.Do(admin, "POST", cr, map[string]any{"subject": "Files"}).Map(t)["number"].(float64)
	path := fmt.Sprintf("%s/%d", cr, int(n))
	if r := e.Do(admin, "POST", path+"/content", map[string]any{"changes": []any{map[string]any{"operation": "insert_files", "files": files}}}); r.Status != 200 {
		t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	if r := e.Do(admin, "POST", path+"/merge", nil); r.Status != 200 {
		t.Fatalf("merge: %d %s", r.Status, r.Body)
	}
	return space
}
