// Package record is the machine-readable form of one `make bench-peer` run: bench-peer appends
// it as a JSON line, and bench/peer/history turns it into a section of
// docs/performance-history.md, so the history is written from measurements, not by hand.
package record

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Run is one run of bench-peer.
type Run struct {
	Date    string `json:"date"`    // when it ended, RFC 3339, UTC
	Commit  string `json:"commit"`  // the commit bench-peer was built from, "+dirty" when modified
	Machine string `json:"machine"` // CPUs, model, load average before and after
	Method  string `json:"method"`  // wrk's settings and how a request alone is measured
	Rows    []Row  `json:"rows"`
	// PeakMemoryMB is each server's peak resident memory over the run.
	PeakMemoryMB map[string]int `json:"peakMemoryMB,omitempty"`
}

// Row is one question asked of one server.
type Row struct {
	Query    string    `json:"query"`           // nested, point read, random point read, static
	Server   string    `json:"server"`          // e.g. "Bindery GraphQL, SQLite, computed"
	Store    string    `json:"store,omitempty"` // SQLite or PostgreSQL for Bindery
	Computed bool      `json:"computed,omitempty"`
	RPS      float64   `json:"rps"`    // mean over the rounds
	Rounds   []float64 `json:"rounds"` // each round's req/s
	P50ms    float64   `json:"p50ms"`
	P99ms    float64   `json:"p99ms"`
	AloneMs  float64   `json:"aloneMs"` // one request alone
	Requests int       `json:"requests"`
	Errors   int       `json:"errors"`
	// WritesPerSec is the rate of writes sent beside the reads, when there were.
	WritesPerSec float64 `json:"writesPerSec,omitempty"`
	VsPeer       float64 `json:"vsPeer,omitempty"` // req/s over the peer's for the same query
	VsStatic     float64 `json:"vsStatic"`         // req/s over the fixed-bytes baseline's
}

// Append writes run as one JSON line to w.
func Append(w io.Writer, run Run) error {
	b, err := json.Marshal(run)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Markdown writes run as a section of the history: a heading naming the date, a line on the
// machine and the method, and the table.
func Markdown(w io.Writer, run Run) {
	fmt.Fprintf(w, "## %s, commit %s\n\n%s. %s.\n\n", run.Date, run.Commit, run.Machine, run.Method)
	fmt.Fprintln(w, "| query | server | req/s (rounds) | p50 / p99 | alone | × peer | ÷ static | writes/s |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, r := range run.Rows {
		rounds := make([]string, len(r.Rounds))
		for i, v := range r.Rounds {
			rounds[i] = fmt.Sprintf("%.0f", v)
		}
		fmt.Fprintf(w, "| %s | %s | %.0f (%s) | %s / %s ms | %s ms | %s | %s | %s |\n", r.Query, r.Server, r.RPS,
			strings.Join(rounds, ", "), Num(r.P50ms), Num(r.P99ms), Num(r.AloneMs), orBlank(r.VsPeer), Num(r.VsStatic), orBlank(r.WritesPerSec))
	}
	if len(run.PeakMemoryMB) > 0 {
		fmt.Fprintf(w, "\nPeak resident memory: %s.\n", Peaks(run.PeakMemoryMB))
	}
	fmt.Fprintln(w)
}

// Num formats a figure with two significant digits below 10 (0.0023, 0.41, 5.3) and none above.
func Num(x float64) string {
	if x >= 10 {
		return fmt.Sprintf("%.0f", x)
	}
	return strconv.FormatFloat(x, 'g', 2, 64)
}

func orBlank(x float64) string {
	if x == 0 {
		return ""
	}
	return Num(x)
}

// Peaks lists the servers' peak memory in a stable order.
func Peaks(mb map[string]int) string {
	names := slices.Sorted(maps.Keys(mb))
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = fmt.Sprintf("%s %d MB", name, mb[name])
	}
	return strings.Join(parts, ", ")
}
