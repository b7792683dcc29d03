package signedurl

import (
	"context"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver of enttest

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/enttest"
	_ "github.com/binderyhq/bindery/ent/runtime" // privacy policies and defaults
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/serverkey"
)

// newSigner is a signer over a fresh in-memory database (server keys live there) with a clock
// the test moves.
func newSigner(t testing.TB) (Signer, *time.Time, *ent.Client) {
	t.Helper()
	client := enttest.Open(t, "sqlite3", "file:"+t.Name()+"?mode=memory&cache=shared&_fk=1")
	t.Cleanup(func() { client.Close() })
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	return signerOver(client, func(context.Context) time.Time { return now }), &now, client
}

// signerOver is a signer of one server process over the database of client.
func signerOver(client *ent.Client, now func(context.Context) time.Time) Signer {
	keys := &serverkey.Keys{}
	return Signer{BaseURL: "https://docs.example.com/", Now: now,
		Key: func(ctx context.Context, purpose string) ([]byte, error) { return keys.Get(ctx, client, purpose) }}
}

func TestSignedURL(t *testing.T) {
	r, now, client := newSigner(t)
	ctx := context.Background()
	other := Purpose{Name: "other", Path: "/other/"}
	subject := "rev/file: with ünicode and / slashes"
	u, err := r.Sign(ctx, FileDownload, subject, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	token, ok := strings.CutPrefix(u, "https://docs.example.com/files/")
	if !ok || strings.ContainsAny(token, "/?#%+ ") {
		t.Fatalf("URL %s: want https://docs.example.com/files/<URL-safe token>", u)
	}
	t.Run("OK", func(t *testing.T) {
		if got, err := r.Verify(ctx, FileDownload, token); err != nil || got != subject {
			t.Fatalf("verify = %q, %v", got, err)
		}
	})
	payload, sig, _ := strings.Cut(token, ".")
	cases := map[string]struct {
		purpose Purpose
		token   string
		kind    apperr.Kind
	}{
		"ErrOtherPurpose":   {other, token, apperr.NotFound},
		"ErrBadSignature":   {FileDownload, payload + "." + flipFirst(sig), apperr.NotFound},
		"ErrStrayBits":      {FileDownload, payload + "." + sig[:len(sig)-1] + string(sig[len(sig)-1]+1), apperr.NotFound},
		"ErrSwappedPayload": {FileDownload, encodeToken([]byte("9999999999:"+subject)) + "." + sig, apperr.NotFound},
		"ErrNoSignature":    {FileDownload, payload, apperr.NotFound},
		"ErrNotBase64":      {FileDownload, "!!.!!", apperr.NotFound},
		"ErrEmpty":          {FileDownload, "", apperr.NotFound},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := r.Verify(ctx, c.purpose, c.token); apperr.As(err) == nil || apperr.As(err).Kind != c.kind {
				t.Fatalf("verify = %v, want %v", err, c.kind)
			}
		})
	}
	t.Run("ErrExpired", func(t *testing.T) {
		*now = now.Add(time.Minute)
		_, err := r.Verify(ctx, FileDownload, token)
		if e := apperr.As(err); e == nil || e.Kind != apperr.Forbidden || !strings.Contains(e.Message, "expired") {
			t.Fatalf("verify after expiry = %v", err)
		}
	})
	t.Run("OKSameKeyAfterRestart", func(t *testing.T) {
		*now = now.Add(-time.Minute)
		restarted := signerOver(client, r.Now)
		if got, err := restarted.Verify(ctx, FileDownload, token); err != nil || got != subject {
			t.Fatalf("another server process on the database: %q, %v", got, err)
		}
	})
}

// flipFirst changes the first character of a base64 text to another one.
func flipFirst(s string) string {
	if s[0] == 'A' {
		return "B" + s[1:]
	}
	return "A" + s[1:]
}

// FuzzVerifySigned: no text makes verification panic, and none but the signed token opens the
// subject.
func FuzzVerifySigned(f *testing.F) {
	r, _, _ := newSigner(f)
	ctx := context.Background()
	u, err := r.Sign(ctx, FileDownload, "rev/file", time.Hour)
	if err != nil {
		f.Fatal(err)
	}
	token := u[strings.LastIndex(u, "/")+1:]
	for _, seed := range []string{token, "", ".", "a.b", token + "=", strings.ToUpper(token), "MTox.AAAA"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		subject, err := r.Verify(ctx, FileDownload, s)
		if (err == nil) != (s == token) || (err == nil && subject != "rev/file") {
			t.Fatalf("verify(%q) = %q, %v", s, subject, err)
		}
	})
}
