package main

import (
	"bytes"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/backup"
)

// site is a running server as one admin sees it.
type site struct {
	base, token, org string
}

// must sends a request that must answer want, and decodes its JSON answer.
func (s site) must(t *testing.T, want int, method, path string, body any) map[string]any {
	t.Helper()
	in := ""
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		in = string(data)
	}
	status, out := call(t, s.base, s.token, method, path, in)
	if status != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, status, out, want)
	}
	var m map[string]any
	if len(out) > 0 {
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return m
}

// merge makes changes in a new change request of a space and merges it.
func (s site) merge(t *testing.T, space string, changes ...map[string]any) {
	t.Helper()
	cr := s.must(t, http.StatusCreated, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Edit"})
	path := "/v1/spaces/" + space + "/change-requests/" + cr["id"].(string)
	s.must(t, http.StatusOK, "POST", path+"/content", map[string]any{"changes": changes})
	s.must(t, http.StatusOK, "POST", path+"/merge", nil)
}

// writeSpace creates a space with a page and a file, and returns its id.
func (s site) writeSpace(t *testing.T, title string, file []byte) string {
	t.Helper()
	id := s.must(t, http.StatusCreated, "POST", "/v1/orgs/"+s.org+"/spaces", map[string]any{"title": title})["id"].(string)
	s.merge(t, id, pageChange("# "+title+"\n\nWritten before the backup.\n"),
		map[string]any{"operation": "insert_files", "files": []any{map[string]any{
			"name": title + ".txt", "contentType": "text/plain", "base64": base64.StdEncoding.EncodeToString(file)}}})
	return id
}

func pageChange(markdown string) map[string]any {
	return map[string]any{"operation": "insert_page", "document": map[string]any{"markdown": markdown}}
}

// state is everything the admin reads of the organization's spaces — the list, each space's
// pages and files, and the files' bytes — as one text, with the server's address left out and
// the signed download URLs replaced by the bytes they serve.
func (s site) state(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	spaces := s.must(t, http.StatusOK, "GET", "/v1/orgs/"+s.org+"/spaces", nil)
	b.WriteString(s.normalized(t, spaces))
	for _, space := range spaces["items"].([]any) {
		id := space.(map[string]any)["id"].(string)
		b.WriteString(s.normalized(t, s.must(t, http.StatusOK, "GET", "/v1/spaces/"+id+"/content/pages", nil)))
		files := s.must(t, http.StatusOK, "GET", "/v1/spaces/"+id+"/content/files", nil)
		for _, f := range files["items"].([]any) {
			file := f.(map[string]any)
			status, data := call(t, file["downloadURL"].(string), "", "GET", "", "")
			if status != http.StatusOK {
				t.Fatalf("download %v: %d", file["name"], status)
			}
			file["downloadURL"] = string(data)
		}
		b.WriteString(s.normalized(t, files))
	}
	return b.String()
}

func (s site) normalized(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(data), s.base, "BASE") + "\n"
}

func startSite(t *testing.T, d dataDir, token string) (site, func() error) {
	t.Helper()
	base, errOut, stop := startServe(t, d)
	if token == "" {
		token = firstStartToken(t, errOut)
	}
	s := site{base: base, token: token}
	s.org = s.must(t, http.StatusOK, "GET", "/v1/orgs", nil)["items"].([]any)[0].(map[string]any)["id"].(string)
	return s, stop
}

// wantBackupEvent finds the organization's one audit event of action, naming the archive, made
// by the operator's command (decision 520).
func (s site) wantBackupEvent(t *testing.T, action, archive, command string) {
	t.Helper()
	l := s.must(t, http.StatusOK, "GET", "/v1/orgs/"+s.org+"/audit-events?action="+action, nil)
	items, _ := l["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("%s: %v", action, l)
	}
	ev := items[0].(map[string]any)
	actor, target := ev["actor"].(map[string]any), ev["target"].(map[string]any)
	if ev["source"] != "script" || actor["type"] != "system" || actor["label"] != command || target["type"] != "backup" || target["id"] != archive || archive == "" {
		t.Errorf("%s: %v", action, ev)
	}
}

type backupOut struct {
	Backup   string          `json:"backup"`
	Manifest backup.Manifest `json:"manifest"`
}

type restoreOut struct {
	Restored string          `json:"restored"`
	Manifest backup.Manifest `json:"manifest"`
}

// TestBackupRestore writes, backs up while the server runs, writes more, restores into a new
// data directory (and, on PostgreSQL, restores the pg_dump taken before the archive), and finds
// exactly the state of the backup.
func TestBackupRestore(t *testing.T) {
	d := newDataDir(t)
	s, stop := startSite(t, d, "")
	kept := s.writeSpace(t, "Kept", []byte("bytes of the first file"))
	before := s.state(t)
	dump := pgDump(t, d)
	archive := filepath.Join(t.TempDir(), "bindery.tar")
	var b backupOut
	d.mustCLI(t, &b, "backup", "--out", archive)
	wantBlobs := 1 // on PostgreSQL file bytes are in the database: the dump holds them
	if d.dsn != "" {
		wantBlobs = 0
	}
	if b.Backup != archive || b.Manifest.Blobs != wantBlobs || b.Manifest.Version == "" {
		t.Fatalf("backup printed %+v", b)
	}

	s.wantBackupEvent(t, "backup.created", b.Manifest.ID, "bindery backup")
	s.writeSpace(t, "Later", []byte("bytes of the second file"))
	s.merge(t, kept, pageChange("# After\n\nWritten after the backup.\n"))
	if s.state(t) == before {
		t.Fatal("the writes after the backup changed nothing")
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	restored := dataDir{dir: t.TempDir(), dsn: pgRestore(t, d, dump)}
	out, err := runCLI(t, "restore", "--from", archive, "--data", restored.dir)
	if err != nil {
		t.Fatal(err)
	}
	var r restoreOut
	decodeLine(t, out, &r)
	if r.Restored != restored.dir || r.Manifest != b.Manifest {
		t.Fatalf("restore printed %+v, want the backup's manifest %+v", r, b.Manifest)
	}
	t.Run("OKExactlyTheFirstState", func(t *testing.T) {
		s2, stop := startSite(t, restored, s.token)
		defer stop()
		if after := s2.state(t); after != before {
			t.Fatalf("restored state differs:\n%s\nwant:\n%s", after, before)
		}
		if d.dsn == "" { // pg_restore, not bindery, restores a PostgreSQL database: nothing records it
			s2.wantBackupEvent(t, "backup.restored", b.Manifest.ID, "bindery restore")
		}
	})
	t.Run("ErrDataDirInUse", func(t *testing.T) {
		out, err := runCLI(t, "restore", "--from", archive, "--data", restored.dir)
		wantErr(t, err, restored.dir, "already holds", "new or empty directory")
		if out != "" {
			t.Errorf("printed %q", out)
		}
	})
	t.Run("ErrTruncatedArchiveChangesNothing", func(t *testing.T) {
		data, err := os.ReadFile(archive)
		if err != nil {
			t.Fatal(err)
		}
		cutAt := len(data) / 2
		if d.dsn != "" {
			cutAt = 600 // the archive is the manifest alone (the dump holds the files): cut inside it
		}
		cut := filepath.Join(t.TempDir(), "cut.tar")
		if err := os.WriteFile(cut, data[:cutAt], 0o600); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		_, err = runCLI(t, "restore", "--from", cut, "--data", dir)
		wantErr(t, err, "restore")
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("a failed restore left %v", left)
		}
	})
}

func TestBackupErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		args  []string
		words []string
	}{
		{"ErrOutRequired", []string{"backup", "--data", t.TempDir()}, []string{"--out", "required"}},
		{"ErrNoDatabase", []string{"backup", "--data", t.TempDir(), "--out", filepath.Join(t.TempDir(), "b.tar")},
			[]string{"no SQLite database", "--data"}},
		{"ErrNotPostgres", []string{"backup", "--db", "mysql://x", "--out", "b.tar"}, []string{"--db", "postgres://"}},
		{"ErrFromRequired", []string{"restore", "--data", t.TempDir()}, []string{"--from", "required"}},
		{"ErrNotAnArchive", []string{"restore", "--from", "backup_test.go", "--data", t.TempDir()}, []string{"not a Bindery backup"}},
		{"ErrNoArchive", []string{"restore", "--from", "missing.tar", "--data", t.TempDir()}, []string{"missing.tar"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("BINDERY_DB", "")
			_, err := runCLI(t, c.args...)
			wantErr(t, err, c.words...)
		})
	}
}

// pgSchema returns the base DSN of the test's PostgreSQL server and the schema the test's
// dsn names (testenv.PostgresDSN puts it in search_path, which libpq's tools do not accept).
func pgSchema(t *testing.T, dsn string) (base, schema string) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	schema = q.Get("search_path")
	q.Del("search_path")
	u.RawQuery = q.Encode()
	return u.String(), schema
}

// pgDump dumps the test's PostgreSQL schema with pg_dump, as an operator backs up before
// running `bindery backup`; it returns "" on SQLite.
func pgDump(t *testing.T, d dataDir) string {
	t.Helper()
	if d.dsn == "" {
		return ""
	}
	if _, err := exec.LookPath("pg_dump"); err != nil {
		t.Skip("pg_dump is not installed: the PostgreSQL backup test needs it")
	}
	base, schema := pgSchema(t, d.dsn)
	dump := filepath.Join(t.TempDir(), "bindery.dump")
	runTool(t, "pg_dump", "--format=custom", "--schema="+schema, "--file="+dump, base)
	return dump
}

// pgRestore replaces the test's schema by the dump's, with pg_restore, and returns the DSN to
// start on ("" on SQLite).
func pgRestore(t *testing.T, d dataDir, dump string) string {
	t.Helper()
	if d.dsn == "" {
		return ""
	}
	base, schema := pgSchema(t, d.dsn)
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
		t.Fatal(err)
	}
	runTool(t, "pg_restore", "--dbname="+base, dump)
	return d.dsn
}

func runTool(t *testing.T, name string, args ...string) {
	t.Helper()
	var out bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out.String())
	}
}
