package blobs_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestTwoServersShareOnlyTheDatabase runs two servers on one PostgreSQL database, each with a
// data directory of its own, as two machines would: what one writes, the other serves. File bytes
// live in the database, then in an S3-compatible store.
func TestTwoServersShareOnlyTheDatabase(t *testing.T) {
	dsn := testenv.MigratedPostgresDSN(t)
	if dsn == "" {
		t.Skip("needs PostgreSQL, which several servers share: set BINDERY_TEST_DB")
	}
	t.Run("BlobsInTheDatabase", func(t *testing.T) { testTwoServers(t, store.Options{DSN: dsn}) })
	t.Run("BlobsInS3", func(t *testing.T) {
		o := testenv.S3(t, "shared")
		testTwoServers(t, store.Options{DSN: testenv.MigratedPostgresDSN(t), Blobs: o.URL, S3: o})
	})
}

func testTwoServers(t *testing.T, so store.Options) {
	servers := [2]*testenv.Env{}
	for i := range servers {
		so.DataDir = t.TempDir()
		servers[i] = testenv.NewOn(t, so)
	}
	a, b := servers[0], servers[1]
	admin, org := a.Bootstrap("ada@example.com", "Acme")
	space := created(t, a.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Docs"}))
	site := created(t, a.Do(admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Acme Docs", "spaces": []string{space}}))
	if r := a.Do(admin, "POST", "/v1/orgs/"+org+"/sites/"+site+"/publish", nil); r.Status != 200 {
		t.Fatalf("publish: %d %s", r.Status, r.Body)
	}

	file := bytes.Repeat([]byte("\x00\xffbytes of a large upload "), 120_000) // 3 MB: several chunks
	cr, answer := edit(t, a, admin, space,
		map[string]any{"operation": "insert_page", "title": "Welcome", "document": map[string]any{"markdown": "First words."}},
		map[string]any{"operation": "insert_files", "files": []any{map[string]any{"name": "big.bin",
			"contentType": "application/octet-stream", "base64": base64.StdEncoding.EncodeToString(file)}}})
	download := answer["insertedFiles"].([]any)[0].(map[string]any)["downloadURL"].(string)

	t.Run("FileUploadedThroughOneDownloadsFromTheOther", func(t *testing.T) {
		res := get(t, on(b, download), "")
		if res.status != 200 || !bytes.Equal(res.body, file) {
			t.Fatalf("download from the other server: %d, %d bytes; want the %d uploaded", res.status, len(res.body), len(file))
		}
		res = get(t, on(b, download), "bytes=1048570-1048589")
		if res.status != http.StatusPartialContent || !bytes.Equal(res.body, file[1048570:1048590]) {
			t.Errorf("a range across a chunk boundary: %d %q", res.status, res.body)
		}
	})
	t.Run("PDFLinkedByOneRendersOnTheOther", func(t *testing.T) {
		link := a.Do(admin, "GET", cr+"/pdf", nil).Map(t)["url"].(string)
		res := get(t, on(b, link), "")
		if res.status != 200 || !bytes.HasPrefix(res.body, []byte("%PDF")) {
			t.Fatalf("PDF from the other server: %d %.100q", res.status, res.body)
		}
	})
	t.Run("MergeThroughOneShowsOnTheOthersSite", func(t *testing.T) {
		if r := a.Do(admin, "POST", cr+"/merge", nil); r.Status != 200 {
			t.Fatalf("merge: %d %s", r.Status, r.Body)
		}
		if res := get(t, b.Server.URL+"/sites/"+site+"/", ""); !bytes.Contains(res.body, []byte("First words.")) {
			t.Fatalf("the other server's site after the merge: %d %s", res.status, res.body)
		}
		next, _ := edit(t, a, admin, space,
			map[string]any{"operation": "insert_page", "title": "Second", "document": map[string]any{"markdown": "Later words."}})
		if r := a.Do(admin, "POST", next+"/merge", nil); r.Status != 200 {
			t.Fatalf("merge: %d %s", r.Status, r.Body)
		}
		if res := get(t, b.Server.URL+"/sites/"+site+"/second", ""); !bytes.Contains(res.body, []byte("Later words.")) {
			t.Errorf("the other server's site after a second merge: %d %s", res.status, res.body)
		}
	})
	t.Run("NeitherServerWroteBlobsToItsDataDirectory", func(t *testing.T) {
		for _, e := range servers {
			if _, ok := e.Store.Blobs.(*blobs.Dir); ok {
				t.Errorf("a server keeps blobs in a directory: %T", e.Store.Blobs)
			}
		}
	})
}

func created(t *testing.T, r testenv.Response) string {
	t.Helper()
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	return r.Map(t)["id"].(string)
}

// edit applies changes in a new change request of the space and returns its path and the answer.
func edit(t *testing.T, e *testenv.Env, a testenv.Actor, space string, changes ...map[string]any) (string, map[string]any) {
	t.Helper()
	base := "/v1/spaces/" + space + "/change-requests"
	n := e.Do(a, "POST", base, map[string]any{"subject": "Pages"}).Map(t)["number"].(float64)
	cr := fmt.Sprintf("%s/%d", base, int(n))
	r := e.Do(a, "POST", cr+"/content?compat=false", map[string]any{"changes": changes})
	if r.Status != 200 {
		t.Fatalf("content: %d %s", r.Status, r.Body)
	}
	return cr, r.Map(t)
}

// on is the URL u of one server, pointed at server e.
func on(e *testenv.Env, u string) string {
	i := strings.Index(u[len("http://"):], "/") + len("http://")
	return e.Server.URL + u[i:]
}

type answer struct {
	status int
	body   []byte
}

// get fetches a URL without a token, with a Range header when rng is not empty.
func get(t *testing.T, u, rng string) answer {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{res.StatusCode, body}
}

// TestPresignedDownloads: with --s3-presign a file's downloadURL is the store's own, which serves
// the bytes without the server.
func TestPresignedDownloads(t *testing.T) {
	o := testenv.S3(t, "signed")
	o.Presign = true
	e := testenv.NewOn(t, store.Options{DataDir: t.TempDir(), DSN: testenv.MigratedPostgresDSN(t), Blobs: o.URL, S3: o})
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	space := created(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Docs"}))
	file := []byte("a report, downloaded from the store")
	_, answer := edit(t, e, admin, space, map[string]any{"operation": "insert_files", "files": []any{map[string]any{
		"name": "report.txt", "contentType": "text/plain", "base64": base64.StdEncoding.EncodeToString(file)}}})
	u := answer["insertedFiles"].([]any)[0].(map[string]any)["downloadURL"].(string)
	if !strings.HasPrefix(u, o.Endpoint+"/bindery/signed/sha256/") || !strings.Contains(u, "X-Amz-Signature=") {
		t.Fatalf("downloadURL %s is not a presigned URL of the store at %s", u, o.Endpoint)
	}
	if res := get(t, u, ""); res.status != 200 || !bytes.Equal(res.body, file) {
		t.Errorf("the presigned download: %d %q", res.status, res.body)
	}
}
