package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
)

func TestParseAllow(t *testing.T) {
	tests := []struct {
		list    string
		hosts   []string
		nets    []string
		wantErr string
	}{
		{list: ""},
		{list: " wiki.internal , 127.0.0.2,10.1.0.0/16", hosts: []string{"wiki.internal"}, nets: []string{"127.0.0.2/32", "10.1.0.0/16"}},
		{list: "Docs.Example.COM", hosts: []string{"docs.example.com"}},
		{list: "[::1],fd00::/8", nets: []string{"::1/128", "fd00::/8"}},
		{list: "10.1.2.3/8", nets: []string{"10.0.0.0/8"}},
		{list: "10.0.0.0/33", wantErr: "not a CIDR network"},
		{list: "wiki internal", wantErr: "neither a host name"},
	}
	for _, tt := range tests {
		t.Run(tt.list, func(t *testing.T) {
			a, err := ParseAllow(tt.list)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range tt.hosts {
				if !a.hosts[h] {
					t.Errorf("host %s not allowed", h)
				}
			}
			if len(a.hosts) != len(tt.hosts) || len(a.prefixes) != len(tt.nets) {
				t.Fatalf("hosts %v prefixes %v", a.hosts, a.prefixes)
			}
			for i, n := range tt.nets {
				if a.prefixes[i].String() != n {
					t.Errorf("prefix %d: %s, want %s", i, a.prefixes[i], n)
				}
			}
		})
	}
}

// TestGuardian checks the address decisions themselves, including addresses no test can dial.
func TestGuardian(t *testing.T) {
	allow, err := ParseAllow("127.0.0.2,fd12::/16")
	if err != nil {
		t.Fatal(err)
	}
	refused := []string{"127.0.0.1", "127.0.0.3", "10.1.2.3", "172.16.0.1", "192.168.1.1", "100.64.0.1",
		"169.254.169.254", "169.254.1.1", "0.0.0.0", "224.0.0.1", "255.255.255.255",
		"::1", "::", "fe80::1", "fd00:ec2::254", "fc00::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254"}
	allowed := []string{"93.184.216.34", "8.8.8.8", "2606:4700::1111", "127.0.0.2", "fd12::1"}
	for _, tt := range []struct {
		guard *Allow
		addrs []string
		ok    bool
	}{{&allow, refused, false}, {&allow, allowed, true}, {&Allow{}, []string{"127.0.0.2", "fd12::1"}, false}} {
		g := tt.guard.guardian()
		for _, a := range tt.addrs {
			err := g.SafeAddr(netip.MustParseAddr(a))
			if (err == nil) != tt.ok {
				t.Errorf("%s: err %v, want allowed=%v", a, err, tt.ok)
			}
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestGetGuards(t *testing.T) {
	hello := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<p>hello</p>"))
	})
	loopback := fetchtest.Serve(t, "127.0.0.1", hello)
	allowed := fetchtest.Serve(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-loopback":
			http.Redirect(w, r, loopback.URL+"/", http.StatusFound)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/to-ftp":
			http.Redirect(w, r, "ftp://example.com/", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/big":
			w.Write(make([]byte, 2048))
		default:
			hello(w, r)
		}
	}))
	_, port, _ := net.SplitHostPort(loopback.Listener.Addr().String())
	allowList, err := ParseAllow("127.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	byName, err := ParseAllow("localhost")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		allow Allow
		url   string
		want  error // nil: fetched
	}{
		{"allowed address", allowList, allowed.URL + "/", nil},
		{"loopback without the allow-list", Allow{}, allowed.URL + "/", ErrRefused},
		{"127.0.0.1 when 127.0.0.2 is allowed", allowList, loopback.URL + "/", ErrRefused},
		{"a name resolving to loopback", allowList, "http://localhost:" + port + "/", ErrRefused},
		{"an allowed name", byName, "http://localhost:" + port + "/", nil},
		{"redirect to loopback", allowList, allowed.URL + "/to-loopback", ErrRefused},
		{"redirect to the metadata address", allowList, allowed.URL + "/to-metadata", ErrRefused},
		{"redirect to another scheme", allowList, allowed.URL + "/to-ftp", ErrRefused},
		{"redirect loop", allowList, allowed.URL + "/loop", ErrRefused},
		{"metadata address", Allow{}, "http://169.254.169.254/latest/meta-data/", ErrRefused},
		{"private address", Allow{}, "http://10.0.0.1/", ErrRefused},
		{"IPv6 metadata address", Allow{}, "http://[fd00:ec2::254]/", ErrRefused},
		{"IPv4-mapped loopback", Allow{}, "http://[::ffff:127.0.0.1]:" + port + "/", ErrRefused},
		{"unspecified address", Allow{}, "http://0.0.0.0:" + port + "/", ErrRefused},
		{"file scheme", allowList, "file:///etc/passwd", ErrRefused},
		{"too large", allowList, allowed.URL + "/big", ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New(tt.allow).Get(context.Background(), mustURL(t, tt.url), 1024)
			if tt.want != nil {
				if !errors.Is(err, tt.want) {
					t.Fatalf("err %v, want %v", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.ContentType != "text/html" || string(res.Body) != "<p>hello</p>" || res.Status != 200 {
				t.Fatalf("got %d %q %q", res.Status, res.ContentType, res.Body)
			}
		})
	}
}

// TestGetHidesWhyItCouldNotConnect: a closed port, a port answering something else than HTTP and
// a name that does not resolve all read "could not connect to HOST", and a refused name says so
// without its address: a caller learns neither which ports are open nor where the DNS answers.
func TestGetHidesWhyItCouldNotConnect(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	notHTTP, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	defer notHTTP.Close()
	go func() {
		for {
			c, err := notHTTP.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n"))
			c.Close()
		}
	}()
	allow, err := ParseAllow("127.0.0.2,no-such-host.invalid")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ url, want string }{
		{"http://" + closedAddr + "/", "could not connect to " + closedAddr},
		{"http://" + notHTTP.Addr().String() + "/", "could not connect to " + notHTTP.Addr().String()},
		{"http://no-such-host.invalid/", "could not connect to no-such-host.invalid"},
		{"http://localhost:1/", "refused: localhost:1 is not a public address"},
	} {
		_, err := New(allow).Get(context.Background(), mustURL(t, c.url), 1024)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: err %v, want %q", c.url, err, c.want)
		}
	}
}

func TestAllowed(t *testing.T) {
	allow, err := ParseAllow("127.0.0.2,fd12::/16,wiki.internal")
	if err != nil {
		t.Fatal(err)
	}
	c := New(allow)
	for host, want := range map[string]bool{"127.0.0.2": true, "[fd12::1]": true, "WIKI.internal": true,
		"127.0.0.1": false, "example.com": false, "wiki.internal.evil.example": false} {
		if got := c.Allowed(host); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestHTTPBoundsBodies(t *testing.T) {
	allow, _ := ParseAllow("127.0.0.2")
	site := fetchtest.Serve(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(bytes.Repeat([]byte("x"), 100))
	}))
	client := New(allow).HTTP(time.Second, 99)
	res, err := client.Get(site.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if _, err := io.ReadAll(res.Body); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a body over the bound read with %v, want ErrTooLarge", err)
	}
	if _, err := New(Allow{}).HTTP(time.Second, 99).Get(site.URL); !errors.Is(err, ErrRefused) {
		t.Fatalf("a loopback address not allowed: %v, want ErrRefused", err)
	}
}
