package diff3

import "strings"

// markers writes conflict hunks.
type markers struct {
	open, separator, close string
	eol                    string
}

func newMarkers(labels Labels, eol string) markers {
	return markers{
		open:      marker("<<<<<<<", labels.Ours) + eol,
		separator: "=======" + eol,
		close:     marker(">>>>>>>", labels.Theirs) + eol,
		eol:       eol,
	}
}

// marker is a marker line without its line break, like git's: the label after a space if any.
func marker(symbol, label string) string {
	if label == "" {
		return symbol
	}
	return symbol + " " + strings.Map(lineBreakToSpace, label)
}

func lineBreakToSpace(r rune) rune {
	if r == '\n' || r == '\r' {
		return ' '
	}
	return r
}

// write writes one conflict hunk.
func (mk markers) write(out *strings.Builder, ours, theirs string) {
	out.WriteString(mk.open)
	mk.writeSide(out, ours)
	out.WriteString(mk.separator)
	mk.writeSide(out, theirs)
	out.WriteString(mk.close)
}

// writeSide writes one side of a conflict, ending its last line so the next marker starts a line.
func (mk markers) writeSide(out *strings.Builder, side string) {
	out.WriteString(side)
	if side != "" && !strings.HasSuffix(side, "\n") {
		out.WriteString(mk.eol)
	}
}

// eolOf returns "\r\n" if the first line of the first non-empty text ends with it, else "\n".
func eolOf(texts ...text) string {
	for _, t := range texts {
		if t.len() > 0 {
			if strings.HasSuffix(t.lines[0], "\r\n") {
				return "\r\n"
			}
			return "\n"
		}
	}
	return "\n"
}
