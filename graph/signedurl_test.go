package graph

import (
	"context"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver of enttest

	"github.com/binderyhq/bindery/ent/enttest"
	_ "github.com/binderyhq/bindery/ent/runtime" // privacy policies and defaults
	"github.com/binderyhq/bindery/internal/apperr"
)

// newSigner is a resolver over a fresh in-memory database (server keys live there) with a clock
// the test moves.
func newSigner(t testing.TB) (*Resolver, *time.Time) {
	t.Helper()
	client := enttest.Open(t, "sqlite3", "file:"+t.Name()+"?mode=memory&cache=shared&_fk=1")
	t.Cleanup(func() { client.Close() })
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	return &Resolver{Client: client, BaseURL: "https://docs.example.com/", Clock: func() time.Time { return now }}, &now
}

func TestSignedURL(t *testing.T) {
	r, now := newSigner(t)
	ctx := context.Background()
	other := signedPurpose{name: "other", path: "/other/"}
	subject := "rev/file: with ünicode and / slashes"
	u, err := r.signURL(ctx, fileDownload, subject, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	token, ok := strings.CutPrefix(u, "https://docs.example.com/files/")
	if !ok || strings.ContainsAny(token, "/?#%+ ") {
		t.Fatalf("URL %s: want https://docs.example.com/files/<URL-safe token>", u)
	}
	t.Run("OK", func(t *testing.T) {
		if got, err := r.verifySigned(ctx, fileDownload, token); err != nil || got != subject {
			t.Fatalf("verify = %q, %v", got, err)
		}
	})
	payload, sig, _ := strings.Cut(token, ".")
	cases := map[string]struct {
		purpose signedPurpose
		token   string
		kind    apperr.Kind
	}{
		"ErrOtherPurpose":   {other, token, apperr.NotFound},
		"ErrBadSignature":   {fileDownload, payload + "." + flipFirst(sig), apperr.NotFound},
		"ErrStrayBits":      {fileDownload, payload + "." + sig[:len(sig)-1] + string(sig[len(sig)-1]+1), apperr.NotFound},
		"ErrSwappedPayload": {fileDownload, encodeToken([]byte("9999999999:"+subject)) + "." + sig, apperr.NotFound},
		"ErrNoSignature":    {fileDownload, payload, apperr.NotFound},
		"ErrNotBase64":      {fileDownload, "!!.!!", apperr.NotFound},
		"ErrEmpty":          {fileDownload, "", apperr.NotFound},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := r.verifySigned(ctx, c.purpose, c.token); apperr.As(err) == nil || apperr.As(err).Kind != c.kind {
				t.Fatalf("verify = %v, want %v", err, c.kind)
			}
		})
	}
	t.Run("ErrExpired", func(t *testing.T) {
		*now = now.Add(time.Minute)
		_, err := r.verifySigned(ctx, fileDownload, token)
		if e := apperr.As(err); e == nil || e.Kind != apperr.Forbidden || !strings.Contains(e.Message, "expired") {
			t.Fatalf("verify after expiry = %v", err)
		}
	})
	t.Run("OKSameKeyAfterRestart", func(t *testing.T) {
		*now = now.Add(-time.Minute)
		restarted := &Resolver{Client: r.Client, BaseURL: r.BaseURL, Clock: r.Clock}
		if got, err := restarted.verifySigned(ctx, fileDownload, token); err != nil || got != subject {
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
	r, _ := newSigner(f)
	ctx := context.Background()
	u, err := r.signURL(ctx, fileDownload, "rev/file", time.Hour)
	if err != nil {
		f.Fatal(err)
	}
	token := u[strings.LastIndex(u, "/")+1:]
	for _, seed := range []string{token, "", ".", "a.b", token + "=", strings.ToUpper(token), "MTox.AAAA"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		subject, err := r.verifySigned(ctx, fileDownload, s)
		if (err == nil) != (s == token) || (err == nil && subject != "rev/file") {
			t.Fatalf("verify(%q) = %q, %v", s, subject, err)
		}
	})
}
