// Package blob stores file bytes by content hash. The default store is a directory under the data
// directory; the interface leaves room for an object store.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Store keeps bytes under their hash ("sha256:<hex>"). Putting the same hash twice is harmless.
type Store interface {
	Put(ctx context.Context, hash string, data []byte) error
	// Open returns the bytes of hash; ErrNotFound when they are not stored.
	Open(ctx context.Context, hash string) (io.ReadSeekCloser, error)
}

// ErrNotFound is returned by Open for a hash that is not stored.
var ErrNotFound = errors.New("blob not found")

// Dir is a Store in a directory: each blob is a file named by its hash, in a subdirectory of the
// hash's first two hex digits so no directory grows too large.
type Dir struct{ root string }

// NewDir returns a store in root, creating it.
func NewDir(root string) (*Dir, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("create blob directory: %w", err)
	}
	return &Dir{root: root}, nil
}

func (d *Dir) path(hash string) (string, error) {
	hex, ok := strings.CutPrefix(hash, "sha256:")
	if !ok || len(hex) != 64 || strings.Trim(hex, "0123456789abcdef") != "" {
		return "", fmt.Errorf("blob hash %q is not sha256:<64 hex digits>", hash)
	}
	return filepath.Join(d.root, hex[:2], hex), nil
}

// Put writes the bytes to a temporary file and renames it into place, so a reader never sees a
// partly written blob.
func (d *Dir) Put(_ context.Context, hash string, data []byte) error {
	path, err := d.path(hash)
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".put-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Open opens the blob's file.
func (d *Dir) Open(_ context.Context, hash string) (io.ReadSeekCloser, error) {
	path, err := d.path(hash)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNotFound
	}
	return f, err
}
