package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/store"
)

// readOnlyEnv makes the test binary open the SQLite database it names read-only, read it and exit
// (TestMain): a process of its own, as `sqlite3 -readonly` would be.
const readOnlyEnv = "BINDERY_TEST_READ_ONLY_DB"

// readOnly reads the database at path through a read-only connection; it returns the exit code.
func readOnly(path string) int {
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&_busy_timeout=10000")
	if err == nil {
		var n int
		err = db.QueryRow("SELECT count(*) FROM spaces").Scan(&n)
		db.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestProcessesShareTheDatabase: a server under a steady stream of API writes, beside it, again
// and again, what an operator runs (user create, token create, token revoke, backup), a second
// server on the same data and a read-only connection of another process. No process dies, every
// write acknowledged is kept, and the database is whole. On Linux the server holds SQLite's read
// lock on byte 128 of the -shm file (the lock that tells a process opening the database that
// others use its wal-index) for as long as it runs: a descriptor of the file closed outside
// SQLite would drop it, and the next process to open the database would reset the wal-index
// under the server (the server then died with SIGBUS).
func TestProcessesShareTheDatabase(t *testing.T) {
	d := newDataDir(t)
	ada := bootstrapData(t, d)
	server := startProcess(t, d, "--no-rate-limit")
	assertHoldsWALIndexLock(t, d, server)

	writes := startWriting(t, server.base, ada)
	for round := range 5 {
		email := fmt.Sprintf("reader%d@example.com", round)
		runProcess(t, d, "user", "create", "--email", email, "--name", "Reader", "--org", ada.Organization.ID, "--role", "read")
		var created struct{ Token string }
		decodeLine(t, runProcess(t, d, "token", "create", "--email", email), &created)
		runProcess(t, d, "token", "revoke", "--token", created.Token)
		runProcess(t, d, "backup", "--out", filepath.Join(t.TempDir(), "backup.tar"))
		second := startProcess(t, d)
		if status := get(t, second.base+"/v1/orgs/"+ada.Organization.ID+"/spaces", ada.Token); status != http.StatusOK {
			t.Fatalf("round %d: the second server answered %d", round, status)
		}
		stopProcess(t, second)
		if d.dsn == "" {
			readOnlyProcess(t, d)
		}
		assertRunning(t, server)
		assertHoldsWALIndexLock(t, d, server)
	}
	acknowledged := writes.stop(t)
	stopProcess(t, server)

	st := d.open(t)
	assertAllKept(t, st, acknowledged)
	if d.dsn == "" {
		if check := queryStrings(t, st, "PRAGMA integrity_check"); len(check) != 1 || check[0] != "ok" {
			t.Fatalf("integrity_check: %q", check)
		}
	}
}

// runProcess runs the command line as a process of its own on d and returns its standard output.
func runProcess(t *testing.T, d dataDir, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], append(args, d.flags()...)...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bindery %s: %v\n%s", strings.Join(args, " "), err, stderrOf(err))
	}
	return string(out)
}

func stderrOf(err error) []byte {
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.Stderr
	}
	return nil
}

func readOnlyProcess(t *testing.T, d dataDir) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), readOnlyEnv+"="+filepath.Join(d.dir, "bindery.db"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("a read-only connection of another process: %v\n%s", err, out)
	}
}

// stopProcess ends a server as an operator does and expects it to exit cleanly.
func stopProcess(t *testing.T, p *process) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(t); code != 0 {
		t.Fatalf("the server exited with %d:\n%s", code, p.stderr)
	}
}

func assertRunning(t *testing.T, p *process) {
	t.Helper()
	select {
	case err := <-p.exited:
		t.Fatalf("the server died: %v\n%s", err, p.stderr)
	default:
	}
}

// assertHoldsWALIndexLock checks, on Linux and SQLite, that the server process holds a POSIX read
// lock on byte 128 of the database's -shm file (/proc/locks: "POSIX ADVISORY READ pid
// major:minor:inode 128 128").
func assertHoldsWALIndexLock(t *testing.T, d dataDir, p *process) {
	t.Helper()
	if runtime.GOOS != "linux" || d.dsn != "" {
		return
	}
	info, err := os.Stat(filepath.Join(d.dir, "bindery.db-shm"))
	if err != nil {
		t.Fatal(err)
	}
	inode := info.Sys().(*syscall.Stat_t).Ino
	locks, err := os.ReadFile("/proc/locks")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(locks), "\n") {
		f := strings.Fields(line)
		if len(f) == 8 && f[1] == "POSIX" && f[3] == "READ" && f[4] == fmt.Sprint(p.cmd.Process.Pid) &&
			strings.HasSuffix(f[5], fmt.Sprintf(":%d", inode)) && f[6] == "128" && f[7] == "128" {
			return
		}
	}
	t.Fatalf("the server (pid %d) holds no read lock on byte 128 of bindery.db-shm (inode %d):\n%s", p.cmd.Process.Pid, inode, locks)
}

// writer creates spaces through the API until stopped, and remembers those acknowledged.
type writer struct {
	stopped chan struct{}
	done    chan struct{}
	ids     []string
	err     error
}

func startWriting(t *testing.T, base string, ada bootstrapOut) *writer {
	w := &writer{stopped: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for i := 0; ; i++ {
			select {
			case <-w.stopped:
				return
			case <-time.After(20 * time.Millisecond):
			}
			var id string
			if id, w.err = createSpace(base, ada, fmt.Sprintf("Space %d", i)); w.err != nil {
				return
			}
			w.ids = append(w.ids, id)
		}
	}()
	return w
}

// createSpace creates a space through the API and returns its id once the server acknowledged it.
func createSpace(base string, ada bootstrapOut, title string) (string, error) {
	body := fmt.Sprintf(`{"title":%q}`, title)
	req, _ := http.NewRequest("POST", base+"/v1/orgs/"+ada.Organization.ID+"/spaces", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+ada.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var space struct{ ID string }
	if err := json.NewDecoder(res.Body).Decode(&space); err != nil || res.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("creating %q answered %d (%v)", title, res.StatusCode, err)
	}
	return space.ID, nil
}

// stop ends the writes and returns the ids of the spaces whose creation was acknowledged.
func (w *writer) stop(t *testing.T) []string {
	t.Helper()
	close(w.stopped)
	<-w.done
	if w.err != nil {
		t.Fatal(w.err)
	}
	if len(w.ids) < 10 {
		t.Fatalf("only %d writes were acknowledged", len(w.ids))
	}
	return w.ids
}

func assertAllKept(t *testing.T, st *store.Store, ids []string) {
	t.Helper()
	kept := map[string]bool{}
	for _, id := range queryStrings(t, st, "SELECT id FROM spaces") {
		kept[id] = true
	}
	for _, id := range ids {
		if !kept[id] {
			t.Fatalf("space %s was acknowledged and is not in the database", id)
		}
	}
}

// queryStrings runs a query of one text column and returns its values.
func queryStrings(t *testing.T, st *store.Store, query string) []string {
	t.Helper()
	rows, err := st.Client.QueryContext(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var values []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		values = append(values, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return values
}
