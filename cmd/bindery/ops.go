package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/binderyhq/bindery/internal/observe"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/store"
)

// opsFlags are serve's flags of what an operator sees and does: logs, metrics, stopping.
type opsFlags struct {
	logLevel, logFormat string
	metricsAddr         string
	shutdown            string
}

func (f *opsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.logLevel, "log-level", envOr("BINDERY_LOG_LEVEL", "info"),
		"least level logged: debug (also the access lines of /healthz, /readyz, /metrics), info, warn or error (env BINDERY_LOG_LEVEL)")
	fs.StringVar(&f.logFormat, "log-format", envOr("BINDERY_LOG_FORMAT", observe.FormatAuto),
		"json (one object a line), text, or auto: text when standard error is a terminal, else json (env BINDERY_LOG_FORMAT)")
	fs.StringVar(&f.metricsAddr, "metrics-addr", envOr("BINDERY_METRICS_ADDR", ""),
		"serve /metrics on this address only, instead of the main listener (env BINDERY_METRICS_ADDR)")
	fs.StringVar(&f.shutdown, "shutdown-timeout", envOr("BINDERY_SHUTDOWN_TIMEOUT", "15s"),
		"on SIGTERM or SIGINT, how long requests in flight may take to finish before they are cut (env BINDERY_SHUTDOWN_TIMEOUT)")
}

// ops is what opsFlags configure, checked.
type ops struct {
	observer    *observe.Observer
	metricsAddr string
	shutdown    time.Duration
}

// apply checks the flags, makes the process's default logger, and sets up the server's observer:
// its metrics on the main listener unless --metrics-addr, its timing of the store's statements.
func (f *opsFlags) apply(opts *server.Options, sf *storeFlags) (ops, error) {
	level, err := observe.ParseLevel(f.logLevel)
	if err != nil {
		return ops{}, err
	}
	log, err := observe.NewLogger(stderr, f.logFormat, level)
	if err != nil {
		return ops{}, err
	}
	shutdown, err := time.ParseDuration(f.shutdown)
	if err != nil || shutdown <= 0 {
		return ops{}, fmt.Errorf("--shutdown-timeout: %q is not a duration over 0 (e.g. 15s)", f.shutdown)
	}
	slog.SetDefault(log)
	o := ops{observer: observe.New(server.Version), metricsAddr: f.metricsAddr, shutdown: shutdown}
	opts.Observer, opts.ServeMetrics = o.observer, f.metricsAddr == ""
	sf.hooks = store.Hooks{After: o.observer.Statement}
	return o, nil
}

// closeStore closes the database, last, once requests and background work have ended.
func closeStore(st *store.Store) {
	if err := st.Close(); err != nil {
		slog.Error("closing the database", "err", err)
		return
	}
	slog.Info("stopped: the database is closed")
}

// listener is an HTTP server on its listening socket.
type listener struct {
	serves string // what it serves, for the log
	srv    *http.Server
	ln     net.Listener
}

// bindListeners listens on addr, and on the metrics address when there is one, before anything
// else is opened: an address in use fails the start before the database is touched. An error
// says in one line what to do.
func bindListeners(addr string, o ops) ([]listener, error) {
	main, err := bind("api", addr, "--addr or BINDERY_ADDR")
	if err != nil || o.metricsAddr == "" {
		return []listener{main}, err
	}
	metrics, err := bind("metrics", o.metricsAddr, "--metrics-addr or BINDERY_METRICS_ADDR")
	if err != nil {
		main.ln.Close()
		return nil, err
	}
	return []listener{main, metrics}, nil
}

// bind listens on addr; flags names the settings that choose it, for the error.
func bind(serves, addr, flags string) (listener, error) {
	ln, err := net.Listen("tcp", addr)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return listener{}, fmt.Errorf("%s is in use by another process (another bindery?): stop it, or listen on another address with %s", addr, flags)
	case err != nil:
		return listener{}, fmt.Errorf("cannot listen on %s (%v): choose another address with %s", addr, err, flags)
	}
	return listener{serves: serves, ln: server.JSONErrors(ln)}, nil // net/http's own answers (431, 400) in the API's error shape
}

// serveOn makes the HTTP server of a bound listener.
func (l *listener) serveOn(ctx context.Context, h http.Handler) {
	l.srv = &http.Server{
		Addr: l.ln.Addr().String(), Handler: h,
		ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: server.MaxHeaderBytes,
		// Requests in flight finish when the process is asked to stop: their context is not the
		// signal's.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
}

// closeListeners closes the listening sockets.
func closeListeners(listeners []listener) {
	for _, l := range listeners {
		l.ln.Close()
	}
}

// listen serves h on the API listener (and the metrics on the metrics one) until ctx ends
// (SIGINT, SIGTERM): then it stops accepting connections, lets the requests in flight finish for
// up to o.shutdown, and cuts those still running. It returns an error when it had to cut some.
func listen(ctx context.Context, listeners []listener, h http.Handler, o ops) error {
	listeners[0].serveOn(ctx, h)
	if len(listeners) > 1 {
		listeners[1].serveOn(ctx, metricsOnly(o.observer.Handler()))
	}
	errc := make(chan error, len(listeners))
	for _, l := range listeners {
		slog.Info("listening", "addr", l.ln.Addr().String(), "serves", l.serves)
		go func() { errc <- l.srv.Serve(l.ln) }()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	closeListeners(listeners) // every listener at once: Shutdown closes a server's only as it begins
	slog.Info("shutting down: no new connections; requests in flight may finish", "within", o.shutdown.String())
	stopCtx, cancel := context.WithTimeout(context.Background(), o.shutdown)
	defer cancel()
	var errs []error
	for _, l := range listeners {
		// A listener closed above may still be the server's: closing it again is no failure.
		if err := l.srv.Shutdown(stopCtx); err != nil && !errors.Is(err, net.ErrClosed) {
			l.srv.Close()
			errs = append(errs, fmt.Errorf("requests still running after %s were cut: %w", o.shutdown, err))
		}
	}
	return errors.Join(errs...)
}

// metricsOnly serves GET /metrics and answers anything else with the error body.
func metricsOnly(metrics http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"error":{"code":404,"message":"this listener serves only GET /metrics"}}`+"\n")
	})
	return mux
}
