// Command gqlgentune rewrites two patterns of gqlgen's generated executor that cost every
// request time without serving Bindery (decision 197). It runs from generate.go right after
// gqlgen, so `go generate ./...` still reproduces the committed file exactly.
//
//   - Lists are marshalled element by element on the request's goroutine (marshalSliceInOrder in
//     graph/generated/inorder.go) instead of one goroutine per element: Bindery's resolvers batch
//     a whole level of the query before its elements are marshalled (graph/loader), so nothing
//     is gained by running siblings concurrently, and ~1,000 goroutines per nested query are lost.
//   - The @defer bookkeeping of every object (its response path built, a deferred group
//     registered) runs only when the object has deferred fields.
//
// Each rewrite names the exact text gqlgen writes; a gqlgen upgrade that changes it makes
// generation fail here instead of silently dropping the rewrite.
package main

import (
	"fmt"
	"os"
	"strings"
)

type rewrite struct {
	name     string
	old, new string
}

var rewrites = []rewrite{
	{
		name: "lists marshalled in order",
		old:  "graphql.MarshalSliceConcurrently(",
		new:  "marshalSliceInOrder(",
	},
	{
		name: "defer bookkeeping only for deferred fields",
		old: `
	atomic.AddInt32(&ec.Deferred, int32(min(len(deferLabelToView), math.MaxInt32)))

	ec.ProcessDeferredGroup(graphql.DeferredGroup{
		Defers:   deferLabelToView,
		Path:     graphql.GetPath(ctx),
		FieldSet: deferredFieldSet,
		Context:  ctx,
	})
`,
		new: `
	if len(deferLabelToView) > 0 {
		atomic.AddInt32(&ec.Deferred, int32(min(len(deferLabelToView), math.MaxInt32)))
		ec.ProcessDeferredGroup(graphql.DeferredGroup{
			Defers:   deferLabelToView,
			Path:     graphql.GetPath(ctx),
			FieldSet: deferredFieldSet,
			Context:  ctx,
		})
	}
`,
	},
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gqlgentune FILE")
		os.Exit(2)
	}
	if err := tune(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gqlgentune:", err)
		os.Exit(1)
	}
}

func tune(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text := string(src)
	for _, r := range rewrites {
		if !strings.Contains(text, r.old) {
			return fmt.Errorf("%s: gqlgen no longer writes the text this rewrite expects (%q); update internal/gqlgentune", r.name, firstLine(r.old))
		}
		text = strings.ReplaceAll(text, r.old, r.new)
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimLeft(s, "\n"), "\n")
	return line
}
