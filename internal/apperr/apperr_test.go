package apperr

import (
	"errors"
	"fmt"
	"testing"
)

func TestIsNotFound(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"NotFound", NotFoundf("no such space"), true},
		{"Wrapped", fmt.Errorf("reading: %w", NotFoundf("no such space")), true},
		{"OtherKind", Forbiddenf("no"), false},
		{"NotAnError", errors.New("not found"), false},
		{"Nil", nil, false},
	}
	for _, tc := range tests {
		if got := IsNotFound(tc.err); got != tc.want {
			t.Errorf("%s: IsNotFound = %v, want %v", tc.name, got, tc.want)
		}
	}
}
