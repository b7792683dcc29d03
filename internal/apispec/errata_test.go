package apispec_test

import (
	"fmt"
	"testing"

	"github.com/binderyhq/bindery/internal/apispec"
)

// documentPage is a RevisionPageDocument without its body: fmt's verb adds the body fields.
const documentPage = `{"id":"p1","title":"Intro","kind":"sheet","type":"document","urls":{"app":"https://x.test/p"},
"slug":"intro","path":"intro","pages":[],"tags":[],"layout":{"width":"default","cover":true,"coverSize":"hero",
"coverMask":"none","title":true,"description":true,"tableOfContents":true,"outline":true,"pagination":true,
"metadata":true,"tags":true,"actions":true,"anchors":true}%s}`

func TestErrataEmptyDocument(t *testing.T) {
	spec := apispec.Load(t)
	page := func(body string) func(tb testing.TB) {
		return func(tb testing.TB) { spec.ValidateSchema(tb, "RevisionPage", []byte(fmt.Sprintf(documentPage, body))) }
	}
	t.Run("OKWithoutBody", func(t *testing.T) { expectPass(t, page(`,"documentId":"d1"`)) })
	t.Run("OKMarkdown", func(t *testing.T) { expectPass(t, page(`,"markdown":"# Intro\n"`)) })
	t.Run("ErrMarkdownNotAString", func(t *testing.T) { expectFailure(t, page(`,"markdown":1`), "RevisionPage") })
}

// TestErrataPageEditedAttributes: an edit of a page's title validates (it matched two of the
// attributes' oneOf variants).
func TestErrataPageEditedAttributes(t *testing.T) {
	spec := apispec.Load(t)
	change := func(attributes string) func(tb testing.TB) {
		return func(tb testing.TB) {
			spec.ValidateSchema(tb, "RevisionSemanticChange", []byte(`{"type":"page_edited","page":{"id":"p1","type":"document","title":"A"},"attributes":`+attributes+`}`))
		}
	}
	t.Run("OKTitle", func(t *testing.T) { expectPass(t, change(`{"title":{"before":"A","after":"B"}}`)) })
	t.Run("ErrNoAttributes", func(t *testing.T) { expectFailure(t, change(`{}`), "RevisionSemanticChange") })
}
