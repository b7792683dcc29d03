package observe

import (
	"fmt"
	"testing"
)

func TestVerb(t *testing.T) {
	for query, want := range map[string]string{
		`SELECT "spaces"."id" FROM "spaces"`: "select", " with recursive x AS (…) SELECT 1": "select",
		"(SELECT 1) UNION (SELECT 2)": "select", `INSERT INTO "jobs"`: "insert", "update jobs SET": "update",
		"DELETE FROM jobs": "delete", "PRAGMA optimize": "other", "BEGIN": "other", "": "other", "selec": "other",
	} {
		if got := verb(query); got != want {
			t.Errorf("verb(%q) = %q, want %q", query, got, want)
		}
	}
}

func TestIncomingID(t *testing.T) {
	for id, ok := range map[string]bool{
		"abc": true, "A-b_c.9": true, "": false, "a b": false, "a\nb": false, `a"b`: false, "é": false,
		string(make([]byte, 65)): false, "0123456789012345678901234567890123456789012345678901234567890123": true,
	} {
		want := ""
		if ok {
			want = id
		}
		if got := incomingID(id); got != want {
			t.Errorf("incomingID(%q) = %q, want kept: %v", id, got, ok)
		}
	}
}

func TestBoundedNames(t *testing.T) {
	b := &boundedNames{max: 3, seen: map[string]bool{}}
	for i := range 3 {
		if got := b.label(fmt.Sprint("Op", i)); got != fmt.Sprint("Op", i) {
			t.Fatalf("label %d = %q", i, got)
		}
	}
	for name, want := range map[string]string{"Op1": "Op1", "Op9": "other", "": "anonymous", string(make([]byte, 65)): "other"} {
		if got := b.label(name); got != want {
			t.Errorf("label(%q) = %q, want %q", name, got, want)
		}
	}
}
