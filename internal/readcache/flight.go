package readcache

import (
	"context"
	"sync"
	"sync/atomic"
)

// versions shares reads of the database's version among requests that arrive while one is being
// read: a request may take the version of a read that began after it arrived, which sees every
// commit made before it arrived, as a read of its own would. Under load, one read serves the
// requests that arrived during the previous one; alone, a request reads its own. Nothing waits
// longer than one read, and nothing is read ahead or on a timer.
type versions struct {
	read     Versioner
	arrivals atomic.Uint64 // tickets handed to requests as they ask

	mu      sync.Mutex
	reading *flight // the read in progress, if any
	last    *flight // the last read done
}

// flight is one read of the version: it serves the requests whose ticket is at most covers (they
// asked before it began).
type flight struct {
	covers  uint64
	done    chan struct{}
	version string
	err     error
}

// arrive hands a request its ticket: any read of the version that begins later serves it.
func (vs *versions) arrive() uint64 { return vs.arrivals.Add(1) }

// get returns a version read after the request holding ticket arrived.
func (vs *versions) get(ctx context.Context, ticket uint64) (string, error) {
	for {
		vs.mu.Lock()
		if f := vs.last; f != nil && f.covers >= ticket {
			vs.mu.Unlock()
			return f.version, f.err
		}
		f := vs.reading
		if f == nil {
			return vs.readFor(ctx)
		}
		vs.mu.Unlock()
		if _, err := f.wait(ctx); ctx.Err() != nil {
			return "", err
		}
		if f.covers >= ticket {
			return f.version, f.err
		}
		// That read began before this request asked; any read after it began later.
	}
}

// readFor reads the version for the requests that asked so far; vs.mu is held, and released.
func (vs *versions) readFor(ctx context.Context) (string, error) {
	f := &flight{covers: vs.arrivals.Load(), done: make(chan struct{})}
	vs.reading = f
	vs.mu.Unlock()
	// Under the reader's own context: should it end, those who shared the read compute their
	// answers without the cache rather than wait on a read nobody bounds.
	defer vs.finish(f) // a panic too leaves the others a read ("": no version, nothing kept)
	f.version, f.err = vs.read(ctx)
	return f.version, f.err
}

// finish makes f the last read done and lets those waiting on it go.
func (vs *versions) finish(f *flight) {
	vs.mu.Lock()
	vs.reading, vs.last = nil, f
	vs.mu.Unlock()
	close(f.done)
}

func (f *flight) wait(ctx context.Context) (string, error) {
	select {
	case <-f.done:
		return f.version, f.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
