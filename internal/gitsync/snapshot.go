package gitsync

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Limits bound what Snapshot reads of a repository.
type Limits struct {
	MaxFiles     int   // files of the branch's head
	MaxFileBytes int64 // one file; a larger one is skipped
	MaxBytes     int64 // all the files read together
}

// DefaultLimits are those of an import: the importer's own bounds.
var DefaultLimits = Limits{MaxFiles: 1000, MaxFileBytes: 16 << 20, MaxBytes: 64 << 20}

// Snapshot is the files of a branch's head.
type Snapshot struct {
	Commit string
	// Follows says that the commit ReadSince was given is the head's or one of its last
	// historyDepth ancestors: the branch moved on from it rather than being force-pushed.
	Follows bool
	Author  Signature
	Message string
	Files   []File
	// Blobs are the hashes of the files read, by path.
	Blobs   map[string]string
	Skipped []string // what was left out and why, one line each
	// Changed are the files that differ from those of the commit ReadSince was given (a removed
	// one with nil data), when it was fetched and every change is a plain file's; nil otherwise.
	Changed []File
}

// Read fetches the head of the remote's branch (shallow, into memory) and reads its files within
// limits. Symbolic links, submodules, files larger than MaxFileBytes and paths that are not
// valid UTF-8 or leave the repository are skipped, each named in Skipped; more files than
// MaxFiles, or more than MaxBytes together, refuse the repository with an error saying so.
func Read(ctx context.Context, r Remote, limits Limits) (*Snapshot, error) {
	return ReadSince(ctx, r, limits, "")
}

// historyDepth is how many commits of a branch ReadSince fetches to find the one it follows.
const historyDepth = 50

// ReadSince reads the head of the remote's branch as Read does and says whether it follows the
// commit since (Snapshot.Follows): since is the head or one of its historyDepth last ancestors,
// so a branch force-pushed (or moved on by more commits than that) does not follow it. "" for
// none: the head alone is fetched.
func ReadSince(ctx context.Context, r Remote, limits Limits, since string) (*Snapshot, error) {
	if err := checkLocalSize(r.URL); err != nil {
		return nil, err
	}
	depth := 1
	if since != "" {
		depth = historyDepth
	}
	repo, err := git.CloneContext(ctx, memory.NewStorage(), nil, &git.CloneOptions{URL: r.URL, Auth: r.auth(),
		ReferenceName: r.branch(), SingleBranch: true, Depth: depth, NoCheckout: true, Tags: git.NoTags})
	if err != nil {
		return nil, remoteError("clone", r, err)
	}
	head, err := repo.Head()
	if err != nil {
		return nil, err
	}
	commit, err := repo.CommitObject(head.Hash())
	if err != nil {
		return nil, err
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Commit: commit.Hash.String(), Message: commit.Message, Follows: since == "" || follows(commit, since),
		Author: Signature{Name: commit.Author.Name, Email: commit.Author.Email, When: commit.Author.When}}
	if err := s.readTree(repo.Storer, tree, limits); err != nil {
		return nil, err
	}
	if since != "" && s.Follows {
		s.Changed = changedSince(repo, since, tree, s.Files)
	}
	return s, nil
}

// changedSince lists the files of head (its tree, its files read) that differ from those of
// commit since, a removed one with nil data; nil when a change is not a plain file's that was
// read (a symbolic link, a file skipped).
func changedSince(repo *git.Repository, since string, head *object.Tree, files []File) []File {
	c, err := repo.CommitObject(plumbing.NewHash(since))
	if err != nil {
		return nil
	}
	was, err := c.Tree()
	if err != nil {
		return nil
	}
	diff, err := object.DiffTree(was, head)
	if err != nil {
		return nil
	}
	read := make(map[string][]byte, len(files))
	for _, f := range files {
		read[f.Path] = f.Data
	}
	out := make([]File, 0, len(diff))
	for _, ch := range diff {
		if ch.To.Name == "" {
			out = append(out, File{Path: ch.From.Name})
			continue
		}
		data, ok := read[ch.To.Name]
		if !ok || !ch.To.TreeEntry.Mode.IsFile() {
			return nil
		}
		out = append(out, File{Path: ch.To.Name, Data: data})
	}
	return out
}

// follows reports whether since is head or one of the ancestors fetched with it.
func follows(head *object.Commit, since string) bool {
	found := false
	iter := object.NewCommitPreorderIter(head, nil, nil)
	_ = iter.ForEach(func(c *object.Commit) error {
		if c.Hash.String() == since {
			found = true
			return storer.ErrStop
		}
		return nil
	})
	return found
}

// maxDepth is how deep folders are read; deeper ones are skipped.
const maxDepth = 32

// reader reads a commit's files within limits.
type reader struct {
	s      *Snapshot
	store  storer.EncodedObjectStorer
	limits Limits
	count  int
	total  int64
}

// readTree reads the files of tree within limits, its folders depth first.
func (s *Snapshot) readTree(store storer.EncodedObjectStorer, tree *object.Tree, limits Limits) error {
	s.Blobs = map[string]string{}
	return (&reader{s: s, store: store, limits: limits}).folder(tree, "", 0)
}

func (r *reader) folder(tree *object.Tree, prefix string, depth int) error {
	for _, entry := range tree.Entries {
		name := prefix + entry.Name
		if why := skipReason(entry.Name, entry.Mode, depth); why != "" {
			r.s.Skipped = append(r.s.Skipped, fmt.Sprintf("%q: %s", strings.ToValidUTF8(name, "\uFFFD"), why))
			continue
		}
		if entry.Mode == filemode.Dir {
			sub, err := object.GetTree(r.store, entry.Hash)
			if err != nil {
				return fmt.Errorf("%q: %w", name, err)
			}
			if err := r.folder(sub, name+"/", depth+1); err != nil {
				return err
			}
			continue
		}
		if err := r.file(name, entry.Hash); err != nil {
			return err
		}
	}
	return nil
}

// file reads one file, or skips it when it is larger than a file may be.
func (r *reader) file(name string, hash plumbing.Hash) error {
	if r.count++; r.count > r.limits.MaxFiles {
		return fmt.Errorf("the repository has more than %d files", r.limits.MaxFiles)
	}
	blob, err := object.GetBlob(r.store, hash)
	if err != nil {
		return fmt.Errorf("%q: %w", name, err)
	}
	if blob.Size > r.limits.MaxFileBytes {
		r.s.Skipped = append(r.s.Skipped, fmt.Sprintf("%q: %d bytes, more than the %d a file may have", name, blob.Size, r.limits.MaxFileBytes))
		return nil
	}
	if r.total += blob.Size; r.total > r.limits.MaxBytes {
		return fmt.Errorf("the repository's files are more than %d bytes together", r.limits.MaxBytes)
	}
	rd, err := blob.Reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	data, err := io.ReadAll(io.LimitReader(rd, blob.Size))
	if err != nil {
		return err
	}
	r.s.Files = append(r.s.Files, File{Path: name, Data: data})
	r.s.Blobs[name] = hash.String()
	return nil
}

// skipReason says why a tree entry (one name of a path) is not read, "" to read it: what git
// itself refuses to check out (".", "..", ".git", control characters), what is not text, what
// is not a file or a folder, and folders deeper than maxDepth.
func skipReason(name string, mode filemode.FileMode, depth int) string {
	switch {
	case mode == filemode.Symlink:
		return "a symbolic link is not followed"
	case mode == filemode.Submodule:
		return "a submodule is not fetched"
	case mode != filemode.Dir && !mode.IsFile():
		return "not a file"
	case !utf8.ValidString(name):
		return "the path is not valid UTF-8"
	case name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\:`):
		return "the path leaves the repository"
	case strings.EqualFold(name, ".git") || strings.ContainsFunc(name, unicode.IsControl):
		return "git refuses the name"
	case mode == filemode.Dir && depth >= maxDepth:
		return fmt.Sprintf("folders deeper than %d are not read", maxDepth)
	}
	return ""
}
