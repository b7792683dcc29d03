// Package fetchtest serves test websites on loopback addresses other than 127.0.0.1 (Linux
// routes all of 127.0.0.0/8 to the loopback interface), so a test can allow exactly that address
// in the import's SSRF guard and check that 127.0.0.1 stays refused.
package fetchtest

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Serve starts h on addr ("127.0.0.2") at a free port and closes it when the test ends. It skips
// the test where the address cannot be bound.
func Serve(tb testing.TB, addr string, h http.Handler) *httptest.Server {
	tb.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(addr, "0"))
	if err != nil {
		tb.Skipf("cannot listen on %s: %v", addr, err)
	}
	s := httptest.NewUnstartedServer(h)
	s.Listener.Close()
	s.Listener = ln
	s.Start()
	tb.Cleanup(s.Close)
	return s
}

// Site is a static test website.
type Site struct {
	Pages     map[string]string // path → HTML, served as text/html
	Files     map[string]File   // path → another resource
	Redirects map[string]string // path → where it redirects (302)
}

// File is a resource of a Site other than a page.
type File struct {
	ContentType string
	Data        []byte
}

// ServeHTTP answers a page, a file or a redirect by path, else 404.
func (s Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if page, ok := s.Pages[r.URL.Path]; ok {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	} else if f, ok := s.Files[r.URL.Path]; ok {
		w.Header().Set("Content-Type", f.ContentType)
		w.Write(f.Data)
	} else if to, ok := s.Redirects[r.URL.Path]; ok {
		http.Redirect(w, r, to, http.StatusFound)
	} else {
		http.NotFound(w, r)
	}
}
