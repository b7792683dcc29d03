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
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5/memfs"
	"github.com/go-git/go-billy/v5/util"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
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

// Publish commits files, an export laid out under the folder root, onto the remote's branch and
// pushes it: one commit holding the files that differ from the branch's head, and the removal of
// the files of the export's kinds (the root folder's Markdown files, .gitbook/assets) that it no
// longer has; files of other kinds (code, CI configuration) stay. A branch or repository that does
// not exist yet is started. Returns the hash of the branch's head after it, the former head's
// when nothing changed.
//
// parent is the head the branch must have ("" for any): when another commit is there (a push
// since the last sync), nothing is pushed and the error is ErrMoved.
func Publish(ctx context.Context, r Remote, parent, root string, files []File, author Signature, message string) (string, error) {
	repo, err := checkout(ctx, r)
	if err != nil {
		return "", err
	}
	if parent != "" {
		if head, err := repo.Head(); err != nil || head.Hash().String() != parent {
			return "", ErrMoved
		}
	}
	wt, err := repo.Worktree()
	if err != nil {
		return "", err
	}
	if err := writeFiles(wt, root, files); err != nil {
		return "", err
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		return "", err
	}
	status, err := wt.Status()
	if err != nil {
		return "", err
	}
	if status.IsClean() {
		head, err := repo.Head()
		if err != nil {
			return "", err
		}
		return head.Hash().String(), nil
	}
	sig := &object.Signature{Name: author.Name, Email: author.Email, When: author.When}
	hash, err := wt.Commit(message, &git.CommitOptions{Author: sig, Committer: sig})
	if err != nil {
		return "", err
	}
	err = repo.PushContext(ctx, &git.PushOptions{Auth: r.auth(),
		RefSpecs: []config.RefSpec{config.RefSpec(r.branch() + ":" + r.branch())}})
	if err != nil {
		return "", remoteError("push to", r, err)
	}
	return hash.String(), nil
}

// checkout clones the branch's head shallow into memory, or starts an empty repository on the
// branch when the remote has no such branch (or nothing at all).
func checkout(ctx context.Context, r Remote) (*git.Repository, error) {
	if err := checkLocalSize(r.URL); err != nil {
		return nil, err
	}
	repo, err := git.CloneContext(ctx, memory.NewStorage(), memfs.New(), &git.CloneOptions{URL: r.URL, Auth: r.auth(),
		ReferenceName: r.branch(), SingleBranch: true, Depth: 1, Tags: git.NoTags})
	if err == nil {
		return repo, nil
	}
	if !errors.Is(err, transport.ErrEmptyRemoteRepository) && !isMissingRef(err) {
		return nil, remoteError("clone", r, err)
	}
	repo, err = git.Init(memory.NewStorage(), memfs.New())
	if err != nil {
		return nil, err
	}
	if err := repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, r.branch())); err != nil {
		return nil, err
	}
	_, err = repo.CreateRemote(&config.RemoteConfig{Name: git.DefaultRemoteName, URLs: []string{r.URL}})
	return repo, err
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
// writes: .gitbook.yaml, the root folder's Markdown files and assets.
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
	return strings.HasPrefix(rel, format.AssetsDir+"/") ||
		strings.EqualFold(path.Ext(rel), ".md") && !strings.HasPrefix(rel, ".")
}

// writeFiles makes the worktree the export: its files written, the owned files it does not have
// removed.
func writeFiles(wt *git.Worktree, root string, files []File) error {
	keep := map[string]bool{}
	for _, f := range files {
		keep[f.Path] = true
		if err := util.WriteFile(wt.Filesystem, f.Path, f.Data, 0o644); err != nil {
			return err
		}
	}
	return util.Walk(wt.Filesystem, "", func(p string, info fs.FileInfo, err error) error {
		if err != nil || info.IsDir() || keep[p] || !owned(root, p) {
			return err
		}
		_, err = wt.Remove(p)
		return err
	})
}
