package revisions

import (
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/tree"
)

func TestPageSections(t *testing.T) {
	p := &tree.Page{ID: "p1", Title: "Guide", Description: "How to start"}
	got := pageSections(p, "Intro\n\n## Install\n\nRun it.\n")
	if len(got) != 2 {
		t.Fatalf("got %d sections, want 2: %+v", len(got), got)
	}
	if !strings.HasPrefix(got[0].Body, "How to start\n") || got[0].Title != "Guide" || got[0].Ordinal != 0 {
		t.Errorf("first section %+v: want the description leading the text before the first heading", got[0])
	}
	if got[1].Heading != "Install" || got[1].Ordinal != 1 || got[1].PageID != "p1" {
		t.Errorf("second section %+v: want the Install heading, ordinal 1, page p1", got[1])
	}
}

func TestStorableText(t *testing.T) {
	if err := storableText(&tree.Page{ID: "p1", Title: "Fine"}, "a body"); err != nil {
		t.Fatalf("storable page refused: %v", err)
	}
	err := storableText(&tree.Page{ID: "p1", Title: "Bad"}, "a\x00body")
	if e := apperr.As(err); e == nil || e.Kind != apperr.Conflict || !strings.Contains(e.Message, "its Markdown") {
		t.Fatalf("body with a NUL: got %v, want CONFLICT naming the Markdown", err)
	}
}
