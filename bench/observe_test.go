package bench

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/observe"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// BenchmarkObservedPointRead is the cost of observing requests on the read path (request id,
// metrics by route pattern, the JSON access line, statement timings): a REST point read of a
// space through a server set up as `serve` sets it up, against the same read through a server
// with no observer over a second store on the same database, alternately. The access lines
// are formatted as in production and written to io.Discard.
func BenchmarkObservedPointRead(b *testing.B) {
	logToDiscard(b)
	dir, dsn := b.TempDir(), testenv.PostgresDSN(b)
	obs := observe.New(server.Version)
	observed := serveStore(b, store.Options{DataDir: dir, DSN: dsn, Hooks: store.Hooks{After: obs.Statement}}, obs)
	plain := serveStore(b, store.Options{DataDir: dir, DSN: dsn}, nil)
	u, org, token, err := accounts.Bootstrap(context.Background(), observed.Store.Client, "ada@example.com", "Ada", "Acme")
	if err != nil {
		b.Fatal(err)
	}
	admin := testenv.Actor{UserID: u.ID, Token: token}
	path := "/v1/spaces/" + seedSpaces(b, observed.Store.Client, org.ID, 1)[0]
	alternate(b, "unobserved", get(b, plain, admin, path), "observed", get(b, observed, admin, path))
}

// logToDiscard formats the log lines as in production and writes them to io.Discard until the
// benchmark ends.
func logToDiscard(b *testing.B) {
	log, err := observe.NewLogger(io.Discard, observe.FormatJSON, slog.LevelInfo)
	if err != nil {
		b.Fatal(err)
	}
	prev := slog.Default()
	slog.SetDefault(log)
	b.Cleanup(func() { slog.SetDefault(prev) })
}

// serveStore opens a store and serves it over loopback HTTP, observed by obs when it is not nil.
func serveStore(b *testing.B, so store.Options, obs *observe.Observer) *testenv.Env {
	st, err := store.Open(context.Background(), so)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	e := &testenv.Env{Store: st, Server: httptest.NewUnstartedServer(nil)}
	o := server.Defaults("http://" + e.Server.Listener.Addr().String())
	o.Observer, o.ServeMetrics = obs, true
	e.Server.Config.Handler, _ = server.New(st, o)
	e.Server.Start()
	b.Cleanup(e.Server.Close)
	return e
}
