package rest

import "github.com/binderyhq/bindery/rest/apidoc"

// BuildAPIDocument is the document of routes, described by ownOperations or the reference.
func BuildAPIDocument(routes []apidoc.Route) ([]byte, error) {
	return apidoc.Build(routes, ownOperations, apidoc.Info{Version: "test", ServerURL: "http://localhost/v1", Public: publicOperations})
}
