package translations

import (
	"slices"
	"strings"
	"testing"
)

func TestCanonicalLanguages(t *testing.T) {
	got, err := canonicalLanguages([]string{"pt-br", "FR", "pt-BR", "zh-hant"})
	if err != nil || !slices.Equal(got, []string{"pt-BR", "fr", "zh-Hant"}) {
		t.Fatalf("canonicalLanguages = %v, %v; want [pt-BR fr zh-Hant]", got, err)
	}
	for _, bad := range [][]string{{"fr", "not a tag"}, {"und"}, {""}, make([]string, languagesMax+1)} {
		if _, err := canonicalLanguages(bad); err == nil || !strings.HasPrefix(err.Error(), "languages") {
			t.Errorf("canonicalLanguages(%q) = %v; want INVALID naming languages", bad, err)
		}
	}
}
