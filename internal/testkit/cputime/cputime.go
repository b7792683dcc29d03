// Package cputime measures the processor time a benchmark costs. On a machine shared with other
// work the elapsed time of an operation also counts its waits for a core; the processor time the
// process spent (every thread's: the collector's too) moves far less.
package cputime

import (
	"syscall"
	"testing"
	"time"
)

// Process is the processor time (user and system) the process has used.
func Process() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// Loop runs fn once per iteration of b (b.Loop) and reports the processor time the process spent
// per iteration as cpu-ns/op.
func Loop(b *testing.B, fn func()) {
	start := Process()
	for b.Loop() {
		fn()
	}
	b.ReportMetric(float64(Process()-start)/float64(b.N), "cpu-ns/op")
}
