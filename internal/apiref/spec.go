// Package apiref reads one operation of a processed OpenAPI document for a reference page:
// method, path, summary, description, parameters, request body and responses with their schemas
// ($refs resolved, cycles cut), examples and a curl sample. Data in, data out: the stored files
// come in (internal/openapispecs reads them), an Operation goes out (internal/content/htmlpage
// writes it).
//
// A document is not decoded whole: a Spec finds the objects a pointer passes through by scanning
// their bytes (fields), once each, and decodes only the values an operation shows, so one
// operation of GitHub's 13 MB description costs its own size, not the document's. What one
// operation may expand is bounded (maxDepth, maxSchemas, maxText), whatever the document holds.
package apiref

import (
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
)

// Spec is a processed document's files, read on demand. Safe for concurrent use.
type Spec struct {
	entry string
	files map[string][]byte // name → the file as JSON

	mu      sync.Mutex
	objects map[string]map[string][]byte // file + "#" + pointer → the members of the object there
}

// NewSpec reads a version's filesystem (a JSON object of file name → file as JSON) whose entry
// document is named entry; a filesystem of one file has that file as its entry whatever its name.
// ok is false when the filesystem cannot be read.
func NewSpec(filesystem []byte, entry string) (*Spec, bool) {
	files, ok := fields(filesystem)
	if !ok || len(files) == 0 {
		return nil, false
	}
	if _, found := files[entry]; !found {
		if len(files) > 1 {
			return nil, false
		}
		for name := range files {
			entry = name
		}
	}
	return &Spec{entry: entry, files: files, objects: map[string]map[string][]byte{}}, true
}

// Size is the bytes the spec holds, for caches.
func (s *Spec) Size() int {
	n := 0
	for _, f := range s.files {
		n += len(f)
	}
	return n
}

// location is a value of the spec: its file and the bytes there.
type location struct {
	file string
	raw  []byte
}

// at is the value at a JSON pointer (RFC 6901, without its "#") of a file.
func (s *Spec) at(file, pointer string) (location, bool) {
	raw, ok := s.files[file]
	if !ok {
		return location{}, false
	}
	if pointer == "" || pointer == "/" {
		return location{file, raw}, true
	}
	walked := ""
	for _, seg := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		members, ok := s.split(file, walked, raw)
		if !ok {
			return location{}, false
		}
		if raw, ok = members[seg]; !ok {
			return location{}, false
		}
		walked += "/" + seg
	}
	return location{file, raw}, true
}

// split is the members of the object at a pointer of a file, split once and kept: the
// document's large objects (paths, components) are passed through by every operation. An array
// is split by index.
func (s *Spec) split(file, pointer string, raw []byte) (map[string][]byte, bool) {
	key := file + "#" + pointer
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.objects[key]; ok {
		return m, true
	}
	m, ok := fields(raw)
	if !ok {
		items, isArray := elements(raw)
		if !isArray {
			return nil, false
		}
		m = make(map[string][]byte, len(items))
		for i, it := range items {
			m[strconv.Itoa(i)] = it
		}
	}
	s.objects[key] = m
	return m, true
}

// resolve follows a $ref from a value of file: "#/pointer" in the same file, "other.json#/pointer"
// in another file of the filesystem (named relative to file's directory, or by its URL).
func (s *Spec) resolve(file, ref string) (location, bool) {
	target, pointer, _ := strings.Cut(ref, "#")
	if target == "" {
		return s.at(file, pointer)
	}
	if u, err := url.Parse(target); err == nil && !u.IsAbs() {
		if name := path.Join(path.Dir(file), target); s.files[name] != nil {
			return s.at(name, pointer)
		}
	}
	return s.at(target, pointer)
}

// deref follows the $refs of a value until one that is not a reference, at most maxHops of them;
// it returns the value, and the name of the last $ref followed ("" for none).
func (s *Spec) deref(loc location) (location, string, bool) {
	name := ""
	for range maxHops {
		ref := refOf(loc.raw)
		if ref == "" {
			return loc, name, true
		}
		next, ok := s.resolve(loc.file, ref)
		if !ok {
			return loc, ref, false
		}
		loc, name = next, refName(ref)
	}
	return loc, name, false
}

// maxHops bounds the $refs followed from one value to the next that is not one.
const maxHops = 16

// refOf is the $ref of an object, "" when it is not a reference.
func refOf(raw []byte) string {
	m, _ := fields(raw)
	return text(m["$ref"])
}

// refName is the last segment of a $ref, the name of what it points at.
func refName(ref string) string {
	_, pointer, _ := strings.Cut(ref, "#")
	return pointer[strings.LastIndex(pointer, "/")+1:]
}
