// Package mergerules holds the merge rules of spaces and collections as the reference client
// models them (MergeRulesSpaceConfiguration: inherit, none, or rules that must all pass), checks a
// configuration before it is stored, and decides whether a change request may be merged. It is
// pure: data in, data out, no database and no surface.
package mergerules

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/internal/apperr"
)

// The types of a configuration.
const (
	TypeInherit = "inherit" // the rules of the collection above, else the organization's (none)
	TypeNone    = "none"    // no rules: change requests merge without review
	TypeRules   = "rules"   // every rule must pass
)

// The rules Bindery enforces.
const (
	AtLeastOneApprovedReview = "require_at_least_one_approved_review"
	AllReviewsApproved       = "require_all_reviews_approved"
	SpecificReviewers        = "require_specific_reviewers"
	OneOfSpecificReviewers   = "require_one_of_specific_reviewers"
	UpToDate                 = "require_up_to_date_change_request"
	Subject                  = "require_change_request_subject"
	AuthorToMerge            = "require_author_to_merge"
	AllowBypass              = "allow_bypass"
)

// maxUsers bounds the users a rule names; maxRules the rules of a configuration.
const (
	maxUsers = 100
	maxRules = 20
)

// withUsers are the rules that name users (and need at least one).
var withUsers = []string{SpecificReviewers, OneOfSpecificReviewers, AllowBypass}

// enforced are the rules the server enforces, in the order a refusal reports them.
var enforced = []string{AuthorToMerge, AtLeastOneApprovedReview, AllReviewsApproved, SpecificReviewers,
	OneOfSpecificReviewers, UpToDate, Subject, AllowBypass}

// Config is a merge rules configuration as stored and answered.
type Config struct {
	Type  string `json:"type"`
	Rules []Rule `json:"rules,omitempty"`
}

// Rule is one merge rule; Users for the rules that name people.
type Rule struct {
	Rule  string   `json:"rule"`
	Users []string `json:"users,omitempty"`
}

// Inherit is the configuration of a space or collection that follows the one above it.
func Inherit() Config { return Config{Type: TypeInherit} }

// None is the configuration without rules.
func None() Config { return Config{Type: TypeNone} }

// Stored decodes a configuration as Encode stored it: inherit when none is stored.
func Stored(raw []byte) (Config, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return Inherit(), nil
	}
	var c Config
	if err := json.Unmarshal(raw, &c); err != nil {
		return Config{}, fmt.Errorf("stored merge rules: %w", err)
	}
	return c, nil
}

// Encode is a checked configuration as stored: nil for inherit, which stores none.
func Encode(c Config) (json.RawMessage, error) {
	if c.Type == TypeInherit {
		return nil, nil
	}
	return json.Marshal(c)
}

// Check checks a configuration to store: a known type, the enforced rules only (each at most once,
// with users where the rule names them and only there). Returns it normalized (rules only for
// the rules type, users without duplicates), the users it names for the caller to check, or
// INVALID naming the field and the rule.
func Check(c Config) (Config, []string, error) {
	switch c.Type {
	case TypeInherit, TypeNone:
		if len(c.Rules) > 0 {
			return Config{}, nil, apperr.Invalidf("mergeRules.rules: only for type rules")
		}
		return Config{Type: c.Type}, nil, nil
	case TypeRules:
	default:
		return Config{}, nil, apperr.Invalidf("mergeRules.type: must be one of inherit, none, rules (got %q)", c.Type)
	}
	if len(c.Rules) > maxRules {
		return Config{}, nil, apperr.Invalidf("mergeRules.rules: at most %d rules", maxRules)
	}
	out, users := Config{Type: TypeRules, Rules: []Rule{}}, []string{}
	var unknown []string
	for i, r := range c.Rules {
		if !slices.Contains(enforced, r.Rule) {
			unknown = append(unknown, fmt.Sprintf("%q", r.Rule))
			continue
		}
		if slices.ContainsFunc(out.Rules, func(o Rule) bool { return o.Rule == r.Rule }) {
			return Config{}, nil, apperr.Invalidf("mergeRules.rules[%d]: %s is given twice", i, r.Rule)
		}
		rule, err := checkRule(i, r)
		if err != nil {
			return Config{}, nil, err
		}
		out.Rules = append(out.Rules, rule)
		users = append(users, rule.Users...)
	}
	if len(unknown) > 0 {
		return Config{}, nil, apperr.Invalidf("mergeRules.rules: %s not supported by this server (supported: %s)",
			strings.Join(unknown, ", "), strings.Join(enforced, ", "))
	}
	slices.Sort(users)
	return out, slices.Compact(users), nil
}

// checkRule checks the users of the i-th rule.
func checkRule(i int, r Rule) (Rule, error) {
	named := slices.Contains(withUsers, r.Rule)
	switch {
	case named && len(r.Users) == 0:
		return Rule{}, apperr.Invalidf("mergeRules.rules[%d].users: %s needs at least one user", i, r.Rule)
	case !named && len(r.Users) > 0:
		return Rule{}, apperr.Invalidf("mergeRules.rules[%d].users: %s names no users", i, r.Rule)
	case len(r.Users) > maxUsers:
		return Rule{}, apperr.Invalidf("mergeRules.rules[%d].users: at most %d users", i, maxUsers)
	}
	users := slices.Clone(r.Users)
	for j, u := range users {
		if strings.TrimSpace(u) == "" {
			return Rule{}, apperr.Invalidf("mergeRules.rules[%d].users[%d]: must be a user id", i, j)
		}
	}
	slices.Sort(users)
	return Rule{Rule: r.Rule, Users: slices.Compact(users)}, nil
}

// Resolve is the configuration in force: the first of chain (the space's own, then the
// collections above it, nearest first) that does not inherit; none when all do.
func Resolve(chain ...Config) Config {
	for _, c := range chain {
		if c.Type != TypeInherit && c.Type != "" {
			return c
		}
	}
	return None()
}

// Review is a reviewer's current verdict on a change request: their latest review, when it is
// not outdated.
type Review struct {
	User     string
	Approved bool
}

// State is what a merge is decided on.
type State struct {
	Author, Merger string
	Subject        string
	Outdated       bool     // the space moved since the change request's base
	Reviews        []Review // current reviews, one per reviewer
	Pending        int      // review requests not answered by a current review
}

// Breach is a rule a merge would break. Who is true for the rules on who may merge (the
// surfaces answer 403), false for the state of the change request (409).
type Breach struct {
	Rule    string
	Message string
	Who     bool
}

// Decide returns the rules of c that the merge of s breaks, in the order of the enforced rules,
// and whether the merger may merge anyway (allow_bypass names them).
func Decide(c Config, s State) (breaches []Breach, bypass bool) {
	if c.Type != TypeRules {
		return nil, false
	}
	for _, name := range enforced {
		i := slices.IndexFunc(c.Rules, func(r Rule) bool { return r.Rule == name })
		if i < 0 {
			continue
		}
		r := c.Rules[i]
		if r.Rule == AllowBypass {
			bypass = slices.Contains(r.Users, s.Merger)
			continue
		}
		if b, broken := check(r, s); broken {
			breaches = append(breaches, b)
		}
	}
	return breaches, bypass && len(breaches) > 0
}

// check decides one rule.
func check(r Rule, s State) (Breach, bool) {
	approvers := s.approvers()
	switch r.Rule {
	case AuthorToMerge:
		return Breach{r.Rule, "only the change request's author may merge it", true}, s.Merger != s.Author
	case AtLeastOneApprovedReview:
		return Breach{r.Rule, "the change request needs an approved review", false}, len(approvers) == 0
	case AllReviewsApproved:
		return Breach{r.Rule, "every review must approve the change request and every requested reviewer must have reviewed it", false},
			len(approvers) == 0 || len(approvers) < len(s.Reviews) || s.Pending > 0
	case SpecificReviewers:
		missing := slices.DeleteFunc(slices.Clone(r.Users), func(u string) bool { return slices.Contains(approvers, u) })
		return Breach{r.Rule, "the change request needs the approval of " + strings.Join(missing, ", "), false}, len(missing) > 0
	case OneOfSpecificReviewers:
		ok := slices.ContainsFunc(r.Users, func(u string) bool { return slices.Contains(approvers, u) })
		return Breach{r.Rule, "the change request needs the approval of one of " + strings.Join(r.Users, ", "), false}, !ok
	case UpToDate:
		return Breach{r.Rule, "the change request must be updated with the space's content first", false}, s.Outdated
	case Subject:
		return Breach{r.Rule, "the change request needs a subject", false}, strings.TrimSpace(s.Subject) == ""
	}
	return Breach{}, false
}

// approvers are the users whose current review approves.
func (s State) approvers() []string {
	var out []string
	for _, r := range s.Reviews {
		if r.Approved {
			out = append(out, r.User)
		}
	}
	return out
}

// RefusedError is a merge the merge rules refuse: the rules it breaks, and the error the surfaces
// answer (apperr.As finds it).
type RefusedError struct {
	Rules []string
	err   *apperr.Error
}

func (e *RefusedError) Error() string { return e.err.Error() }

func (e *RefusedError) Unwrap() error { return e.err }

// Refusal is the error of a merge the breaches forbid, a *RefusedError: FORBIDDEN when a rule on
// who may merge is broken, else CONFLICT; the message names every broken rule.
func Refusal(number int, breaches []Breach) error {
	parts := make([]string, len(breaches))
	who := false
	for i, b := range breaches {
		parts[i] = b.Rule + " (" + b.Message + ")"
		who = who || b.Who
	}
	msg := fmt.Sprintf("change request #%d cannot be merged: merge rules not met: %s", number, strings.Join(parts, "; "))
	err := apperr.Conflictf("%s", msg)
	if who {
		err = apperr.Forbiddenf("%s", msg)
	}
	return &RefusedError{Rules: Names(breaches), err: err}
}

// Names are the rules of breaches.
func Names(breaches []Breach) []string {
	out := make([]string, len(breaches))
	for i, b := range breaches {
		out[i] = b.Rule
	}
	return out
}
