package document

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Color marks. GitBook writes a color mark as HTML around the text, outside the other marks:
// <mark style="color:red;">, <mark style="background-color:green;"> or both
// (<mark style="color:purple;background-color:green;">); "default" is a color left out. Inside
// the package a mark is named by a key (markKey): its type, and for a color mark its two colors
// ("color red default"), so that leaves of different colors are different runs.

const colorMark = "color"

// markKey is the key of a mark: its type, and a color mark's colors.
func markKey(m Mark) string {
	if m.Type != colorMark {
		return m.Type
	}
	return fmt.Sprintf("%s %s %s", colorMark, str(m.Data, "text"), str(m.Data, "background"))
}

// markOfKey is the mark of a key.
func markOfKey(key string) Mark {
	if typ, colors, ok := strings.Cut(key, " "); ok && typ == colorMark {
		text, background, _ := strings.Cut(colors, " ")
		return Mark{Object: objectMark, Type: colorMark, Data: map[string]any{"text": text, "background": background}}
	}
	return Mark{Object: objectMark, Type: key}
}

// isColorKey says whether a key is a color mark's.
func isColorKey(key string) bool { return strings.HasPrefix(key, colorMark+" ") }

// colorTag reads an opening <mark> tag as GitBook writes it: the key of its color mark.
var colorTag = regexp.MustCompile(`^<mark style="(?:color:([$a-z]+);)?(?:background-color:([$a-z]+);)?">$`)

// colorKeyOfTag is the key of the color mark an opening tag writes, "" when raw is not one.
func colorKeyOfTag(raw string) string {
	m := colorTag.FindStringSubmatch(raw)
	if m == nil || m[1] == "" && m[2] == "" {
		return ""
	}
	text, background := cmpOr(m[1], "default"), cmpOr(m[2], "default")
	if !slices.Contains(textColors, text) || !slices.Contains(textColors, background) {
		return ""
	}
	return fmt.Sprintf("%s %s %s", colorMark, text, background)
}

func cmpOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// colorOpenTag is the opening tag of a color mark's key.
func colorOpenTag(key string) string {
	m := markOfKey(key)
	style := ""
	if text := str(m.Data, "text"); text != "default" {
		style += "color:" + text + ";"
	}
	if background := str(m.Data, "background"); background != "default" {
		style += "background-color:" + background + ";"
	}
	return `<mark style="` + style + `">`
}

// checkColor checks a color mark's data: two colors of the reference's, not both "default"
// (which Markdown has no form for).
func checkColor(path string, m Mark) error {
	text, background := str(m.Data, "text"), str(m.Data, "background")
	if !slices.Contains(textColors, text) || !slices.Contains(textColors, background) {
		return fmt.Errorf("%s: data.text and data.background of a color mark must be one of %v", path, textColors)
	}
	if text == "default" && background == "default" {
		return fmt.Errorf("%s: a color mark must have a color other than default", path)
	}
	return nil
}
