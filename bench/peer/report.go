package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// targetRatio is the target for Bindery's req/s over the peer's, per store.
var targetRatio = map[string]float64{"SQLite": 5, "PostgreSQL": 2}

// printTable prints, per query and server, the mean req/s (each round's in parentheses), p50 and
// p99 under load, the latency alone, and the ratios to the peer and to the static baseline.
func printTable(w io.Writer, targets []*target, now time.Time) {
	rounds := len(targets[0].runs)
	fmt.Fprintf(w, "Side by side with PostGraphile 4.14.1, %s: wrk -t2 -c16, %d rounds; alone = %s\n\n",
		now.Format("2006-01-02"), rounds, aloneMethod)
	static := targets[len(targets)-1]
	peers := map[string]*target{}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "query\tserver\treq/s (rounds)\tp50\tp99\terrors\talone\t×peer req/s (target)\t×peer alone\t÷static req/s\t×static alone\t")
	for _, t := range targets {
		rps, p50, p99 := t.mean()
		vsPeer, vsPeerAlone := "", ""
		if t.store == "" {
			peers[t.query] = t
		} else if p := peers[t.query]; p != nil {
			peerRPS, _, _ := p.mean()
			ratio, want := rps/peerRPS, targetRatio[t.store]
			verdict := "met"
			if ratio < want {
				verdict = "below"
			}
			vsPeer = fmt.Sprintf("%s× (≥ %.0f×: %s)", num(ratio), want, verdict)
			vsPeerAlone = num(float64(p.alone)/float64(t.alone)) + "×"
		}
		staticRPS, _, _ := static.mean()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\t%s\t%s\t\n", t.query, t.label(), t.rounds(rps),
			ms(p50), ms(p99), t.errors(), t.requests(), ms(t.alone), vsPeer, vsPeerAlone, num(rps/staticRPS), num(float64(t.alone)/float64(static.alone)))
	}
	tw.Flush()
	fmt.Fprintln(w, "\nerrors: answers other than 2xx, or slower than 30 s, of all answers under load (a run fails above 5 %);")
	fmt.Fprintln(w, "×peer req/s: Bindery's req/s over the peer's under the same load (the targets: SQLite ≥ 5×, PostgreSQL ≥ 2×);")
	fmt.Fprintln(w, "×peer alone: the peer's time for one request alone over Bindery's (above 1: Bindery is faster);")
	fmt.Fprintln(w, "÷static req/s: req/s as a fraction of the fixed-bytes handler's; ×static alone: one request's time as a multiple of its;")
	fmt.Fprintln(w, "computed: a server started with --read-cache-mb 0, which computes every answer (the others, as `bindery serve` runs by")
	fmt.Fprintln(w, "default, answer a read sent again to an unchanged database with what they kept: decision 366).")
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

// requests and errors count the answers and the error answers of the measured runs.
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

// rounds formats the mean req/s with each round's.
func (t *target) rounds(mean float64) string {
	each := make([]string, len(t.runs))
	for i, r := range t.runs {
		each[i] = fmt.Sprintf("%.0f", r.rps)
	}
	return fmt.Sprintf("%.0f (%s)", mean, strings.Join(each, ", "))
}

// num formats a ratio with two significant digits below 10 (0.0023, 0.41, 5.3) and none above.
func num(x float64) string {
	if x >= 10 {
		return fmt.Sprintf("%.0f", x)
	}
	return strconv.FormatFloat(x, 'g', 2, 64)
}
