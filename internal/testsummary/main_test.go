package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// module writes a Go module of test packages under a new directory and returns it: a passing
// test that logs, a skipped one, a failing subtest, a package that does not build, a panic.
func module(t *testing.T) string {
	t.Helper()
	return testenv.WriteTree(t, map[string]string{
		"go.mod": "module example.test/m\n\ngo 1.26\n",
		"a/a_test.go": `package a

import (
	"log"
	"testing"
)

func TestPass(t *testing.T) { t.Log("quiet when passing") }
func TestBrowser(t *testing.T) {
	log.Print("a server's log line")
	t.Log("a note before")
	t.Skip("chromium is not installed: the browser test is skipped")
}
func TestFail(t *testing.T) {
	t.Run("sub", func(t *testing.T) { t.Error("boom") })
}
`,
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) { undefined() }\n",
		"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestCrash(t *testing.T) { panic(\"oops\") }\n",
		"d/d_test.go": "package d\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) { t.Run(\"x\", func(t *testing.T) { t.Skip() }) }\n",
	})
}

func TestSummary(t *testing.T) {
	dir := module(t)
	goTest := []string{"--", "go", "-C", dir, "test", "-json", "./..."}
	var out, errOut bytes.Buffer
	err := run(append([]string{"-pass", "Demo"}, goTest...), &out, &errOut)
	if err == nil || err.Error() != "the Demo pass failed" {
		t.Fatalf("run: %v, want the pass to fail", err)
	}
	got := out.String()
	for _, want := range []string{
		"undefined: undefined", // the build's output
		"FAIL\texample.test/m/b [build failed]",
		"a_test.go:15: boom", "--- FAIL: TestFail/sub", "--- FAIL: TestFail (",
		"panic: oops",
		"ok  \texample.test/m/d",
		"== Demo pass: FAILED in 3 packages (example.test/m/a, example.test/m/b, example.test/m/c): 4 packages, 2 tests passed, 3 failed, 2 skipped\n" +
			"   FAIL example.test/m/a TestFail\n" +
			"   FAIL example.test/m/a TestFail/sub\n" +
			"   FAIL example.test/m/c TestCrash\n" +
			"   SKIP example.test/m/a TestBrowser: a_test.go:12: chromium is not installed: the browser test is skipped\n" +
			"   SKIP example.test/m/d TestOK/x: d_test.go:5: (no reason given)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the output lacks %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"quiet when passing", "=== RUN", "--- PASS", "PASS\n"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("the output holds %q, which plain go test does not print:\n%s", unwanted, got)
		}
	}
	if !strings.HasSuffix(got, "(no reason given)\n") {
		t.Errorf("the summary is not at the end:\n%s", got)
	}
}

func TestSummaryToFile(t *testing.T) {
	dir := module(t)
	file := filepath.Join(t.TempDir(), "summary")
	if err := os.WriteFile(file, []byte("== an earlier pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err := run([]string{"-pass", "Only d", "-summary", file, "--", "go", "-C", dir, "test", "-json", "./d"}, &out, &errOut)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	if strings.Contains(out.String(), "== Only d") {
		t.Errorf("the summary was printed, not only written to the file:\n%s", out.String())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := "== an earlier pass\n== Only d pass: ok: 1 packages, 1 tests passed, 0 failed, 1 skipped\n   SKIP example.test/m/d TestOK/x: d_test.go:5: (no reason given)\n"
	if string(data) != want {
		t.Errorf("the file holds:\n%s\nwant:\n%s", data, want)
	}
}

func TestSummaryCommandFails(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run([]string{"-pass", "Broken", "--", "go", "no-such-go-command"}, &out, &errOut)
	if err == nil {
		t.Fatal("a failing command passed")
	}
	if !strings.Contains(errOut.String(), "no-such-go-command") {
		t.Errorf("the command's standard error was not passed on: %q", errOut.String())
	}
	if !strings.Contains(out.String(), "== Broken pass: FAILED (exit status 2): 0 packages") {
		t.Errorf("output:\n%s", out.String())
	}
}
