package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/binderyhq/bindery/bench/peer/record"
)

// targetRatio is the target for Bindery's req/s over the peer's, per store.
var targetRatio = map[string]float64{"SQLite": 5, "PostgreSQL": 2}

// summarize turns the measured targets into the run's record: per query and server, the mean
// req/s (and each round's), p50 and p99 under load, the latency alone, and the ratios to the
// peer and to the static baseline (the last target).
func summarize(targets []*target, c config, machine string, now time.Time) record.Run {
	run := record.Run{
		Date:    now.UTC().Format(time.RFC3339),
		Commit:  commit(),
		Machine: machine,
		Method: fmt.Sprintf("wrk -t2 -c16, rounds: %d of %s after a %s warm-up; alone: %s",
			c.rounds, c.duration, c.warmup, aloneMethod),
	}
	static := targets[len(targets)-1]
	staticRPS, _, _ := static.mean()
	peers := map[string]float64{}
	for _, t := range targets {
		rps, p50, p99 := t.mean()
		row := record.Row{Query: t.query, Server: t.label(), Store: t.store, Computed: t.computed, RPS: rps,
			P50ms: msOf(p50), P99ms: msOf(p99), AloneMs: msOf(t.alone), Requests: t.requests(), Errors: t.errors(),
			WritesPerSec: t.writesPerSec(c.duration), VsStatic: rps / staticRPS}
		for _, r := range t.runs {
			row.Rounds = append(row.Rounds, r.rps)
		}
		if t.store == "" {
			peers[t.query] = rps
		} else if peer := peers[t.query]; peer > 0 {
			row.VsPeer = rps / peer
		}
		run.Rows = append(run.Rows, row)
	}
	return run
}

// printTable prints the run for a reader at the terminal.
func printTable(w io.Writer, run record.Run) {
	fmt.Fprintf(w, "Side by side with PostGraphile 4.14.1, %s, commit %s\n%s\n%s\n\n", run.Date, run.Commit, run.Machine, run.Method)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "query\tserver\treq/s (rounds)\tp50\tp99\terrors\talone\t×peer req/s (target)\t÷static req/s\twrites/s\t")
	for _, r := range run.Rows {
		rounds := make([]string, len(r.Rounds))
		for i, v := range r.Rounds {
			rounds[i] = fmt.Sprintf("%.0f", v)
		}
		vsPeer := ""
		if r.VsPeer > 0 {
			want := targetRatio[r.Store]
			verdict := "met"
			if r.VsPeer < want {
				verdict = "below"
			}
			vsPeer = fmt.Sprintf("%s× (≥ %.0f×: %s)", record.Num(r.VsPeer), want, verdict)
		}
		writes := ""
		if r.WritesPerSec > 0 {
			writes = record.Num(r.WritesPerSec)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.0f (%s)\t%s ms\t%s ms\t%d/%d\t%s ms\t%s\t%s\t%s\t\n", r.Query, r.Server, r.RPS,
			strings.Join(rounds, ", "), record.Num(r.P50ms), record.Num(r.P99ms), r.Errors, r.Requests,
			record.Num(r.AloneMs), vsPeer, record.Num(r.VsStatic), writes)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nerrors: answers other than 2xx, or slower than 30 s, of all answers under load (a run fails above 5 %);")
	fmt.Fprintln(w, "×peer req/s: Bindery's req/s over the peer's under the same load (the targets: SQLite ≥ 5×, PostgreSQL ≥ 2×);")
	fmt.Fprintln(w, "÷static req/s: req/s as a fraction of the fixed-bytes handler's;")
	fmt.Fprintln(w, "random point read: each request under load reads one of the 1,000 spaces at random while writes/s titles change")
	fmt.Fprintln(w, "beside (alone: Space 1, without writes);")
	fmt.Fprintln(w, "computed: a server started with --read-cache-mb 0, which computes every answer (the others, as `bindery serve` runs by")
	fmt.Fprintln(w, "default, answer a read sent again to an unchanged database with what they kept: decision 366).")
	if len(run.PeakMemoryMB) > 0 {
		fmt.Fprintln(w, "peak resident memory:", record.Peaks(run.PeakMemoryMB))
	}
}

// mean returns the mean req/s, p50 and p99 over the rounds.
func (t *target) mean() (rps float64, p50, p99 time.Duration) {
	for _, r := range t.runs {
		rps += r.rps / float64(len(t.runs))
		p50 += r.p50 / time.Duration(len(t.runs))
		p99 += r.p99 / time.Duration(len(t.runs))
	}
	return rps, p50, p99
}

// requests, errors and writes count the answers, the error answers and the writes beside of the
// measured runs.
func (t *target) requests() (n int) {
	for _, r := range t.runs {
		n += r.requests
	}
	return n
}

func (t *target) errors() (n int) {
	for _, r := range t.runs {
		n += r.errors
	}
	return n
}

func (t *target) writesPerSec(each time.Duration) float64 {
	n := 0
	for _, r := range t.runs {
		n += r.writes
	}
	return float64(n) / (each.Seconds() * float64(len(t.runs)))
}

func msOf(d time.Duration) float64 { return float64(d) / 1e6 }

// cpus names the machine's processors.
func cpus() string {
	model := "unknown CPU"
	if info, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(info)) {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				model = strings.TrimSpace(strings.TrimLeft(name, "\t :"))
				break
			}
		}
	}
	return fmt.Sprintf("%d CPUs (%s)", runtime.NumCPU(), model)
}

// loadAverage is the machine's load over the last 1, 5 and 15 minutes: how busy other work kept
// it while the benchmark ran.
func loadAverage() string {
	avg, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(avg))[:3], " ")
}

// commit is the checkout's commit, "+dirty" when files differ from it, as git tells (make
// bench-peer runs in the checkout; "unknown" elsewhere).
func commit() string {
	rev, err := exec.Command("git", "rev-parse", "--short=10", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	status, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output()
	if err != nil || len(status) > 0 {
		return strings.TrimSpace(string(rev)) + "+dirty"
	}
	return strings.TrimSpace(string(rev))
}
