package graph

import (
	"bytes"
	"context"
	"testing"
)

func TestSeal(t *testing.T) {
	r, _ := newSigner(t)
	ctx := context.Background()
	secret := []byte("a signing key")
	sealed, err := r.seal(ctx, "site:1", secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OKOpens", func(t *testing.T) {
		if got, err := r.unseal(ctx, "site:1", sealed); err != nil || !bytes.Equal(got, secret) {
			t.Fatalf("unsealed %q, %v", got, err)
		}
	})
	t.Run("OKNotInClear", func(t *testing.T) {
		again, _ := r.seal(ctx, "site:1", secret)
		if bytes.Contains(sealed, secret) || bytes.Equal(again, sealed) {
			t.Fatal("a sealed value shows its secret, or two seals of it are alike")
		}
	})
	t.Run("ErrOtherLabel", func(t *testing.T) {
		if _, err := r.unseal(ctx, "site:2", sealed); err == nil {
			t.Fatal("a value sealed for one row opens under another's label")
		}
	})
	t.Run("ErrTampered", func(t *testing.T) {
		bad := bytes.Clone(sealed)
		bad[len(bad)-1] ^= 1
		if _, err := r.unseal(ctx, "site:1", bad); err == nil {
			t.Fatal("a changed value opens")
		}
		if _, err := r.unseal(ctx, "site:1", sealed[:5]); err == nil {
			t.Fatal("a truncated value opens")
		}
	})
}
