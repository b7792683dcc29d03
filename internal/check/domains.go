package check

import (
	"regexp"
	"strings"

	"github.com/binderyhq/bindery/internal/apperr"
)

// Bounds of a list of email domains.
const (
	domainsMax = 100
	DomainMax  = 253 // a DNS name's
)

var domainPattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)

// Domains lower-cases email domains, checks each, and drops repeats (nil gives an empty list).
// Returns INVALID naming the field (and the entry).
func Domains(field string, domains []string) ([]string, error) {
	if len(domains) > domainsMax {
		return nil, apperr.Invalidf("%s: at most %d domains (got %d)", field, domainsMax, len(domains))
	}
	out := make([]string, len(domains))
	for i, d := range domains {
		d = strings.ToLower(strings.TrimSpace(d))
		if len(d) > DomainMax || !domainPattern.MatchString(d) {
			return nil, apperr.Invalidf("%s[%d]: %q is not a domain name like example.com", field, i, Truncate(d, 80))
		}
		out[i] = d
	}
	return Distinct(out), nil
}
