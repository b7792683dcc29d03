package gitsync_test

import (
	"bytes"
	"context"
	"encoding/pem"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/gitsync"
	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
)

const (
	backend = "/usr/lib/git-core/git-http-backend"
	token   = "ghs_l00pb4ckT0ken"
)

// gitServer serves the bare repositories of root over https on 127.0.0.1 with git's own
// http-backend, for the token only. Its certificate is made the process's trusted root in
// TestMain, before any connection verifies one.
var (
	gitServer *httptest.Server
	gitRoot   string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if _, err := os.Stat(backend); err != nil {
		return m.Run() // no git on this machine: TestHTTPS skips
	}
	dir, err := os.MkdirTemp("", "gitsync-https")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	gitRoot = filepath.Join(dir, "repos")
	git := &cgi.Handler{Path: backend, Env: []string{"GIT_PROJECT_ROOT=" + gitRoot, "GIT_HTTP_EXPORT_ALL=1", "REMOTE_USER=bot"}}
	gitServer = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, password, ok := r.BasicAuth(); !ok || password != token {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		git.ServeHTTP(w, r)
	}))
	defer gitServer.Close()
	ca := filepath.Join(dir, "ca.pem")
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: gitServer.Certificate().Raw})
	if err := os.WriteFile(ca, cert, 0o600); err != nil {
		panic(err)
	}
	os.Setenv("SSL_CERT_FILE", ca)
	return m.Run()
}

// TestHTTPSWithToken pushes and reads a repository over https with a token, through the fetch
// client's guard (loopback allowed for the test): a wrong token is refused without being shown,
// and the guard refuses loopback when the operator did not allow it; nothing logs the token.
func TestHTTPSWithToken(t *testing.T) {
	if gitServer == nil {
		t.Skip("no git-http-backend on this machine")
	}
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	url, _ := gitrepo.Bare(t)
	name := "docs.git"
	if err := os.MkdirAll(gitRoot, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(strings.TrimPrefix(url, "file://"), filepath.Join(gitRoot, name)); err != nil {
		t.Fatal(err)
	}
	remote := gitsync.Remote{URL: gitServer.URL + "/" + name, Branch: "main", Token: token}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	guarded := fetch.New(fetch.Allow{}).HTTP(gitsync.HTTPTimeout, gitsync.MaxTransfer)
	gitsync.UseHTTPClient(guarded)
	if _, err := gitsync.Head(ctx, remote); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("the guard let a loopback address through: %v", err)
	}

	allow, err := fetch.ParseAllow("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	gitsync.UseHTTPClient(fetch.New(allow).HTTP(gitsync.HTTPTimeout, gitsync.MaxTransfer))
	sig := gitsync.Signature{Name: "Bindery", Email: "bindery@localhost", When: time.Now()}
	files := []gitsync.File{{Path: "README.md", Data: []byte("# Home\n")}, {Path: "SUMMARY.md", Data: []byte("* [Home](README.md)\n")}}
	pushed, err := gitsync.Publish(ctx, remote, "", "", files, sig, "First")
	if err != nil {
		t.Fatal(err)
	}
	head, err := gitsync.Head(ctx, remote)
	if err != nil || head != pushed {
		t.Fatalf("head %s, pushed %s: %v", head, pushed, err)
	}
	snap, err := gitsync.Read(ctx, remote, gitsync.DefaultLimits)
	if err != nil || snap.Commit != pushed || len(snap.Files) != 2 {
		t.Fatalf("read %+v: %v", snap, err)
	}
	if _, err := gitsync.Publish(ctx, remote, "0123456789012345678901234567890123456789", "", files, sig, "Second"); err != gitsync.ErrMoved {
		t.Fatalf("a push onto a head that moved: %v", err)
	}

	wrong := remote
	wrong.Token = "ghs_wr0ng"
	if _, err := gitsync.Read(ctx, wrong, gitsync.DefaultLimits); err == nil || strings.Contains(err.Error(), wrong.Token) {
		t.Fatalf("a wrong token: %v", err)
	}
	if strings.Contains(logs.String(), token) || strings.Contains(fmt.Sprint(remote.URL), token) {
		t.Fatal("the token was logged")
	}
}
