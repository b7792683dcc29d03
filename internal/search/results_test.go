package search

import (
	"testing"

	"github.com/binderyhq/bindery/internal/page"
)

// A page token of a search holds the position of the last result shown: the next query starts
// there, and a token of another list (a time, a text, a fraction, out of bounds) is refused.
func TestNewQueryOffsets(t *testing.T) {
	first := 5
	next := Ranked[string]{Position: 12, ID: "p"}.Cursor().Encode()
	q, limit, err := NewQuery("install", &first, &next)
	if err != nil || q.Offset != 12 || q.Limit != 6 || limit != 5 {
		t.Fatalf("NewQuery = offset %d, limit %d (%d), %v; want 12, 6 (5)", q.Offset, q.Limit, limit, err)
	}
	for _, key := range []any{"a title", 1.5, -1, maxOffset + 1} {
		token := page.Cursor{Key: key, ID: "p"}.Encode()
		if _, _, err := NewQuery("install", nil, &token); err == nil {
			t.Errorf("a page token holding %v: want INVALID", key)
		}
	}
}
