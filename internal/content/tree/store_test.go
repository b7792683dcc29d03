package tree

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// memory is an object store in a map, counting what is written.
type memory struct {
	mu      sync.Mutex
	objects map[string][]byte
	fetches int
}

func newMemory() *memory { return &memory{objects: map[string][]byte{EmptyRoot: EmptyRootData}} }

func (m *memory) fetch(_ context.Context, hashes []string) (map[string][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fetches++
	out := map[string][]byte{}
	for _, h := range hashes {
		if b, ok := m.objects[h]; ok {
			out[h] = b
		}
	}
	return out, nil
}

// store writes objects and returns how many bytes were new.
func (m *memory) store(objs []Object) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, o := range objs {
		if _, ok := m.objects[o.Hash]; !ok {
			m.objects[o.Hash] = o.Data
			n += len(o.Data)
		}
	}
	return n
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func page(id, parent string) *Page {
	return &Page{ID: id, Parent: parent, Order: "i", Type: "document", Title: "Page " + id, Slug: "page-" + id,
		Body: Hash([]byte("body of " + id)), CreatedAt: t0, UpdatedAt: t0}
}

// flatTree is a tree of n root pages and one file.
func flatTree(n int) *Tree {
	t := New(nil)
	for i := range n {
		t.SetPage(page(fmt.Sprintf("p%05d", i), ""))
	}
	t.SetFile(&File{ID: "f1", Name: "a.png", ContentType: "image/png", Blob: Hash([]byte("png")), Size: 3, CreatedAt: t0})
	return t
}

func keys(t *Tree) []string {
	var out []string
	for _, e := range t.Entries() {
		out = append(out, e.Key())
	}
	return out
}

func TestStoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{0, 1, 31, 32, 33, 500, 3000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			mem := newMemory()
			want := flatTree(n)
			root, objs, err := NewStore(mem.fetch).Save(ctx, EmptyRoot, want, keys(want))
			if err != nil {
				t.Fatal(err)
			}
			mem.store(objs)
			got, err := NewStore(mem.fetch).Load(ctx, root) // a fresh store: nothing cached
			if err != nil {
				t.Fatal(err)
			}
			if got.PageCount() != n || got.File("f1") == nil {
				t.Fatalf("loaded %d pages, file %v; want %d pages and the file", got.PageCount(), got.File("f1"), n)
			}
			if diff, _ := NewStore(mem.fetch).Diff(ctx, root, root); len(diff) != 0 {
				t.Errorf("Diff of a tree with itself = %v", diff)
			}
		})
	}
}

// TestStoreSmallChange: changing one page of 10,000 writes a few kilobytes, finds exactly that
// page by Diff, and ends at the same root as building the changed tree from scratch.
func TestStoreSmallChange(t *testing.T) {
	ctx := context.Background()
	mem := newMemory()
	s := NewStore(mem.fetch)
	base := flatTree(10000)
	root, objs, err := s.Save(ctx, EmptyRoot, base, keys(base))
	if err != nil {
		t.Fatal(err)
	}
	mem.store(objs)

	edited := base.Clone()
	p := *edited.Page("p04242")
	p.Title = "Renamed"
	edited.SetPage(&p)
	edited.DeletePage("p00007")
	newRoot, objs, err := s.Save(ctx, root, edited, []string{"p04242", "p00007"})
	if err != nil {
		t.Fatal(err)
	}
	if written := mem.store(objs); written > 16<<10 {
		t.Errorf("a two-page change wrote %d bytes of tree nodes, want a few KiB", written)
	}
	diff, err := NewStore(mem.fetch).Diff(ctx, root, newRoot)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(diff, []string{"p00007", "p04242"}) {
		t.Errorf("Diff = %v, want the two changed pages", diff)
	}
	fresh, _, err := NewStore(newMemory().fetch).Save(ctx, EmptyRoot, edited, keys(edited))
	if err != nil {
		t.Fatal(err)
	}
	if fresh != newRoot {
		t.Errorf("incremental root %s != root built from scratch %s: the shape depends on history", newRoot, fresh)
	}
	if base.Page("p04242").Title == "Renamed" || base.Page("p00007") == nil {
		t.Error("editing a clone changed the original tree")
	}
}

// TestStoreShrinks: deleting most entries collapses branches back into a leaf.
func TestStoreShrinks(t *testing.T) {
	ctx := context.Background()
	mem := newMemory()
	s := NewStore(mem.fetch)
	big := flatTree(200)
	root, objs, _ := s.Save(ctx, EmptyRoot, big, keys(big))
	mem.store(objs)
	small := big.Clone()
	rng := rand.New(rand.NewPCG(3, 4))
	var gone []string
	for _, p := range rng.Perm(200)[:190] {
		id := fmt.Sprintf("p%05d", p)
		small.DeletePage(id)
		gone = append(gone, id)
	}
	root2, objs, err := s.Save(ctx, root, small, gone)
	if err != nil {
		t.Fatal(err)
	}
	mem.store(objs)
	fresh, _, _ := NewStore(newMemory().fetch).Save(ctx, EmptyRoot, small, keys(small))
	if fresh != root2 {
		t.Error("a shrunk tree's root differs from the same tree built from scratch")
	}
	loaded, err := NewStore(mem.fetch).Load(ctx, root2)
	if err != nil || loaded.PageCount() != 10 {
		t.Fatalf("loaded %v pages, err %v; want 10", loaded.PageCount(), err)
	}
}

func TestStoreMissingNode(t *testing.T) {
	_, err := NewStore(newMemory().fetch).Load(context.Background(), Hash([]byte("nothing")))
	if err == nil {
		t.Fatal("loading a tree whose root is missing succeeded")
	}
}

func TestSlotOfCoversEveryLevel(t *testing.T) {
	var path [32]byte
	for i := range path {
		path[i] = 0xff
	}
	for level := 0; level <= maxLevel; level++ {
		if s := slotOf(path, level); s != fanout-1 {
			t.Fatalf("slotOf(all ones, %d) = %d", level, s)
		}
	}
}

func BenchmarkSaveOnePage(b *testing.B) {
	ctx := context.Background()
	mem := newMemory()
	s := NewStore(mem.fetch)
	base := flatTree(10000)
	root, objs, _ := s.Save(ctx, EmptyRoot, base, keys(base))
	mem.store(objs)
	b.ResetTimer()
	for i := range b.N {
		edited := base.Clone()
		p := *edited.Page("p04242")
		p.Title = fmt.Sprint("Renamed ", i)
		edited.SetPage(&p)
		if _, _, err := s.Save(ctx, root, edited, []string{p.ID}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadCold loads a 10,000-page tree into a store with nothing cached.
func BenchmarkLoadCold(b *testing.B) {
	ctx := context.Background()
	mem := newMemory()
	base := flatTree(10000)
	root, objs, _ := NewStore(mem.fetch).Save(ctx, EmptyRoot, base, keys(base))
	mem.store(objs)
	b.ResetTimer()
	for range b.N {
		if _, err := NewStore(mem.fetch).Load(ctx, root); err != nil {
			b.Fatal(err)
		}
	}
}
