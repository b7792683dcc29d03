package apispec

import (
	"errors"
	"slices"
)

// Errata of the reference document: places where its JSON Schema refuses what the reference
// client's TypeScript types (and the reference API's own answers) allow. They are corrected in the
// parsed document before any schema compiles, so responses are checked against what was meant.

// applyErrata corrects doc in place. Returns an error when a corrected place is not there any more
// (a newer document moved or fixed it): the erratum must then be looked at again.
func applyErrata(doc any) error {
	return errors.Join(emptyDocument(doc), pageEditedAttributes(doc))
}

// pageEditedAttributes: RevisionSemanticChangePageEdited's attributes are oneOf the change
// attributes of a document, a group and a link page, whose properties are all optional and
// overlap (title, emoji, slug), so an edit of a title matches two of them and no answer can
// validate. The TypeScript type is their union: the correction makes it anyOf.
func pageEditedAttributes(doc any) error {
	attributes, _ := lookup(doc, "components", "schemas", "RevisionSemanticChangePageEdited", "properties", "attributes")
	variants, ok := attributes["oneOf"]
	if !ok {
		return errors.New(`erratum: RevisionSemanticChangePageEdited.attributes is not a oneOf any more`)
	}
	delete(attributes, "oneOf")
	attributes["anyOf"] = variants
	return nil
}

// emptyDocument: the schema Document is oneOf {markdown}, {document} and "Empty"
// ({properties: {}, additionalProperties: false}), and RevisionPageDocument is allOf
// RevisionPageBase, Document and the page's own fields. Inside that allOf every field of a page
// is additional to Empty, so a page without its body (a page tree, where GitBook answers with
// documentId only) could never validate. The TypeScript type of Empty is `{}`: the page carries
// no body. The correction says that: an object with neither markdown nor document.
func emptyDocument(doc any) error {
	schemas, _ := lookup(doc, "components", "schemas")
	document, _ := schemas["Document"].(map[string]any)
	variants, _ := document["oneOf"].([]any)
	i := slices.IndexFunc(variants, func(v any) bool {
		m, _ := v.(map[string]any)
		return m["title"] == "Empty" && m["additionalProperties"] == false
	})
	if i < 0 {
		return errors.New(`erratum: components/schemas/Document has no "Empty" variant with additionalProperties false any more`)
	}
	variants[i] = map[string]any{
		"title": "Empty", "type": "object",
		"not": map[string]any{"anyOf": []any{
			map[string]any{"required": []any{"markdown"}},
			map[string]any{"required": []any{"document"}},
		}},
	}
	return nil
}
