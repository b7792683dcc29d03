// Package gitsync mirrors a space's content to a git repository with go-git, in memory and
// without a git binary: Publish commits an export (internal/gitsync/format) onto a branch with
// only the files that changed, Snapshot reads a branch's files back within bounds for the
// importer. Remotes are https URLs; a file:// URL or an absolute path (the server's own disk) only
// when the operator allows local repositories.
package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	gitclient "github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/binderyhq/bindery/internal/gitsync/format"
)

// Remote is a repository's branch a space is synced with.
type Remote struct {
	URL    string
	Branch string
	// Token is sent as the password of HTTP basic authentication, "" for none. It is a secret:
	// never logged, never in an error.
	Token string
}

// ErrRefused is wrapped by the errors of a remote Bindery does not reach.
var ErrRefused = errors.New("the repository URL is refused")

// ErrMoved is returned by Publish when the branch's head is not the commit it was to follow.
var ErrMoved = errors.New("the branch moved since the last sync")

// Head is the hash of the remote branch's head, "" when the branch (or the repository's
// content) does not exist yet. It lists the remote's references only, fetching no object.
func Head(ctx context.Context, r Remote) (string, error) {
	if err := checkLocalSize(r.URL); err != nil {
		return "", err
	}
	remote := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: git.DefaultRemoteName, URLs: []string{r.URL}})
	refs, err := remote.ListContext(ctx, &git.ListOptions{Auth: r.auth()})
	if errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return "", nil
	}
	if err != nil {
		return "", remoteError("list the branches of", r, err)
	}
	for _, ref := range refs {
		if ref.Name() == r.branch() {
			return ref.Hash().String(), nil
		}
	}
	return "", nil
}

// checkLocalSize refuses a local repository (a file:// URL or a path) whose files are more than
// MaxTransfer bytes together: go-git's local transport reads it in this process, outside the
// bound the https client puts on an answer, and a clone is held in memory.
func checkLocalSize(raw string) error {
	dir, ok := localPath(raw)
	if !ok {
		return nil
	}
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if total += info.Size(); total > MaxTransfer {
			return errTooLarge
		}
		return nil
	})
	if errors.Is(err, errTooLarge) {
		return fmt.Errorf("the repository %s is more than %d MiB: Git Sync does not clone it", raw, MaxTransfer>>20)
	}
	return nil // a repository that cannot be read fails with go-git's own error
}

var errTooLarge = errors.New("too large")

// localPath is the directory of a local repository URL; ok is false for a remote one.
func localPath(raw string) (string, bool) {
	if strings.HasPrefix(raw, "/") {
		return raw, true
	}
	if u, err := url.Parse(raw); err == nil && u.Scheme == "file" {
		return u.Path, true
	}
	return "", false
}

// CheckURL refuses a repository URL other than https, and a file:// URL or an absolute path
// unless allowLocal (they read the server's own disk). A URL holding credentials is refused too:
// the token goes apart, sealed.
func CheckURL(raw string, allowLocal bool) error {
	if strings.HasPrefix(raw, "/") {
		if !allowLocal {
			return fmt.Errorf("%w: a local path needs --git-allow-local", ErrRefused)
		}
		return nil
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("%w: not a URL", ErrRefused)
	case u.User != nil:
		return fmt.Errorf("%w: credentials go in the token, not the URL", ErrRefused)
	case u.Scheme == "file" && allowLocal:
		return nil
	case u.Scheme == "file":
		return fmt.Errorf("%w: a file:// URL needs --git-allow-local", ErrRefused)
	case u.Scheme != "https" || u.Hostname() == "":
		return fmt.Errorf("%w: only https URLs are synced", ErrRefused)
	}
	return nil
}

// CheckBranch refuses a branch name git would not take.
func CheckBranch(branch string) error {
	if branch == "" || !plumbing.NewBranchReferenceName(branch).IsBranch() || plumbing.ReferenceName("refs/heads/"+branch).Validate() != nil {
		return fmt.Errorf("%q is not a branch name", branch)
	}
	return nil
}

func (r Remote) auth() transport.AuthMethod {
	if r.Token == "" {
		return nil
	}
	return &githttp.BasicAuth{Username: "x-access-token", Password: r.Token}
}

func (r Remote) branch() plumbing.ReferenceName { return plumbing.NewBranchReferenceName(r.Branch) }

// Bounds of the https transfers of a sync: a fetch or push answer larger than MaxTransfer (a
// repository of a gigabyte) fails with the fetch client's "too large" error rather than filling
// the memory it is cloned into.
const (
	HTTPTimeout = 2 * time.Minute
	MaxTransfer = 256 << 20
)

// UseHTTPClient makes go-git's https transport send through c, the server's SSRF-guarded client
// (fetch.Client.HTTP). go-git keeps its transports per process, so this is the process's one
// setting, made when the server is built.
func UseHTTPClient(c *http.Client) {
	gitclient.InstallProtocol("https", githttp.NewClient(c))
}

// Signature is a commit's author or committer.
type Signature struct {
	Name, Email string
	When        time.Time
}

// File is a file to commit.
type File struct {
	Path string
	Data []byte
}

// Changes is what a commit does to the files of the branch's head.
type Changes struct {
	Files   []File   // written
	Removed []string // removed (those the head lacks are skipped)
	// Whole says Files are a whole export: the files of the export's kinds (the root folder's
	// Markdown files, .gitbook/assets, .gitbook/includes, .gitbook.yaml) that it lacks are removed too; files of other
	// kinds (code, CI configuration) stay.
	Whole bool
}

// Publish commits a whole export laid out under the folder root onto the remote's branch and
// pushes it (Commit with Changes.Whole).
func Publish(ctx context.Context, r Remote, parent, root string, files []File, author Signature, message string) (string, error) {
	whole := func(func(string) bool) (Changes, error) { return Changes{Files: files, Whole: true}, nil }
	c, err := Commit(ctx, r, parent, root, whole, author, message)
	return c.Hash, err
}

// Pushed is the branch's head after a Commit.
type Pushed struct {
	Hash string
	// Blobs are the hashes of the head's files by path from the top of the repository.
	Blobs map[string]string
}

// Plan says what a commit changes, given which files the branch's head has.
type Plan func(has func(path string) bool) (Changes, error)

// Commit makes one commit of the changes plan says onto the remote's branch and pushes it: the head's tree
// with the blobs of the files that differ written and the removed files left out, no worktree
// checked out. A branch or repository that does not exist yet is started. Returns the hash of
// the branch's head after it, the former head's when nothing changed.
//
// parent is the head the branch must have ("" for any): when another commit is there (a push
// since the last sync), nothing is pushed and the error is ErrMoved.
func Commit(ctx context.Context, r Remote, parent, root string, plan Plan, author Signature, message string) (Pushed, error) {
	repo, head, err := fetchHead(ctx, r)
	if err != nil {
		return Pushed{}, err
	}
	if parent != "" && (head == nil || head.Hash.String() != parent) {
		return Pushed{}, ErrMoved
	}
	var base *object.Tree
	if head != nil {
		if base, err = head.Tree(); err != nil {
			return Pushed{}, err
		}
	}
	ch, err := plan(func(p string) bool { return base != nil && hasFile(base, p) })
	if err != nil {
		return Pushed{}, err
	}
	edits, err := blobEdits(repo.Storer, base, root, ch)
	if err != nil {
		return Pushed{}, err
	}
	hash, _, err := editTree(repo.Storer, base, edits)
	if err != nil {
		return Pushed{}, err
	}
	blobs, err := treeBlobs(repo.Storer, hash)
	if err != nil {
		return Pushed{}, err
	}
	if head != nil && hash == head.TreeHash {
		return Pushed{Hash: head.Hash.String(), Blobs: blobs}, nil
	}
	sig := object.Signature{Name: author.Name, Email: author.Email, When: author.When}
	c := &object.Commit{Author: sig, Committer: sig, Message: message, TreeHash: hash}
	if head != nil {
		c.ParentHashes = []plumbing.Hash{head.Hash}
	}
	commit, err := store(repo.Storer, c)
	if err != nil {
		return Pushed{}, err
	}
	if err := repo.Storer.SetReference(plumbing.NewHashReference(r.branch(), commit)); err != nil {
		return Pushed{}, err
	}
	err = repo.PushContext(ctx, &git.PushOptions{Auth: r.auth(),
		RefSpecs: []config.RefSpec{config.RefSpec(r.branch() + ":" + r.branch())}})
	if err != nil {
		return Pushed{}, remoteError("push to", r, err)
	}
	return Pushed{Hash: commit.String(), Blobs: blobs}, nil
}

// treeBlobs are the hashes of the files of tree h by path, read from its tree objects (no blob
// is read).
func treeBlobs(s storer.EncodedObjectStorer, h plumbing.Hash) (map[string]string, error) {
	t, err := object.GetTree(s, h)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if e.Mode.IsFile() {
			out[name] = e.Hash.String()
		}
	}
}

// hasFile reports whether the tree has a file at p.
func hasFile(t *object.Tree, p string) bool {
	e, err := t.FindEntry(p)
	return err == nil && e.Mode.IsFile()
}

// encoder is a git object that writes itself.
type encoder interface {
	Encode(plumbing.EncodedObject) error
}

// store writes a git object to s: its hash.
func store(s storer.EncodedObjectStorer, o encoder) (plumbing.Hash, error) {
	obj := s.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.SetEncodedObject(obj)
}

// storeBlob writes data as a blob to s: its hash.
func storeBlob(s storer.EncodedObjectStorer, data []byte) (plumbing.Hash, error) {
	obj := s.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.SetEncodedObject(obj)
}

// blobEdits writes the blobs of changes' files and says what becomes of each path: its blob,
// or the zero hash for a removal. A whole export removes the owned files of base it lacks.
func blobEdits(s storer.EncodedObjectStorer, base *object.Tree, root string, ch Changes) (map[string]plumbing.Hash, error) {
	edits := make(map[string]plumbing.Hash, len(ch.Files)+len(ch.Removed))
	for _, p := range ch.Removed {
		edits[p] = plumbing.ZeroHash
	}
	if ch.Whole && base != nil {
		err := base.Files().ForEach(func(f *object.File) error {
			if owned(root, f.Name) {
				edits[f.Name] = plumbing.ZeroHash
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for _, f := range ch.Files {
		h, err := storeBlob(s, f.Data)
		if err != nil {
			return nil, err
		}
		edits[f.Path] = h
	}
	return edits, nil
}

// editTree writes the tree that is base (nil for none) with edits made (a path under it → its
// blob, the zero hash to remove it), the folders edits leave empty left out. Returns its hash
// and whether it is empty.
func editTree(s storer.EncodedObjectStorer, base *object.Tree, edits map[string]plumbing.Hash) (plumbing.Hash, bool, error) {
	entries := map[string]object.TreeEntry{}
	if base != nil {
		for _, e := range base.Entries {
			entries[e.Name] = e
		}
	}
	folders := map[string]map[string]plumbing.Hash{}
	for p, h := range edits {
		name, rest, nested := strings.Cut(p, "/")
		switch {
		case nested && folders[name] == nil:
			folders[name] = map[string]plumbing.Hash{rest: h}
		case nested:
			folders[name][rest] = h
		case h.IsZero():
			delete(entries, name)
		default:
			entries[name] = object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h}
		}
	}
	for name, sub := range folders {
		var was *object.Tree
		if e, ok := entries[name]; ok && e.Mode == filemode.Dir {
			var err error
			if was, err = object.GetTree(s, e.Hash); err != nil {
				return plumbing.ZeroHash, false, err
			}
		}
		h, empty, err := editTree(s, was, sub)
		switch {
		case err != nil:
			return plumbing.ZeroHash, false, err
		case empty:
			delete(entries, name)
		default:
			entries[name] = object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h}
		}
	}
	list := slices.SortedFunc(maps.Values(entries), func(a, b object.TreeEntry) int {
		return strings.Compare(sortName(a), sortName(b))
	})
	h, err := store(s, &object.Tree{Entries: list})
	return h, len(list) == 0, err
}

// sortName is what git orders a tree's entries by: a folder's name as if it ended in "/".
func sortName(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// fetchHead clones the head of the branch shallow into memory, without a worktree: the
// repository and the head's commit, nil when the remote has no such branch (or nothing at all),
// the repository then new, its remote the remote.
func fetchHead(ctx context.Context, r Remote) (*git.Repository, *object.Commit, error) {
	if err := checkLocalSize(r.URL); err != nil {
		return nil, nil, err
	}
	repo, err := git.CloneContext(ctx, memory.NewStorage(), nil, &git.CloneOptions{URL: r.URL, Auth: r.auth(),
		ReferenceName: r.branch(), SingleBranch: true, Depth: 1, NoCheckout: true, Tags: git.NoTags})
	if err == nil {
		ref, err := repo.Reference(r.branch(), true)
		if err != nil {
			return nil, nil, err
		}
		head, err := repo.CommitObject(ref.Hash())
		return repo, head, err
	}
	if !errors.Is(err, transport.ErrEmptyRemoteRepository) && !isMissingRef(err) {
		return nil, nil, remoteError("clone", r, err)
	}
	repo, err = git.Init(memory.NewStorage(), nil)
	if err != nil {
		return nil, nil, err
	}
	_, err = repo.CreateRemote(&config.RemoteConfig{Name: git.DefaultRemoteName, URLs: []string{r.URL}})
	return repo, nil, err
}

func isMissingRef(err error) bool {
	var noMatch git.NoMatchingRefSpecError
	return errors.As(err, &noMatch) || errors.Is(err, plumbing.ErrReferenceNotFound) ||
		strings.Contains(err.Error(), "couldn't find remote ref")
}

// remoteError says what failed with the repository, naming its URL but never the token.
func remoteError(what string, r Remote, err error) error {
	msg := err.Error()
	if r.Token != "" {
		msg = strings.ReplaceAll(msg, r.Token, "***")
	}
	return fmt.Errorf("could not %s %s: %s", what, r.URL, msg)
}

// owned reports whether a path of the repository is of the kinds an export of the root folder
// writes: .gitbook.yaml, the root folder's Markdown files, assets and reusable contents.
func owned(root, p string) bool {
	if p == format.Config {
		return true
	}
	rel := p
	if root != "" {
		var ok bool
		if rel, ok = strings.CutPrefix(p, root+"/"); !ok {
			return false
		}
	}
	return strings.HasPrefix(rel, format.AssetsDir+"/") || strings.HasPrefix(rel, format.IncludesDir+"/") ||
		strings.EqualFold(path.Ext(rel), ".md") && !strings.HasPrefix(rel, ".")
}
