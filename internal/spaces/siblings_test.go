package spaces

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/apperr"
)

// inOrder is a list of siblings in their order, read by bounds as siblingsOf reads the database.
type inOrder []sibling

func (l inOrder) nearest(_ context.Context, from *sibling, next bool) (*sibling, error) {
	var found []sibling
	for _, s := range l {
		if from == nil || next && compareSiblings(s, *from) > 0 || !next && compareSiblings(s, *from) < 0 {
			found = append(found, s)
		}
	}
	return closest(found, next), nil
}

func (l inOrder) pointed(_ context.Context, field string, p *Pointer) (*sibling, error) {
	id, kind, err := pointee(field, p)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(l, func(s sibling) bool { return s.ID == id && s.Space == (kind == "space") })
	if i < 0 {
		return nil, apperr.Invalidf("%s: no %s %q", field, kind, id)
	}
	return &l[i], nil
}

func collectionAt(id string) *Pointer { return &Pointer{Collection: &id} }
func spaceAt(id string) *Pointer      { return &Pointer{Space: &id} }

func TestBounds(t *testing.T) {
	sibs := inOrder{{ID: "c1", Key: "a"}, {ID: "c2", Key: "b"}, {ID: "s1", Key: "b", Space: true}, {ID: "s2", Key: "c", Space: true}}
	for _, tc := range []struct {
		name   string
		pos    *Position
		lo, hi string // ids, "" for none
		field  string // the field an INVALID answer names, "" for none
	}{
		{"no position: after the last", nil, "s2", "", ""},
		{"empty position: after the last", &Position{}, "s2", "", ""},
		{"before the first", &Position{Before: collectionAt("c1")}, "", "c1", ""},
		{"before one, equal keys by id", &Position{Before: spaceAt("s1")}, "c2", "s1", ""},
		{"after one, equal keys by id", &Position{After: collectionAt("c2")}, "c2", "s1", ""},
		{"after the last", &Position{After: spaceAt("s2")}, "s2", "", ""},
		{"between neighbours", &Position{Before: spaceAt("s2"), After: spaceAt("s1")}, "s1", "s2", ""},
		{"between others", &Position{Before: spaceAt("s2"), After: collectionAt("c1")}, "", "", "position"},
		{"after given, before the first", &Position{Before: collectionAt("c1"), After: collectionAt("c2")}, "", "", "position"},
		{"before names no sibling", &Position{Before: spaceAt("c1"), After: collectionAt("x")}, "", "", "position.before"},
		{"after names no sibling", &Position{Before: spaceAt("s2"), After: collectionAt("x")}, "", "", "position.after"},
		{"a pointer names both", &Position{After: &Pointer{Collection: new("c1"), Space: new("s1")}}, "", "", "position.after"},
		{"a pointer names neither", &Position{Before: &Pointer{}}, "", "", "position.before"},
	} {
		lo, hi, err := bounds(t.Context(), sibs, tc.pos)
		if tc.field != "" {
			if e := apperr.As(err); e == nil || e.Kind != apperr.Invalid || !strings.HasPrefix(e.Message, tc.field+":") {
				t.Errorf("%s: error %v, want INVALID naming %s", tc.name, err, tc.field)
			}
			continue
		}
		if err != nil || idOf(lo) != tc.lo || idOf(hi) != tc.hi {
			t.Errorf("%s: bounds = %q, %q, %v; want %q, %q", tc.name, idOf(lo), idOf(hi), err, tc.lo, tc.hi)
		}
	}
}

func TestBoundsOfNoSiblings(t *testing.T) {
	lo, hi, err := bounds(t.Context(), inOrder{}, nil)
	if lo != nil || hi != nil || err != nil {
		t.Errorf("bounds among no siblings = %v, %v, %v; want none", lo, hi, err)
	}
}

func idOf(s *sibling) string {
	if s == nil {
		return ""
	}
	return s.ID
}

func TestKeyBetween(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lo, hi *sibling
		ok     bool
	}{
		{"no siblings", nil, nil, true},
		{"after the last", &sibling{Key: "i1"}, nil, true},
		{"before the first", nil, &sibling{Key: "i1"}, true},
		{"between two", &sibling{Key: "i1"}, &sibling{Key: "i2"}, true},
		{"after a legacy empty key", &sibling{Key: ""}, nil, true},
		{"before a legacy empty key", nil, &sibling{Key: ""}, false},
		{"between equal keys", &sibling{Key: "i1"}, &sibling{Key: "i1"}, false},
		{"between keys out of order", &sibling{Key: "i2"}, &sibling{Key: "i1"}, false},
	} {
		key, ok := keyBetween(tc.lo, tc.hi)
		if ok != tc.ok {
			t.Errorf("%s: keyBetween ok = %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if ok && (tc.lo != nil && key <= tc.lo.Key || tc.hi != nil && key >= tc.hi.Key) {
			t.Errorf("%s: keyBetween = %q, not between the bounds", tc.name, key)
		}
	}
}

func TestSpread(t *testing.T) {
	sibs := []sibling{{ID: "a", Key: "i1"}, {ID: "b", Key: "i1"}, {ID: "c", Key: ""}}
	for _, tc := range []struct {
		name string
		hi   *sibling
		at   int // the index of the room among the new keys
	}{
		{"at the end", nil, 3},
		{"before the first", &sibs[0], 0},
		{"before one", &sibs[2], 2},
	} {
		keys, room := spread(sibs, tc.hi)
		if len(keys) != len(sibs) {
			t.Fatalf("%s: %d keys for %d siblings", tc.name, len(keys), len(sibs))
		}
		all := slices.Insert(slices.Clone(keys), tc.at, room)
		if !slices.IsSorted(all) || len(slices.Compact(slices.Clone(all))) != len(all) {
			t.Errorf("%s: keys %q with room %q at %d, want strictly increasing", tc.name, keys, room, tc.at)
		}
	}
}

func TestClosest(t *testing.T) {
	found := []sibling{{ID: "s", Key: "i2", Space: true}, {ID: "c", Key: "i1"}}
	if got := closest(found, true); got.ID != "c" {
		t.Errorf("closest next = %s, want c", got.ID)
	}
	if got := closest(found, false); got.ID != "s" {
		t.Errorf("closest before = %s, want s", got.ID)
	}
	if got := closest(nil, true); got != nil {
		t.Errorf("closest of none = %v, want nil", got)
	}
}
