package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The files of deploy/ and the Dockerfile are kept working here: no container runtime runs on
// the development machines or CI, so the tests parse them, check what they promise (non-root,
// /data, cgo with FTS5, a health check on /readyz) and run their commands in-process.

// instruction is one Dockerfile instruction of a build stage (0 the first).
type instruction struct {
	stage     int
	cmd, args string
}

// parseDockerfile splits a Dockerfile into instructions, joining continued lines and leaving
// out comments.
func parseDockerfile(t *testing.T, path string) []instruction {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []instruction
	stage, line := -1, ""
	for raw := range strings.Lines(string(text)) {
		trimmed := strings.TrimSpace(raw)
		if strings.HasPrefix(trimmed, "#") || (trimmed == "" && line == "") {
			continue
		}
		if cont, ok := strings.CutSuffix(trimmed, `\`); ok {
			line += cont + " "
			continue
		}
		line += trimmed
		cmd, args, _ := strings.Cut(line, " ")
		line = ""
		cmd = strings.ToUpper(cmd)
		if cmd == "FROM" {
			stage++
		}
		out = append(out, instruction{stage: stage, cmd: cmd, args: strings.TrimSpace(args)})
	}
	return out
}

// find returns the arguments of the stage's instructions named cmd.
func find(ins []instruction, stage int, cmd string) []string {
	var out []string
	for _, i := range ins {
		if i.stage == stage && i.cmd == cmd {
			out = append(out, i.args)
		}
	}
	return out
}

// execForm decodes a JSON array argument (["/bindery", "serve"]).
func execForm(t *testing.T, args string) []string {
	t.Helper()
	var out []string
	if err := json.Unmarshal([]byte(args), &out); err != nil {
		t.Fatalf("%q is not in exec form: %v", args, err)
	}
	return out
}

// envNames are the environment variables the commands read (envOr).
func envNames(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	var names []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`envOr\("([A-Z_]+)"`).FindAllStringSubmatch(string(src), -1) {
			names = append(names, m[1])
		}
	}
	return names
}

// checkEnv checks that every variable is one the commands read.
func checkEnv(t *testing.T, env map[string]string) {
	t.Helper()
	known := envNames(t)
	for name := range env {
		if !slices.Contains(known, name) {
			t.Errorf("%s sets %s, which bindery does not read (it reads %v)", name, name, known)
		}
	}
}

// serveAsDeployed runs args (a server's command line as a deployment file has it) with env, the
// data directory and address replaced by the test's, and checks that it answers and stops.
func serveAsDeployed(t *testing.T, args []string, env map[string]string) {
	t.Helper()
	for name, value := range env {
		t.Setenv(name, value)
	}
	addr := freeAddr(t)
	t.Setenv("BINDERY_DATA", t.TempDir())
	t.Setenv("BINDERY_ADDR", addr)
	base, _, stop := startCommand(t, addr, args)
	if status := get(t, base+"/v1/", ""); status != http.StatusUnauthorized {
		t.Errorf("GET /v1/ = %d", status)
	}
	if err := stop(); err != nil {
		t.Fatalf("%v stopped with %v", args, err)
	}
}

func TestDockerfile(t *testing.T) {
	ins := parseDockerfile(t, "../../Dockerfile")
	last := ins[len(ins)-1].stage
	if last < 1 {
		t.Fatal("the Dockerfile has one stage: want a build stage and a runtime stage")
	}
	env := map[string]string{}
	for _, e := range find(ins, last, "ENV") {
		for _, kv := range strings.Fields(e) {
			name, value, _ := strings.Cut(kv, "=")
			env[name] = value
		}
	}
	entry := execForm(t, find(ins, last, "ENTRYPOINT")[0])
	cmd := execForm(t, find(ins, last, "CMD")[0])

	t.Run("OKGoVersionOfGoMod", func(t *testing.T) {
		mod, err := os.ReadFile("../../go.mod")
		if err != nil {
			t.Fatal(err)
		}
		goLine := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
		if args := find(ins, -1, "ARG"); len(args) != 1 || args[0] != "GO_VERSION="+string(goLine[1]) {
			t.Errorf("ARG %v, want GO_VERSION=%s as go.mod says", args, goLine[1])
		}
		if from := find(ins, 0, "FROM"); !strings.HasPrefix(from[0], "golang:${GO_VERSION}") {
			t.Errorf("the build stage is FROM %s", from[0])
		}
	})
	t.Run("OKCgoWithFTS5", func(t *testing.T) {
		build := strings.Join(find(ins, 0, "RUN"), "\n")
		for _, want := range []string{"CGO_ENABLED=1", "sqlite_fts5", "-static", "./cmd/bindery", "-o /out/bindery"} {
			if !strings.Contains(build, want) {
				t.Errorf("the build stage's RUN does not say %q:\n%s", want, build)
			}
		}
	})
	t.Run("OKNonRootWithDataVolume", func(t *testing.T) {
		user := find(ins, last, "USER")
		if len(user) != 1 || strings.HasPrefix(user[0], "0") || strings.HasPrefix(user[0], "root") {
			t.Errorf("USER %v, want a non-root user", user)
		}
		if v := find(ins, last, "VOLUME"); len(v) != 1 || v[0] != "/data" || env["BINDERY_DATA"] != "/data" {
			t.Errorf("VOLUME %v, BINDERY_DATA %q: want both /data", v, env["BINDERY_DATA"])
		}
		copied := strings.Join(find(ins, last, "COPY"), "\n")
		if !strings.Contains(copied, "--chown="+user[0]+" /out/data /data") {
			t.Errorf("/data is not made the user's: %s", copied)
		}
	})
	t.Run("OKExposesTheListenPort", func(t *testing.T) {
		_, port, err := net.SplitHostPort(env["BINDERY_ADDR"])
		if err != nil || !slices.Equal(find(ins, last, "EXPOSE"), []string{port}) {
			t.Errorf("EXPOSE %v, BINDERY_ADDR %q", find(ins, last, "EXPOSE"), env["BINDERY_ADDR"])
		}
	})
	t.Run("OKHealthCheckIsBinderyHealthcheck", func(t *testing.T) {
		_, hc, _ := strings.Cut(find(ins, last, "HEALTHCHECK")[0], "CMD ")
		if got := execForm(t, hc); !slices.Equal(got, []string{entry[0], "healthcheck"}) {
			t.Errorf("HEALTHCHECK CMD %v, want [%s healthcheck]", got, entry[0])
		}
		if !strings.Contains(strings.Join(find(ins, last, "COPY"), "\n"), "/out/bindery "+entry[0]) {
			t.Errorf("the entrypoint %s is not the binary built", entry[0])
		}
	})
	t.Run("OKEnvIsRead", func(t *testing.T) { checkEnv(t, env) })
	t.Run("OKServesAsInTheImage", func(t *testing.T) { serveAsDeployed(t, append(entry[1:], cmd...), env) })
}

// parseUnit reads a systemd unit: section → key → values (a key may repeat).
func parseUnit(t *testing.T, path string) map[string]map[string][]string {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	unit := map[string]map[string][]string{}
	section := ""
	for raw := range strings.Lines(string(text)) {
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.Trim(line, "[]")
			unit[section] = map[string][]string{}
		default:
			key, value, ok := strings.Cut(line, "=")
			if !ok || section == "" {
				t.Fatalf("%s: %q is neither a section nor a key=value", path, line)
			}
			unit[section][key] = append(unit[section][key], value)
		}
	}
	return unit
}

func TestSystemdUnit(t *testing.T) {
	const path = "../../deploy/bindery.service"
	unit := parseUnit(t, path)
	svc := unit["Service"]
	one := func(key string) string {
		t.Helper()
		if len(svc[key]) != 1 {
			t.Fatalf("[Service] %s = %v, want one value", key, svc[key])
		}
		return svc[key][0]
	}
	start := strings.Fields(one("ExecStart"))
	env := map[string]string{}
	for _, e := range svc["Environment"] {
		name, value, _ := strings.Cut(e, "=")
		env[name] = value
	}

	t.Run("OKNonRootUserOwnsTheData", func(t *testing.T) {
		if user := one("User"); user == "" || user == "root" || user == "0" {
			t.Errorf("User=%q, want a non-root user", user)
		}
		if env["BINDERY_DATA"] != "/var/lib/"+one("StateDirectory") {
			t.Errorf("BINDERY_DATA=%s is not the StateDirectory %s", env["BINDERY_DATA"], one("StateDirectory"))
		}
	})
	t.Run("OKStopsAfterTheDrain", func(t *testing.T) {
		stop, err := time.ParseDuration(one("TimeoutStopSec"))
		if err != nil || stop <= 15*time.Second || one("KillSignal") != "SIGTERM" {
			t.Errorf("TimeoutStopSec=%s KillSignal=%s: want SIGTERM and more than serve's 15 s drain", one("TimeoutStopSec"), one("KillSignal"))
		}
	})
	t.Run("OKInstalls", func(t *testing.T) {
		if got := unit["Install"]["WantedBy"]; !slices.Equal(got, []string{"multi-user.target"}) {
			t.Errorf("WantedBy=%v", got)
		}
		if start[0] != "/usr/local/bin/bindery" {
			t.Errorf("ExecStart runs %s, not where the README installs bindery", start[0])
		}
	})
	t.Run("OKEnvIsRead", func(t *testing.T) { checkEnv(t, env) })
	t.Run("OKSystemdAccepts", func(t *testing.T) { systemdVerify(t, path) })
	t.Run("OKServesAsTheUnitStartsIt", func(t *testing.T) { serveAsDeployed(t, start[1:], env) })
}

// systemdVerify runs systemd-analyze verify on the unit, with ExecStart pointed at an executable
// that exists here (the test binary), and wants it silent: it warns of unknown keys and values.
func systemdVerify(t *testing.T, path string) {
	t.Helper()
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Skip("systemd-analyze is not installed")
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), filepath.Base(path))
	text = bytes.ReplaceAll(text, []byte("ExecStart=/usr/local/bin/bindery"), []byte("ExecStart="+self))
	if err := os.WriteFile(copyPath, text, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("systemd-analyze", "verify", "--man=no", copyPath).CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

func TestHealthcheck(t *testing.T) {
	answer := func(status int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != ReadyPath {
				http.NotFound(w, r)
				return
			}
			w.WriteHeader(status)
			w.Write([]byte(`{"status":"database unreachable"}`))
		}))
		t.Cleanup(srv.Close)
		return strings.TrimPrefix(srv.URL, "http://")
	}
	t.Run("OKReady", func(t *testing.T) {
		if _, err := runCLI(t, "healthcheck", "--addr", answer(http.StatusOK)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("OKAddrFromEnvironment", func(t *testing.T) {
		t.Setenv("BINDERY_ADDR", answer(http.StatusOK))
		if _, err := runCLI(t, "healthcheck"); err != nil {
			t.Fatal(err)
		}
	})
	for name, addr := range map[string]string{"ErrNotReady": answer(http.StatusServiceUnavailable), "ErrNothingListens": freeAddr(t)} {
		t.Run(name, func(t *testing.T) {
			_, err := runCLI(t, "healthcheck", "--addr", addr, "--timeout", "2s")
			if !errors.As(err, new(unhealthyError)) {
				t.Fatalf("err = %v, want unhealthy (exit status 1)", err)
			}
			wantErr(t, err, addr+ReadyPath)
		})
	}
	t.Run("OKListenAddressesDialed", func(t *testing.T) {
		for in, want := range map[string]string{":8080": "127.0.0.1:8080", "0.0.0.0:80": "127.0.0.1:80",
			"[::]:8080": "[::1]:8080", "10.0.0.2:8080": "10.0.0.2:8080", "bindery:8080": "bindery:8080"} {
			if got := dialable(in); got != want {
				t.Errorf("dialable(%q) = %q, want %q", in, got, want)
			}
		}
	})
}
