package importer

import (
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		name, dialect, marker string
		paths                 []string
	}{
		{"DocusaurusConfig", DialectDocusaurus, "site/docusaurus.config.ts", []string{"site/docs/a.md", "site/docusaurus.config.ts", "mkdocs.yml.bak"}},
		{"ConfigBeforeSummary", DialectDocusaurus, "docusaurus.config.js", []string{"docs/SUMMARY.md", "docusaurus.config.js"}},
		{"MkDocs", DialectMkDocs, "mkdocs.yml", []string{"docs/index.md", "mkdocs.yml", "sub/mkdocs.yaml"}},
		{"GitBookConfig", DialectGitBook, ".gitbook.yaml", []string{"docs/SUMMARY.md", ".gitbook.yaml"}},
		{"Summary", DialectGitBook, "SUMMARY.md", []string{"a/summary.md", "SUMMARY.md", "a.md"}},
		{"CategoryFile", DialectDocusaurus, "guides/_category_.json", []string{"intro.md", "guides/_category_.json"}},
		{"MDX", DialectDocusaurus, "a.mdx", []string{"a.mdx", "b.md"}},
		{"SidebarPosition", DialectDocusaurus, "guide/install.md", []string{"README.md", "guide/install.md"}},
		{"Plain", DialectMarkdown, "", []string{"README.md", "guide/install.md", "img.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ups []upload
			for _, p := range tt.paths {
				ups = append(ups, upload{path: p, data: []byte("# A\n")})
			}
			if tt.name == "SidebarPosition" {
				ups[1].data = []byte("---\ntitle: Install\nsidebar_position: 2\n---\n# Install\n")
			}
			if dialect, marker := detect(ups); dialect != tt.dialect || marker != tt.marker {
				t.Fatalf("detect: %s %s, want %s %s", dialect, marker, tt.dialect, tt.marker)
			}
		})
	}
}

// laughs is YAML whose aliases would unfold to a billion strings.
const laughs = `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
`

// TestFromUploadsHostileYAML: YAML that cannot be read (aliases unfolding without end, not YAML at
// all) is a warning on its file, never an error of the upload; mkdocs.yml's aliases are never
// unfolded, since only its nav and docs_dir are read.
func TestFromUploadsHostileYAML(t *testing.T) {
	for name, files := range map[string][]Upload{
		"FrontMatter":    {{Path: "docs/a.mdx", Data: []byte("---\n" + laughs + "---\n# A\n")}},
		"Category":       {{Path: "docs/g/a.md", Data: []byte("# A\n")}, {Path: "docs/g/_category_.json", Data: []byte(laughs)}},
		"MkDocsConfig":   {{Path: "docs/a.md", Data: []byte("# A\n")}, {Path: "mkdocs.yml", Data: []byte("nav: [{x: *y}]\n")}},
		"GitBookConfig":  {{Path: "a.md", Data: []byte("# A\n")}, {Path: ".gitbook.yaml", Data: []byte("root: [\n")}},
		"MkDocsLaughNav": {{Path: "docs/a.md", Data: []byte("# A\n")}, {Path: "mkdocs.yml", Data: []byte(laughs + "nav:\n  - A: a.md\n")}},
	} {
		t.Run(name, func(t *testing.T) {
			site, err := FromUploads(files)
			if err != nil {
				t.Fatal(err)
			}
			if len(site.Pages) != 1 {
				t.Fatalf("pages %+v", site.Pages)
			}
			var warnings []string
			for _, r := range site.Report {
				warnings = append(warnings, r.Warnings...)
			}
			switch {
			case name == "MkDocsLaughNav" && (site.Pages[0].NavTitle != "A" || len(warnings) > 0):
				t.Fatalf("the nav was not followed: %+v, %q", site.Pages[0], warnings)
			case name != "MkDocsLaughNav" && !strings.Contains(strings.Join(warnings, "\n"), "not"):
				t.Fatalf("no warning: %+v", site.Report)
			}
		})
	}
}
