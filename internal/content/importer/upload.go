package importer

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/url"
	"path"
	"strings"

	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/text"
)

// Bounds of an upload.
const (
	MaxUploadFiles = 1000     // files in one upload (a zip's entries included)
	MaxUploadBytes = 64 << 20 // all files together, unpacked
	maxPathLength  = 1024
)

// Upload is one uploaded file: its path in the upload ("guide/install.md") and its bytes.
type Upload struct {
	Path string
	Data []byte
}

// FromUploads reads uploaded files in the dialect they are written in (detect): Docusaurus,
// MkDocs, a GitBook repository, or plain Markdown laid out as Git Sync lays out a space —
// Markdown files (.md, .markdown, .mdx) are pages nested by their directories, a directory's
// README.md (or index.md) being the directory's page and the top-level one the first page. Other
// files become files the pages may link to (at most edit.MaxFileSize each). Hidden files and
// directories (".git", "__MACOSX") are skipped, but for a .gitbook.yaml. The Site's Report says
// per file what it became. Errors name the file.
func FromUploads(files []Upload) (Site, error) {
	return FromFiles(files, MaxUploadFiles, MaxUploadBytes)
}

// FromFiles reads files as FromUploads does, within other bounds: at most maxFiles files and
// maxBytes bytes together (a git repository's branch, which Git Sync bounds itself).
func FromFiles(files []Upload, maxFiles, maxBytes int) (Site, error) {
	ups, err := checkUploads(files, maxFiles, maxBytes)
	if err != nil {
		return Site{}, err
	}
	switch dialect, marker := detect(ups); dialect {
	case DialectDocusaurus:
		return docusaurusSite(ups, marker), nil
	case DialectMkDocs:
		return mkdocsSite(ups, marker), nil
	case DialectGitBook:
		return gitbookSite(ups, marker), nil
	}
	return plainSite(ups), nil
}

// checkUploads checks the bounds of an upload and each file, and returns the files not skipped
// with their paths cleaned.
func checkUploads(files []Upload, maxFiles, maxBytes int) ([]upload, error) {
	if len(files) > maxFiles {
		return nil, fmt.Errorf("an upload holds at most %d files, got %d", maxFiles, len(files))
	}
	var ups []upload
	var total int
	for _, f := range files {
		p, err := cleanPath(f.Path)
		if err != nil {
			return nil, err
		}
		if total += len(f.Data); total > maxBytes {
			return nil, fmt.Errorf("the files are more than %d bytes together", maxBytes)
		}
		if Skipped(p) {
			continue
		}
		if err := checkContent(p, f.Data); err != nil {
			return nil, err
		}
		ups = append(ups, upload{path: p, data: f.Data})
	}
	return ups, nil
}

// CheckFile says why FromUploads would refuse one file that is not skipped, naming it: its path,
// Markdown that is not text, another file over edit.MaxFileSize. Nil when it may be imported.
func CheckFile(f Upload) error {
	p, err := cleanPath(f.Path)
	if err != nil {
		return err
	}
	return checkContent(p, f.Data)
}

// checkContent checks the bytes of the file at the cleaned path p.
func checkContent(p string, data []byte) error {
	if IsMarkdown(p) {
		if problem := text.Problem(string(data)); problem != "" {
			return fmt.Errorf("%s: %s", p, problem)
		}
		return nil
	}
	if len(data) > edit.MaxFileSize {
		return fmt.Errorf("%s: is %d bytes, more than the %d a file may have", p, len(data), edit.MaxFileSize)
	}
	return nil
}

// cleanPath checks an uploaded path and returns it cleaned, relative, with "/" separators.
func cleanPath(p string) (string, error) {
	clean := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	switch {
	case p == "" || len(p) > maxPathLength:
		return "", fmt.Errorf("%q: a path is 1 to %d bytes", truncate(p), maxPathLength)
	case text.Problem(p) != "":
		return "", fmt.Errorf("%q: a path %s", truncate(p), text.Problem(p))
	case strings.HasPrefix(clean, "/") || clean == ".." || strings.HasPrefix(clean, "../") || clean == ".":
		return "", fmt.Errorf("%q: a path must stay inside the upload (no leading / or ..)", truncate(p))
	}
	return clean, nil
}

func truncate(s string) string { return clip(s, 80) }

// Skipped reports whether an uploaded path (cleaned, "/" separators) is left out: hidden (but for
// a GitBook repository's .gitbook.yaml and the files of its .gitbook/assets folder), archive
// litter.
func Skipped(p string) bool {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		switch {
		case seg == "__MACOSX":
			return true
		case !strings.HasPrefix(seg, "."):
		case last && gitbookConfig.MatchString(seg):
		case seg == ".gitbook" && i+2 < len(segs) && segs[i+1] == "assets":
		default:
			return true
		}
	}
	return false
}

// IsMarkdown reports whether an uploaded path is a page's Markdown (.md, .markdown, .mdx).
func IsMarkdown(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".md" || ext == ".markdown" || ext == ".mdx"
}

// titleFromPath is the title of a page whose Markdown has none: its file name (or its directory's
// for a README), as titleOfName has it.
func titleFromPath(p string) string {
	segs := segments(PageKey(&url.URL{Path: "/" + p}))
	if len(segs) == 0 {
		return "Introduction"
	}
	return titleOfName(segs[len(segs)-1])
}

// titleOfName is a file name as a title: dashes and underscores as spaces, the first letter
// upper-case.
func titleOfName(name string) string {
	return capitalized(strings.NewReplacer("-", " ", "_", " ").Replace(name))
}

// contentType is the media type of a file by its extension.
func contentType(p string) string {
	if t, _, err := mime.ParseMediaType(mime.TypeByExtension(path.Ext(p))); err == nil {
		return t
	}
	return "application/octet-stream"
}

// Unzip returns the files of a zip archive, directories left out, within the upload bounds
// (entries and unpacked bytes, checked before and while unpacking).
func Unzip(data []byte) ([]Upload, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("not a zip archive: %v", err)
	}
	var out []Upload
	var total uint64
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		if len(out) == MaxUploadFiles {
			return nil, fmt.Errorf("a zip holds at most %d files", MaxUploadFiles)
		}
		if total += f.UncompressedSize64; total > MaxUploadBytes {
			return nil, fmt.Errorf("the zip unpacks to more than %d bytes", MaxUploadBytes)
		}
		b, err := unzipEntry(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", truncate(f.Name), err)
		}
		out = append(out, Upload{Path: f.Name, Data: b})
	}
	return out, nil
}

// unzipEntry reads one entry, never more than it declares.
func unzipEntry(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	if err != nil {
		return nil, err
	}
	if uint64(len(b)) != f.UncompressedSize64 {
		return nil, fmt.Errorf("unpacks to another size than it declares")
	}
	return b, nil
}
