// Package bindery is the root of the Bindery server. Its only file holds the code generation
// steps, ent before gqlgen: `go generate ./...` rebuilds every generated file.
package bindery

//go:generate go tool ent generate --feature privacy,entql,sql/modifier,sql/upsert,sql/lock,sql/execquery,intercept --template ./ent/template ./ent/schema
//go:generate go tool gqlgen generate
