package changerequests

import (
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/internal/apperr"
)

func TestNumberOf(t *testing.T) {
	tests := map[string]struct {
		ref    string
		number int
		ok     bool
	}{
		"One":             {"1", 1, true},
		"LeadingZeros":    {"007", 7, true},
		"NineDigits":      {"999999999", 999999999, true},
		"TenDigits":       {"1000000000", 0, false},
		"AnID":            {"d0c5mq4hb5ohsp6l8j3g", 0, false},
		"DigitsAndLetter": {"12a", 0, false},
		"Signed":          {"-1", 0, false},
		"Spaced":          {" 1", 0, false},
		"Empty":           {"", 0, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if n, ok := numberOf(tc.ref); n != tc.number || ok != tc.ok {
				t.Fatalf("numberOf(%q) = %d, %v; want %d, %v", tc.ref, n, ok, tc.number, tc.ok)
			}
		})
	}
}

func TestBehind(t *testing.T) {
	ptr := func(s string) *string { return &s }
	tests := map[string]struct {
		cr     ent.ChangeRequest
		active *string
		want   bool
	}{
		"OnTheActiveRevision":    {ent.ChangeRequest{RevisionInitialID: "r1"}, ptr("r1"), false},
		"SpaceMovedOn":           {ent.ChangeRequest{RevisionInitialID: "r1"}, ptr("r2"), true},
		"UpdatedFromTheSpace":    {ent.ChangeRequest{RevisionInitialID: "r1", RevisionMergedAncestorID: ptr("r2")}, ptr("r2"), false},
		"SpaceMovedSinceUpdate":  {ent.ChangeRequest{RevisionInitialID: "r1", RevisionMergedAncestorID: ptr("r2")}, ptr("r3"), true},
		"SpaceWithoutARevision":  {ent.ChangeRequest{RevisionInitialID: "r1"}, nil, false},
		"ItsOwnRevisionIsNoBase": {ent.ChangeRequest{RevisionID: "r2", RevisionInitialID: "r1"}, ptr("r2"), true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := behind(&tc.cr, &ent.Space{RevisionID: tc.active}); got != tc.want {
				t.Fatalf("behind = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCheckSubject(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		invalid  bool
	}{
		{"  Fix typos  ", "Fix typos", false},
		{"", "", false},
		{"   ", "", false},
		{string(make([]rune, 100)), "", true}, // NUL characters
		{strings.Repeat("é", 100), strings.Repeat("é", 100), false},
		{" " + strings.Repeat("é", 100) + " ", strings.Repeat("é", 100), false},
		{strings.Repeat("é", 101), "", true},
	} {
		got, err := checkSubject(tc.in)
		if tc.invalid {
			if !isInvalid(err) {
				t.Errorf("checkSubject(%.20q): %v, want INVALID", tc.in, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("checkSubject(%.20q) = %.20q, %v; want %.20q", tc.in, got, err, tc.want)
		}
	}
}

func TestStatusRules(t *testing.T) {
	for _, s := range []changerequest.Status{changerequest.StatusDraft, changerequest.StatusOpen,
		changerequest.StatusArchived, changerequest.StatusMerged} {
		err := checkStatus(s)
		if wantInvalid := s == "merged"; isInvalid(err) != wantInvalid || (err != nil) != wantInvalid {
			t.Errorf("checkStatus(%s) = %v", s, err)
		}
		err = checkStatusChangeOf(&ent.ChangeRequest{Number: 4, Status: s})
		if wantInvalid := s == "merged"; isInvalid(err) != wantInvalid || (err != nil) != wantInvalid {
			t.Errorf("checkStatusChangeOf(%s) = %v", s, err)
		}
	}
}

func isInvalid(err error) bool {
	e := apperr.As(err)
	return e != nil && e.Kind == apperr.Invalid
}
