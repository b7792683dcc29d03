package accounts

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/testkit/ssotest"
)

func TestApplySettings(t *testing.T) {
	str := func(s string) *string { return &s }
	var log []string
	set, clear := [4]func(string) int{}, [4]func() int{}
	for i := range 4 {
		set[i] = func(v string) int { log = append(log, fmt.Sprint("set ", i, " ", v)); return 0 }
		clear[i] = func() int { log = append(log, fmt.Sprint("clear ", i)); return 0 }
	}
	var checked []string
	ok := func(v string) error { checked = append(checked, v); return nil }
	checks := [4]func(string) error{ok, ok, ok, ok}

	s := settings{{}, {Set: true}, {Set: true, Value: str("  ")}, {Set: true, Value: str(" v ")}}
	if err := applySettings(s, checks, set, clear); err != nil {
		t.Fatal(err)
	}
	if want := []string{"clear 1", "clear 2", "set 3 v"}; !slices.Equal(log, want) {
		t.Fatalf("absent, null, blank, value: %q, want %q", log, want)
	}
	if !slices.Equal(checked, []string{"v"}) {
		t.Fatalf("checked %q, want only the value, trimmed", checked)
	}

	log = nil
	bad := errors.New("bad")
	checks[1] = func(string) error { return bad }
	s = settings{{Set: true, Value: str("a")}, {Set: true, Value: str("b")}, {Set: true, Value: str("c")}}
	if err := applySettings(s, checks, set, clear); err != bad {
		t.Fatalf("applySettings = %v, want the failing check's error", err)
	}
	if want := []string{"set 0 a"}; !slices.Equal(log, want) {
		t.Fatalf("after a failing check: %q, want %q", log, want)
	}
}

func TestCheckCertificate(t *testing.T) {
	now := time.Now()
	valid := ssotest.NewKeyPair(t, now.Add(-time.Hour), now.Add(time.Hour))
	for _, c := range []struct {
		name, pem string
		at        time.Time
		says      string
	}{
		{"OK", valid.CertPEM, now, ""},
		{"ErrEmpty", "", now, "certificate: must not be empty"},
		{"ErrTooLong", strings.Repeat("a", samlCertificateMax+1), now, "certificate: must be at most 10000 characters"},
		{"ErrGarbage", "garbage", now, "certificate: is not a PEM certificate"},
		{"ErrExpired", valid.CertPEM, now.Add(2 * time.Hour), "certificate: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := checkCertificate(c.pem, c.at)
			e := apperr.As(err)
			if (err == nil) != (c.says == "") || err != nil && (e == nil || e.Kind != apperr.Invalid || !strings.HasPrefix(e.Message, c.says)) {
				t.Fatalf("checkCertificate = %v, want INVALID %q", err, c.says)
			}
		})
	}
}
