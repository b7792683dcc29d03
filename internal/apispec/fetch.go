package apispec

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// pkgSpec is the npm package spec the reference document comes from.
const pkgSpec = "@gitbook/api@" + Version

// pkgDir is the cache subdirectory the package is unpacked into.
const pkgDir = "gitbook-api-" + Version

// specRel is the document's path inside pkgDir.
var specRel = filepath.Join("package", "spec", "openapi.json")

// ensureSpecFile returns the path of the cached openapi.json, fetching the
// package with npm when it is missing.
func ensureSpecFile() (string, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, pkgDir)
	file := filepath.Join(dir, specRel)
	if fileExists(file) {
		return file, nil
	}
	if err := fetchLocked(cache, dir, file); err != nil {
		return "", fmt.Errorf("%w\n%s", err, fetchHint(cache))
	}
	return file, nil
}

// fetchHint tells a developer how to provide the spec by hand.
func fetchHint(cache string) string {
	dst := filepath.Join(cache, pkgDir)
	return fmt.Sprintf("the reference spec %s is fetched with npm; install Node.js/npm and network access, or run:\n"+
		"  mkdir -p %[2]s && npm pack %[1]s --pack-destination %[2]s && tar -xzf %[2]s/gitbook-api-%[3]s.tgz -C %[2]s\n"+
		"(set BINDERY_CACHE to use another cache directory)", pkgSpec, dst, Version)
}

// CacheDir returns where tests keep what they fetch (the reference document, the browser driver):
// $BINDERY_CACHE, or <repo root>/.cache.
func CacheDir() (string, error) {
	if dir := os.Getenv("BINDERY_CACHE"); dir != "" {
		return filepath.Abs(dir)
	}
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, ".cache"), nil
}

// repoRoot walks up from the working directory to the one holding go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if fileExists(filepath.Join(dir, "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory; set BINDERY_CACHE")
		}
		dir = parent
	}
}

// fetchLocked fetches the package under an exclusive lock on the cache, so
// concurrent test binaries download it once.
func fetchLocked(cache, dir, file string) error {
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	unlock, err := lockFile(filepath.Join(cache, pkgDir+".lock"))
	if err != nil {
		return err
	}
	defer unlock()
	if fileExists(file) { // another process won the race
		return nil
	}
	return fetch(cache, dir, file)
}

// fetch downloads and unpacks the package into a temporary directory in the
// cache, then renames it to dir atomically.
func fetch(cache, dir, file string) error {
	tmp, err := os.MkdirTemp(cache, "."+pkgDir+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	tgz, err := npmPack(tmp)
	if err != nil {
		return err
	}
	if err := extractTarGz(tgz, tmp); err != nil {
		return fmt.Errorf("extract %s: %w", tgz, err)
	}
	if !fileExists(filepath.Join(tmp, specRel)) {
		return fmt.Errorf("%s has no %s", tgz, filepath.ToSlash(specRel))
	}
	return install(tmp, dir, file)
}

// install renames the unpacked tmp directory to dir, replacing a stale
// partial dir and tolerating a concurrent winner.
func install(tmp, dir, file string) error {
	if fileExists(file) {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil && !fileExists(file) {
		return err
	}
	return nil
}

// npmPack runs `npm pack` into dst and returns the path of the tarball.
func npmPack(dst string) (string, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("npm not found: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "pack", pkgSpec, "--pack-destination", dst)
	cmd.Dir = dst
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm pack %s: %w\n%s", pkgSpec, err, strings.TrimSpace(string(out)))
	}
	matches, err := filepath.Glob(filepath.Join(dst, "*.tgz"))
	if err != nil || len(matches) != 1 {
		return "", fmt.Errorf("npm pack %s: expected one .tgz in %s, found %d", pkgSpec, dst, len(matches))
	}
	return matches[0], nil
}

// extractTarGz unpacks regular files and directories of a .tgz into dst,
// rejecting entries that would escape it.
func extractTarGz(tgz, dst string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := extractEntry(tr, hdr, dst); err != nil {
			return err
		}
	}
}

// extractEntry writes one tar entry below dst; other entry types are skipped.
func extractEntry(tr *tar.Reader, hdr *tar.Header, dst string) error {
	name := filepath.FromSlash(hdr.Name)
	if !filepath.IsLocal(name) {
		return fmt.Errorf("unsafe path %q in archive", hdr.Name)
	}
	target := filepath.Join(dst, name)
	switch hdr.Typeflag {
	case tar.TypeDir:
		return os.MkdirAll(target, 0o755)
	case tar.TypeReg:
		return writeFile(target, tr)
	default:
		return nil
	}
}

// writeFile creates path (and its parents) with the contents of r.
func writeFile(path string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// fileExists reports whether path exists and is a regular file.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
