package serverkey

import (
	"bytes"
	"context"
	"testing"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver of enttest

	"github.com/binderyhq/bindery/ent/enttest"
	_ "github.com/binderyhq/bindery/ent/runtime" // privacy policies and defaults
)

func TestSeal(t *testing.T) {
	client := enttest.Open(t, "sqlite3", "file:"+t.Name()+"?mode=memory&cache=shared&_fk=1")
	t.Cleanup(func() { client.Close() })
	keys := &Keys{}
	ctx := context.Background()
	secret := []byte("a signing key")
	sealed, err := keys.Seal(ctx, client, "site:1", secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OKOpens", func(t *testing.T) {
		if got, err := keys.Unseal(ctx, client, "site:1", sealed); err != nil || !bytes.Equal(got, secret) {
			t.Fatalf("unsealed %q, %v", got, err)
		}
	})
	t.Run("OKNotInClear", func(t *testing.T) {
		again, _ := keys.Seal(ctx, client, "site:1", secret)
		if bytes.Contains(sealed, secret) || bytes.Equal(again, sealed) {
			t.Fatal("a sealed value shows its secret, or two seals of it are alike")
		}
	})
	t.Run("ErrOtherLabel", func(t *testing.T) {
		if _, err := keys.Unseal(ctx, client, "site:2", sealed); err == nil {
			t.Fatal("a value sealed for one row opens under another's label")
		}
	})
	t.Run("ErrTampered", func(t *testing.T) {
		bad := bytes.Clone(sealed)
		bad[len(bad)-1] ^= 1
		if _, err := keys.Unseal(ctx, client, "site:1", bad); err == nil {
			t.Fatal("a changed value opens")
		}
		if _, err := keys.Unseal(ctx, client, "site:1", sealed[:5]); err == nil {
			t.Fatal("a truncated value opens")
		}
	})
}
