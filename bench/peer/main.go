// Command peer measures Bindery side by side with PostGraphile 4.14.1 (shared/peer) on the same
// rows: it loads the peer's schema.sql into PostgreSQL, puts the same rows into Bindery (embedded
// SQLite and PostgreSQL), starts PostGraphile, two `bindery serve` and a fixed-bytes baseline on
// loopback ports, checks every answer, then runs wrk against each in turn, A B A B, and prints
// req/s, p50 and p99 with the ratios Bindery/peer and to the baseline. Besides one request
// repeated, it reads spaces at random with writes beside (the random point read). With -runs it
// appends the run as a JSON line, which bench/peer/history adds to docs/performance-history.md. `make bench-peer` installs
// wrk and PostGraphile, builds the binaries and runs it.
//
//	peer -bindery BIN -postgraphile CLI.js [-peer DIR] [-pg DSN] [-duration 6s] [-warmup 2s] [-rounds 2] [-runs FILE]
package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/binderyhq/bindery/bench/peer/record"
)

type config struct {
	bindery, postgraphile, peerDir, pg string
	duration, warmup                   time.Duration
	rounds                             int
	runs                               string // the JSON lines file each run is appended to
}

func main() {
	var c config
	flag.StringVar(&c.bindery, "bindery", "", "the bindery binary (go build -tags sqlite_fts5 ./cmd/bindery)")
	flag.StringVar(&c.postgraphile, "postgraphile", "", "PostGraphile 4.14.1's cli.js")
	flag.StringVar(&c.peerDir, "peer", "../shared/peer", "the folder of schema.sql and the queries")
	flag.StringVar(&c.pg, "pg", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable",
		"a PostgreSQL DSN allowed to drop and create the databases peer and bindery_peer")
	flag.DurationVar(&c.duration, "duration", 6*time.Second, "wrk's measured run per target and round")
	flag.DurationVar(&c.warmup, "warmup", 2*time.Second, "wrk's unmeasured run before each measured one")
	flag.IntVar(&c.rounds, "rounds", 2, "rounds over all targets (A B A B)")
	flag.StringVar(&c.runs, "runs", "", "append the run as a JSON line to this file (go run ./bench/peer/history adds it to docs/performance-history.md)")
	flag.Parse()
	if c.bindery == "" || c.postgraphile == "" {
		fmt.Fprintln(os.Stderr, "peer: -bindery and -postgraphile are required (make bench-peer sets them)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	err := run(ctx, c)
	if ctx.Err() != nil {
		err = fmt.Errorf("interrupted; the servers it started are stopped")
	}
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-peer:", err)
		os.Exit(1)
	}
}

// run does the whole benchmark; every process it starts is stopped before it returns.
func run(ctx context.Context, c config) (err error) {
	work, err := os.MkdirTemp("", "bindery-peer-")
	if err != nil {
		return err
	}
	var procs processes
	defer func() {
		procs.stopAll()
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench-peer: the servers' logs are in %s\n", work)
			return
		}
		os.RemoveAll(work)
	}()

	start, loadBefore := time.Now(), loadAverage()
	step := func(format string, args ...any) {
		fmt.Printf("[%5.1fs] %s\n", time.Since(start).Seconds(), fmt.Sprintf(format, args...))
	}
	step("loading %s/schema.sql into the database peer", c.peerDir)
	if err := loadPeer(ctx, c.pg, "peer", c.peerDir+"/schema.sql"); err != nil {
		return err
	}
	step("seeding Bindery: SQLite")
	sqliteDir := work + "/sqlite"
	lite, err := seedBindery(ctx, sqliteDir, "")
	if err != nil {
		return err
	}
	step("seeding Bindery: PostgreSQL database bindery_peer")
	pgDSN, err := recreateDatabase(ctx, c.pg, "bindery_peer")
	if err != nil {
		return err
	}
	pg, err := seedBindery(ctx, work+"/pg", pgDSN)
	if err != nil {
		return err
	}
	if err := analyze(ctx, pgDSN); err != nil {
		return err
	}

	step("starting PostGraphile, four bindery serve (two computing every answer) and the static baseline")
	peerURL, err := procs.startPostGraphile(ctx, c.postgraphile, withDatabase(c.pg, "peer"), work)
	if err != nil {
		return err
	}
	// Each store is served twice: as `bindery serve` runs by default, and keeping no answers
	// (--read-cache-mb 0), computing every answer (tokens' rows are still kept under the version).
	var sides []side
	for _, s := range []side{{store: "SQLite", f: lite}, {store: "PostgreSQL", f: pg}} {
		flags := []string{"--data", sqliteDir}
		if s.store == "PostgreSQL" {
			flags = []string{"--data", work + "/pg", "--db", pgDSN}
		}
		for _, computed := range []bool{false, true} {
			name, extra := "bindery-"+strings.ToLower(s.store), []string(nil)
			if computed {
				name, extra = name+"-computed", []string{"--read-cache-mb", "0"}
			}
			s.computed = computed
			if s.url, err = procs.startBindery(ctx, c.bindery, name, work, append(flags, extra...)...); err != nil {
				return err
			}
			sides = append(sides, s)
		}
	}
	staticURL, err := startStatic()
	if err != nil {
		return err
	}

	targets, err := buildTargets(c.peerDir, peerURL, staticURL, sides...)
	if err != nil {
		return err
	}
	step("checking every answer, then the latency of one request alone (%s)", aloneMethod)
	if err := checkAll(ctx, targets); err != nil {
		return err
	}
	if err := measureAlone(ctx, targets, aloneRounds, aloneRun); err != nil {
		return err
	}
	step("wrk -t2 -c16: %d rounds of %s after a %s warm-up per target", c.rounds, c.duration, c.warmup)
	if err := measureLoad(ctx, targets, c, work); err != nil {
		return err
	}
	if err := checkAll(ctx, targets); err != nil { // answers still right after the load
		return err
	}
	step("done")
	result := summarize(targets, c, fmt.Sprintf("%s, load average %s before, %s after", cpus(), loadBefore, loadAverage()), time.Now())
	result.PeakMemoryMB = procs.peakMemory()
	fmt.Println()
	printTable(os.Stdout, result)
	if c.runs == "" {
		return nil
	}
	return appendRun(c.runs, result)
}

// appendRun appends the run as a JSON line to the file runs.
func appendRun(runs string, result record.Run) error {
	f, err := os.OpenFile(runs, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if err := record.Append(f, result); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Printf("appended to %s; go run ./bench/peer/history adds it to docs/performance-history.md\n", runs)
	return nil
}

// withDatabase returns the DSN dsn with its database replaced by name.
func withDatabase(dsn, name string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return dsn
	}
	u.Path = "/" + name
	return u.String()
}
