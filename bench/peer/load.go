package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// wrkRun is one measured run of wrk.
type wrkRun struct {
	rps              float64
	p50, p99         time.Duration
	requests, errors int
	writes           int // sent beside the reads
}

// writesPerSecond is the pace of the writes beside a target's reads: a site being edited while
// it is read.
const writesPerSecond = 10

// The latency alone is measured over aloneRounds turns of aloneRun requests per target.
const aloneRounds, aloneRun = 5, 21

// aloneMethod says how, in the report.
var aloneMethod = fmt.Sprintf("median of %d runs of %d sequential requests per target, in turn", aloneRounds, aloneRun)

// measureAlone sets each target's latency alone: the median of rounds × n requests, sent one at
// a time. Each target takes n requests in a row, the targets taking turns rounds times, so that
// drift affects them alike while each is measured warm: taking turns request by request made
// every request follow another server's, on caches and idle threads that server had just taken,
// and doubled to quadrupled every server's latency alone, the fixed-bytes handler's included
// (decision 342).
func measureAlone(ctx context.Context, targets []*target, rounds, n int) error {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	times := make([][]time.Duration, len(targets))
	for range rounds {
		for i, t := range targets {
			for range n {
				start := time.Now()
				if err := t.do(ctx, client); err != nil {
					return err
				}
				times[i] = append(times[i], time.Since(start))
			}
		}
	}
	for i, t := range targets {
		slices.Sort(times[i])
		t.alone = times[i][len(times[i])/2]
		fmt.Printf("         alone  %-10s  %-30s %s\n", t.query, t.label(), ms(t.alone))
	}
	return nil
}

// measureLoad runs wrk against every target in turn, rounds times (A B A B), each measured run
// after a warm-up run of the same target.
func measureLoad(ctx context.Context, targets []*target, c config, work string) error {
	scripts := make([]string, len(targets))
	for i, t := range targets {
		scripts[i] = filepath.Join(work, fmt.Sprintf("target%d.lua", i))
		if err := os.WriteFile(scripts[i], []byte(t.lua()), 0o600); err != nil {
			return err
		}
	}
	for round := 1; round <= c.rounds; round++ {
		for i, t := range targets {
			if _, err := runWrk(ctx, t, scripts[i], c.warmup); err != nil {
				return err
			}
			r, err := runWrk(ctx, t, scripts[i], c.duration)
			if err != nil {
				return err
			}
			t.runs = append(t.runs, r)
			fmt.Printf("         round %d  %-10s  %-30s %9.1f req/s  p50 %-8s p99 %-8s errors %d  writes %d\n",
				round, t.query, t.label(), r.rps, ms(r.p50), ms(r.p99), r.errors, r.writes)
		}
	}
	return nil
}

// lua is wrk's script of the target's request; with variants, each request is one of them at
// random, each wrk thread seeded with its number, so every server gets the same sequence.
func (t *target) lua() string {
	var b strings.Builder
	fmt.Fprintf(&b, "wrk.method = %q\n", t.method)
	if t.body != "" {
		fmt.Fprintf(&b, "wrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = [==[%s]==]\n", t.body)
	}
	if t.token != "" {
		fmt.Fprintf(&b, "wrk.headers[\"Authorization\"] = \"Bearer %s\"\n", t.token)
	}
	if len(t.variants) == 0 {
		return b.String()
	}
	b.WriteString("local variants = {\n")
	for _, v := range t.variants {
		fmt.Fprintf(&b, "  [==[%s]==],\n", v)
	}
	b.WriteString("}\nlocal threads = 0\n")
	b.WriteString("function setup(thread) threads = threads + 1; thread:set(\"seed\", threads) end\n")
	b.WriteString("function init(args) math.randomseed(seed) end\n")
	if t.method == http.MethodGet {
		b.WriteString("function request() return wrk.format(nil, variants[math.random(#variants)]) end\n")
	} else {
		b.WriteString("function request() return wrk.format(nil, nil, nil, variants[math.random(#variants)]) end\n")
	}
	return b.String()
}

// writeBeside sends t's writes at writesPerSecond until stop is closed and returns how many it
// sent; the first that fails ends them and is returned.
func (t *target) writeBeside(ctx context.Context, stop <-chan struct{}) (int, error) {
	tick := time.NewTicker(time.Second / writesPerSecond)
	defer tick.Stop()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	for n := 0; ; {
		select {
		case <-stop:
			return n, nil
		case <-ctx.Done():
			return n, ctx.Err()
		case <-tick.C:
			if err := t.write(ctx, client); err != nil {
				return n, fmt.Errorf("%s: %w", t.label(), err)
			}
			n++
		}
	}
}

var (
	rpsLine        = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	requestsLine   = regexp.MustCompile(`(\d+) requests in`)
	percentileLine = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([0-9.]+(?:us|ms|s|m))\s*$`)
	failureLines   = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)|Socket errors: .*timeout (\d+)`)
)

// maxErrorShare is the share of error answers (non-2xx, or slower than wrk's 30 s timeout) that
// fails a run: a benchmark of errors is worthless. Fewer are counted and shown in the table.
const maxErrorShare = 0.05

// runWrk runs wrk against t for d, with t's writes beside it when it has them.
func runWrk(ctx context.Context, t *target, script string, d time.Duration) (wrkRun, error) {
	if t.write == nil {
		return runWrkAlone(ctx, t, script, d)
	}
	stop, written := make(chan struct{}), make(chan error, 1)
	var writes int
	go func() {
		var err error
		writes, err = t.writeBeside(ctx, stop)
		written <- err
	}()
	r, err := runWrkAlone(ctx, t, script, d)
	close(stop)
	if werr := <-written; err == nil {
		err = werr
	}
	r.writes = writes
	return r, err
}

// runWrkAlone runs wrk -t2 -c16 for d and reads its req/s, p50, p99 and errors. Its timeout is
// 30 s, not the default 2 s, which would drop slow answers from the figures.
func runWrkAlone(ctx context.Context, t *target, script string, d time.Duration) (wrkRun, error) {
	out, err := exec.CommandContext(ctx, "wrk", "-t2", "-c16", "-d"+d.String(), "--timeout", "30s", "--latency",
		"-s", script, t.url).CombinedOutput()
	if err != nil {
		return wrkRun{}, fmt.Errorf("wrk %s: %w\n%s", t.label(), err, out)
	}
	var r wrkRun
	rps, requests := rpsLine.FindSubmatch(out), requestsLine.FindSubmatch(out)
	if rps == nil || requests == nil {
		return r, fmt.Errorf("wrk %s: no Requests/sec in\n%s", t.label(), out)
	}
	r.rps, _ = strconv.ParseFloat(string(rps[1]), 64)
	r.requests, _ = strconv.Atoi(string(requests[1]))
	for _, m := range failureLines.FindAllSubmatch(out, -1) {
		n, _ := strconv.Atoi(string(m[1]) + string(m[2])) // one of the two is empty
		r.errors += n
	}
	if float64(r.errors) > maxErrorShare*float64(r.requests) {
		return r, fmt.Errorf("wrk %s: %d errors in %d answers\n%s", t.label(), r.errors, r.requests, out)
	}
	for _, p := range percentileLine.FindAllSubmatch(out, -1) {
		v, err := time.ParseDuration(string(p[2]))
		if err != nil {
			return r, err
		}
		if string(p[1]) == "50" {
			r.p50 = v
		} else {
			r.p99 = v
		}
	}
	return r, nil
}

// ms formats a duration in milliseconds.
func ms(d time.Duration) string {
	v := float64(d) / 1e6
	if v < 10 {
		return fmt.Sprintf("%.2f ms", v)
	}
	return fmt.Sprintf("%.0f ms", v)
}
