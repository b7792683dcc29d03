package blobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Dir is a Store in a directory: each blob is a file named by its hash, in a subdirectory of the
// hash's first two hex digits so no directory grows too large. A file's modification time is when
// the blob was last written.
type Dir struct{ root string }

// NewDir returns a store in root, creating it.
func NewDir(root string) (*Dir, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("create blob directory: %w", err)
	}
	return &Dir{root: root}, nil
}

func (d *Dir) path(hash string) (string, error) {
	hex, err := hexOf(hash)
	if err != nil {
		return "", err
	}
	return filepath.Join(d.root, hex[:2], hex), nil
}

// Put writes the bytes to a temporary file and renames it into place, so a reader never sees a
// partly written blob. A blob already stored is only touched.
func (d *Dir) Put(_ context.Context, hash string, data []byte) error {
	path, err := d.path(hash)
	if err != nil {
		return err
	}
	now := time.Now()
	if err := os.Chtimes(path, now, now); err == nil {
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

// List walks the directory for blob files modified before before.
func (d *Dir) List(ctx context.Context, before time.Time, fn func(hash string) error) error {
	return filepath.WalkDir(d.root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || ctx.Err() != nil {
			return errors.Join(err, ctx.Err())
		}
		hash := "sha256:" + e.Name()
		if _, herr := hexOf(hash); herr != nil {
			return nil // a temporary file of a Put, or not ours
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) || err == nil && !info.ModTime().Before(before) {
			return nil
		}
		if err != nil {
			return err
		}
		return fn(hash)
	})
}

// Delete removes the blob's file unless it was modified at or after before. (A Put that touches
// the file between the check and the removal loses it: Collect's grace period makes that a blob
// unreferenced for the whole period, written again in the same instant.)
func (d *Dir) Delete(_ context.Context, hash string, before time.Time) error {
	path, err := d.path(hash)
	if err != nil {
		return err
	}
	info, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil || !info.ModTime().Before(before) {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
