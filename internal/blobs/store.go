package blobs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"time"
)

// Store keeps bytes under their hash ("sha256:<hex>"). Putting the same hash twice is harmless,
// and refreshes the time the blob was last written, which Collect's grace period counts from.
type Store interface {
	Put(ctx context.Context, hash string, data []byte) error
	// Open returns the bytes of hash, read as they are asked for (a range reads only its part);
	// ErrNotFound when they are not stored.
	Open(ctx context.Context, hash string) (io.ReadSeekCloser, error)
	// List calls fn with the hash of each blob last written before before, in no particular order;
	// fn may delete it.
	List(ctx context.Context, before time.Time, fn func(hash string) error) error
	// Delete removes the blob unless it was written again at or after before; a missing blob is
	// no error.
	Delete(ctx context.Context, hash string, before time.Time) error
}

// Linker is a Store that may hand readers a URL of its own for a blob (a presigned URL of an
// object store), so the bytes need not pass through the server.
type Linker interface {
	// Link returns a URL serving the blob as an attachment named name for ttl, or "" when the
	// store is not configured to link.
	Link(ctx context.Context, hash, name, contentType string, ttl time.Duration) (string, error)
}

// TxStore is a Store that can write a blob in the caller's database transaction (DB), so the
// bytes commit or roll back with the rows that reference them.
type TxStore interface {
	PutIn(ctx context.Context, db Execer, hash string, data []byte) error
}

// ErrNotFound is returned by Open for a hash that is not stored.
var ErrNotFound = errors.New("blob not found")

// ErrCorrupt is returned by Verify and Copy when stored bytes do not have their hash.
var ErrCorrupt = errors.New("blob bytes do not match their hash")

// hexOf returns the 64 hex digits of a hash, or an error naming what is wrong with it. Every store
// checks hashes with it, so no hash can name a path or key outside the store.
func hexOf(hash string) (string, error) {
	hex, ok := strings.CutPrefix(hash, "sha256:")
	if !ok || len(hex) != 64 || strings.Trim(hex, "0123456789abcdef") != "" {
		return "", fmt.Errorf("blob hash %q is not sha256:<64 hex digits>", hash)
	}
	return hex, nil
}

// Hash is the hash bytes are stored under.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Read returns the bytes stored under hash, checked against it: ErrNotFound when they are not
// stored, ErrCorrupt when they are not the bytes the hash names.
func Read(ctx context.Context, s Store, hash string) ([]byte, error) {
	f, err := s.Open(ctx, hash)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, f); err != nil {
		return nil, err
	}
	if Hash(buf.Bytes()) != hash {
		return nil, fmt.Errorf("%s: %w", hash, ErrCorrupt)
	}
	return buf.Bytes(), nil
}

// Attachment is a Content-Disposition naming the file: quoted, or RFC 2231-encoded for names
// outside plain ASCII; "attachment" alone when the name cannot be carried (control characters).
func Attachment(name string) string {
	if v := mime.FormatMediaType("attachment", map[string]string{"filename": name}); v != "" {
		return v
	}
	return "attachment"
}
