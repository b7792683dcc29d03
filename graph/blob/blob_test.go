package blob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"testing"
)

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func TestDir(t *testing.T) {
	ctx := context.Background()
	d, err := NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("\x00\x01 bytes \xff")
	h := hashOf(data)
	for range 2 { // a second put of the same bytes is harmless
		if err := d.Put(ctx, h, data); err != nil {
			t.Fatal(err)
		}
	}
	f, err := d.Open(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, _ := io.ReadAll(f)
	if string(got) != string(data) {
		t.Errorf("read %q, want %q", got, data)
	}
	if _, err := d.Open(ctx, hashOf([]byte("other"))); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open of a missing blob: %v, want ErrNotFound", err)
	}
	for _, bad := range []string{"", "sha256:../../etc/passwd", "md5:abc", "sha256:" + string(make([]byte, 64))} {
		if err := d.Put(ctx, bad, data); err == nil {
			t.Errorf("Put(%q) succeeded", bad)
		}
	}
}
