// Package appurl reads the URLs of this server's app that the API hands out as `urls.app`:
// `/o/{organizationId}/c/{collectionId}` (a collection), `/o/{organizationId}/s/{spaceId}` (a
// space), followed by a page's path, or by `~/changes/{number}` and a page's path (a change
// request's content).
package appurl

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
)

// Target is what an app URL shows: a collection, or a space's content (its main content, or a
// change request's by number) at a page path ("" for none).
type Target struct {
	Organization  string
	Collection    string
	Space         string
	ChangeRequest string // the change request's number in the space, "" for the main content
	PagePath      string
}

// maxURL bounds the URL read.
const maxURL = 2048

// Parse reads raw, an absolute URL under base (this server's base URL). Returns INVALID naming
// field when raw is not such a URL, NOT_FOUND when it is one that shows no content.
func Parse(field, base, raw string) (Target, error) {
	if err := check.Text(field, raw, 1, maxURL); err != nil {
		return Target{}, err
	}
	u, err := url.Parse(raw)
	b, baseErr := url.Parse(base)
	if err != nil || baseErr != nil || !u.IsAbs() || !strings.EqualFold(u.Host, b.Host) {
		return Target{}, apperr.Invalidf("%s: must be an absolute URL of this server (%s), got %q", field, base, check.Truncate(raw, 100))
	}
	rest, under := strings.CutPrefix(u.Path, strings.TrimRight(b.Path, "/")+"/o/")
	if !under {
		return Target{}, noContent(raw)
	}
	segments := strings.Split(strings.Trim(rest, "/"), "/")
	if len(segments) < 3 || segments[0] == "" || segments[2] == "" {
		return Target{}, noContent(raw)
	}
	t := Target{Organization: segments[0]}
	switch segments[1] {
	case "c":
		if len(segments) > 3 {
			return Target{}, noContent(raw)
		}
		t.Collection = segments[2]
	case "s":
		t.Space = segments[2]
		return spaceContent(t, segments[3:], raw)
	default:
		return Target{}, noContent(raw)
	}
	return t, nil
}

// spaceContent reads what follows a space's segment: a page path, or a change request's number
// and a page path.
func spaceContent(t Target, segments []string, raw string) (Target, error) {
	if len(segments) >= 3 && segments[0] == "~" && segments[1] == "changes" {
		if n, err := strconv.Atoi(segments[2]); err != nil || n < 1 {
			return Target{}, noContent(raw)
		}
		t.ChangeRequest = segments[2]
		segments = segments[3:]
	} else if len(segments) > 0 && segments[0] == "~" {
		return Target{}, noContent(raw)
	}
	t.PagePath = strings.Join(segments, "/")
	return t, nil
}

func noContent(raw string) error {
	return apperr.NotFoundf("no content at %q", check.Truncate(raw, 100))
}
