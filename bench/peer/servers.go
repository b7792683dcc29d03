package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// processes are the servers the benchmark started. Each runs in its own process group, so a
// Ctrl-C at the terminal reaches the benchmark alone, which then stops them; if the benchmark
// itself is killed, the kernel kills them (Pdeathsig).
type processes []*process

type process struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
}

// start runs cmd with its output in WORK/NAME.log.
func (ps *processes) start(name, work string, cmd *exec.Cmd) (*process, error) {
	log, err := os.Create(filepath.Join(work, name+".log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); log.Close(); close(p.done) }()
	*ps = append(*ps, p)
	return p, nil
}

// stopAll sends SIGTERM to every process group it started, then SIGKILL to those still running
// after 10 seconds.
func (ps processes) stopAll() {
	for _, p := range ps {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	}
	deadline := time.After(10 * time.Second)
	for _, p := range ps {
		select {
		case <-p.done:
		case <-deadline:
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			<-p.done
		}
	}
}

// peakMemory returns each running server's peak resident memory in MB (VmHWM, Linux only):
// what the runs cost in memory, beside what they gave in req/s.
func (ps processes) peakMemory() map[string]int {
	peaks := map[string]int{}
	for _, p := range ps {
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			var kB int
			if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kB); err == nil {
				peaks[p.name] = kB >> 10
			}
		}
	}
	return peaks
}

// startPostGraphile runs the peer as its README does, on a free loopback port.
func (ps *processes) startPostGraphile(ctx context.Context, cli, dsn, work string) (string, error) {
	port, err := freePort()
	if err != nil {
		return "", err
	}
	cmd := exec.Command("node", cli, "-c", dsn, "--host", "127.0.0.1", "--port", port,
		"--disable-query-log", "--simple-collections", "only")
	cmd.Env = append(os.Environ(), "NODE_ENV=production")
	return ps.serve(ctx, "postgraphile", work, cmd, "http://127.0.0.1:"+port, "/graphql")
}

// startBindery runs `bindery serve` on a free loopback port with the store flags given. Like the
// peer (--disable-query-log) it logs no line per request; its rate limits are metered (that cost
// is part of every request) but with a budget the benchmark cannot spend, which would otherwise
// measure 429s.
func (ps *processes) startBindery(ctx context.Context, bin, name, work string, store ...string) (string, error) {
	port, err := freePort()
	if err != nil {
		return "", err
	}
	args := []string{"serve", "--addr", "127.0.0.1:" + port, "--log-level", "warn", "--rate-limit", "1000000000"}
	cmd := exec.Command(bin, append(args, store...)...)
	return ps.serve(ctx, name, work, cmd, "http://127.0.0.1:"+port, "/v1/")
}

// serve starts a server and waits until it answers HTTP at base+probe.
func (ps *processes) serve(ctx context.Context, name, work string, cmd *exec.Cmd, base, probe string) (string, error) {
	p, err := ps.start(name, work, cmd)
	if err != nil {
		return "", err
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if res, err := http.Get(base + probe); err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return base, nil
		}
		select {
		case <-p.done:
			return "", fmt.Errorf("%s exited at start (see %s.log)", name, name)
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return "", fmt.Errorf("%s did not answer at %s within 60 s", name, base)
}

// freePort returns a loopback port that was free a moment ago.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	_, port, err := net.SplitHostPort(ln.Addr().String())
	return port, err
}

// staticBody is what the baseline writes: 735 fixed bytes of JSON, about a small GraphQL answer.
var staticBody = func() string {
	const head, tail = `{"data":{"padding":"`, `"}}`
	return head + strings.Repeat("x", 735-len(head)-len(tail)) + tail
}()

// startStatic serves staticBody on a free loopback port, in this process (which is idle while
// wrk runs), until the process ends; it returns its URL.
func startStatic() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, staticBody)
	})
	go http.Serve(ln, h)
	return "http://" + ln.Addr().String() + "/", nil
}
