// Command testsummary runs `go test -json …` and prints what plain `go test` prints — a line per
// package, and the output of the tests that failed — then a summary of the pass: packages and
// tests that failed, and every skipped test with its reason, so a test skipped for a missing
// component (Chromium, PostgreSQL, a tool) is not lost in the run's output (decision 297).
//
//	go run ./internal/testsummary -pass SQLite [-summary FILE] -- go test -json ./...
//
// With -summary the summary is appended to FILE (make test prints the file at the end of all
// passes) instead of printed. It exits non-zero when the command or any package failed.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(1)
	}
}

// run runs the command after the flags and reports on it; the error says that it failed.
func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testsummary", flag.ContinueOnError)
	pass := fs.String("pass", "tests", "name of the pass, for the summary")
	summaryFile := fs.String("summary", "", "append the summary to this file instead of printing it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("name the command to run after --, e.g. -- go test -json ./...")
	}
	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r := newReport(stdout)
	if err := r.read(out); err != nil {
		cmd.Process.Kill()
	}
	cmdErr := cmd.Wait()
	if err := r.write(*pass, *summaryFile, cmdErr); err != nil {
		return err
	}
	if cmdErr != nil || len(r.failedPackages) > 0 {
		return fmt.Errorf("the %s pass failed", *pass)
	}
	return nil
}

// event is one line of `go test -json` (cmd/test2json), build events included.
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output, build-fail
	Test       string
	Output     string
}

// report follows the events of a run: it prints what plain go test would, and keeps what the
// summary says.
type report struct {
	out            io.Writer
	running        map[string][]string // output of each test not ended yet, by package and test
	packages       int
	passed         int
	failedPackages []string
	failedTests    []string
	skipped        []string
}

func newReport(out io.Writer) *report {
	return &report{out: out, running: map[string][]string{}}
}

// read handles each line of the command's standard output; a line that is not an event is printed.
func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(r.out, sc.Text())
			continue
		}
		r.handle(e)
	}
	return sc.Err()
}

func (r *report) handle(e event) {
	key := e.Package + " " + e.Test
	switch {
	case e.Action == "build-output":
		fmt.Fprint(r.out, e.Output)
	case e.Test == "":
		r.packageEvent(e)
	case e.Action == "output":
		r.running[key] = append(r.running[key], e.Output)
	case e.Action == "pass":
		r.passed++
		delete(r.running, key)
	case e.Action == "fail":
		r.failedTests = append(r.failedTests, short(e.Package)+" "+e.Test)
		r.flush(key)
	case e.Action == "skip":
		r.skipped = append(r.skipped, short(e.Package)+" "+e.Test+": "+skipReason(r.running[key]))
		delete(r.running, key)
	}
}

// packageEvent prints a package's own output (its "ok" or "FAIL" line, a panic outside tests)
// but its bare PASS line, as go test does, and counts the package when it ends.
func (r *report) packageEvent(e event) {
	switch e.Action {
	case "output":
		if e.Output != "PASS\n" {
			fmt.Fprint(r.out, e.Output)
		}
	case "pass", "skip":
		r.packages++
	case "fail":
		r.packages++
		r.failedPackages = append(r.failedPackages, short(e.Package))
		// Tests still running when the package failed (a timeout, a crash) said why in their output.
		for key := range r.running {
			if strings.HasPrefix(key, e.Package+" ") {
				r.flush(key)
			}
		}
	}
}

// flush prints the output of a test that failed, without the === lines of -v.
func (r *report) flush(key string) {
	for _, line := range r.running[key] {
		if !strings.HasPrefix(line, "=== ") {
			fmt.Fprint(r.out, line)
		}
	}
	delete(r.running, key)
}

// testLog is a line the testing package logged for a test (t.Log, t.Skip): indented, after the
// file and line. Other lines of a test's output are what the code under test printed (a server's
// log lines), which say nothing of why it skipped.
var testLog = regexp.MustCompile(`^    \S+\.go:\d+: ?`)

// skipReason is the last line a skipped test logged, the message of its t.Skip: where it skipped
// and why.
func skipReason(output []string) string {
	reason := "(no reason given)"
	for _, line := range output {
		if testLog.MatchString(line) {
			reason = strings.TrimSpace(line)
		}
	}
	if !strings.Contains(reason, " ") { // only where a bare t.Skip() was called
		reason += " (no reason given)"
	}
	return reason
}

// short is a package's path without the module's.
func short(pkg string) string {
	if _, rest, ok := strings.Cut(pkg, "/bindery/"); ok {
		return rest
	}
	return pkg
}

// write prints the summary, or appends it to file when one is named.
func (r *report) write(pass, file string, cmdErr error) error {
	text := r.summary(pass, cmdErr)
	if file == "" {
		_, err := fmt.Fprint(r.out, "\n"+text)
		return err
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// summary is the pass in a few lines: the outcome with counts, then every failed and skipped
// test, in order of package and name.
func (r *report) summary(pass string, cmdErr error) string {
	for _, list := range [][]string{r.failedPackages, r.failedTests, r.skipped} {
		slices.Sort(list) // packages end in any order
	}
	var b strings.Builder
	outcome := "ok"
	switch {
	case len(r.failedPackages) > 0:
		outcome = fmt.Sprintf("FAILED in %d packages (%s)", len(r.failedPackages), strings.Join(r.failedPackages, ", "))
	case cmdErr != nil:
		outcome = fmt.Sprintf("FAILED (%v)", cmdErr)
	}
	fmt.Fprintf(&b, "== %s pass: %s: %d packages, %d tests passed, %d failed, %d skipped\n",
		pass, outcome, r.packages, r.passed, len(r.failedTests), len(r.skipped))
	for _, t := range r.failedTests {
		fmt.Fprintf(&b, "   FAIL %s\n", t)
	}
	for _, s := range r.skipped {
		fmt.Fprintf(&b, "   SKIP %s\n", s)
	}
	return b.String()
}
