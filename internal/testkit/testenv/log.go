package testenv

import (
	"bytes"
	"log/slog"
	"sync"
	"testing"

	"github.com/binderyhq/bindery/internal/observe"
)

// LockedBuffer is a buffer written by a server's or a command's goroutines and read by the test.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// CaptureLog sends the default logger's lines, at every level, to a buffer until the test ends.
// The default logger is the process's, so a test that captures must not call t.Parallel: Go runs
// a test that does not while no parallel test runs.
func CaptureLog(t *testing.T) *LockedBuffer {
	t.Helper()
	buf := &LockedBuffer{}
	prev := slog.Default()
	slog.SetDefault(slog.New(observe.WithRequestIDs(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return buf
}
