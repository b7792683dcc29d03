package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apispec"
	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/observe"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/readcache"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/store"
)

// Env is a running server over a fresh database.
type Env struct {
	tb       testing.TB
	Store    *store.Store
	Server   *httptest.Server
	Spec     *apispec.Spec     // the reference client's document
	Doc      *apispec.Spec     // the document the server serves of itself (GET /v1/openapi.json)
	Jobs     *jobs.Runner      // the server's background job runner: not running unless RunJobs starts it
	Observer *observe.Observer // the server's metrics, served at /metrics
	// ReadCache keeps the answers of the server's API reads, as `bindery serve` does by default
	// (nil when an option took it away); counting statements pauses it (Statements).
	ReadCache *readcache.Cache
	// Insights records readers' events as `bindery serve` does (nil when an option took it away);
	// they are written when RunJobs runs the flusher, or when a test calls its Flush.
	Insights   *insights.Recorder
	statements atomic.Int64
	sent       *sentStatements
	// storeOptions open the database again (OpenAgain)
	storeOptions store.Options
}

// Actor is someone calling the API: a user with a token (an empty token calls anonymously).
type Actor struct {
	UserID string
	Email  string
	Token  string
}

// New starts a server with the default options but rate limits off, and with a read cache of
// 16 MiB, adjusted by opts, over a fresh database.
func New(tb testing.TB, opts ...func(*server.Options)) *Env {
	tb.Helper()
	return NewOn(tb, store.Options{DataDir: tb.TempDir(), DSN: MigratedPostgresDSN(tb)}, opts...)
}

// NewOn starts a server over the store so names: several may share one PostgreSQL database, as
// several processes do.
func NewOn(tb testing.TB, so store.Options, opts ...func(*server.Options)) *Env {
	tb.Helper()
	e := &Env{tb: tb, Spec: apispec.Load(tb), Observer: observe.New(server.Version)}
	e.sent = &sentStatements{n: &e.statements}
	e.Store, e.storeOptions = openStore(tb, so, store.Hooks{Before: e.sent.send, After: e.Observer.Statement})
	o := server.Defaults("")
	o.Observer, o.ServeMetrics = e.Observer, true
	o.RateLimits = ratelimit.Off // tests that limit turn it on with an option
	o.ReadCache = readcache.New(e.Store.DataVersion, 16<<20)
	o.Insights = insights.NewRecorder(e.Store.Client, e.Store.Driver.Dialect(), nil)
	for _, f := range opts {
		f(&o)
	}
	e.ReadCache, e.Insights = o.ReadCache, o.Insights
	e.Server = httptest.NewUnstartedServer(nil)
	e.Server.Listener = server.JSONErrors(e.Server.Listener) // as `bindery serve` listens
	e.Server.Config.MaxHeaderBytes = server.MaxHeaderBytes
	o.BaseURL = "http://" + e.Server.Listener.Addr().String()
	e.Server.Config.Handler, e.Jobs = server.New(e.Store, o)
	e.Server.Start()
	tb.Cleanup(e.Server.Close)
	e.Doc = e.loadDoc()
	return e
}

// OpenAgain opens the server's database once more, as another server process on the same
// SQLite file or PostgreSQL schema would; its statements are not counted.
func (e *Env) OpenAgain() *store.Store {
	e.tb.Helper()
	return mustOpen(e.tb, e.storeOptions)
}

var (
	docOnce sync.Once
	doc     *apispec.Spec
	docErr  error
)

// loadDoc returns the server's document of itself, read from the first server started, once per
// process: every server serves the same one.
func (e *Env) loadDoc() *apispec.Spec {
	e.tb.Helper()
	docOnce.Do(func() {
		resp := e.Raw(Actor{}, http.MethodGet, "/v1/openapi.json", "", nil)
		if resp.Status != http.StatusOK {
			docErr = fmt.Errorf("GET /v1/openapi.json answered %d %s", resp.Status, resp.Body)
			return
		}
		doc, docErr = apispec.Parse(resp.Body)
	})
	if docErr != nil {
		e.tb.Fatalf("the server's API document: %v", docErr)
	}
	return doc
}

// RunJobs runs the server's job runner in the background until the test ends, as `serve` does.
func (e *Env) RunJobs() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); e.Jobs.Run(ctx) }()
	e.tb.Cleanup(func() { cancel(); <-done })
}

// RunDueJobs runs the jobs due now, one after another, and returns how many ran.
func (e *Env) RunDueJobs() int {
	e.tb.Helper()
	n, err := e.Jobs.RunDue(context.Background())
	if err != nil {
		e.tb.Fatal(err)
	}
	return n
}

// Bootstrap creates an admin user with their organization.
func (e *Env) Bootstrap(email, org string) (Actor, string) {
	e.tb.Helper()
	u, o, token, err := accounts.Bootstrap(context.Background(), e.Store.Client, email, strings.Split(email, "@")[0], org)
	if err != nil {
		e.tb.Fatal(err)
	}
	return Actor{UserID: u.ID, Email: u.Email, Token: token}, o.ID
}

// User creates a user, a member of orgID with role (nil: a guest) when orgID is not empty.
func (e *Env) User(email, orgID string, role *viewer.Role) Actor {
	e.tb.Helper()
	u, token, err := accounts.CreateUser(context.Background(), e.Store.Client,
		accounts.NewUser{Email: email, Name: strings.Split(email, "@")[0], OrgID: orgID, Role: role})
	if err != nil {
		e.tb.Fatal(err)
	}
	return Actor{UserID: u.ID, Email: u.Email, Token: token}
}

// Role returns a pointer to a role, for User.
func Role(r viewer.Role) *viewer.Role { return &r }

// Response is an HTTP answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test when it cannot.
func (r Response) JSON(tb testing.TB, v any) {
	tb.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		tb.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Map decodes the body as an object.
func (r Response) Map(tb testing.TB) map[string]any {
	tb.Helper()
	var m map[string]any
	r.JSON(tb, &m)
	return m
}

// Do sends a request as the actor. Every answer is validated against the server's own document
// of the operation, whose query parameters must be the document's; a successful one also against
// the reference client's schema; a failure must have the error body with its status.
func (e *Env) Do(a Actor, method, path string, body any) Response {
	e.tb.Helper()
	raw := encode(e.tb, body)
	var reader io.Reader
	if raw != nil {
		reader = bytes.NewReader(raw)
	}
	resp := e.Raw(a, method, path, "application/json", reader)
	if resp.Status < 300 && e.Spec.HasOperation(method, path) {
		e.Spec.ValidateResponse(e.tb, method, path, resp.Status, resp.Body)
	}
	if e.Doc.HasOperation(method, path) {
		e.Doc.ValidateResponse(e.tb, method, path, resp.Status, resp.Body)
		e.Doc.ValidateQuery(e.tb, method, path, resp.Status < 300)
		if resp.Status < 300 && raw != nil { // what the server accepted, the document must allow
			e.Doc.ValidateRequest(e.tb, method, path, raw)
		}
	}
	if resp.Status >= 400 {
		CheckError(e.tb, resp, resp.Status)
	}
	return resp
}

// Raw sends a request with a raw body and content type, checking nothing.
func (e *Env) Raw(a Actor, method, path, contentType string, body io.Reader) Response {
	e.tb.Helper()
	req, err := http.NewRequest(method, e.Server.URL+path, body)
	if err != nil {
		e.tb.Fatal(err)
	}
	if a.Token != "" {
		req.Header.Set("Authorization", "Bearer "+a.Token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return e.Send(req)
}

// Send sends a prepared request (to this server or another) and reads the answer, checking
// nothing.
func (e *Env) Send(req *http.Request) Response {
	e.tb.Helper()
	res, err := e.Server.Client().Do(req)
	if err != nil {
		e.tb.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.tb.Fatal(err)
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: b}
}

func encode(tb testing.TB, body any) []byte {
	switch b := body.(type) {
	case nil:
		return nil
	case string:
		return []byte(b)
	case []byte:
		return b
	}
	raw, err := json.Marshal(body)
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// CheckError asserts that resp is a failure with the given status and the error body
// {"error":{"code":status,"message":"…"}}, and returns the message.
func CheckError(tb testing.TB, resp Response, status int) string {
	tb.Helper()
	var body struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if resp.Status != status || json.Unmarshal(resp.Body, &body) != nil || body.Error == nil ||
		body.Error.Code != status || body.Error.Message == "" {
		tb.Fatalf("want a %d error body, got %d %s", status, resp.Status, resp.Body)
	}
	return body.Error.Message
}

// GQLResponse is a GraphQL answer.
type GQLResponse struct {
	Status int
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// Code returns the extensions.code of the first error, or "" when there is none.
func (g GQLResponse) Code() string {
	if len(g.Errors) == 0 {
		return ""
	}
	code, _ := g.Errors[0].Extensions["code"].(string)
	return code
}

// GraphQL runs a query as the actor.
func (e *Env) GraphQL(a Actor, query string, vars map[string]any) GQLResponse {
	e.tb.Helper()
	resp := e.Raw(a, http.MethodPost, "/graphql", "application/json",
		bytes.NewReader(encode(e.tb, map[string]any{"query": query, "variables": vars})))
	var g GQLResponse
	if err := json.Unmarshal(resp.Body, &g); err != nil {
		e.tb.Fatalf("GraphQL answered %d %s", resp.Status, resp.Body)
	}
	g.Status = resp.Status
	return g
}

// HoldStatement holds the next statement whose SQL match accepts until its context is done (its
// client went away, its deadline passed), then lets it run and fail, as a statement cut short
// does. The returned channel is closed once the statement waits: a test ends a request there, at
// a point it knows, instead of racing a timer.
func (e *Env) HoldStatement(match func(query string) bool) <-chan struct{} {
	h := &heldStatement{match: match, held: make(chan struct{})}
	e.sent.hold.Store(h)
	return h.held
}

// StatementsSent runs fn and returns the SQL of the statements it sent, in the order sent.
func (e *Env) StatementsSent(fn func()) []string {
	defer e.computeAnswers()()
	r := &recordedStatements{}
	e.sent.record.Store(r)
	defer e.sent.record.Store(nil)
	fn()
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.sql)
}

// computeAnswers pauses the read cache, so that requests compute their answers, until the
// function it returns is called: the statements counted are those of the computation, the same
// on every run. Tests of the cache count with it running (StatementsKeeping).
func (e *Env) computeAnswers() (resume func()) {
	if e.ReadCache == nil {
		return func() {}
	}
	e.ReadCache.Pause(true)
	return func() { e.ReadCache.Pause(false) }
}

// WithoutReadCache is an option of New: the server keeps no answers (benchmarks of a
// computation).
func WithoutReadCache(o *server.Options) { o.ReadCache = nil }

// KeepingNoAnswers is an option of New: the server keeps no answers, only the rows authentication
// reads under the database's version, as `bindery serve --read-cache-mb 0` does (benchmarks of a
// computation as served).
func KeepingNoAnswers(o *server.Options) { o.ReadCache = readcache.New(o.ReadCache.Versioner(), 0) }

// StatementsKeeping runs fn with the read cache running, and returns how many SQL statements it
// sent.
func (e *Env) StatementsKeeping(fn func()) int64 {
	all, _ := e.countStatements(fn)
	return all
}

// VersionStatements is what a read of the database's version sends, and so all that a read the
// read cache answers sends: one statement (data_version on SQLite, the snapshot on PostgreSQL).
func (e *Env) VersionStatements() int64 { return 1 }

// Statements runs fn and returns how many SQL statements it sent.
func (e *Env) Statements(fn func()) int64 {
	all, _ := e.StatementsByKey(fn)
	return all
}

// StatementsByKey runs fn and returns how many SQL statements it sent, and how many of them
// were marked as reads by a unique key (sqlplan.ByKey).
func (e *Env) StatementsByKey(fn func()) (all, byKey int64) {
	defer e.computeAnswers()()
	return e.countStatements(fn)
}

// countStatements runs fn and returns how many SQL statements it sent, and how many by a unique
// key, whatever the read cache does.
func (e *Env) countStatements(fn func()) (all, byKey int64) {
	before, beforeByKey := e.statements.Load(), e.sent.byKey.Load()
	fn()
	return e.statements.Load() - before, e.sent.byKey.Load() - beforeByKey
}

// RecordingNoInsights is an option of New: the server records no readers' events, as `bindery
// serve --no-insights` does (the baseline of the recording's benchmark).
func RecordingNoInsights(o *server.Options) { o.Insights = nil }
