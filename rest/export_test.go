package rest

import "github.com/binderyhq/bindery/rest/apidoc"

// BuildAPIDocument is the document of routes, described by operations or the reference.
func BuildAPIDocument(routes []apidoc.Route) ([]byte, error) {
	return apidoc.Build(routes, operations, apidoc.Info{Version: "test", ServerURL: "http://localhost/v1", Public: publicOperations})
}
