package openapispecs

import (
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/openapi"
)

// codeOf is the code and message of an apperr error ("BAD_REQUEST slug: …"), "" for nil.
func codeOf(err error) string {
	if err == nil {
		return ""
	}
	if e := apperr.As(err); e != nil {
		return e.Kind.Code() + " " + e.Message
	}
	return err.Error()
}

func TestCheckSlug(t *testing.T) {
	const pattern = "BAD_REQUEST slug: must be lower-case letters and digits in words joined by single hyphens"
	tests := []struct {
		slug string
		want string
	}{
		{"petstore", ""},
		{"pet-store-2", ""},
		{strings.Repeat("a", slugMax), ""},
		{"", "BAD_REQUEST slug: must not be empty"},
		{strings.Repeat("a", slugMax+1), "BAD_REQUEST slug: must be at most 100 characters (got 101)"},
		{"Pet", pattern + ` (got "Pet")`},
		{"pet--store", pattern + ` (got "pet--store")`},
		{"-pet", pattern + ` (got "-pet")`},
		{"pet-", pattern + ` (got "pet-")`},
		{"pet store", pattern + ` (got "pet store")`},
	}
	for _, tc := range tests {
		if got := codeOf(checkSlug(tc.slug)); got != tc.want {
			t.Errorf("checkSlug(%q) = %q, want %q", tc.slug, got, tc.want)
		}
	}
}

func TestCheckSource(t *testing.T) {
	svc := &Service{Limits: openapi.Limits{MaxBytes: 10}}
	str := func(s string) *string { return &s }
	tests := []struct {
		name     string
		in       *Source
		want     string
		url      bool
		textSize int
	}{
		{"Missing", nil, "BAD_REQUEST source: is required", false, 0},
		{"Both", &Source{URL: str("https://e.com/a.json"), Text: str("{}")}, "BAD_REQUEST source: give url or text, not both", false, 0},
		{"Neither", &Source{}, "BAD_REQUEST source: needs url or text", false, 0},
		{"URL", &Source{URL: str("https://e.com/a.json")}, "", true, 0},
		{"NotHTTP", &Source{URL: str("ftp://e.com/a.json")}, "BAD_REQUEST source.url: must be an absolute http or https URL", true, 0},
		{"URLTooLong", &Source{URL: str("https://e.com/" + strings.Repeat("a", sourceMax))},
			"BAD_REQUEST source.url: must be at most 2048 characters (got 2062)", true, 0},
		{"EmptyText", &Source{Text: str("")}, "BAD_REQUEST source.text: must not be empty", false, 0},
		{"Text", &Source{Text: str("0123456789")}, "", false, 10},
		{"TextTooLarge", &Source{Text: str("0123456789a")}, "PAYLOAD_TOO_LARGE source.text: must be at most 10 bytes", false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, err := svc.checkSource(tc.in)
			if got := codeOf(err); got != tc.want {
				t.Fatalf("checkSource: %q, want %q", got, tc.want)
			}
			if (src.url != nil) != tc.url || len(src.text) != tc.textSize {
				t.Fatalf("checked source %+v", src)
			}
		})
	}
}

func TestVersionURL(t *testing.T) {
	source := "https://e.com/a.json"
	s := &ent.OpenAPISpec{SourceURL: &source}
	if got := versionURL(&openapi.Document{URL: "https://e.com/b.json"}, s); got != "https://e.com/b.json" {
		t.Fatalf("versionURL = %q, want where the document was found", got)
	}
	long := "https://e.com/" + strings.Repeat("a", sourceMax)
	if got := versionURL(&openapi.Document{URL: long}, s); got != source {
		t.Fatalf("versionURL of a too long place = %q, want the source", got)
	}
	if got := versionURL(&openapi.Document{URL: long}, &ent.OpenAPISpec{}); got != "" {
		t.Fatalf("versionURL of a too long place without a source URL = %q", got)
	}
}

func TestSameSource(t *testing.T) {
	u1, u2 := "https://e.com/1", "https://e.com/2"
	t1, t2 := []byte("one"), []byte("two")
	tests := []struct {
		name string
		a, b *ent.OpenAPISpec
		want bool
	}{
		{"SameURL", &ent.OpenAPISpec{SourceURL: &u1}, &ent.OpenAPISpec{SourceURL: &u1}, true},
		{"OtherURL", &ent.OpenAPISpec{SourceURL: &u1}, &ent.OpenAPISpec{SourceURL: &u2}, false},
		{"SameText", &ent.OpenAPISpec{SourceText: &t1}, &ent.OpenAPISpec{SourceText: &[]byte{'o', 'n', 'e'}}, true},
		{"OtherText", &ent.OpenAPISpec{SourceText: &t1}, &ent.OpenAPISpec{SourceText: &t2}, false},
		{"URLThenText", &ent.OpenAPISpec{SourceURL: &u1}, &ent.OpenAPISpec{SourceText: &t1}, false},
	}
	for _, tc := range tests {
		if got := sameSource(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: sameSource = %v, want %v", tc.name, got, tc.want)
		}
	}
}
