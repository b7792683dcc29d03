package openid

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestIdentity(t *testing.T) {
	claimsOf := func(doc string) func(any) error {
		return func(v any) error { return json.Unmarshal([]byte(doc), v) }
	}
	cases := map[string]struct {
		doc      string
		name     string
		verified *bool
		groups   []string
	}{
		"OKListOfGroups":     {`{"email":"a@b.c","email_verified":true,"name":" Ada ","groups":["x",1,"y"]}`, "Ada", new(true), []string{"x", "y"}},
		"OKOneGroup":         {`{"email":"a@b.c","given_name":"Ada","family_name":"L","groups":"x"}`, "Ada L", nil, []string{"x"}},
		"OKVerifiedAsString": {`{"email":"a@b.c","email_verified":"true"}`, "", new(true), nil},
		"OKUnverified":       {`{"email":"a@b.c","email_verified":false,"groups":{"not":"a list"}}`, "", new(false), nil},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			id, err := identity(claimsOf(c.doc), "groups")
			if err != nil || id.Email != "a@b.c" || id.Name != c.name || !slices.Equal(id.Groups, c.groups) ||
				(id.EmailVerified == nil) != (c.verified == nil) || (c.verified != nil && *id.EmailVerified != *c.verified) {
				t.Fatalf("identity = %+v, %v", id, err)
			}
		})
	}
}

func TestNewRequest(t *testing.T) {
	a, b := NewRequest(), NewRequest()
	if a.State == b.State || a.Nonce == b.Nonce || a.Verifier == b.Verifier || len(a.State) < 32 || len(a.Verifier) < 43 {
		t.Fatalf("requests %+v and %+v are not fresh random values", a, b)
	}
}
