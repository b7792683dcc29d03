package bench

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// fileServer is a server keeping file bytes in one kind of blob store, with a change request to
// upload files into.
type fileServer struct {
	name string
	e    *testenv.Env
	user testenv.Actor
	cr   string // the change request's content path
}

func newFileServer(b *testing.B, name string, so store.Options) fileServer {
	so.DataDir = b.TempDir()
	e := testenv.NewOn(b, so, testenv.WithoutReadCache)
	user, org := e.Bootstrap("admin@example.com", "Bench")
	r := e.Do(user, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Files"})
	space := r.Map(b)["id"].(string)
	base := "/v1/spaces/" + space + "/change-requests"
	e.Do(user, "POST", base, map[string]any{"subject": "Files"})
	return fileServer{name: name, e: e, user: user, cr: base + "/1/content?compat=false"}
}

// BenchmarkBlobs20MB uploads a 20 MB file through a content batch and downloads it through its
// downloadURL, on each blob store in turn: the data directory (the baseline), the database
// (SQLite, or PostgreSQL with BINDERY_TEST_DB) and an S3-compatible server on loopback (gofakes3,
// in memory). It reports each store's upload and download times as ratios to the directory's,
// measured in the same rounds, and the directory's throughput.
func BenchmarkBlobs20MB(b *testing.B) {
	dsn := testenv.PostgresDSN(b)
	s3 := testenv.S3(b, "bench")
	servers := []fileServer{
		newFileServer(b, "dir", store.Options{DSN: dsn, Blobs: store.BlobsDir}),
		newFileServer(b, "db", store.Options{DSN: testenv.PostgresDSN(b), Blobs: store.BlobsDB}),
		newFileServer(b, "s3", store.Options{DSN: testenv.PostgresDSN(b), Blobs: s3.URL, S3: s3}),
	}
	const size = 20_000_000
	file := make([]byte, size)
	for i := range file {
		file[i] = byte(i * 7919 >> 3)
	}
	up, down := make([]time.Duration, len(servers)), make([]time.Duration, len(servers))
	b.ResetTimer()
	for n := range b.N {
		for i, s := range servers {
			copy(file, fmt.Sprintf("round %d of %s", n, s.name)) // new bytes: a new blob each time
			body := uploadBody(b, file)
			start := time.Now()
			url := s.upload(b, body)
			up[i] += time.Since(start)
			start = time.Now()
			got := download(b, url)
			down[i] += time.Since(start)
			if !bytes.Equal(got, file) {
				b.Fatalf("%s: downloaded %d bytes, not the %d uploaded", s.name, len(got), len(file))
			}
		}
	}
	b.StopTimer()
	mbps := func(d time.Duration) float64 { return float64(size*b.N) / 1e6 / d.Seconds() }
	b.ReportMetric(mbps(up[0]), "dir-upload-MB/s")
	b.ReportMetric(mbps(down[0]), "dir-download-MB/s")
	for i, s := range servers[1:] {
		b.ReportMetric(float64(up[i+1])/float64(up[0]), s.name+"-upload-x-dir")
		b.ReportMetric(float64(down[i+1])/float64(down[0]), s.name+"-download-x-dir")
	}
}

// uploadBody is a content batch inserting the file.
func uploadBody(b *testing.B, file []byte) []byte {
	body, err := json.Marshal(map[string]any{"changes": []any{map[string]any{"operation": "insert_files",
		"files": []any{map[string]any{"name": "big.bin", "contentType": "application/octet-stream",
			"base64": base64.StdEncoding.EncodeToString(file)}}}}})
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// upload posts the batch and returns the file's downloadURL.
func (s fileServer) upload(b *testing.B, body []byte) string {
	req, _ := http.NewRequest(http.MethodPost, s.e.Server.URL+s.cr, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.user.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := s.e.Server.Client().Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var answer struct {
		InsertedFiles []struct{ DownloadURL string } `json:"insertedFiles"`
	}
	if err := json.NewDecoder(res.Body).Decode(&answer); err != nil || res.StatusCode != 200 || len(answer.InsertedFiles) != 1 {
		b.Fatalf("%s: upload answered %d (%v)", s.name, res.StatusCode, err)
	}
	return answer.InsertedFiles[0].DownloadURL
}

func download(b *testing.B, url string) []byte {
	res, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		b.Fatalf("download: %d (%v)", res.StatusCode, err)
	}
	return got
}
