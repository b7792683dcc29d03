package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// runMainEnv makes the test binary run main instead of the tests: a test starts the real
// process with it, to send it real signals.
const runMainEnv = "BINDERY_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	if path := os.Getenv(readOnlyEnv); path != "" {
		os.Exit(readOnly(path))
	}
	os.Exit(m.Run())
}

// process is `bindery serve` running as a process of its own.
type process struct {
	cmd    *exec.Cmd
	stderr *testenv.LockedBuffer
	base   string
	exited chan error
}

// startProcess starts `bindery serve` with args on a free port and returns once /readyz answers 200.
func startProcess(t *testing.T, d dataDir, args ...string) *process {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(os.Args[0], append(append([]string{"serve", "--addr", addr}, d.flags()...), args...)...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	p := &process{cmd: cmd, stderr: &testenv.LockedBuffer{}, base: "http://" + addr, exited: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-p.exited
		}
	})
	deadline := time.Now().Add(2 * time.Minute) // a start migrates: slow under -race on a loaded machine
	for get(t, p.base+"/readyz", "") != http.StatusOK {
		select {
		case err := <-p.exited:
			t.Fatalf("serve ended before it was ready: %v\n%s", err, p.stderr)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready within 2 minutes:\n%s", p.stderr)
		}
	}
	return p
}

// waitFor waits until the process has logged text.
func (p *process) waitFor(t *testing.T, text string) {
	t.Helper()
	for range 1500 {
		if strings.Contains(p.stderr.String(), text) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%q was not logged within 30 s:\n%s", text, p.stderr)
}

// wait waits for the process to exit and returns its exit code.
func (p *process) wait(t *testing.T) int {
	t.Helper()
	select {
	case err := <-p.exited:
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(60 * time.Second):
		t.Fatalf("the process did not exit within 60 s:\n%s", p.stderr)
		return 0
	}
}

// logRecords returns the JSON lines the process logged (the first start's message is text).
func (p *process) logRecords(t *testing.T) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for _, line := range strings.Split(p.stderr.String(), "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		recs = append(recs, m)
	}
	return recs
}

// halfSentRequest opens a connection to the process and sends a request with half its body: the
// request is in flight until finish sends the rest and reads the answer.
func halfSentRequest(t *testing.T, p *process, token string) (finish func() int) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(p.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	body := `{"title":"Sent slowly"}`
	fmt.Fprintf(conn, "POST /v1/orgs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		token, len(body), body[:10])
	return func() int {
		if _, err := io.WriteString(conn, body[10:]); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
}

func TestServeStopsOnSIGTERM(t *testing.T) {
	d := newDataDir(t)
	metricsAddr := freeAddr(t)
	p := startProcess(t, d, "--metrics-addr", metricsAddr, "--shutdown-timeout", "30s")
	token := firstStartToken(t, p.stderr)

	t.Run("OKMetricsOnTheirListener", func(t *testing.T) {
		if status := get(t, "http://"+metricsAddr+"/metrics", ""); status != http.StatusOK {
			t.Errorf("GET /metrics on --metrics-addr = %d", status)
		}
		if status := get(t, p.base+"/metrics", ""); status != http.StatusNotFound {
			t.Errorf("GET /metrics on the main listener = %d, want 404 with --metrics-addr", status)
		}
		if status := get(t, "http://"+metricsAddr+"/v1/orgs", token); status != http.StatusNotFound {
			t.Errorf("the metrics listener serves the API: %d", status)
		}
	})
	t.Run("OKInFlightRequestFinishes", func(t *testing.T) {
		finish := halfSentRequest(t, p, token)
		time.Sleep(100 * time.Millisecond) // the server reads the first half
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		p.waitFor(t, "shutting down")
		if conn, err := net.DialTimeout("tcp", strings.TrimPrefix(p.base, "http://"), time.Second); err == nil {
			conn.Close()
			t.Error("a new connection was accepted after SIGTERM")
		}
		if status := finish(); status != http.StatusCreated {
			t.Errorf("the request in flight answered %d, want 201", status)
		}
		if code := p.wait(t); code != 0 {
			t.Fatalf("exit code %d:\n%s", code, p.stderr)
		}
	})
	t.Run("OKJSONLogLines", func(t *testing.T) {
		recs := p.logRecords(t)
		var access map[string]any
		for _, r := range recs {
			if r["msg"] == "request" && r["route"] == "/v1/orgs" && r["method"] == "POST" {
				access = r
			}
		}
		if access == nil || access["status"] != 201.0 || access["request_id"] == "" || access["user_id"] == "" {
			t.Errorf("access line of the request in flight: %v", access)
		}
		if last := recs[len(recs)-1]; last["msg"] != "stopped: the database is closed" {
			t.Errorf("the last line is %v, want the database closed", last)
		}
		if strings.Contains(p.stderr.String()[strings.Index(p.stderr.String(), "listening"):], token) {
			t.Error("a log line holds the token")
		}
	})
	t.Run("ErrCutPastTheBound", func(t *testing.T) {
		p := startProcess(t, d, "--shutdown-timeout", "1s")
		halfSentRequest(t, p, token) // never finished
		time.Sleep(100 * time.Millisecond)
		start := time.Now()
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if code := p.wait(t); code == 0 {
			t.Errorf("exit code 0 after cutting a request:\n%s", p.stderr)
		}
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("stopping took %s with a bound of 1 s", took)
		}
		if !strings.Contains(p.stderr.String(), "requests still running after 1s were cut") {
			t.Errorf("no word of the cut requests:\n%s", p.stderr)
		}
	})
}

func TestServeOpsFlags(t *testing.T) {
	for _, c := range []struct {
		name  string
		args  []string
		words []string
	}{
		{"ErrLogLevel", []string{"--log-level", "loud"}, []string{"--log-level", "loud"}},
		{"ErrLogFormat", []string{"--log-format", "xml"}, []string{"--log-format", "xml"}},
		{"ErrShutdownTimeout", []string{"--shutdown-timeout", "0"}, []string{"--shutdown-timeout"}},
		{"ErrMetricsAddr", []string{"--metrics-addr", "nowhere:-1"}, []string{"--metrics-addr"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDataDir(t)
			_, err := runCLI(t, append(append([]string{"serve", "--addr", freeAddr(t)}, d.flags()...), c.args...)...)
			wantErr(t, err, c.words...)
		})
	}
}
