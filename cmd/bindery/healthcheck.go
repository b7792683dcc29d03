package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// ReadyPath is the path healthcheck asks: it answers 200 once the server can serve.
const ReadyPath = "/readyz"

// unhealthyError is healthcheck's answer when the server is not ready. The process then exits 1,
// which container runtimes read as unhealthy (they reserve 2, bindery's status for other errors).
type unhealthyError struct{ error }

// healthcheck asks the server listening on --addr (the serve flag, from the same BINDERY_ADDR)
// whether it is ready, so a container image needs no HTTP client besides bindery itself.
func healthcheck(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	addr := fs.String("addr", envOr("BINDERY_ADDR", "127.0.0.1:8080"), "address the server listens on (env BINDERY_ADDR)")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the answer")
	if err := parse(fs, args); err != nil {
		return err
	}
	url := "http://" + dialable(*addr) + ReadyPath
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return unhealthyError{fmt.Errorf("healthcheck: GET %s: %w", url, err)}
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 300))
	if res.StatusCode != http.StatusOK {
		return unhealthyError{fmt.Errorf("healthcheck: GET %s answered %s: %s", url, res.Status, strings.TrimSpace(string(body)))}
	}
	return nil
}

// dialable turns a listen address into one to connect to: an unspecified host (":8080",
// "0.0.0.0:8080", "[::]:8080") becomes the loopback address.
func dialable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	switch ip := net.ParseIP(host); {
	case host == "" || (ip != nil && ip.IsUnspecified() && ip.To4() != nil):
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified():
		host = "::1"
	}
	return net.JoinHostPort(host, port)
}
