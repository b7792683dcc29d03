package document

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEncodeCorpus decodes every golden document of testdata and encodes it to the Markdown it was
// read from.
func TestEncodeCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			doc, err := Decode([]byte(read(t, file)))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			md, err := Encode(doc)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if want := read(t, strings.TrimSuffix(file, ".json")+".md"); md != want {
				t.Errorf("Markdown differs from the corpus:\n%s", md)
			}
		})
	}
}

// TestEncodeNormalizes takes what an editor may send that Markdown writes one way: keys, texts and
// leaves split, marks in another order.
func TestEncodeNormalizes(t *testing.T) {
	doc, err := Decode([]byte(`{"object":"document","data":{},"nodes":[
		{"object":"block","type":"paragraph","key":"k1","data":{},"isVoid":false,"nodes":[
			{"object":"text","key":"t1","leaves":[{"object":"leaf","text":"Hel","marks":[]},{"object":"leaf","text":"lo ","marks":[]}]},
			{"object":"text","leaves":[{"object":"leaf","text":"","marks":[{"object":"mark","type":"bold"}]},
				{"object":"leaf","text":"world","marks":[{"object":"mark","type":"italic"},{"object":"mark","type":"bold"}]}]}
		]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	md, err := Encode(doc)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	if md != "Hello ***world***\n" {
		t.Errorf("Markdown = %q", md)
	}
}

// TestEncodeRefuses names where a document is refused: what the reference's model does not have,
// what Bindery does not support, and what its Markdown would not give back.
func TestEncodeRefuses(t *testing.T) {
	para := func(data, text string) string {
		return `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","data":` + data +
			`,"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"` + text + `","marks":[]}]}]}]}`
	}
	for _, c := range []struct{ name, in, want string }{
		{"not JSON", `{"object":`, "is not a JSON document"},
		{"two values", para(`{}`, "a") + `{}`, "data after the document"},
		{"unknown field", `{"object":"document","nodes":[],"extra":1}`, `unknown field "extra"`},
		{"not a document", `{"object":"block","nodes":[]}`, `object: want "document"`},
		{"unsupported block", `{"object":"document","nodes":[{"object":"block","type":"drawing","isVoid":true}]}`,
			`nodes[0]: block type "drawing" is not supported`},
		{"data Markdown cannot hold", para(`{"align":"center"}`, "a"), "nodes[0].data.align: cannot be stored"},
		{"document data", `{"object":"document","data":{"schemaVersion":2},"nodes":[]}`, "data.schemaVersion: cannot be stored"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Decode([]byte(c.in))
			if err == nil {
				_, err = Encode(doc)
			}
			if !strings.Contains(errString(err), c.want) {
				t.Errorf("error %q, want %q", errString(err), c.want)
			}
		})
	}
}
