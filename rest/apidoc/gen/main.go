// Command gen writes rest/apidoc/reference.json: the reference client's OpenAPI document (its
// errata corrected) reduced to the operations of the server's /v1 routes and what they reach.
// Run by go generate in rest/apidoc; the reference is fetched with npm into .cache/ on first use.
package main

import (
	"fmt"
	"os"

	"github.com/binderyhq/bindery/internal/apispec"
	"github.com/binderyhq/bindery/rest"
	"github.com/binderyhq/bindery/rest/apidoc"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "apidoc/gen:", err)
		os.Exit(1)
	}
}

func run() error {
	ref, err := apispec.Document()
	if err != nil {
		return err
	}
	routes, err := rest.V1Routes()
	if err != nil {
		return err
	}
	out, err := apidoc.Extract(ref, routes)
	if err != nil {
		return err
	}
	return os.WriteFile("reference.json", out, 0o644)
}
