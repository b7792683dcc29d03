// Command history adds the last run of `make bench-peer` to docs/performance-history.md: it
// reads the run's JSON line (bench-peer -runs writes it; make bench-peer to .cache/peer/runs.jsonl)
// and appends it as a section, so the history holds measurements, never figures typed by hand.
// A run already in the history is not added twice.
//
//	go run ./bench/peer/history [-runs .cache/peer/runs.jsonl] [-to docs/performance-history.md]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/binderyhq/bindery/bench/peer/record"
)

func main() {
	runs := flag.String("runs", ".cache/peer/runs.jsonl", "the JSON lines bench-peer appended")
	to := flag.String("to", "docs/performance-history.md", "the history to append the last run to")
	flag.Parse()
	if err := addLast(*runs, *to); err != nil {
		fmt.Fprintln(os.Stderr, "history:", err)
		os.Exit(1)
	}
}

// addLast appends the last run of the file runs to the history to, unless it is there already.
func addLast(runs, to string) error {
	run, err := lastRun(runs)
	if err != nil {
		return err
	}
	history, err := os.ReadFile(to)
	if err != nil {
		return err
	}
	var section bytes.Buffer
	if !bytes.HasSuffix(history, []byte("\n\n")) {
		section.WriteString("\n") // a blank line before the section's heading
	}
	record.Markdown(&section, run)
	heading, _, _ := strings.Cut(strings.TrimLeft(section.String(), "\n"), "\n")
	if bytes.Contains(history, []byte(heading+"\n")) {
		fmt.Printf("%s: the run of %s is there already\n", to, run.Date)
		return nil
	}
	f, err := os.OpenFile(to, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := section.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	fmt.Printf("%s: added the run of %s\n", to, run.Date)
	return f.Close()
}

// lastRun decodes the last line of the file runs.
func lastRun(runs string) (record.Run, error) {
	f, err := os.Open(runs)
	if err != nil {
		return record.Run{}, fmt.Errorf("%w (make bench-peer writes it)", err)
	}
	defer f.Close()
	var last []byte
	lines := bufio.NewScanner(f)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		if len(bytes.TrimSpace(lines.Bytes())) > 0 {
			last = bytes.Clone(lines.Bytes())
		}
	}
	if err := lines.Err(); err != nil {
		return record.Run{}, err
	}
	if last == nil {
		return record.Run{}, errors.New(runs + " holds no run")
	}
	var run record.Run
	err = json.Unmarshal(last, &run)
	return run, err
}
