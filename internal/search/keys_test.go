package search

import (
	"fmt"
	"testing"
)

func TestSectionID(t *testing.T) {
	id := sectionID(5, 1<<pageBits-1, MaxPageSections-1)
	if spaceKeyOf(id) != 5 || pageKey(id) != 5<<pageBits|(1<<pageBits-1) || id&(MaxPageSections-1) != MaxPageSections-1 {
		t.Fatalf("id %x: space %d, page %x", id, spaceKeyOf(id), pageKey(id))
	}
	if next := sectionID(6, 0, 0); next <= id {
		t.Errorf("the next space's first section %x is not after %x: a space's ids are not one range", next, id)
	}
}

func TestFoldOrdinals(t *testing.T) {
	var sections []Section
	for i := range MaxPageSections + 2 {
		sections = append(sections, Section{PageID: "p", Ordinal: i, Heading: fmt.Sprint("h", i), Body: fmt.Sprint("b", i)})
	}
	sections = append(sections, Section{PageID: "q", Ordinal: 0, Body: "other page"})
	got := foldOrdinals(sections)
	if len(got) != MaxPageSections+1 {
		t.Fatalf("%d sections, want %d", len(got), MaxPageSections+1)
	}
	last := got[MaxPageSections-1]
	want := fmt.Sprintf("b%d\nh%d\nb%d\nh%d\nb%d", MaxPageSections-1, MaxPageSections, MaxPageSections, MaxPageSections+1, MaxPageSections+1)
	if last.Ordinal != MaxPageSections-1 || last.Heading != fmt.Sprint("h", MaxPageSections-1) || last.Body != want {
		t.Errorf("last section %+v, want body %q", last, want)
	}
	if got[MaxPageSections].PageID != "q" {
		t.Errorf("the other page's section moved: %+v", got[MaxPageSections])
	}
}
