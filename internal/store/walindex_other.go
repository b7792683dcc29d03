//go:build !unix

package store

import "errors"

// mapWALIndex is not built here: the version is read with a statement (PRAGMA data_version).
func mapWALIndex(string) ([]byte, func() error, error) {
	return nil, nil, errors.New("the wal-index is mapped on Unix only")
}
