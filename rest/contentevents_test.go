package rest_test

import (
	"net/http"
	"slices"
	"testing"
)

// TestContentUpdatedNamesReusableContents merges change requests that change pages and reusable
// contents: each space.content_updated lists the pages and the reusable contents the merge
// created, changed or removed, apart.
func TestContentUpdatedNamesReusableContents(t *testing.T) {
	f := newReusableFixture(t) // change request 1 creates the reusable content and a page placing it
	crWant(t, f.merge(t, f.admin, "1"), http.StatusOK)
	f.create(t, f.admin, "Reword the warning")
	f.edit(t, f.admin, "2", updateReusable(f.warning, map[string]any{"document": reusableMarkdown("Back up **always**.\n")}))
	crWant(t, f.merge(t, f.admin, "2"), http.StatusOK)

	evs := recordedEvents(t, f.e, "space.content_updated", f.space)
	if len(evs) != 2 {
		t.Fatalf("space.content_updated events: %d, want 2", len(evs))
	}
	list := func(i int, key string) []any {
		l, ok := evs[i].Details[key].([]any)
		if !ok {
			t.Fatalf("event %d: details.%s is %T (%v)", i, key, evs[i].Details[key], evs[i].Details)
		}
		return l
	}
	if p, r := list(0, "pages"), list(0, "reusableContents"); !slices.Equal(p, []any{f.page}) || !slices.Equal(r, []any{f.warning}) {
		t.Fatalf("first merge: pages %v, reusable contents %v", p, r)
	}
	if p, r := list(1, "pages"), list(1, "reusableContents"); len(p) != 0 || !slices.Equal(r, []any{f.warning}) {
		t.Fatalf("a merge of the reusable content alone: pages %v, reusable contents %v", p, r)
	}
}
