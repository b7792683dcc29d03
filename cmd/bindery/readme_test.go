package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The fenced blocks of the README's "Getting started" this test runs and checks, by the word after
// their language (decision 291).
const (
	firstStartTag = "getting-started-first-start" // what the first start prints
	envTag        = "getting-started-env"         // the variables a reader sets by hand
	commandsTag   = "getting-started"             // commands run in order in one bash
	outputTag     = "getting-started-output"      // what the commands above it print
)

// readmeAddress is the server's address in the README; the test's server listens elsewhere.
const readmeAddress = "http://127.0.0.1:8080"

// guide is the README's "Getting started": its commands with the output each shows.
type guide struct {
	firstStart string
	env        string
	steps      []step
}

type step struct {
	line            int // of the block in the README, for messages
	commands, shown string
}

// TestReadmeGettingStarted runs the shell blocks of the README's "Getting started", in order, in
// one bash, against a fresh `bindery serve` process with the token its first start printed, and
// holds every output to the one the README shows, ids and tokens aside. A command whose answer is
// an error status fails (curl --fail-with-body), and with it the test.
func TestReadmeGettingStarted(t *testing.T) {
	// Like the browser tests without Chromium, it skips without its tools (make test's summary
	// lists the skip and why); .ci/run installs them.
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the README's Getting started runs in bash with curl and jq (apt-get install %s)", tool, tool)
		}
	}
	g := readGuide(t, "../../README.md")
	p := startProcess(t, newDataDir(t))
	ids := idMatcher{}
	atREADMEAddress := strings.NewReplacer(p.base, readmeAddress)
	ids.check(t, "the first start message", g.firstStart, atREADMEAddress.Replace(firstStartMessage(p.stderr.String())))

	env := map[string]string{"TOKEN": firstStartToken(t, p.stderr), "BINDERY": p.base}
	if got, want := assignedNames(g.env), slices.Sorted(maps.Keys(env)); !slices.Equal(got, want) {
		t.Fatalf("the %s block sets %v; the test sets %v", envTag, got, want)
	}
	outputs := runSteps(t, g.steps, env)
	for i, s := range g.steps {
		ids.check(t, fmt.Sprintf("the block of README.md line %d", s.line), s.shown, atREADMEAddress.Replace(outputs[i]))
	}
	checkPublishedSite(t, p.base+"/sites/handbook")
}

// checkPublishedSite holds the site the README has the reader open in a browser to what it says:
// the Welcome page, linking to Install and FAQ.
func checkPublishedSite(t *testing.T, url string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	page, _ := io.ReadAll(res.Body)
	for _, want := range []string{"<title>Welcome · Handbook</title>", `href="/sites/handbook/install"`, `href="/sites/handbook/faq"`} {
		if res.StatusCode != http.StatusOK || !strings.Contains(string(page), want) {
			t.Errorf("GET %s: %d, without %s", url, res.StatusCode, want)
		}
	}
}

// readGuide reads the tagged blocks of the README. Every output block follows a commands block.
func readGuide(t *testing.T, path string) guide {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var g guide
	scan := bufio.NewScanner(f)
	for line := 1; scan.Scan(); line++ {
		tag, ok := fenceTag(scan.Text())
		if !ok {
			continue
		}
		start := line
		var body []string
		for line++; scan.Scan() && scan.Text() != "```"; line++ {
			body = append(body, scan.Text())
		}
		text := strings.Join(body, "\n")
		switch {
		case tag == firstStartTag:
			g.firstStart = text
		case tag == envTag:
			g.env = text
		case tag == commandsTag:
			g.steps = append(g.steps, step{line: start, commands: text})
		case tag == outputTag && len(g.steps) > 0 && g.steps[len(g.steps)-1].shown == "":
			g.steps[len(g.steps)-1].shown = text
		case tag == outputTag:
			t.Fatalf("README.md line %d: an output block without a commands block of its own above it", start)
		default:
			t.Fatalf("README.md line %d: %q is not a tag of a Getting started block", start, tag)
		}
	}
	if err := scan.Err(); err != nil {
		t.Fatal(err)
	}
	if g.firstStart == "" || g.env == "" || len(g.steps) < 5 {
		t.Fatalf("README.md has lost its Getting started blocks: first start %q, env %q, %d command blocks",
			g.firstStart, g.env, len(g.steps))
	}
	return g
}

// fenceTag returns the word after the language of a fence line that opens a tagged block.
func fenceTag(line string) (string, bool) {
	info, ok := strings.CutPrefix(line, "```")
	fields := strings.Fields(info)
	if !ok || len(fields) != 2 || !strings.HasPrefix(fields[1], commandsTag) {
		return "", false
	}
	return fields[1], true
}

// assignedNames are the shell variables a block assigns, sorted.
func assignedNames(block string) []string {
	var names []string
	for _, line := range strings.Split(block, "\n") {
		if name, _, ok := strings.Cut(line, "="); ok && name != "" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// stepEnd is printed after each step, to split what bash printed by step.
const stepEnd = "@@ end of a Getting started step @@"

// runSteps runs the steps in one bash, in a directory of their own, with env set, and returns
// what each printed. It fails the test, naming the step, when one fails.
func runSteps(t *testing.T, steps []step, env map[string]string) []string {
	t.Helper()
	var script strings.Builder
	script.WriteString("set -euo pipefail\n")
	for _, s := range steps {
		fmt.Fprintf(&script, "%s\necho; echo '%s'\n", s.commands, stepEnd)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir = t.TempDir()
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	outputs := strings.Split(string(out), stepEnd+"\n")
	if err != nil {
		failed := steps[min(len(outputs)-1, len(steps)-1)]
		t.Fatalf("the block of README.md line %d failed (%v):\n%s\nit printed:\n%s\nstandard error:\n%s",
			failed.line, err, failed.commands, outputs[len(outputs)-1], stderr.String())
	}
	return outputs[:len(steps)]
}

// firstStartMessage is the text the first start printed before the log's JSON lines.
func firstStartMessage(stderr string) string {
	var lines []string
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "{") {
			break
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// variable matches what differs from one run to the next: ids (20 base62 characters) and tokens.
var variable = regexp.MustCompile(`\bbdy_[0-9A-Za-z]+|\b[0-9A-Za-z]{20}\b`)

// idMatcher holds outputs to what the README shows, where an id or a token of the README stands
// for one of the run, the same one wherever it appears, and no other id.
type idMatcher map[string]string // README id → the run's

// check fails the test unless got is shown, but for the ids, and the ids stand for each other as
// they did before. Blank lines around the output do not count.
func (m idMatcher) check(t *testing.T, what, shown, got string) {
	t.Helper()
	shown, got = strings.TrimSpace(shown), strings.TrimSpace(got)
	values, ok := matchIDs(shown, got)
	if !ok {
		t.Errorf("%s printed\n%s\nbut the README shows\n%s", what, got, shown)
		return
	}
	for readmeID, runID := range values {
		if prev, seen := m[readmeID]; seen && prev != runID {
			t.Errorf("%s: the README's %s stands for %s here but for %s before", what, readmeID, runID, prev)
		}
		for other, id := range m {
			if id == runID && other != readmeID {
				t.Errorf("%s: the README shows %s where the run's %s was %s before", what, readmeID, runID, other)
			}
		}
		m[readmeID] = runID
	}
}

// matchIDs matches got to shown, whose ids and tokens match any of their kind, and returns which
// of the README's ids stands for which of got's.
func matchIDs(shown, got string) (map[string]string, bool) {
	var pattern strings.Builder
	var readmeIDs []string
	last := 0
	for _, loc := range variable.FindAllStringIndex(shown, -1) {
		id := shown[loc[0]:loc[1]]
		pattern.WriteString(regexp.QuoteMeta(shown[last:loc[0]]))
		if strings.HasPrefix(id, "bdy_") {
			pattern.WriteString(`(bdy_[0-9A-Za-z]+)`)
		} else {
			pattern.WriteString(`([0-9A-Za-z]{20})`)
		}
		readmeIDs = append(readmeIDs, id)
		last = loc[1]
	}
	pattern.WriteString(regexp.QuoteMeta(shown[last:]))
	match := regexp.MustCompile(`^` + pattern.String() + `$`).FindStringSubmatch(got)
	if match == nil {
		return nil, false
	}
	values := map[string]string{}
	for i, id := range readmeIDs {
		if prev, seen := values[id]; seen && prev != match[i+1] {
			return nil, false
		}
		values[id] = match[i+1]
	}
	return values, true
}
