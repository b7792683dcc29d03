package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent/contentobject"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// bigSpace is a space whose content has n pages of about 1 KB each, made through change requests
// of 50-page batches and a merge. It returns the space id and the ids of its pages.
func bigSpace(b *testing.B, e *testenv.Env, admin testenv.Actor, org string, n int) (string, []string) {
	space := call(b, e, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"Big"}`)["id"].(string)
	crs := "/v1/spaces/" + space + "/change-requests"
	call(b, e, admin, "POST", crs, `{"subject":"Seed"}`)
	body := strings.Repeat("A line of a page of documentation, long enough to be typical.\n", 16)
	var ids []string
	for start := 0; start < n; start += 50 {
		var changes []string
		for i := start; i < min(start+50, n); i++ {
			md, _ := json.Marshal(fmt.Sprintf("Page %d\n\n%s", i, body))
			changes = append(changes, fmt.Sprintf(`{"operation":"insert_page","title":"Page %d","document":{"markdown":%s}}`, i, md))
		}
		answer := call(b, e, admin, "POST", crs+"/1/content?compat=false", `{"changes":[`+strings.Join(changes, ",")+`]}`)
		for _, c := range answer["changes"].([]any) {
			ids = append(ids, c.(map[string]any)["page"].(map[string]any)["id"].(string))
		}
	}
	call(b, e, admin, "POST", crs+"/1/merge", "")
	return space, ids
}

// call makes one request and decodes its JSON answer, failing on anything but 2xx.
func call(b *testing.B, e *testenv.Env, a testenv.Actor, method, path, body string) map[string]any {
	req, _ := http.NewRequest(method, e.Server.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+a.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := e.Server.Client().Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		b.Fatalf("%s %s: %d %.300s", method, path, res.StatusCode, raw)
	}
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return out
}

// storedBytes is the size of every content object stored.
func storedBytes(b *testing.B, e *testenv.Env) int {
	var rows []struct {
		Sum int `json:"sum"`
	}
	ctx := viewer.NewContext(context.Background(), viewer.System())
	err := e.Store.Client.ContentObject.Query().Aggregate(func(s *entsql.Selector) string {
		return entsql.As(entsql.Sum(s.C(contentobject.FieldSize)), "sum")
	}).Scan(ctx, &rows)
	if err != nil || len(rows) == 0 {
		b.Fatal(err)
	}
	return rows[0].Sum
}

// benchPages is the size of the big space.
const benchPages = 10000

// BenchmarkEditAndMerge10k changes one page of a 10,000-page space in a change request and merges
// it: the cost must follow the size of the change, not of the space. It reports the time of the
// content batch and of the merge, the bytes stored per change (tree nodes and the page body, for
// two revisions: the change request's and the merge's), and the ratio of a whole round (create,
// edit, merge) to the fixed-bytes baseline.
func BenchmarkEditAndMerge10k(b *testing.B) {
	e := testenv.New(b, testenv.WithoutReadCache)
	admin, org := e.Bootstrap("admin@example.com", "Bench")
	space, pages := bigSpace(b, e, admin, org, benchPages)
	crs := "/v1/spaces/" + space + "/change-requests"
	baseSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"object":"organization","id":"x"}`)
	}))
	defer baseSrv.Close()
	baseline := func() { drain(b, func() (*http.Response, error) { return baseSrv.Client().Get(baseSrv.URL) }) }

	before := storedBytes(b, e)
	var edit, merge, base time.Duration
	b.ResetTimer()
	for i := range b.N {
		number := fmt.Sprint(call(b, e, admin, "POST", crs, `{}`)["number"])
		page := pages[(i*7919)%len(pages)]
		change := fmt.Sprintf(`{"changes":[{"operation":"update_page","page":%q,"document":{"markdown":"Rewritten %d\n\nNew text.\n"}}]}`, page, i)
		edit += timed(func() { call(b, e, admin, "POST", crs+"/"+number+"/content", change) })
		merge += timed(func() { call(b, e, admin, "POST", crs+"/"+number+"/merge", "") })
		base += timed(baseline)
	}
	b.StopTimer()
	n := time.Duration(b.N)
	b.ReportMetric(float64(edit/n)/1e6, "edit-ms")
	b.ReportMetric(float64(merge/n)/1e6, "merge-ms")
	b.ReportMetric(float64(storedBytes(b, e)-before)/float64(b.N), "stored-B/change")
	b.ReportMetric(float64(edit+merge)/float64(base), "x-baseline")
}

func timed(fn func()) time.Duration {
	start := time.Now()
	fn()
	return time.Since(start)
}
