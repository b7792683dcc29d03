package check

import (
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/apperr"
)

func TestDomains(t *testing.T) {
	got, err := Domains("emailDomains", []string{" Example.COM", "docs.example.org", "example.com"})
	if err != nil || strings.Join(got, ",") != "example.com,docs.example.org" {
		t.Fatalf("Domains = %q, %v; want [example.com docs.example.org]", got, err)
	}
	if got, err := Domains("emailDomains", nil); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("Domains(nil) = %#v, %v; want an empty list", got, err)
	}
	bad := map[string]struct {
		domains []string
		says    string
	}{
		"ErrNotADomain": {[]string{"example.com", "localhost"}, `emailDomains[1]: "localhost" is not a domain name`},
		"ErrTooMany":    {make([]string, domainsMax+1), "emailDomains: at most 100 domains (got 101)"},
		"ErrTooLong":    {[]string{strings.Repeat("a.", 127) + "com"}, "emailDomains[0]: "},
	}
	for name, c := range bad {
		t.Run(name, func(t *testing.T) {
			_, err := Domains("emailDomains", c.domains)
			if e := apperr.As(err); e == nil || e.Kind != apperr.Invalid || !strings.HasPrefix(e.Message, c.says) {
				t.Fatalf("Domains = %v, want INVALID %q", err, c.says)
			}
		})
	}
}
