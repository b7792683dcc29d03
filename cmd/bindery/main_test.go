package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// dataDir is where one test's data lives: a data directory, and a PostgreSQL schema of its own
// (migrated, without rows) when BINDERY_TEST_DB is set.
type dataDir struct {
	dir, dsn string
}

func newDataDir(t *testing.T) dataDir {
	t.Helper()
	return dataDir{dir: t.TempDir(), dsn: testenv.MigratedPostgresDSN(t)}
}

// flags are the store flags of a command on this data.
func (d dataDir) flags() []string {
	f := []string{"--data", d.dir}
	if d.dsn != "" {
		f = append(f, "--db", d.dsn)
	}
	return f
}

// open opens the store the commands use, closed when the test ends.
func (d dataDir) open(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), store.Options{DataDir: d.dir, DSN: d.dsn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// cli runs the command line with the store flags appended and returns what it printed.
func (d dataDir) cli(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return runCLI(t, append(args, d.flags()...)...)
}

// mustCLI runs the command line, fails the test on an error, and decodes its one JSON line.
func (d dataDir) mustCLI(t *testing.T, v any, args ...string) {
	t.Helper()
	out, err := d.cli(t, args...)
	if err != nil {
		t.Fatalf("bindery %s: %v", strings.Join(args, " "), err)
	}
	decodeLine(t, out, v)
}

// runCLI runs the command line as main does and returns its standard output.
func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out testenv.LockedBuffer
	stdout = &out
	prevLog := slog.Default() // serve sets the process's logger
	t.Cleanup(func() { stdout = os.Stdout; slog.SetDefault(prevLog) })
	err := run(context.Background(), args)
	return out.String(), err
}

// decodeLine asserts out is exactly one JSON line and decodes it strictly into v.
func decodeLine(t *testing.T, out string, v any) {
	t.Helper()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Fatalf("want one JSON line, got %q", out)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decode %q: %v", out, err)
	}
}

// wantErr asserts err mentions each word.
func wantErr(t *testing.T, err error, words ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one naming %q", words)
	}
	for _, w := range words {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not name %q", err, w)
		}
	}
}

type bootstrapOut struct {
	User         struct{ ID string } `json:"user"`
	Organization struct{ ID string } `json:"organization"`
	Token        string              `json:"token"`
}

type userOut struct {
	User  struct{ ID string } `json:"user"`
	Token string              `json:"token"`
}

// authenticate returns the viewer of a token, or fails the test.
func authenticate(t *testing.T, st *store.Store, token string) *viewer.Viewer {
	t.Helper()
	v, err := accounts.Authenticate(context.Background(), st.Client, token)
	if err != nil {
		t.Fatalf("token does not authenticate: %v", err)
	}
	return v
}

func bootstrapData(t *testing.T, d dataDir) bootstrapOut {
	t.Helper()
	var b bootstrapOut
	d.mustCLI(t, &b, "bootstrap", "--email", "Ada@Example.com", "--name", "Ada", "--org", "Acme")
	return b
}

func TestBootstrap(t *testing.T) {
	d := newDataDir(t)
	t.Run("OK", func(t *testing.T) {
		b := bootstrapData(t, d)
		if b.User.ID == "" || b.Organization.ID == "" || !strings.HasPrefix(b.Token, "bdy_") {
			t.Fatalf("bootstrap printed %+v", b)
		}
		v := authenticate(t, d.open(t), b.Token)
		if role, ok := v.Membership(b.Organization.ID); !ok || role != viewer.RoleAdmin {
			t.Errorf("membership = %v, %v; want admin", role, ok)
		}
		if v.UserID != b.User.ID || v.Email != "ada@example.com" {
			t.Errorf("viewer = %s %s", v.UserID, v.Email)
		}
	})
	t.Run("ErrEmailTaken", func(t *testing.T) {
		_, err := d.cli(t, "bootstrap", "--email", "ada@example.com", "--name", "Ada", "--org", "Other")
		wantErr(t, err, "--email", "exists")
	})
	t.Run("ErrTitleTooShort", func(t *testing.T) {
		_, err := d.cli(t, "bootstrap", "--email", "bob@example.com", "--name", "Bob", "--org", "A")
		wantErr(t, err, "--org", "2..255")
	})
	for _, missing := range []string{"email", "name", "org"} {
		t.Run("ErrMissing"+missing, func(t *testing.T) {
			args := map[string]string{"email": "x@example.com", "name": "X", "org": "Xorg"}
			delete(args, missing)
			cmd := []string{"bootstrap"}
			for k, v := range args {
				cmd = append(cmd, "--"+k, v)
			}
			_, err := d.cli(t, cmd...)
			wantErr(t, err, "--"+missing, "required")
		})
	}
}

func TestUserCreate(t *testing.T) {
	d := newDataDir(t)
	b := bootstrapData(t, d)
	st := d.open(t)
	for _, c := range []struct {
		name, email string
		extra       []string
		member      bool
		role        viewer.Role // "" for a guest
	}{
		{"OKNoOrganization", "solo@example.com", nil, false, ""},
		{"OKDefaultRoleRead", "reader@example.com", []string{"--org", b.Organization.ID}, true, viewer.RoleRead},
		{"OKRole", "editor@example.com", []string{"--org", b.Organization.ID, "--role", "edit"}, true, viewer.RoleEdit},
		{"OKAdmin", "boss@example.com", []string{"--org", b.Organization.ID, "--role", "admin"}, true, viewer.RoleAdmin},
		{"OKGuest", "guest@example.com", []string{"--org", b.Organization.ID, "--role", "guest"}, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var u userOut
			d.mustCLI(t, &u, append([]string{"user", "create", "--email", c.email, "--name", "Someone"}, c.extra...)...)
			v := authenticate(t, st, u.Token)
			if v.UserID != u.User.ID {
				t.Errorf("token of %s, want %s", v.UserID, u.User.ID)
			}
			role, member := v.Membership(b.Organization.ID)
			if member != c.member || role != c.role {
				t.Errorf("membership = %v %v, want %v %v", role, member, c.role, c.member)
			}
		})
	}
	for _, c := range []struct {
		name  string
		args  []string
		words []string
	}{
		{"ErrInvalidRole", []string{"--email", "x1@example.com", "--name", "X", "--org", b.Organization.ID, "--role", "owner"}, []string{"--role", "owner"}},
		{"ErrUpperCaseRole", []string{"--email", "x2@example.com", "--name", "X", "--org", b.Organization.ID, "--role", "EDIT"}, []string{"--role"}},
		{"ErrRoleWithoutOrganization", []string{"--email", "x3@example.com", "--name", "X", "--role", "edit"}, []string{"--role", "--org"}},
		{"ErrUnknownOrganization", []string{"--email", "x4@example.com", "--name", "X", "--org", "nope"}, []string{"--org", "nope"}},
		{"ErrBadEmail", []string{"--email", "not-an-email", "--name", "X"}, []string{"--email"}},
		{"ErrBlankName", []string{"--email", "x5@example.com", "--name", "  "}, []string{"--name"}},
		{"ErrEmailTaken", []string{"--email", "READER@example.com", "--name", "X"}, []string{"--email", "exists"}},
		{"ErrMissingEmail", []string{"--name", "X"}, []string{"--email", "required"}},
		{"ErrMissingName", []string{"--email", "x6@example.com"}, []string{"--name", "required"}},
		{"ErrUnknownFlag", []string{"--email", "x7@example.com", "--name", "X", "--team", "t"}, []string{"team"}},
		{"ErrStrayArgument", []string{"--email", "x8@example.com", "--name", "X", "extra"}, []string{"extra"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := d.cli(t, append([]string{"user", "create"}, c.args...)...)
			wantErr(t, err, c.words...)
			if out != "" {
				t.Errorf("printed %q on failure", out)
			}
		})
	}
	t.Run("OKNothingCreatedOnFailure", func(t *testing.T) {
		for _, email := range []string{"x1@example.com", "x3@example.com", "x4@example.com"} {
			if _, err := accounts.UserByEmail(context.Background(), st.Client, email); err == nil {
				t.Errorf("a failed user create left %s behind", email)
			}
		}
	})
}

func TestToken(t *testing.T) {
	d := newDataDir(t)
	b := bootstrapData(t, d)
	st := d.open(t)
	var first, second struct{ Token string }
	t.Run("OKCreate", func(t *testing.T) {
		d.mustCLI(t, &first, "token", "create", "--email", "ada@example.com")
		d.mustCLI(t, &second, "token", "create", "--email", " ADA@example.com ", "--label", "ci")
		if first.Token == second.Token || first.Token == b.Token {
			t.Fatal("tokens repeat")
		}
		for _, tok := range []string{first.Token, second.Token} {
			if v := authenticate(t, st, tok); v.UserID != b.User.ID {
				t.Errorf("token of %s, want %s", v.UserID, b.User.ID)
			}
		}
	})
	t.Run("ErrCreateUnknownEmail", func(t *testing.T) {
		_, err := d.cli(t, "token", "create", "--email", "nobody@example.com")
		wantErr(t, err, "--email", "nobody@example.com")
	})
	t.Run("ErrCreateMissingEmail", func(t *testing.T) {
		_, err := d.cli(t, "token", "create")
		wantErr(t, err, "--email", "required")
	})
	t.Run("OKRevokeToken", func(t *testing.T) {
		var out struct{ Revoked int }
		d.mustCLI(t, &out, "token", "revoke", "--token", first.Token)
		if out.Revoked != 1 {
			t.Errorf("revoked = %d", out.Revoked)
		}
		if _, err := accounts.Authenticate(context.Background(), st.Client, first.Token); !errors.Is(err, accounts.ErrInvalidToken) {
			t.Errorf("revoked token: %v", err)
		}
		authenticate(t, st, second.Token) // the others still work
	})
	t.Run("ErrRevokeTwice", func(t *testing.T) {
		_, err := d.cli(t, "token", "revoke", "--token", first.Token)
		wantErr(t, err, "token revoke")
	})
	t.Run("ErrRevokeNeitherOrBoth", func(t *testing.T) {
		_, err := d.cli(t, "token", "revoke")
		wantErr(t, err, "--token", "--email")
		_, err = d.cli(t, "token", "revoke", "--token", second.Token, "--email", "ada@example.com")
		wantErr(t, err, "--token", "--email")
		authenticate(t, st, second.Token)
	})
	t.Run("OKRevokeEmail", func(t *testing.T) {
		var out struct{ Revoked int }
		d.mustCLI(t, &out, "token", "revoke", "--email", "ada@example.com")
		if out.Revoked != 2 { // the bootstrap token and the second one
			t.Errorf("revoked = %d, want 2", out.Revoked)
		}
		for _, tok := range []string{b.Token, second.Token} {
			if _, err := accounts.Authenticate(context.Background(), st.Client, tok); !errors.Is(err, accounts.ErrInvalidToken) {
				t.Errorf("token still authenticates: %v", err)
			}
		}
	})
	t.Run("ErrRevokeUnknownEmail", func(t *testing.T) {
		_, err := d.cli(t, "token", "revoke", "--email", "nobody@example.com")
		wantErr(t, err, "--email")
	})
}

func TestMigrate(t *testing.T) {
	// An empty schema: the first run migrates it, a second finds it current.
	d := dataDir{dir: t.TempDir(), dsn: testenv.PostgresDSN(t)}
	for range 2 {
		var out struct{ Migrated string }
		d.mustCLI(t, &out, "migrate")
		if out.Migrated != "ok" {
			t.Fatalf("migrate printed %+v", out)
		}
	}
	bootstrapData(t, d) // the migrated database is usable
	t.Run("ErrStrayArgument", func(t *testing.T) {
		_, err := d.cli(t, "migrate", "now")
		wantErr(t, err, "now")
	})
}

func TestUnknownCommands(t *testing.T) {
	for _, c := range []struct {
		name  string
		args  []string
		words []string
	}{
		{"ErrUnknownCommand", []string{"frobnicate"}, []string{"frobnicate", "serve"}},
		{"ErrUserWithoutSubcommand", []string{"user"}, []string{"user", "create"}},
		{"ErrTokenWithoutSubcommand", []string{"token"}, []string{"token", "revoke"}},
		{"ErrUnknownUserSubcommand", []string{"user", "delete"}, []string{"delete", "create"}},
		{"ErrUnknownTokenSubcommand", []string{"token", "list"}, []string{"list", "revoke"}},
		{"ErrUnknownServeFlag", []string{"serve", "--port", "80"}, []string{"port"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := runCLI(t, c.args...)
			wantErr(t, err, c.words...)
			if out != "" {
				t.Errorf("printed %q", out)
			}
		})
	}
}

func TestDataFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("BINDERY_DATA", dir)
	t.Setenv("BINDERY_DB", "")
	out, err := runCLI(t, "bootstrap", "--email", "ada@example.com", "--name", "Ada", "--org", "Acme")
	if err != nil {
		t.Fatal(err)
	}
	var b bootstrapOut
	decodeLine(t, out, &b)
	// The database is in BINDERY_DATA: a store opened there knows the token.
	authenticate(t, dataDir{dir: dir}.open(t), b.Token)
	// And a flag wins over the environment.
	other := t.TempDir()
	if _, err := runCLI(t, "bootstrap", "--data", other, "--email", "bob@example.com", "--name", "Bob", "--org", "Bobs"); err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.UserByEmail(context.Background(), dataDir{dir: dir}.open(t).Client, "bob@example.com"); err == nil {
		t.Error("--data was ignored for BINDERY_DATA")
	}
}

// freeAddr returns a loopback address with a port nobody listens on right now, for a serve
// process to listen on. The port is below the kernel's ephemeral range (32768 and up on Linux):
// a port 0 listener there, released, could be any process's next outgoing connection's source
// port before serve binds it.
func freeAddr(t *testing.T) string {
	t.Helper()
	for range 100 {
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(10000+rand.IntN(22000)))
		if ln, err := net.Listen("tcp", addr); err == nil {
			ln.Close()
			return addr
		}
	}
	t.Fatal("no free loopback port between 10000 and 32000")
	return ""
}

// get sends GET with a bearer token (none when empty) and returns the status.
func get(t *testing.T, url, token string) int {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}

// firstStartToken is the token a first start printed.
func firstStartToken(t *testing.T, errOut *testenv.LockedBuffer) string {
	t.Helper()
	msg := errOut.String()
	_, after, _ := strings.Cut(msg, "(shown once):")
	fields := strings.Fields(after)
	if len(fields) == 0 || !strings.HasPrefix(fields[0], "bdy_") {
		t.Fatalf("no token in the first start message %q", msg)
	}
	return fields[0]
}

// startServe runs `bindery` (no command: serve) on a free port until the test calls stop, and
// returns the server's URL once it answers, and what it wrote to standard error.
func startServe(t *testing.T, d dataDir) (base string, errOut *testenv.LockedBuffer, stop func() error) {
	t.Helper()
	addr := freeAddr(t)
	return startCommand(t, addr, append([]string{"--addr", addr}, d.flags()...))
}

// startCommand runs the command line args, a server's that listens on addr, until the test calls
// stop, and returns the server's URL once it answers, and what it wrote to standard error.
func startCommand(t *testing.T, addr string, args []string) (base string, errOut *testenv.LockedBuffer, stop func() error) {
	t.Helper()
	errOut = &testenv.LockedBuffer{}
	stderr = errOut
	prevLog := slog.Default() // serve sets the process's logger
	t.Cleanup(func() { stderr = os.Stderr; slog.SetDefault(prevLog) })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	done := make(chan error, 1)
	go func() { done <- run(ctx, args) }()

	base = "http://" + addr
	// A generous bound: a start migrates the schema, which under -race on PostgreSQL on a machine
	// shared with other test runs took over 30 s once; the test goes on as soon as it answers.
	deadline := time.Now().Add(2 * time.Minute)
	for get(t, base+"/v1/", "") != http.StatusUnauthorized {
		select {
		case err := <-done:
			t.Fatalf("serve ended before answering: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the server did not answer within 2 minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return base, errOut, func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("serve did not shut down within 30 s")
			return nil
		}
	}
}

func TestServe(t *testing.T) {
	d := newDataDir(t)
	base, errOut, stop := startServe(t, d)

	t.Run("OKFirstStartToken", func(t *testing.T) {
		msg := errOut.String()
		if status := get(t, base+"/v1/orgs", firstStartToken(t, errOut)); status != http.StatusOK {
			t.Errorf("first start token: GET /v1/orgs = %d", status)
		}
		if !strings.Contains(msg, "curl") || !strings.Contains(msg, base) {
			t.Errorf("the message does not say how to use the token: %q", msg)
		}
	})
	t.Run("OKTokenCreatedWhileServing", func(t *testing.T) {
		var tok struct{ Token string }
		d.mustCLI(t, &tok, "token", "create", "--email", "admin@bindery.local")
		if status := get(t, base+"/v1/user", tok.Token); status != http.StatusOK {
			t.Errorf("GET /v1/user with a token made by the CLI = %d", status)
		}
	})
	t.Run("OKUserCreatedWhileServing", func(t *testing.T) {
		var u userOut
		d.mustCLI(t, &u, "user", "create", "--email", "new@example.com", "--name", "New")
		if status := get(t, base+"/v1/user", u.Token); status != http.StatusOK {
			t.Errorf("GET /v1/user = %d", status)
		}
	})
	t.Run("ErrRevokedWhileServing", func(t *testing.T) {
		var tok struct{ Token string }
		d.mustCLI(t, &tok, "token", "create", "--email", "admin@bindery.local")
		d.mustCLI(t, new(struct{ Revoked int }), "token", "revoke", "--token", tok.Token)
		if status := get(t, base+"/v1/user", tok.Token); status != http.StatusUnauthorized {
			t.Errorf("GET /v1/user with a revoked token = %d", status)
		}
	})

	t.Run("OKGracefulShutdown", func(t *testing.T) {
		if err := stop(); err != nil {
			t.Fatalf("serve returned %v after its context ended", err)
		}
		if get(t, base+"/v1/", "") != 0 {
			t.Error("the server still answers after shutting down")
		}
	})
	t.Run("OKSecondStartKeepsData", func(t *testing.T) {
		var tok struct{ Token string }
		d.mustCLI(t, &tok, "token", "create", "--email", "new@example.com")
		base, errOut, stop := startServe(t, d)
		if status := get(t, base+"/v1/user", tok.Token); status != http.StatusOK {
			t.Errorf("GET /v1/user after a restart = %d", status)
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(errOut.String(), "First start") {
			t.Errorf("the second start bootstrapped again: %q", errOut.String())
		}
	})
}
