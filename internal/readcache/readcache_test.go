package readcache

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// database is a version that writes move, read slowly enough for requests to overlap.
type database struct {
	version atomic.Int64
	reads   atomic.Int64
}

func (d *database) read(context.Context) (string, error) {
	d.reads.Add(1)
	v := d.version.Load()
	time.Sleep(200 * time.Microsecond)
	return strconv.FormatInt(v, 10), nil
}

// TestVersionsSeeEveryEarlierWrite: requests that share reads of the version still each get one
// that saw every write made before they asked, and under load they share.
func TestVersionsSeeEveryEarlierWrite(t *testing.T) {
	db := &database{}
	vs := &versions{read: db.read}
	var gets atomic.Int64
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 200 {
				if (w+i)%5 == 0 {
					db.version.Add(1) // a write
				}
				before := db.version.Load()
				v, err := vs.get(context.Background(), vs.arrive())
				got, _ := strconv.ParseInt(v, 10, 64)
				if err != nil || got < before {
					t.Errorf("asked after the version was %d, got %q (%v)", before, v, err)
					return
				}
				gets.Add(1)
			}
		})
	}
	wg.Wait()
	if db.reads.Load() >= gets.Load() {
		t.Fatalf("%d requests read the version %d times: none shared", gets.Load(), db.reads.Load())
	}
	t.Logf("%d requests, %d reads of the version", gets.Load(), db.reads.Load())
}

// TestVersionsWaitersLeaveWhenCancelled: a request waiting on another's read leaves when its own
// context ends; the read goes on for the others.
func TestVersionsWaitersLeaveWhenCancelled(t *testing.T) {
	release := make(chan struct{})
	vs := &versions{read: func(context.Context) (string, error) { <-release; return "1", nil }}
	first := make(chan string)
	go func() { v, _ := vs.get(context.Background(), vs.arrive()); first <- v }()
	for vs.readingNow() == nil {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := vs.get(ctx, vs.arrive()); err != context.Canceled {
		t.Fatalf("a cancelled waiter got %v", err)
	}
	close(release)
	if v := <-first; v != "1" {
		t.Fatalf("the reader got %q", v)
	}
}

func (vs *versions) readingNow() *flight {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	return vs.reading
}

// TestTableKeepsByVersion: a value is taken only at the version it was kept at, and only a value
// read after the version was read is kept.
func TestTableKeepsByVersion(t *testing.T) {
	db := &database{}
	c := New(db.read, 1<<20)
	table := NewTable[string, int](10)
	ctx := c.Track(context.Background())
	table.Put(ctx, "k", 1) // the version was not read: it might be newer than the value
	if _, ok := table.Get(ctx, "k"); ok {
		t.Fatal("a value put before the version was read was kept")
	}
	table.Put(ctx, "k", 2)
	if v, ok := table.Get(c.Track(context.Background()), "k"); !ok || v != 2 {
		t.Fatalf("at the same version, got %d %v", v, ok)
	}
	db.version.Add(1)
	if _, ok := table.Get(c.Track(context.Background()), "k"); ok {
		t.Fatal("a value was taken at another version")
	}
	c.Pause(true)
	if _, ok := table.Get(c.Track(context.Background()), "k"); ok {
		t.Fatal("a paused cache handed out a value")
	}
}

// TestTableSharesReads: requests that ask for a value at one version while it is being read take
// that read's value; when it fails, each reads its own.
func TestTableSharesReads(t *testing.T) {
	db := &database{}
	c := New(db.read, 1<<20)
	table := NewTable[string, int](10)
	readAll := func(fail bool) (reads int64, values []int) {
		var n atomic.Int64
		release := make(chan struct{})
		out := make([]int, 8)
		var wg sync.WaitGroup
		for i := range out {
			ctx := c.Track(context.Background())
			table.Get(ctx, "warm-up") // reads the version, as a request does before its rows
			wg.Go(func() {
				out[i], _ = table.Read(ctx, "k", func() (int, error) {
					if n.Add(1) == 1 {
						<-release // the others ask meanwhile
					}
					if fail {
						return 0, errors.New("failed")
					}
					return 7, nil
				})
			})
		}
		time.Sleep(20 * time.Millisecond)
		close(release)
		wg.Wait()
		return n.Load(), out
	}
	if reads, values := readAll(true); reads != 8 {
		t.Fatalf("after a failed read, %d reads of 8 requests (values %v)", reads, values)
	}
	db.version.Add(1)
	if reads, values := readAll(false); reads != 1 || slices.ContainsFunc(values, func(v int) bool { return v != 7 }) {
		t.Fatalf("8 requests at one version read %d times, got %v", reads, values)
	}
}

// TestKeyOfNamesTheWholeRequest: any header but X-Request-Id, the body, the host and the URL make
// another key.
func TestKeyOfNamesTheWholeRequest(t *testing.T) {
	base := func() *http.Request {
		r := httptest.NewRequest("GET", "http://example.com/v1/spaces/a?x=1", nil)
		r.Header.Set("Authorization", "Bearer one")
		r.Header.Set("Accept", "application/json")
		return r
	}
	k := KeyOf(Router, base(), nil)
	same := base()
	same.Header.Set("X-Request-Id", "anything")
	if KeyOf(Router, same, nil) != k {
		t.Fatal("X-Request-Id changed the key")
	}
	if KeyOf(SiteHost, base(), nil) == k {
		t.Fatal("two scopes share a key")
	}
	for name, change := range map[string]func(r *http.Request) []byte{
		"token":          func(r *http.Request) []byte { r.Header.Set("Authorization", "Bearer two"); return nil },
		"another header": func(r *http.Request) []byte { r.Header.Set("Accept-Language", "fr"); return nil },
		"a second value": func(r *http.Request) []byte { r.Header.Add("Accept", "text/html"); return nil },
		"host":           func(r *http.Request) []byte { r.Host = "example.org"; return nil },
		"query":          func(r *http.Request) []byte { r.URL.RawQuery = "x=2"; return nil },
		"method":         func(r *http.Request) []byte { r.Method = "POST"; return nil },
		"body":           func(*http.Request) []byte { return []byte("{}") },
		"header moved into the value": func(r *http.Request) []byte {
			r.Header.Del("Accept")
			r.Header.Set("Authorization", "Bearer one")
			r.Header["Accept"] = []string{""}
			return nil
		},
	} {
		r := base()
		if body := change(r); KeyOf(Router, r, body) == k {
			t.Errorf("%s: same key", name)
		}
	}
}

// TestKeepOnlyWholeAnswers: answers are kept when the request allows, within the bytes given, and
// taken only at their version.
func TestKeepOnlyWholeAnswers(t *testing.T) {
	db := &database{}
	c := New(db.read, 4096)
	serve := func(status int, body string, mark func(context.Context)) (context.Context, Key, *recorder) {
		ctx := c.Track(context.Background())
		c.answer(ctx, Key{}) // reads the version first, as Serve does
		rec := record(httptest.NewRecorder())
		rec.Header().Set("Content-Type", "application/json")
		if mark != nil {
			mark(ctx)
		}
		rec.WriteHeader(status)
		rec.Write([]byte(body))
		return ctx, Key{byte(len(body)), byte(status)}, rec
	}
	taken := func(k Key) bool {
		_, ok := c.answer(c.Track(context.Background()), k)
		return ok
	}
	for name, tc := range map[string]struct {
		status int
		body   string
		mark   func(context.Context)
		kept   bool
	}{
		"ok":           {200, `{"a":1}`, nil, true},
		"not found":    {404, `{"error":{}}`, nil, false},
		"timed":        {200, `{"b":22}`, DependsOnTime, false},
		"a write":      {200, `{"c":333}`, DoNotKeep, false},
		"over the max": {200, string(make([]byte, 5000)), nil, false},
	} {
		ctx, k, rec := serve(tc.status, tc.body, tc.mark)
		c.keepRecorded(ctx, k, rec, "/route")
		if taken(k) != tc.kept {
			t.Errorf("%s: kept %v, want %v", name, !tc.kept, tc.kept)
		}
	}
	ctx, k, rec := serve(200, `{"a":1}`, nil)
	c.keepRecorded(ctx, k, rec, "/route")
	db.version.Add(1)
	if taken(k) {
		t.Fatal("an answer was taken at a newer version")
	}
}
