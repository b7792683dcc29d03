package tree

import (
	"context"
	"testing"
)

// withReusable returns a clone of t holding r.
func withReusable(t *Tree, r Reusable) *Tree {
	c := t.Clone()
	c.SetReusable(&r)
	return c
}

func TestMergeReusable(t *testing.T) {
	base := New([]Entry{{Reusable: &Reusable{ID: "r", Title: "Note", Body: "b"}}})
	t.Run("OKFieldsBothSides", func(t *testing.T) {
		ours := withReusable(base, Reusable{ID: "r", Title: "Careful", Body: "b"})
		theirs := withReusable(base, Reusable{ID: "r", Title: "Note", Body: "t"})
		r := runMerge(t, base, ours, theirs, joinBodies(false))
		if got := r.Tree.Reusable("r"); got.Title != "Careful" || got.Body != "t" || len(r.Conflicts) != 0 {
			t.Fatalf("merged %+v, conflicts %v", got, r.Conflicts)
		}
	})
	t.Run("ErrBodyConflict", func(t *testing.T) {
		ours := withReusable(base, Reusable{ID: "r", Title: "Note", Body: "o"})
		theirs := withReusable(base, Reusable{ID: "r", Title: "Other", Body: "t"})
		r := runMerge(t, base, ours, theirs, joinBodies(true))
		if len(r.Conflicts) != 1 || r.Conflicts[0].Reusable != "r" || r.Conflicts[0].String() != `reusable content "Other": both sides changed the content` {
			t.Fatalf("conflicts %v", r.Conflicts)
		}
		if got := r.Tree.Reusable("r").Body; got != "o+t" {
			t.Fatalf("body %q", got)
		}
	})
	t.Run("OKDeletedOnOneSide", func(t *testing.T) {
		ours := base.Clone()
		ours.DeleteReusable("r")
		r := runMerge(t, base, ours, base, joinBodies(false))
		if r.Tree.Reusable("r") != nil {
			t.Fatal("a reusable content deleted by ours came back")
		}
		r = runMerge(t, base, base, ours, joinBodies(false))
		if r.Tree.Reusable("r") != nil || len(r.Changed) != 1 {
			t.Fatalf("theirs' deletion not merged: %v", r.Changed)
		}
	})
}

// TestStoreReusable stores a tree holding a reusable content and reads it back.
func TestStoreReusable(t *testing.T) {
	objects := map[string][]byte{EmptyRoot: EmptyRootData}
	s := NewStore(func(_ context.Context, hashes []string) (map[string][]byte, error) { return objects, nil })
	tr := withReusable(New(nil), Reusable{ID: "r", Title: "Note", Body: "h"})
	root, nodes, err := s.Save(context.Background(), EmptyRoot, tr, []string{"r"})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		objects[n.Hash] = n.Data
	}
	loaded, err := NewStore(s.fetch).Load(context.Background(), root)
	if err != nil || loaded.Reusable("r") == nil || loaded.Reusable("r").Title != "Note" || len(loaded.Reusables()) != 1 {
		t.Fatalf("loaded %v, %v", loaded, err)
	}
	if diff, _ := s.Diff(context.Background(), EmptyRoot, root); len(diff) != 1 || diff[0] != "r" {
		t.Fatalf("diff %v", diff)
	}
}
