// Package layering_test holds the rules of Bindery's package layers: platform packages, which any
// part of the server may use, import no domain or adapter package; only tests use internal/testkit.
package layering_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/binderyhq/bindery/"

// platform are the packages below every domain: each knows nothing of spaces, content, sites or
// accounts, nor of HTTP or GraphQL, so any domain package and any adapter (graph, rest, publish,
// cmd) may use it, and it may use only the others of this list and the data model (ent).
var platform = []string{
	"internal/store",     // opens and migrates the database: ent's tables and the raw ones beside them
	"internal/blobs",     // file bytes by hash (directory, database, S3), their migration and collection
	"internal/jobs",      // background work shared by the servers of one database
	"internal/observe",   // metrics, request logs and traces of a running server
	"internal/ratelimit", // budgets of points per window, counted in the database
	"internal/slots",     // bounded slots of a key held across the servers of one database, under leases
	"internal/readcache", // answers of reads kept while the database has not changed
	"internal/text",      // the one check of text that enters
	"internal/fetch",     // outbound HTTP safe from server-side request forgery
	"internal/apperr",    // the one error type, which every layer returns and each adapter maps
	"internal/id",        // identifiers of stored objects
	"internal/sqlplan",   // how a statement may be planned (PostgreSQL settings per statement)
	"internal/sqlcols",   // the SELECT list of each table's full row (ent's templates use it)
	"internal/sqlscan",   // shared scan targets of one ent query's rows (ent's templates use it)
	"internal/txn",       // one ent transaction per write, and row locks where the database has them
	"internal/page",      // keyset pages and their cursors, shared by REST lists and GraphQL connections
	"internal/sizedlru",  // caches bounded by the sizes of what they keep
}

// dataModel is the prefix of the packages ent generates from ent/schema, with the schema, its
// privacy rules and the viewer: the tables every layer reads, which platform packages may use.
const dataModel = module + "ent"

// TestPlatformImportsNoDomainOrAdapter fails when a platform package depends, directly or through
// another package, on a package of the module that is neither platform nor the data model.
func TestPlatformImportsNoDomainOrAdapter(t *testing.T) {
	allowed := map[string]bool{}
	var paths []string
	for _, p := range platform {
		allowed[module+p] = true
		paths = append(paths, module+p)
	}
	out, err := exec.Command("go", append([]string{"list", "-f", `{{.ImportPath}} {{join .Deps " "}}`}, paths...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderrOf(err))
	}
	for line := range strings.Lines(strings.TrimSpace(string(out))) {
		fields := strings.Fields(line)
		for _, dep := range fields[1:] {
			if upward(dep, allowed) {
				t.Errorf("%s (platform) depends on %s, a domain or adapter package", strings.TrimPrefix(fields[0], module),
					strings.TrimPrefix(dep, module))
			}
		}
	}
}

// upward reports whether a platform package may not depend on dep: a package of the module
// outside the platform and the data model.
func upward(dep string, allowed map[string]bool) bool {
	if !strings.HasPrefix(dep, module) || allowed[dep] {
		return false
	}
	return dep != dataModel && !strings.HasPrefix(dep, dataModel+"/")
}

func stderrOf(err error) string {
	if exit, ok := err.(*exec.ExitError); ok {
		return string(exit.Stderr)
	}
	return ""
}

// testkit holds what tests share (harness, test sites, an identity provider); no package's own
// code may depend on it, so nothing of it ships in the server.
const testkit = module + "internal/testkit"

// TestOnlyTestsImportTestkit fails when a package's non-test code depends on internal/testkit.
func TestOnlyTestsImportTestkit(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderrOf(err))
	}
	for line := range strings.Lines(strings.TrimSpace(string(out))) {
		fields := strings.Fields(line)
		if strings.HasPrefix(fields[0], testkit) {
			continue
		}
		for _, dep := range fields[1:] {
			if strings.HasPrefix(dep, testkit) {
				t.Errorf("%s depends on %s outside its tests", strings.TrimPrefix(fields[0], module), strings.TrimPrefix(dep, module))
			}
		}
	}
}

// adapters translate a surface (GraphQL, REST /v1, readers' pages, the command line) into calls
// of the domain packages; internal/server wires them into one HTTP handler.
var adapters = []string{"graph", "rest", "publish", "cmd", "internal/server"}

// TestDomainImportsNoAdapter fails when a package under internal/ (a domain or platform package)
// depends on an adapter: domain code knows nothing of HTTP routes or GraphQL.
func TestDomainImportsNoAdapter(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, module+"internal/...").Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderrOf(err))
	}
	for line := range strings.Lines(strings.TrimSpace(string(out))) {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		if isAdapter(pkg) || strings.HasPrefix(fields[0], testkit) {
			continue
		}
		for _, dep := range fields[1:] {
			if strings.HasPrefix(dep, module) && isAdapter(strings.TrimPrefix(dep, module)) {
				t.Errorf("%s depends on %s, an adapter", pkg, strings.TrimPrefix(dep, module))
			}
		}
	}
}

// isAdapter reports whether the package at path (relative to the module) is an adapter or inside one.
func isAdapter(path string) bool {
	for _, a := range adapters {
		if path == a || strings.HasPrefix(path, a+"/") {
			return true
		}
	}
	return false
}
