// Package edit applies a batch of content changes (the reference client's
// updateChangeRequestContent) to a revision's tree: insert, update, move, revert and delete pages,
// insert files, and insert, update and delete reusable contents (Bindery's operations: the
// reference edits those only in its editor). Changes apply in order; the first invalid one rejects the whole batch with an
// error naming its index, and nothing of the batch is kept.
package edit

import (
	"fmt"
	"strings"
	"time"

	"github.com/binderyhq/bindery/internal/content/tree"
)

// Operations of a change.
const (
	OpInsertPage  = "insert_page"
	OpUpdatePage  = "update_page"
	OpDeletePage  = "delete_page"
	OpRevertPage  = "revert_page"
	OpInsertFiles = "insert_files"

	OpInsertReusable = "insert_reusable_content"
	OpUpdateReusable = "update_reusable_content"
	OpDeleteReusable = "delete_reusable_content"
)

// MaxChanges is the most changes one batch may hold; MaxFiles the most files one insert_files change
// may upload and MaxFileSize the largest file: 20 MiB, whose base64 fits a batch's 32 MiB body
// (decision 252).
const (
	MaxChanges  = 50
	MaxFiles    = 20
	MaxFileSize = 20 << 20
	maxTitle    = 256
	maxSlug     = 100
	maxEmoji    = 50
	maxFileName = 256
)

// Change is one change of a batch. Which fields apply depends on Op.
type Change struct {
	Op   string
	Page string // the page updated, deleted or reverted
	// Reusable is the reusable content updated or deleted: its id, or the ref of one the batch
	// inserted.
	Reusable string
	Ref      string // insert_page: the batch-local name other pages' links may use; insert_reusable_content: the name later changes may use
	// Type is what insert_page inserts: tree.TypeDocument ("" too) or tree.TypeGroup, a page that
	// only groups the pages under it — at the top level, without a document, as GitBook's groups.
	Type string
	// Into is the parent: for insert_page "" means the top level; for update_page IntoSet says
	// whether to move, and Into "" means the top level.
	Into    string
	IntoSet bool
	At      *int // zero-based index among the new siblings; nil appends (or keeps the place)
	Fields  Fields
	Files   []Upload // insert_files
	Version string   // revert_page: the revision to revert to ("" for the change request's base)
}

// Fields are the page properties a change may set; nil leaves one as it is.
type Fields struct {
	Title, Slug, Emoji, Description *string
	Hidden, NoIndex                 *bool
	// Condition is the page's adaptive-content condition; "" removes it.
	Condition *string
	// Markdown is the page's document. Its front matter takes precedence over Title and
	// Description, as in the reference client; its leading heading is the title only when Title
	// is nil (decision 290).
	Markdown *string
	// Body is the page's document as sent in the JSON form, encoded as the Markdown stored: the
	// body as it is, without front matter or a leading title. At most one of Markdown and Body.
	Body *string
}

// Upload is a file to insert, its bytes already decoded.
type Upload struct {
	Ref, Name, ContentType string
	Data                   []byte
}

// Env is what a batch needs from outside.
type Env struct {
	Now   time.Time
	NewID func() string
	// Version returns the tree of a revision of the space for revert_page ("" for the change
	// request's base); an unknown revision is an error whose message is shown as is.
	Version func(id string) (*tree.Tree, error)
}

// Outcome is the result of a valid batch.
type Outcome struct {
	Tree    *tree.Tree
	Changed []string          // keys of the entries that differ from the base tree
	Bodies  map[string]string // new page bodies by hash
	Blobs   []Blob            // bytes of the inserted files
	Pages   []Affected        // pages touched, in the order the batch first touched them
	Files   []*tree.File      // inserted files, in order
	// Reusables are the reusable contents touched, in the order the batch first touched them
	// (kinds created_reusable_content, updated_reusable_content, deleted_reusable_content).
	Reusables []Affected
}

// Blob is the bytes of a new file.
type Blob struct {
	Hash string
	Data []byte
}

// Affected is a page (or reusable content) a batch created, updated or deleted.
type Affected struct {
	Kind string // created_page, updated_page or deleted_page (created_reusable_content, …)
	ID   string
	Ref  string // the insert's ref, if it had one
}

// Error is an invalid change: the batch is rejected. Message starts with the field of the change
// that is wrong ("at: 7 is outside 0..2"); Index is -1 when the batch as a whole is wrong.
type Error struct {
	Index   int
	Message string
}

func (e *Error) Error() string {
	if e.Index < 0 {
		return "changes: " + e.Message
	}
	return fmt.Sprintf("changes[%d].%s", e.Index, e.Message)
}

// Apply applies changes to a copy of base. A returned error is an *Error for invalid input.
func Apply(base *tree.Tree, changes []Change, env Env) (*Outcome, error) {
	if len(changes) == 0 || len(changes) > MaxChanges {
		return nil, &Error{Index: -1, Message: fmt.Sprintf("a batch holds 1 to %d changes, got %d", MaxChanges, len(changes))}
	}
	b := newBatch(base, env)
	for i, c := range changes {
		if err := b.apply(c); err != nil {
			return nil, &Error{Index: i, Message: err.Error()}
		}
	}
	if err := b.writeBodies(); err != nil {
		return nil, err
	}
	return b.outcome(), nil
}

// badf is an invalid-change message.
func badf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// Slugify derives a slug from a title: lower-case letters and digits of any script, other runs
// of characters as one "-".
func Slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if isSlugRune(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
		if b.Len() >= maxSlug-4 { // room for a "-N" suffix
			break
		}
	}
	if b.Len() == 0 {
		return "page"
	}
	return b.String()
}
