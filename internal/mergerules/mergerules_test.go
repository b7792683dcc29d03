package mergerules

import (
	"errors"
	"slices"
	"testing"

	"github.com/binderyhq/bindery/internal/apperr"
)

func TestCheck(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		c, users, err := Check(Config{Type: TypeRules, Rules: []Rule{{Rule: AllowBypass, Users: []string{"b", "a", "b"}}, {Rule: Subject}}})
		if err != nil || !slices.Equal(users, []string{"a", "b"}) || !slices.Equal(c.Rules[0].Users, []string{"a", "b"}) {
			t.Fatalf("Check = %v %v %v", c, users, err)
		}
		if c, _, err := Check(Config{Type: TypeNone}); err != nil || c.Type != TypeNone {
			t.Errorf("none: %v %v", c, err)
		}
	})
	for name, c := range map[string]Config{
		"ErrType":        {Type: "some"},
		"ErrUnknownRule": {Type: TypeRules, Rules: []Rule{{Rule: "require_agent_review"}}},
		"ErrTwice":       {Type: TypeRules, Rules: []Rule{{Rule: Subject}, {Rule: Subject}}},
		"ErrNoUsers":     {Type: TypeRules, Rules: []Rule{{Rule: SpecificReviewers}}},
		"ErrUsers":       {Type: TypeRules, Rules: []Rule{{Rule: Subject, Users: []string{"a"}}}},
		"ErrRulesOfNone": {Type: TypeNone, Rules: []Rule{{Rule: Subject}}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, err := Check(c); apperr.As(err) == nil || apperr.As(err).Kind != apperr.Invalid {
				t.Errorf("Check(%v) = %v, want INVALID", c, err)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	rules := Config{Type: TypeRules, Rules: []Rule{{Rule: Subject}}}
	if got := Resolve(Inherit(), Inherit(), rules); got.Type != TypeRules {
		t.Errorf("inherit, inherit, rules = %v", got)
	}
	if got := Resolve(None(), rules); got.Type != TypeNone {
		t.Errorf("none, rules = %v", got)
	}
	if got := Resolve(Inherit()); got.Type != TypeNone {
		t.Errorf("inherit at the top = %v", got)
	}
}

func TestDecide(t *testing.T) {
	approved := func(users ...string) []Review {
		var out []Review
		for _, u := range users {
			out = append(out, Review{User: u, Approved: true})
		}
		return out
	}
	for _, c := range []struct {
		name   string
		rules  []Rule
		state  State
		broken []string
		bypass bool
	}{
		{"OneApproval", []Rule{{Rule: AtLeastOneApprovedReview}}, State{Reviews: approved("a")}, nil, false},
		{"ErrNoApproval", []Rule{{Rule: AtLeastOneApprovedReview}}, State{Reviews: []Review{{User: "a"}}}, []string{AtLeastOneApprovedReview}, false},
		{"AllApproved", []Rule{{Rule: AllReviewsApproved}}, State{Reviews: approved("a", "b")}, nil, false},
		{"ErrOneRequestsChanges", []Rule{{Rule: AllReviewsApproved}}, State{Reviews: append(approved("a"), Review{User: "b"})}, []string{AllReviewsApproved}, false},
		{"ErrPending", []Rule{{Rule: AllReviewsApproved}}, State{Reviews: approved("a"), Pending: 1}, []string{AllReviewsApproved}, false},
		{"ErrNoReviewsAtAll", []Rule{{Rule: AllReviewsApproved}}, State{}, []string{AllReviewsApproved}, false},
		{"Specific", []Rule{{Rule: SpecificReviewers, Users: []string{"a", "b"}}}, State{Reviews: approved("a", "b", "c")}, nil, false},
		{"ErrSpecificMissing", []Rule{{Rule: SpecificReviewers, Users: []string{"a", "b"}}}, State{Reviews: approved("a")}, []string{SpecificReviewers}, false},
		{"OneOf", []Rule{{Rule: OneOfSpecificReviewers, Users: []string{"a", "b"}}}, State{Reviews: approved("b")}, nil, false},
		{"ErrOneOf", []Rule{{Rule: OneOfSpecificReviewers, Users: []string{"a", "b"}}}, State{Reviews: approved("c")}, []string{OneOfSpecificReviewers}, false},
		{"ErrOutdated", []Rule{{Rule: UpToDate}}, State{Outdated: true}, []string{UpToDate}, false},
		{"ErrSubject", []Rule{{Rule: Subject}}, State{Subject: "  "}, []string{Subject}, false},
		{"ErrAuthor", []Rule{{Rule: AuthorToMerge}}, State{Author: "a", Merger: "b"}, []string{AuthorToMerge}, false},
		{"Bypass", []Rule{{Rule: Subject}, {Rule: AllowBypass, Users: []string{"m"}}}, State{Merger: "m"}, []string{Subject}, true},
		{"NoBypassNeeded", []Rule{{Rule: Subject}, {Rule: AllowBypass, Users: []string{"m"}}}, State{Merger: "m", Subject: "s"}, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			breaches, bypass := Decide(Config{Type: TypeRules, Rules: c.rules}, c.state)
			if !slices.Equal(Names(breaches), c.broken) || bypass != c.bypass {
				t.Errorf("Decide = %v, %v; want %v, %v", Names(breaches), bypass, c.broken, c.bypass)
			}
		})
	}
	t.Run("RefusalStatus", func(t *testing.T) {
		who, _ := Decide(Config{Type: TypeRules, Rules: []Rule{{Rule: AuthorToMerge}, {Rule: Subject}}}, State{Author: "a"})
		if err := apperr.As(Refusal(3, who)); err.Kind != apperr.Forbidden {
			t.Errorf("who-may-merge refusal = %v", err)
		}
		state, _ := Decide(Config{Type: TypeRules, Rules: []Rule{{Rule: Subject}}}, State{})
		if err := apperr.As(Refusal(3, state)); err.Kind != apperr.Conflict {
			t.Errorf("state refusal = %v", err)
		}
		var refused *RefusedError
		if !errors.As(Refusal(3, who), &refused) || !slices.Equal(refused.Rules, []string{AuthorToMerge, Subject}) {
			t.Errorf("refusal's rules = %v", refused)
		}
	})
}
