// Command nofts5 opens a store in the directory it is given, as `bindery serve` does, and prints
// why it could not: TestBuiltWithoutFTS5 builds it without the sqlite_fts5 tag. It stands in for
// the whole binary because building that a second way costs minutes of every test run.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/binderyhq/bindery/internal/store"
)

func main() {
	st, err := store.Open(context.Background(), store.Options{DataDir: os.Args[1]})
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	st.Close()
}
