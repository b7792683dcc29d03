package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/binderyhq/bindery/internal/content/importer"
	"github.com/binderyhq/bindery/internal/server"
)

// importFlags are the flags of `bindery import`: the server it asks and what it imports into.
type importFlags struct {
	server, token        string
	space, changeRequest string
	timeout              time.Duration
}

// importCmd uploads a folder of Markdown to a running server's import endpoint (POST
// /v1/spaces/{id}/content/import, source markdown), so the import goes through the API's one
// authorization path and its one importer. Each file is checked first by the importer's own
// rules, with a line per file; when any fails nothing is sent (decision 295).
func importCmd(ctx context.Context, args []string) error {
	fl, dir, err := parseImport(args)
	if err != nil {
		return err
	}
	files, err := readFolder(dir)
	if err != nil {
		return err
	}
	body, err := importRequest(files)
	if err != nil {
		return err
	}
	answer, err := fl.post(ctx, body)
	if err != nil {
		return err
	}
	printReport(answer)
	fmt.Fprintf(stderr, "imported %d of the %d pages and files met (files no page links to are left out) into space %s: revision %s\n",
		answer.ImportedResources, answer.TotalResources, fl.space, answer.Revision)
	return printJSON(answer)
}

// printReport prints what the server read the folder as, then a line per conversion and warning
// of each file, under the file's path.
func printReport(answer importAnswer) {
	fmt.Fprintf(stderr, "read as %s\n", answer.Dialect)
	for _, f := range answer.Report {
		if len(f.Converted) == 0 && len(f.Warnings) == 0 {
			continue
		}
		fmt.Fprintf(stderr, "%s (%s)\n", f.Path, f.Result)
		for _, c := range f.Converted {
			fmt.Fprintf(stderr, "  converted  %s\n", c)
		}
		for _, w := range f.Warnings {
			fmt.Fprintf(stderr, "  warning    %s\n", w)
		}
	}
}

// parseImport reads the flags and the folder, which may come before or after them.
func parseImport(args []string) (importFlags, string, error) {
	flags := flag.NewFlagSet("import", flag.ContinueOnError)
	var fl importFlags
	flags.StringVar(&fl.server, "server", envOr("BINDERY_SERVER", "http://"+dialable(envOr("BINDERY_ADDR", "127.0.0.1:8080"))),
		"URL of the running server (env BINDERY_SERVER; default from BINDERY_ADDR)")
	flags.StringVar(&fl.token, "token", envOr("BINDERY_TOKEN", ""), "API token (env BINDERY_TOKEN)")
	flags.StringVar(&fl.space, "space", "", "id of the space to import into")
	flags.StringVar(&fl.changeRequest, "change-request", "", "id of a change request of the space to import into, instead of its main content")
	flags.DurationVar(&fl.timeout, "timeout", 2*time.Minute, "how long to wait for the server's answer")
	if err := flags.Parse(args); err != nil {
		return fl, "", err
	}
	dir := flags.Arg(0)
	if dir == "" {
		return fl, "", errors.New("import: name the folder to import, e.g. bindery import --space ID ./docs")
	}
	// Flags after the folder, as in `bindery import ./docs --space ID`.
	if err := parse(flags, flags.Args()[1:], "space", "token"); err != nil {
		return fl, "", err
	}
	return fl, dir, nil
}

// readFolder reads the files under dir that an upload imports, printing a line for each: the
// pages and files sent, the hidden ones skipped, and the refused ones with the reason. It fails,
// naming how many, when any file is refused, and stops reading when the folder holds more than an
// upload may.
func readFolder(dir string) ([]importer.Upload, error) {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("import: %s is not a folder", dir)
	}
	var files []importer.Upload
	var failed, total int
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case importer.Skipped(rel):
			fmt.Fprintf(stderr, "skip  %s (hidden)\n", rel)
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			fmt.Fprintf(stderr, "skip  %s (not a regular file)\n", rel)
			return nil
		}
		f, err := readUpload(path, rel)
		if err != nil {
			failed++
			fmt.Fprintf(stderr, "FAIL  %v\n", err)
			return nil
		}
		files, total = append(files, f), total+len(f.Data)
		fmt.Fprintf(stderr, "%s  %s (%d bytes)\n", importer.Role(rel), rel, len(f.Data))
		return overBounds(len(files)+failed, total)
	})
	switch {
	case err != nil:
		return nil, fmt.Errorf("import: %w; nothing was imported", err)
	case failed > 0:
		return nil, fmt.Errorf("import: %d of the %d files cannot be imported (above); nothing was imported", failed, failed+len(files))
	case len(files) == 0:
		return nil, fmt.Errorf("import: %s holds no file to import", dir)
	}
	return files, nil
}

// overBounds says when the files read so far are more than an upload may hold.
func overBounds(count, bytes int) error {
	switch {
	case count > importer.MaxUploadFiles:
		return fmt.Errorf("more than the %d files an import may hold", importer.MaxUploadFiles)
	case bytes > importer.MaxUploadBytes:
		return fmt.Errorf("the files have more than the %d bytes an import may hold together", importer.MaxUploadBytes)
	}
	return nil
}

// readUpload reads one file (never more than an upload may hold) and checks it as the importer
// will.
func readUpload(path, rel string) (importer.Upload, error) {
	f, err := os.Open(path)
	if err != nil {
		return importer.Upload{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, importer.MaxUploadBytes+1))
	if err != nil {
		return importer.Upload{}, fmt.Errorf("%s: %w", rel, err)
	}
	if len(data) > importer.MaxUploadBytes {
		return importer.Upload{}, fmt.Errorf("%s: is more than the %d bytes an import may hold", rel, importer.MaxUploadBytes)
	}
	u := importer.Upload{Path: rel, Data: data}
	return u, importer.CheckFile(u)
}

// importRequest is the import's JSON body, refused when it is over the server's upload body limit.
func importRequest(files []importer.Upload) ([]byte, error) {
	type file struct {
		Path   string `json:"path"`
		Base64 string `json:"base64"`
	}
	in := struct {
		Source string `json:"source"`
		Files  []file `json:"files"`
	}{Source: "markdown"}
	for _, f := range files {
		in.Files = append(in.Files, file{Path: f.Path, Base64: base64.StdEncoding.EncodeToString(f.Data)})
	}
	body, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	if limit := server.Defaults("").MaxUploadBody; int64(len(body)) > limit {
		return nil, fmt.Errorf("import: the files make a request of %d bytes (in base64), more than the %d the server takes; import the folder in parts; nothing was imported",
			len(body), limit)
	}
	return body, nil
}

// maxAnswer bounds the answer read: its report has a line or a few per uploaded file.
const maxAnswer = 64 << 20

// importAnswer is the server's answer to an import.
type importAnswer struct {
	Revision          string `json:"revision"`
	ImportedResources int    `json:"importedResources"`
	TotalResources    int    `json:"totalResources"`
	Dialect           string `json:"dialect"`
	Report            []struct {
		Path      string   `json:"path"`
		Result    string   `json:"result"`
		Converted []string `json:"converted"`
		Warnings  []string `json:"warnings"`
	} `json:"report"`
}

// post sends the import and decodes the answer, or returns the server's error message.
func (fl importFlags) post(ctx context.Context, body []byte) (importAnswer, error) {
	var answer importAnswer
	path := "/v1/spaces/" + url.PathEscape(fl.space)
	if fl.changeRequest != "" {
		path += "/change-requests/" + url.PathEscape(fl.changeRequest)
	}
	endpoint := strings.TrimRight(fl.server, "/") + path + "/content/import"
	ctx, cancel := context.WithTimeout(ctx, fl.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return answer, fmt.Errorf("import: --server: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+fl.token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer, fmt.Errorf("import: no answer from the server at %s (is it running? see --server): %w", fl.server, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		return answer, fmt.Errorf("import: reading the answer: %w", err)
	}
	if res.StatusCode != http.StatusCreated {
		return answer, fmt.Errorf("import: the server answered %s: %s; nothing was imported", res.Status, errorMessage(data))
	}
	if err := json.Unmarshal(data, &answer); err != nil {
		return answer, fmt.Errorf("import: the answer is not an import's: %w", err)
	}
	return answer, nil
}

// errorMessage is the message of an API error body, else the body itself (shortened).
func errorMessage(body []byte) string {
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
