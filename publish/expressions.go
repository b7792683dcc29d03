package publish

import (
	"crypto/sha256"
	"encoding/base64"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/binderyhq/bindery/internal/document"
)

// Conditional blocks and expression inlines. A page's document may hold if blocks and expressions
// (internal/document) that its readers' claims decide, as they decide pages' conditions: each
// reader receives the page as their claims evaluate it (document.Evaluate, through the visit's
// Shows and Value), in HTML and in Markdown. The rendered pages are kept by ETag, so the ETag of
// such a page names what the reader's claims decided (decisions): readers deciding alike share
// it, and no reader is answered another's.
//
// The expressions of a page are found once per body (cachedExpressions), so a page without any
// costs one cache lookup per request.
const cachedExpressions = 4096

// pageExpressions are the distinct expressions of one page body.
type pageExpressions struct {
	conditions, values []string
}

func newExpressionCache() *lru.Cache[string, pageExpressions] {
	c, _ := lru.New[string, pageExpressions](cachedExpressions)
	return c
}

// expressionsOf returns the expressions of doc, the document of a page as key names it
// (expressionsKey: its body, or its revision and id when it places reusable contents).
func (s *siteView) expressionsOf(key string, doc *document.Document) pageExpressions {
	if e, ok := s.h.expressions.Get(key); ok {
		return e
	}
	var e pageExpressions
	e.conditions, e.values = document.Expressions(doc)
	s.h.expressions.Add(key, e)
	return e
}

// decisions names what the reader's claims decide in doc, the document of a page as key names
// it: "" for a page without expressions, else a digest of each condition's outcome and each
// expression's value, in order.
func (s *siteView) decisions(key string, doc *document.Document) string {
	e := s.expressionsOf(key, doc)
	if len(e.conditions)+len(e.values) == 0 {
		return ""
	}
	h := sha256.New()
	for _, c := range e.conditions {
		if s.visit.Shows(c) {
			h.Write([]byte{1})
		} else {
			h.Write([]byte{0})
		}
	}
	for _, v := range e.values {
		value := s.visit.Value(v)
		h.Write([]byte{byte(len(value) >> 24), byte(len(value) >> 16), byte(len(value) >> 8), byte(len(value))})
		h.Write([]byte(value))
	}
	return " decided " + base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}
