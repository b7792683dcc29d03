package observe_test

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/observe"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// get sends GET path with headers (a bearer token when token is not empty) and returns the
// answer with its headers.
func get(t *testing.T, e *testenv.Env, token, path string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.Server.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := e.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

func TestHealth(t *testing.T) {
	e := testenv.New(t)
	t.Run("OKHealthz", func(t *testing.T) {
		res, body := get(t, e, "", "/healthz", nil)
		if res.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != `{"status":"ok"}` {
			t.Fatalf("GET /healthz = %d %s", res.StatusCode, body)
		}
	})
	t.Run("OKReadyz", func(t *testing.T) {
		res, body := get(t, e, "", "/readyz", nil)
		if res.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != `{"status":"ready"}` {
			t.Fatalf("GET /readyz = %d %s", res.StatusCode, body)
		}
	})
	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		r := e.Raw(testenv.Actor{}, http.MethodPost, "/readyz", "", nil)
		testenv.CheckError(t, r, http.StatusMethodNotAllowed)
	})
	t.Run("ErrReadyzWithTheDatabaseClosed", func(t *testing.T) {
		if err := e.Store.Close(); err != nil {
			t.Fatal(err)
		}
		r := e.Raw(testenv.Actor{}, http.MethodGet, "/readyz", "", nil)
		msg := testenv.CheckError(t, r, http.StatusServiceUnavailable)
		if !strings.Contains(msg, "the database") || strings.Contains(msg, "sql:") {
			t.Errorf("message %q: want the failed check, without its cause", msg)
		}
		if res, _ := get(t, e, "", "/healthz", nil); res.StatusCode != http.StatusOK {
			t.Errorf("GET /healthz = %d: the process still answers", res.StatusCode)
		}
	})
}

// metricLines returns the lines of /metrics that start with name.
func metricLines(t *testing.T, e *testenv.Env, name string) []string {
	t.Helper()
	res, body := get(t, e, "", "/metrics", nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics = %d %s", res.StatusCode, body)
	}
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), name) {
			lines = append(lines, sc.Text())
		}
	}
	return lines
}

// wantMetric fails unless a line of /metrics starts with name and holds every label.
func wantMetric(t *testing.T, e *testenv.Env, name string, labels ...string) {
	t.Helper()
	lines := metricLines(t, e, name)
	for _, l := range lines {
		if containsAll(l, labels) {
			return
		}
	}
	t.Errorf("no %s with %v in:\n%s", name, labels, strings.Join(lines, "\n"))
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func TestMetrics(t *testing.T) {
	e := testenv.New(t, func(o *server.Options) { o.MaxBody = 1000 })
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	space := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Guide"}).Map(t)["id"].(string)
	e.Do(admin, "GET", "/v1/spaces/"+space, nil)
	e.Do(admin, "GET", "/v1/spaces/nope-"+space, nil)
	e.Do(admin, "GET", "/v1/no/such/"+space, nil)
	e.Raw(admin, http.MethodPost, "/v1/orgs/"+org+"/spaces", "application/json", strings.NewReader(strings.Repeat(" ", 2000)))
	e.GraphQL(admin, `query Spaces { organizations(first: 1) { edges { node { id } } } }`, nil)
	e.GraphQL(admin, `{ viewer { id } }`, nil)
	e.GraphQL(admin, `query Bad { nope }`, nil)
	e.Do(admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"url": "http://127.0.0.1:1/openapi.yaml"}})
	if n := e.RunDueJobs(); n != 1 {
		t.Fatalf("ran %d jobs, want 1", n)
	}

	t.Run("OKRequestsByRoutePattern", func(t *testing.T) {
		wantMetric(t, e, "bindery_http_requests_total", `route="/v1/spaces/{spaceId}"`, `method="GET"`, `status="200"`)
		wantMetric(t, e, "bindery_http_requests_total", `route="/v1/spaces/{spaceId}"`, `status="404"`)
		wantMetric(t, e, "bindery_http_requests_total", `route="/v1/orgs/{organizationId}/spaces"`, `method="POST"`, `status="201"`)
		wantMetric(t, e, "bindery_http_requests_total", `route="unmatched"`, `status="404"`)
		// Refused before routing, by the body limit: still the route it was meant for.
		wantMetric(t, e, "bindery_http_requests_total", `route="/v1/orgs/{organizationId}/spaces"`, `status="413"`)
		wantMetric(t, e, "bindery_http_request_duration_seconds_bucket", `route="/v1/spaces/{spaceId}"`, `le="0.005"`)
		wantMetric(t, e, "bindery_http_requests_in_flight")
	})
	t.Run("OKNoRawIDs", func(t *testing.T) {
		_, body := get(t, e, "", "/metrics", nil)
		for _, id := range []string{space, org, admin.UserID} {
			if strings.Contains(string(body), id) {
				t.Errorf("/metrics holds the id %s", id)
			}
		}
	})
	t.Run("OKGraphQLOperations", func(t *testing.T) {
		wantMetric(t, e, "bindery_graphql_operations_total", `operation="Spaces"`, `outcome="ok"`)
		wantMetric(t, e, "bindery_graphql_operations_total", `operation="anonymous"`, `outcome="ok"`)
		wantMetric(t, e, "bindery_graphql_operations_total", `operation="other"`, `outcome="rejected"`)
		wantMetric(t, e, "bindery_graphql_operation_duration_seconds_count", `operation="Spaces"`)
	})
	t.Run("OKDatabase", func(t *testing.T) {
		wantMetric(t, e, "bindery_db_statement_duration_seconds_count", `verb="select"`)
		wantMetric(t, e, "bindery_db_statement_duration_seconds_count", `verb="insert"`)
		wantMetric(t, e, "go_sql_open_connections")
	})
	t.Run("OKJobs", func(t *testing.T) {
		wantMetric(t, e, "bindery_job_runs_total", `kind="openapi"`, `outcome="ok"`)
		wantMetric(t, e, "bindery_job_duration_seconds_count", `kind="openapi"`)
	})
	t.Run("OKRuntime", func(t *testing.T) {
		wantMetric(t, e, "go_goroutines")
		wantMetric(t, e, "process_cpu_seconds_total")
		wantMetric(t, e, "bindery_build_info", `version="`)
	})
}

// captureJSONLog sends the default logger's lines, as the server writes them, to a buffer until
// the test ends (so the test must not run in parallel).
func captureJSONLog(t *testing.T, level slog.Level) *testenv.LockedBuffer {
	t.Helper()
	buf := &testenv.LockedBuffer{}
	log, err := observe.NewLogger(buf, observe.FormatAuto, level) // a buffer is no terminal: JSON
	if err != nil {
		t.Fatal(err)
	}
	prev := slog.Default()
	slog.SetDefault(log)
	t.Cleanup(func() { slog.SetDefault(prev) })
	return buf
}

// logRecords decodes every line of buf as a JSON object.
func logRecords(t *testing.T, buf *testenv.LockedBuffer) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		recs = append(recs, m)
	}
	return recs
}

func TestAccessLog(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")

	t.Run("OKOneJSONLinePerRequest", func(t *testing.T) {
		logs := captureJSONLog(t, slog.LevelInfo)
		res, _ := get(t, e, admin.Token, "/v1/orgs/"+org+"?shareKey=secret", map[string]string{"Cookie": "bindery_session=secret"})
		recs := logRecords(t, logs)
		if len(recs) != 1 {
			t.Fatalf("want one line, logged:\n%s", logs)
		}
		r := recs[0]
		want := map[string]any{"msg": "request", "level": "INFO", "method": "GET", "route": "/v1/orgs/{organizationId}",
			"status": 200.0, "user_id": admin.UserID, "request_id": res.Header.Get("X-Request-Id")}
		for k, v := range want {
			if r[k] != v {
				t.Errorf("%s = %v, want %v", k, r[k], v)
			}
		}
		if r["bytes"].(float64) <= 0 || r["duration_ms"].(float64) <= 0 || r["request_id"] == "" {
			t.Errorf("bytes, duration_ms, request_id: %v", r)
		}
		for _, secret := range []string{admin.Token, "secret", org} {
			if strings.Contains(logs.String(), secret) {
				t.Errorf("the access line holds %q: %s", secret, logs)
			}
		}
	})
	t.Run("OKAnonymousHasNoUser", func(t *testing.T) {
		logs := captureJSONLog(t, slog.LevelInfo)
		get(t, e, "", "/v1/orgs", nil)
		if r := logRecords(t, logs)[0]; r["status"] != 401.0 || r["user_id"] != nil {
			t.Errorf("line %v", r)
		}
	})
	t.Run("OKProbesOnlyAtDebug", func(t *testing.T) {
		logs := captureJSONLog(t, slog.LevelInfo)
		get(t, e, "", "/healthz", nil)
		get(t, e, "", "/metrics", nil)
		if logs.String() != "" {
			t.Errorf("probes logged at info: %s", logs)
		}
		debug := captureJSONLog(t, slog.LevelDebug)
		get(t, e, "", "/readyz", nil)
		if r := logRecords(t, debug)[0]; r["route"] != "/readyz" || r["level"] != "DEBUG" {
			t.Errorf("line %v", r)
		}
	})
	t.Run("OKIncomingRequestID", func(t *testing.T) {
		logs := captureJSONLog(t, slog.LevelInfo)
		res, _ := get(t, e, "", "/healthz", map[string]string{"X-Request-Id": "lb-42.a_B"})
		if got := res.Header.Get("X-Request-Id"); got != "lb-42.a_B" {
			t.Errorf("X-Request-Id = %q, want the incoming one", got)
		}
		for _, bad := range []string{strings.Repeat("a", 65), "a b", `a"b`, "ümlaut"} {
			res, _ := get(t, e, "", "/v1/orgs", map[string]string{"X-Request-Id": bad})
			if got := res.Header.Get("X-Request-Id"); got == bad || len(got) != 16 {
				t.Errorf("incoming %q: X-Request-Id = %q, want a new id", bad, got)
			}
		}
		if strings.Contains(logs.String(), `a\"b`) {
			t.Errorf("a refused id was logged: %s", logs)
		}
	})
	t.Run("OKErrorLinesNameTheRequest", func(t *testing.T) {
		logs := captureJSONLog(t, slog.LevelDebug) // the access line of a probe is at debug
		if err := e.Store.Close(); err != nil {
			t.Fatal(err)
		}
		res, _ := get(t, e, "", "/readyz", nil)
		recs := logRecords(t, logs)
		if len(recs) != 2 || recs[0]["msg"] != "not ready" || recs[0]["level"] != "WARN" {
			t.Fatalf("want the warning and the access line, logged:\n%s", logs)
		}
		id := res.Header.Get("X-Request-Id")
		if recs[0]["request_id"] != id || recs[1]["request_id"] != id || recs[1]["status"] != 503.0 {
			t.Errorf("lines %v, want request_id %s", recs, id)
		}
	})
}
