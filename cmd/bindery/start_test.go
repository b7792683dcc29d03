package main

import (
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// failedStart runs the binary with args as a process that must fail to start, and returns the
// one line it printed; it fails the test on a zero exit status or any other output.
func failedStart(t *testing.T, binary string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() == 0 {
		t.Fatalf("bindery %s: exit status %v, want non-zero:\n%s", strings.Join(args, " "), err, out)
	}
	if strings.Count(string(out), "\n") != 1 || !strings.HasPrefix(string(out), "bindery: ") {
		t.Fatalf("bindery %s printed %q, want one line", strings.Join(args, " "), out)
	}
	return string(out)
}

// wantWords asserts line holds each word.
func wantWords(t *testing.T, line string, words ...string) {
	t.Helper()
	for _, w := range words {
		if !strings.Contains(line, w) {
			t.Errorf("%q does not say %q", line, w)
		}
	}
}

// TestStartFailures starts `bindery serve` as a process where it cannot run: each start prints
// one line saying what to do and exits non-zero.
func TestStartFailures(t *testing.T) {
	t.Run("ErrPortInUse", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		data := filepath.Join(t.TempDir(), "data")
		line := failedStart(t, os.Args[0], "serve", "--addr", ln.Addr().String(), "--data", data)
		wantWords(t, line, ln.Addr().String()+" is in use", "stop it", "--addr or BINDERY_ADDR")
		if _, err := os.Stat(data); !os.IsNotExist(err) {
			t.Errorf("a start on an address in use made the data directory (%v)", err)
		}
		addr := freeAddr(t)
		line = failedStart(t, os.Args[0], "serve", "--addr", addr, "--metrics-addr", ln.Addr().String(), "--data", data)
		wantWords(t, line, ln.Addr().String()+" is in use", "--metrics-addr or BINDERY_METRICS_ADDR")
		line = failedStart(t, os.Args[0], "serve", "--addr", "256.0.0.1:80", "--data", data)
		wantWords(t, line, "cannot listen on 256.0.0.1:80", "choose another address with --addr")
	})
	t.Run("ErrDataDirNotWritable", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		data := filepath.Join(file, "data")
		line := failedStart(t, os.Args[0], "serve", "--addr", freeAddr(t), "--data", data)
		wantWords(t, line, "the data directory "+data+" cannot be written (not a directory)", "write access", "--data or BINDERY_DATA")
		if os.Geteuid() == 0 {
			return // root writes in a read-only directory
		}
		readOnly := t.TempDir()
		if err := os.Chmod(readOnly, 0o500); err != nil {
			t.Fatal(err)
		}
		line = failedStart(t, os.Args[0], "serve", "--addr", freeAddr(t), "--data", readOnly)
		wantWords(t, line, "the data directory "+readOnly+" cannot be written (permission denied)")
	})
	t.Run("ErrPostgresDoesNotAnswer", func(t *testing.T) {
		addr := freeAddr(t)
		line := failedStart(t, os.Args[0], "serve", "--addr", freeAddr(t), "--data", t.TempDir(),
			"--db", "postgres://postgres:secret@"+addr+"/test?sslmode=disable")
		wantWords(t, line, "PostgreSQL at "+addr+" does not answer (connect: connection refused)", "start it", "--db or BINDERY_DB")
		if strings.Contains(line, "secret") {
			t.Errorf("the line shows the password: %q", line)
		}
	})
	t.Run("ErrPostgresRefuses", func(t *testing.T) {
		d := newDataDir(t)
		if d.dsn == "" {
			t.Skip("needs PostgreSQL: set BINDERY_TEST_DB")
		}
		u, err := url.Parse(d.dsn)
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.User("no_such_bindery_user")
		line := failedStart(t, os.Args[0], "serve", "--addr", freeAddr(t), "--data", d.dir, "--db", u.String())
		wantWords(t, line, "PostgreSQL at "+u.Host+" refused the connection", `"no_such_bindery_user"`, "check the user, password and database")
	})
}

// TestMakeRunPassesArgs asks make what `make run ARGS=…` runs: serve with the flags given.
func TestMakeRunPassesArgs(t *testing.T) {
	out, err := exec.Command("make", "-C", "../..", "--no-print-directory", "-n", "run", `ARGS=--addr 127.0.0.1:9090 --data ./other`).CombinedOutput()
	if err != nil {
		t.Fatalf("make -n run: %v\n%s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), "go run ./cmd/bindery serve --addr 127.0.0.1:9090 --data ./other"; got != want {
		t.Errorf("make run runs %q, want %q", got, want)
	}
}
