package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/comment"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// commentFixture is a space whose content has one page, and change request #2 that adds a second
// page; a commenter and a reader of the organization.
type commentFixture struct {
	*crFixture
	page, crPage      string
	commenter, reader testenv.Actor
}

func newCommentFixture(t *testing.T, opts ...func(*server.Options)) *commentFixture {
	t.Helper()
	f := &commentFixture{crFixture: newCRFixture(t, opts...)}
	f.create(t, f.admin, "Intro")
	f.page = createdID(t, f.edit(t, f.admin, "1", insert("Intro", "Hello.\n\n## Setup\n\nSteps.\n")), 0)
	crWant(t, f.merge(t, f.admin, "1"), http.StatusOK)
	f.create(t, f.admin, "More")
	f.crPage = createdID(t, f.edit(t, f.admin, "2", insert("More", "More.\n\n## Usage\n\nRun it.\n")), 0)
	f.commenter = f.e.User("cole@example.com", f.org, testenv.Role(viewer.RoleComment))
	f.reader = f.e.User("rea@example.com", f.org, testenv.Role(viewer.RoleRead))
	return f
}

// commentTable is one of the two comment tables: the space's own, or change request #2's.
type commentTable struct {
	name, base string
	page       string // a page of its content
	node       string // the anchor of a heading of that page
	counter    string // the object whose `comments` counts its open comments
	crRef      *string
}

func (f *commentFixture) tables() []commentTable {
	two := "2"
	return []commentTable{
		{"Space", "/v1/spaces/" + f.space + "/comments", f.page, "setup", "/v1/spaces/" + f.space, nil},
		{"ChangeRequest", f.path("/2/comments"), f.crPage, "usage", f.path("/2"), &two},
	}
}

// openCount is the counter of a table's open comments.
func (f *commentFixture) openCount(t *testing.T, tb commentTable) int {
	t.Helper()
	return int(f.e.Do(f.admin, "GET", tb.counter, nil).Map(t)["comments"].(float64))
}

func (f *commentFixture) wantOpen(t *testing.T, tb commentTable, want int) {
	t.Helper()
	if got := f.openCount(t, tb); got != want {
		t.Fatalf("%s counts %d open comments, want %d", tb.name, got, want)
	}
}

// send sends a request as a, wants the status and returns the answer's object (nil without body).
func (f *commentFixture) send(t *testing.T, a testenv.Actor, method, path string, body any, status int) map[string]any {
	t.Helper()
	r := f.e.Do(a, method, path, body)
	crWant(t, r, status)
	if len(r.Body) == 0 {
		return nil
	}
	return r.Map(t)
}

func md(s string) map[string]any { return map[string]any{"markdown": s} }

// reactionSummary writes a reactions list as "emoji:count(user ids…)" entries.
func reactionSummary(v any) string {
	var out []string
	for _, r := range v.([]any) {
		e := r.(map[string]any)
		var users []string
		for _, u := range e["users"].([]any) {
			users = append(users, u.(map[string]any)["user"].(map[string]any)["id"].(string))
		}
		out = append(out, fmt.Sprintf("%s:%v(%s)", e["emoji"], e["count"], strings.Join(users, ",")))
	}
	return strings.Join(out, " ")
}

// TestCommentLifecycle: on both tables, a comment on a page is posted, replied to, reacted to,
// resolved, reopened, edited, outdated by a change of its page, and deleted with its replies; the
// open comment counter follows every step.
func TestCommentLifecycle(t *testing.T) {
	f := newCommentFixture(t)
	admin, cole := f.admin, f.commenter
	for _, tb := range f.tables() {
		t.Run(tb.name, func(t *testing.T) {
			c := f.send(t, admin, "POST", tb.base, map[string]any{"body": md("Is this *right*?"), "page": tb.page, "node": tb.node}, http.StatusOK)
			id, path := c["id"].(string), tb.base+"/"+c["id"].(string)
			target := c["target"].(map[string]any)
			page := target["page"].(map[string]any)
			if c["object"] != "comment" || c["status"] != "open" || c["body"].(map[string]any)["markdown"] != "Is this *right*?" ||
				c["replies"] != 0.0 || target["space"] != f.space || target["revision"] == "" ||
				target["node"].(map[string]any)["id"] != tb.node || page["id"] != tb.page || page["outdated"] != false ||
				page["title"] == "" || page["path"] == "" || !strings.HasSuffix(c["urls"].(map[string]any)["location"].(string), id) {
				t.Fatalf("posted: %v", c)
			}
			if (target["changeRequest"] != nil) != (tb.crRef != nil) {
				t.Fatalf("target.changeRequest = %v", target["changeRequest"])
			}
			if perms := c["permissions"].(map[string]any); perms["edit"] != true || perms["delete"] != true || perms["reply"] != true {
				t.Fatalf("the author's permissions: %v", perms)
			}
			f.wantOpen(t, tb, 1)

			reply := f.send(t, cole, "POST", path+"/replies", map[string]any{"body": md("Yes.")}, http.StatusOK)
			replyPath := path + "/replies/" + reply["id"].(string)
			if reply["object"] != "comment-reply" ||
				!strings.HasSuffix(reply["urls"].(map[string]any)["location"].(string), "/comments/"+id+"/replies/"+reply["id"].(string)) {
				t.Fatalf("reply: %v", reply)
			}
			f.send(t, admin, "POST", path+"/replies", map[string]any{"body": md("Thanks.")}, http.StatusOK)
			f.send(t, cole, "POST", path+"/replies", map[string]any{"body": md("Welcome.")}, http.StatusOK)

			t.Run("Reactions", func(t *testing.T) {
				f.send(t, cole, "PUT", path, map[string]any{"addedReactions": []string{"👍"}}, http.StatusOK)
				f.send(t, admin, "PUT", path, map[string]any{"addedReactions": []string{"🎉", "👍"}}, http.StatusOK)
				got := f.send(t, cole, "PUT", path, map[string]any{"addedReactions": []string{"👍", " 👍 "}}, http.StatusOK) // idempotent
				want := fmt.Sprintf("👍:2(%s,%s) 🎉:1(%s)", cole.UserID, admin.UserID, admin.UserID)
				if s := reactionSummary(got["reactions"]); s != want {
					t.Fatalf("reactions %s, want %s", s, want)
				}
				got = f.send(t, admin, "PUT", path, map[string]any{"removedReactions": []string{"👍", "👀"}}, http.StatusOK)
				if s := reactionSummary(got["reactions"]); s != fmt.Sprintf("👍:1(%s) 🎉:1(%s)", cole.UserID, admin.UserID) {
					t.Fatalf("after a removal: %s", s)
				}
				r := f.send(t, admin, "PUT", replyPath, map[string]any{"addedReactions": []string{"❤️"}}, http.StatusOK)
				if s := reactionSummary(r["reactions"]); s != "❤️:1("+admin.UserID+")" {
					t.Fatalf("reply reactions: %s", s)
				}
			})

			t.Run("ResolveAndReopen", func(t *testing.T) {
				got := f.send(t, cole, "PUT", path, map[string]any{"resolved": true}, http.StatusOK)
				if got["status"] != "resolved" || got["resolvedBy"].(map[string]any)["id"] != cole.UserID || got["resolvedAt"] == nil {
					t.Fatalf("resolved: %v", got)
				}
				f.wantOpen(t, tb, 0)
				again := f.send(t, admin, "PUT", path, map[string]any{"resolved": true}, http.StatusOK)
				if again["resolvedAt"] != got["resolvedAt"] || again["resolvedBy"].(map[string]any)["id"] != cole.UserID {
					t.Fatalf("resolving twice changed the resolution: %v", again)
				}
				f.wantOpen(t, tb, 0)
				open := f.send(t, cole, "PUT", path, map[string]any{"resolved": false}, http.StatusOK)
				if _, has := open["resolvedAt"]; open["status"] != "open" || has {
					t.Fatalf("reopened: %v", open)
				}
				f.wantOpen(t, tb, 1)
			})

			t.Run("Edit", func(t *testing.T) {
				crWantError(t, f.e.Do(cole, "PUT", path, map[string]any{"body": md("Hijacked")}), http.StatusForbidden, "author")
				crWantError(t, f.e.Do(admin, "PUT", replyPath, map[string]any{"body": md("Hijacked")}), http.StatusForbidden, "author")
				got := f.send(t, admin, "PUT", path, map[string]any{"body": md("Is this right?")}, http.StatusOK)
				if got["body"].(map[string]any)["markdown"] != "Is this right?" || got["editedAt"] == nil {
					t.Fatalf("edited: %v", got)
				}
				r := f.send(t, cole, "PUT", replyPath, map[string]any{"body": md("Yes!")}, http.StatusOK)
				if r["body"].(map[string]any)["markdown"] != "Yes!" || r["editedAt"] == nil {
					t.Fatalf("edited reply: %v", r)
				}
			})

			t.Run("Read", func(t *testing.T) {
				got := f.send(t, f.reader, "GET", path+"?format=markdown", nil, http.StatusOK)
				if got["replies"] != 3.0 || len(got["repliers"].([]any)) != 2 {
					t.Fatalf("replies %v, repliers %v", got["replies"], got["repliers"])
				}
				first := got["repliers"].([]any)[0].(map[string]any) // the latest replier first
				if first["user"].(map[string]any)["id"] != cole.UserID || first["count"] != 2.0 {
					t.Fatalf("repliers: %v", got["repliers"])
				}
				if perms := got["permissions"].(map[string]any); perms["view"] != true || perms["edit"] != false || perms["reply"] != false {
					t.Fatalf("a reader's permissions: %v", perms)
				}
				l := f.send(t, f.reader, "GET", path+"/replies?limit=2", nil, http.StatusOK)
				if l["count"] != 3.0 || len(l["items"].([]any)) != 2 || l["next"] == nil {
					t.Fatalf("replies list: %v", l)
				}
				rest := f.send(t, f.reader, "GET", path+"/replies?page="+l["next"].(map[string]any)["page"].(string), nil, http.StatusOK)
				if items := rest["items"].([]any); len(items) != 1 || items[0].(map[string]any)["body"].(map[string]any)["markdown"] != "Welcome." {
					t.Fatalf("second page of replies: %v", rest)
				}
			})

			t.Run("Outdated", func(t *testing.T) {
				ref := "2"
				if tb.crRef == nil { // the space's page changes through change request #3
					ref = fmt.Sprint(f.create(t, admin, "Rewrite")["number"])
				}
				f.edit(t, admin, ref, updateBody(tb.page, "Hello, world.\n"))
				if tb.crRef == nil {
					crWant(t, f.merge(t, admin, ref), http.StatusOK)
				}
				got := f.send(t, admin, "GET", path, nil, http.StatusOK)
				if p := got["target"].(map[string]any)["page"].(map[string]any); p["outdated"] != true || p["id"] != tb.page {
					t.Fatalf("after its page changed: %v", p)
				}
			})

			t.Run("Delete", func(t *testing.T) {
				crWantError(t, f.e.Do(cole, "DELETE", path, nil), http.StatusForbidden, "admin")
				f.send(t, admin, "DELETE", replyPath, nil, http.StatusResetContent) // an admin deletes anyone's reply
				f.send(t, admin, "DELETE", replyPath, nil, http.StatusNoContent)    // gone already
				if got := f.send(t, admin, "GET", path, nil, http.StatusOK); got["replies"] != 2.0 {
					t.Fatalf("replies after a deletion: %v", got["replies"])
				}
				f.send(t, admin, "DELETE", path, nil, http.StatusResetContent)
				f.send(t, admin, "DELETE", path, nil, http.StatusNoContent)
				crWant(t, f.e.Do(admin, "GET", path, nil), http.StatusNotFound)
				crWant(t, f.e.Do(admin, "GET", path+"/replies", nil), http.StatusNotFound)
				f.wantOpen(t, tb, 0)
			})
		})
	}
}

// commentActor is an actor of the role tests: whether they read comments, and write them.
type commentActor struct {
	name        string
	actor       testenv.Actor
	read, write bool
	graphQL     string // extensions.code of a GraphQL write ("" for success)
}

// TestCommentRoles: the comment role and up post, reply, react and resolve; readers read them
// (403 on writes); guests without access and outsiders get 404; on REST and GraphQL alike, and
// the refused writes change no counter.
func TestCommentRoles(t *testing.T) {
	f := newCommentFixture(t)
	member := func(name string, role viewer.Role) testenv.Actor {
		return f.e.User(name+"@example.com", f.org, testenv.Role(role))
	}
	outsider, _ := f.e.Bootstrap("zed@zeta.io", "Zeta")
	actors := []commentActor{
		{"admin", f.admin, true, true, ""},
		{"create", member("cre", viewer.RoleCreate), true, true, ""},
		{"review", member("rev", viewer.RoleReview), true, true, ""},
		{"edit", member("edi", viewer.RoleEdit), true, true, ""},
		{"comment", f.commenter, true, true, ""},
		{"read", f.reader, true, false, "FORBIDDEN"},
		{"guest", f.e.User("gia@example.com", f.org, nil), false, false, "NOT_FOUND"},
		{"outsider", outsider, false, false, "NOT_FOUND"},
	}
	for _, tb := range f.tables() {
		path := tb.base + "/" + f.send(t, f.admin, "POST", tb.base, map[string]any{"body": md("Seed")}, http.StatusOK)["id"].(string)
		for _, a := range actors {
			t.Run(tb.name+"/"+a.name, func(t *testing.T) {
				readStatus, writeStatus := http.StatusOK, http.StatusOK
				switch {
				case !a.read:
					readStatus, writeStatus = http.StatusNotFound, http.StatusNotFound
				case !a.write:
					writeStatus = http.StatusForbidden
				}
				for _, p := range []string{tb.base, path, path + "/replies"} {
					crWant(t, f.e.Do(a.actor, "GET", p, nil), readStatus)
				}
				crWant(t, f.e.Do(a.actor, "POST", tb.base, map[string]any{"body": md(a.name)}), writeStatus)
				crWant(t, f.e.Do(a.actor, "POST", path+"/replies", map[string]any{"body": md(a.name)}), writeStatus)
				crWant(t, f.e.Do(a.actor, "PUT", path, map[string]any{"addedReactions": []string{"👍"}}), writeStatus)
				deleteStatus := writeStatus
				if deleteStatus == http.StatusOK {
					deleteStatus = http.StatusNoContent // a writer learns there was no such reply
				}
				crWant(t, f.e.Do(a.actor, "DELETE", path+"/replies/nope", nil), deleteStatus)

				g := f.e.GraphQL(a.actor, `mutation($s: ID!, $cr: ID) { postComment(spaceId: $s, changeRequest: $cr, input: {body: "Hi"}) { id } }`,
					map[string]any{"s": f.space, "cr": tb.crRef})
				if g.Code() != a.graphQL {
					t.Fatalf("GraphQL post: code %q, want %q (%v)", g.Code(), a.graphQL, g.Errors)
				}
			})
		}
	}
	t.Run("NothingChangedByRefusedWrites", func(t *testing.T) {
		for _, tb := range f.tables() {
			f.wantOpen(t, tb, 1+5*2) // the seed, and a REST and a GraphQL post by each of the five writers
			got := f.send(t, f.admin, "GET", tb.base+"?limit=1&order=asc", nil, http.StatusOK)["items"].([]any)[0].(map[string]any)
			if got["replies"] != 5.0 || len(got["reactions"].([]any)) != 1 || got["reactions"].([]any)[0].(map[string]any)["count"] != 5.0 {
				t.Fatalf("%s seed after the writers: %v replies, reactions %v", tb.name, got["replies"], got["reactions"])
			}
		}
	})
}

// TestCommentPublicSpace: anyone signed in reads the comments of a public space, and their
// authors' names without their email addresses; commenting still takes the comment role.
func TestCommentPublicSpace(t *testing.T) {
	f := newCommentFixture(t)
	crWant(t, f.e.Do(f.admin, "PATCH", "/v1/spaces/"+f.space, map[string]any{"visibility": "public"}), http.StatusOK)
	base := f.tables()[0].base
	f.send(t, f.admin, "POST", base, map[string]any{"body": md("Public")}, http.StatusOK)
	outsider, _ := f.e.Bootstrap("zed@zeta.io", "Zeta")
	l := f.send(t, outsider, "GET", base, nil, http.StatusOK)
	by := l["items"].([]any)[0].(map[string]any)["postedBy"].(map[string]any)
	if l["count"] != 1.0 || by["id"] != f.admin.UserID || by["email"] != "" {
		t.Fatalf("an outside reader's list: %v", l)
	}
	crWantError(t, f.e.Do(outsider, "POST", base, map[string]any{"body": md("Drive-by")}), http.StatusForbidden, "comment")
}

// TestCommentInvalid: bad bodies, targets, reactions and list parameters are 400 naming the
// field, and write nothing.
func TestCommentInvalid(t *testing.T) {
	f := newCommentFixture(t)
	base := f.tables()[0].base
	path := base + "/" + f.send(t, f.admin, "POST", base, map[string]any{"body": md("Seed")}, http.StatusOK)["id"].(string)
	tests := map[string]struct {
		method, path string
		body         any
		words        []string
	}{
		"ErrNoBody":         {"POST", base, map[string]any{"page": f.page}, []string{"body", "required"}},
		"ErrBlankBody":      {"POST", base, map[string]any{"body": md(" \n ")}, []string{"body", "empty"}},
		"ErrDocumentNotOne": {"POST", base, map[string]any{"body": map[string]any{"document": map[string]any{"nodes": []any{}}}}, []string{"body.document", "object"}},
		"ErrDocumentBlock": {"POST", base, map[string]any{"body": map[string]any{"document": map[string]any{"object": "document",
			"nodes": []any{map[string]any{"object": "block", "type": "drawing", "isVoid": true}}}}}, []string{"body.document", "nodes[0]", "drawing"}},
		"ErrMarkdownAndDocument": {"PUT", path, map[string]any{"body": map[string]any{"markdown": "x", "document": map[string]any{"object": "document",
			"nodes": []any{}}}}, []string{"body", "not both"}},
		"ErrBodyNotObject":    {"POST", base, map[string]any{"body": "text"}, []string{"body"}},
		"ErrBodyTooLong":      {"POST", base, map[string]any{"body": md(strings.Repeat("é", 20001))}, []string{"body", "20000"}},
		"ErrUnknownPage":      {"POST", base, map[string]any{"body": md("x"), "page": "nope"}, []string{"page", "nope"}},
		"ErrPageOfOtherTable": {"POST", base, map[string]any{"body": md("x"), "page": f.crPage}, []string{"page"}},
		"ErrNodeWithoutPage":  {"POST", base, map[string]any{"body": md("x"), "node": "setup"}, []string{"node", "page"}},
		"ErrUnknownNode":      {"POST", base, map[string]any{"body": md("x"), "page": f.page, "node": "n1"}, []string{"node", `"n1"`, "anchors: setup"}},
		"ErrReplyBlank":       {"POST", path + "/replies", map[string]any{"body": md("")}, []string{"body"}},
		"ErrEmojiTooLong":     {"PUT", path, map[string]any{"addedReactions": []string{strings.Repeat("x", 33)}}, []string{"addedReactions[0]", "32"}},
		"ErrEmojiBlank":       {"PUT", path, map[string]any{"addedReactions": []string{"👍", " "}}, []string{"addedReactions[1]"}},
		"ErrEmojiBothWays":    {"PUT", path, map[string]any{"addedReactions": []string{"👍"}, "removedReactions": []string{"👍"}}, []string{"removedReactions[0]"}},
		"ErrTooManyReactions": {"PUT", path, map[string]any{"addedReactions": make([]string, 51)}, []string{"addedReactions", "50"}},
		"ErrResolvedNull":     {"PUT", path, map[string]any{"resolved": nil}, []string{"resolved"}},
		"ErrResolvedNotBool":  {"PUT", path, map[string]any{"resolved": "yes", "body": md("changed")}, []string{"resolved"}},
		"ErrOrder":            {"GET", base + "?order=up", nil, []string{"order"}},
		"ErrStatus":           {"GET", base + "?status=closed", nil, []string{"status"}},
		"ErrFormat":           {"GET", path + "?format=html", nil, []string{"format"}},
		"ErrLimit":            {"GET", path + "/replies?limit=1001", nil, []string{"limit"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			crWantError(t, f.e.Do(f.admin, tc.method, tc.path, tc.body), http.StatusBadRequest, tc.words...)
		})
	}
	t.Run("NothingWritten", func(t *testing.T) {
		got := f.send(t, f.admin, "GET", path, nil, http.StatusOK)
		if got["replies"] != 0.0 || len(got["reactions"].([]any)) != 0 || got["body"].(map[string]any)["markdown"] != "Seed" {
			t.Fatalf("the seed changed: %v", got)
		}
		f.wantOpen(t, f.tables()[0], 1)
	})
}

// TestCommentListFilters: lists by posting time either way, by status, page and authors; a
// space's own list leaves its change requests' comments out.
func TestCommentListFilters(t *testing.T) {
	f := newCommentFixture(t)
	tb := f.tables()[0]
	post := func(a testenv.Actor, body string, extra ...any) string {
		b := map[string]any{"body": md(body)}
		for i := 0; i+1 < len(extra); i += 2 {
			b[extra[i].(string)] = extra[i+1]
		}
		return f.send(t, a, "POST", tb.base, b, http.StatusOK)["id"].(string)
	}
	first := post(f.admin, "first", "page", f.page)
	second := post(f.commenter, "second")
	third := post(f.commenter, "third", "page", f.page)
	f.send(t, f.admin, "PUT", tb.base+"/"+third, map[string]any{"resolved": true}, http.StatusOK)
	f.send(t, f.admin, "POST", f.path("/2/comments"), map[string]any{"body": md("elsewhere")}, http.StatusOK)
	tests := map[string]struct {
		query string
		want  []string
	}{
		"NewestFirst":   {"", []string{third, second, first}},
		"OldestFirst":   {"?order=asc", []string{first, second, third}},
		"Open":          {"?status=open", []string{second, first}},
		"Resolved":      {"?status=resolved", []string{third}},
		"All":           {"?status=all&order=desc", []string{third, second, first}},
		"OnPage":        {"?targetPage=" + f.page, []string{third, first}},
		"ByAuthor":      {"?authors=" + f.commenter.UserID, []string{third, second}},
		"ByAuthorsList": {"?authors=" + f.commenter.UserID + "," + f.admin.UserID, []string{third, second, first}},
		"ByAuthorsRepeated": {"?authors=" + f.commenter.UserID + "&authors=" + f.admin.UserID + "&status=open",
			[]string{second, first}},
		"ByUnknownAuthor": {"?authors=nobody", nil},
		"Combined":        {"?authors=" + f.commenter.UserID + "&targetPage=" + f.page + "&order=asc", []string{third}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			l := f.send(t, f.reader, "GET", tb.base+tc.query, nil, http.StatusOK)
			var got []string
			for _, it := range l["items"].([]any) {
				got = append(got, it.(map[string]any)["id"].(string))
			}
			if !slices.Equal(got, tc.want) || l["count"] != float64(len(tc.want)) {
				t.Fatalf("listed %v (count %v), want %v", got, l["count"], tc.want)
			}
		})
	}
	t.Run("Paged", func(t *testing.T) {
		l := f.send(t, f.reader, "GET", tb.base+"?limit=2", nil, http.StatusOK)
		next := f.send(t, f.reader, "GET", tb.base+"?limit=2&page="+l["next"].(map[string]any)["page"].(string), nil, http.StatusOK)
		if items := next["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != first || next["next"] != nil {
			t.Fatalf("second page: %v", next)
		}
	})
}

// TestCommentCountersConcurrent: resolutions, reopenings and deletions racing on the same comments
// leave the open comment counter equal to the open comments.
func TestCommentCountersConcurrent(t *testing.T) {
	f := newCommentFixture(t)
	for _, tb := range f.tables() {
		t.Run(tb.name, func(t *testing.T) {
			var ids []string
			for i := range 8 {
				ids = append(ids, f.send(t, f.commenter, "POST", tb.base, map[string]any{"body": md(fmt.Sprint(i))}, http.StatusOK)["id"].(string))
			}
			var wg sync.WaitGroup
			for i, id := range ids {
				for _, a := range []testenv.Actor{f.admin, f.commenter} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						switch i % 4 {
						case 0, 1: // resolved twice at once
							f.e.Do(a, "PUT", tb.base+"/"+id, map[string]any{"resolved": true})
						case 2: // resolved and reopened at once
							f.e.Do(a, "PUT", tb.base+"/"+id, map[string]any{"resolved": a == f.admin})
						case 3: // deleted twice at once
							f.e.Do(a, "DELETE", tb.base+"/"+id, nil)
						}
					}()
				}
			}
			wg.Wait()
			open := f.send(t, f.admin, "GET", tb.base+"?status=open", nil, http.StatusOK)["count"].(float64)
			f.wantOpen(t, tb, int(open))
			if total := f.send(t, f.admin, "GET", tb.base, nil, http.StatusOK)["count"]; total != 6.0 {
				t.Fatalf("%v comments left, want 6", total)
			}
		})
	}
}

const commentFields = `id status body postedAt editedAt resolvedAt postedBy { id } resolvedBy { id }
	target { spaceId changeRequestId revisionId nodeId page { id title path outdated } }
	reactions { emoji count users { user { id } reactedAt } }
	replyCount repliers { user { id } count updatedAt }
	permissions { view edit reply delete }`

// gqlComment is a comment as commentFields selects it.
type gqlComment struct {
	ID, Status, Body string
	ResolvedBy       *struct{ ID string }
	Target           struct {
		SpaceID         string
		ChangeRequestID *string
		NodeID          *string
		Page            *struct {
			ID       string
			Outdated bool
		}
	}
	Reactions []struct {
		Emoji string
		Count int
		Users []struct{ User struct{ ID string } }
	}
	ReplyCount  int
	Repliers    []struct{ Count int }
	Permissions struct{ View, Edit, Reply, Delete bool }
}

// TestCommentGraphQL: the whole lifecycle through mutations, read back through
// ChangeRequest.comments with its filters and Comment.replies.
func TestCommentGraphQL(t *testing.T) {
	f := newCommentFixture(t)
	vars := func(kv ...any) map[string]any {
		m := map[string]any{"s": f.space, "cr": "2"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	var posted struct{ PostComment gqlComment }
	gqlOK(t, f.e.GraphQL(f.commenter, `mutation($s: ID!, $cr: ID, $p: ID) { postComment(spaceId: $s, changeRequest: $cr,
		input: {body: "Why?", page: $p, node: "usage"}) { `+commentFields+` } }`, vars("p", f.crPage)), &posted)
	c := posted.PostComment
	if c.Status != "OPEN" || c.Body != "Why?" || c.Target.ChangeRequestID == nil || c.Target.Page == nil ||
		c.Target.Page.ID != f.crPage || *c.Target.NodeID != "usage" || !c.Permissions.Edit {
		t.Fatalf("posted: %+v", c)
	}
	id := c.ID
	var reply struct{ PostCommentReply struct{ ID, Body string } }
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($s: ID!, $cr: ID, $c: ID!) { postCommentReply(spaceId: $s, changeRequest: $cr,
		commentId: $c, body: "Because.") { id body } }`, vars("c", id)), &reply)
	var updated struct{ UpdateComment gqlComment }
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($s: ID!, $cr: ID, $c: ID!) { updateComment(spaceId: $s, changeRequest: $cr, id: $c,
		input: {resolved: true, addedReactions: ["🚀"]}) { `+commentFields+` } }`, vars("c", id)), &updated)
	u := updated.UpdateComment
	if u.Status != "RESOLVED" || u.ResolvedBy == nil || u.ResolvedBy.ID != f.admin.UserID || len(u.Reactions) != 1 ||
		u.Reactions[0].Emoji != "🚀" || u.ReplyCount != 1 || len(u.Repliers) != 1 || u.Permissions.Edit || !u.Permissions.Delete {
		t.Fatalf("updated: %+v", u)
	}
	var replyUpdated struct {
		UpdateCommentReply struct{ Reactions []struct{ Count int } }
	}
	gqlOK(t, f.e.GraphQL(f.commenter, `mutation($s: ID!, $cr: ID, $c: ID!, $r: ID!) { updateCommentReply(spaceId: $s,
		changeRequest: $cr, commentId: $c, id: $r, input: {addedReactions: ["👍"]}) { reactions { count } } }`,
		vars("c", id, "r", reply.PostCommentReply.ID)), &replyUpdated)

	var read struct {
		ChangeRequest struct {
			OpenCommentCount int
			Resolved, Open   struct {
				TotalCount int
				Edges      []struct {
					Node struct {
						gqlComment
						Replies struct {
							TotalCount int
							Edges      []struct {
								Node struct {
									Body        string
									PostedBy    struct{ ID string }
									Reactions   []struct{ Count int }
									Permissions struct{ Edit bool }
								}
							}
						}
						Reply *struct{ Body string }
					}
				}
			}
			Comment *struct{ ID string }
			Missing *struct{ ID string }
		}
	}
	gqlOK(t, f.e.GraphQL(f.commenter, `query($s: ID!, $c: ID!, $r: ID!) { changeRequest(spaceId: $s, id: "2") { openCommentCount
		resolved: comments(status: RESOLVED) { totalCount edges { node { `+commentFields+`
			replies { totalCount edges { node { body postedBy { id } reactions { count } permissions { edit } } } }
			reply(id: $r) { body } } } }
		open: comments(status: OPEN) { totalCount }
		comment(id: $c) { id } missing: comment(id: "nope") { id } } }`,
		map[string]any{"s": f.space, "c": id, "r": reply.PostCommentReply.ID}), &read)
	cr := read.ChangeRequest
	if cr.OpenCommentCount != 0 || cr.Open.TotalCount != 0 || cr.Resolved.TotalCount != 1 || cr.Comment == nil || cr.Missing != nil {
		t.Fatalf("change request comments: %+v", cr)
	}
	node := cr.Resolved.Edges[0].Node
	if node.Replies.TotalCount != 1 || node.Replies.Edges[0].Node.Body != "Because." || node.Replies.Edges[0].Node.PostedBy.ID != f.admin.UserID ||
		len(node.Replies.Edges[0].Node.Reactions) != 1 || node.Replies.Edges[0].Node.Permissions.Edit || node.Reply == nil {
		t.Fatalf("the comment's replies: %+v", node)
	}

	t.Run("Errors", func(t *testing.T) {
		for name, tc := range map[string]struct {
			actor testenv.Actor
			query string
			code  string
		}{
			"ErrReaderPosts": {f.reader, `mutation($s: ID!, $cr: ID) { postComment(spaceId: $s, changeRequest: $cr, input: {body: "x"}) { id } }`, "FORBIDDEN"},
			"ErrBlankBody":   {f.admin, `mutation($s: ID!, $cr: ID) { postComment(spaceId: $s, changeRequest: $cr, input: {body: " "}) { id } }`, "BAD_REQUEST"},
			"ErrNotAuthor":   {f.commenter, `mutation($s: ID!, $cr: ID, $r: ID!, $c: ID!) { updateCommentReply(spaceId: $s, changeRequest: $cr, commentId: $c, id: $r, input: {body: "x"}) { id } }`, "FORBIDDEN"},
			"ErrNoSuchCR":    {f.admin, `mutation($s: ID!) { postComment(spaceId: $s, changeRequest: "99", input: {body: "x"}) { id } }`, "NOT_FOUND"},
		} {
			t.Run(name, func(t *testing.T) {
				g := f.e.GraphQL(tc.actor, tc.query, vars("c", id, "r", reply.PostCommentReply.ID))
				if g.Code() != tc.code {
					t.Fatalf("code %q, want %q (%v)", g.Code(), tc.code, g.Errors)
				}
			})
		}
	})
	t.Run("Delete", func(t *testing.T) {
		del := `mutation($s: ID!, $cr: ID, $c: ID!, $r: ID!) { deleteCommentReply(spaceId: $s, changeRequest: $cr, commentId: $c, id: $r) }`
		for _, want := range []bool{true, false} {
			var d struct{ DeleteCommentReply bool }
			gqlOK(t, f.e.GraphQL(f.admin, del, vars("c", id, "r", reply.PostCommentReply.ID)), &d)
			if d.DeleteCommentReply != want {
				t.Fatalf("deleteCommentReply = %v, want %v", d.DeleteCommentReply, want)
			}
		}
		var d struct{ DeleteComment bool }
		gqlOK(t, f.e.GraphQL(f.commenter, `mutation($s: ID!, $cr: ID, $c: ID!) { deleteComment(spaceId: $s, changeRequest: $cr, id: $c) }`, vars("c", id)), &d)
		if !d.DeleteComment {
			t.Fatal("the author could not delete their comment")
		}
	})
}

// commentListStatements bounds the statements of a page of comments with all their fields and
// replies, whatever its length: authentication 3, the viewer's content snapshot 3, the space 1,
// the page and its count 2; then the comments' authors and resolvers 1, revisions (target pages)
// 1, reactions 1, repliers 2 (last replies, counts), replies and their count 2; then one
// statement of users per level that names users: those who reacted 1, the repliers 1, the replies'
// authors 1; the replies' reactions 1 and the users who gave them 1. GraphQL: 21; REST, without
// replies: 16. Loading per comment would cost 50 more.
const commentListStatements = 22

// TestCommentListStatements: 5 comments and 50, each with its author, replies, reactions and a
// resolution, cost the same number of statements on GraphQL and on REST.
func TestCommentListStatements(t *testing.T) {
	const q = `query($s: ID!) { space(id: $s) { comments(first: 100) { totalCount edges { node { ` + commentFields + `
		replies(first: 10) { totalCount edges { node { body postedBy { id } reactions { emoji users { user { id } } } permissions { edit } } } }
	} } } } }`
	count := func(t *testing.T, n int) (graphQL, rest int64) {
		t.Helper()
		f := newCommentFixture(t)
		f.seedComments(t, n, f.admin, f.commenter, f.e.User("eve@example.com", f.org, testenv.Role(viewer.RoleEdit)))
		var g testenv.GQLResponse
		graphQL = gqlStatements(t, f.e, func() { g = f.e.GraphQL(f.commenter, q, map[string]any{"s": f.space}) })
		var d struct {
			Space struct {
				Comments struct {
					TotalCount int
					Edges      []struct{ Node gqlComment }
				}
			}
		}
		gqlOK(t, g, &d)
		if got := d.Space.Comments; got.TotalCount != n || len(got.Edges) != n || got.Edges[0].Node.ReplyCount != 1 ||
			len(got.Edges[0].Node.Reactions) != 2 || got.Edges[0].Node.Reactions[0].Count+got.Edges[0].Node.Reactions[1].Count != 3 {
			t.Fatalf("listed %+v", got)
		}
		rest = gqlStatements(t, f.e, func() { crWant(t, f.e.Do(f.commenter, "GET", f.tables()[0].base+"?limit=100", nil), http.StatusOK) })
		return graphQL, rest
	}
	smallGQL, smallREST := count(t, 5)
	largeGQL, largeREST := count(t, 50)
	t.Logf("statements: GraphQL %d for 5 comments, %d for 50; REST %d and %d", smallGQL, largeGQL, smallREST, largeREST)
	if max(smallGQL, largeGQL) > commentListStatements || smallREST != largeREST || largeREST > commentListStatements {
		t.Fatalf("GraphQL: %d and %d statements; REST: %d and %d; want at most %d, REST's equal",
			smallGQL, largeGQL, smallREST, largeREST, commentListStatements)
	}
}

// seedComments writes n comments on the space's own content below the API, as their lives would
// leave them: posted in turn by the authors, every other one on the page, each with a reply by
// the next author (who also reacts 👍 and 🎉, the author 👍, the author 👍 to the reply), every
// third resolved by the replier.
func (f *commentFixture) seedComments(t *testing.T, n int, authors ...testenv.Actor) {
	t.Helper()
	c := f.e.Store.Client
	revision := c.Space.GetX(system(), f.space).RevisionID
	var reactions []*ent.ReactionCreate
	react := func(user string, on func(*ent.ReactionCreate) *ent.ReactionCreate, emoji ...string) {
		for _, e := range emoji {
			reactions = append(reactions, on(c.Reaction.Create().SetOrganizationID(f.org).SetSpaceID(f.space).
				SetUserID(user).SetEmoji(e)))
		}
	}
	for i := range n {
		author, other := authors[i%len(authors)].UserID, authors[(i+1)%len(authors)].UserID
		create := c.Comment.Create().SetOrganizationID(f.org).SetSpaceID(f.space).SetNillableRevisionID(revision).
			SetPostedBy(author).SetBodyMarkdown(fmt.Sprint(i)).SetRepliesCount(1)
		if i%2 == 0 {
			create.SetPageID(f.page)
		}
		if i%3 == 0 {
			create.SetStatus(comment.StatusResolved).SetResolvedAt(time.Now()).SetResolvedBy(other)
		}
		com := create.SaveX(system())
		reply := c.CommentReply.Create().SetOrganizationID(f.org).SetSpaceID(f.space).SetCommentID(com.ID).
			SetPostedBy(other).SetBodyMarkdown("re").SaveX(system())
		onComment := func(r *ent.ReactionCreate) *ent.ReactionCreate { return r.SetTargetCommentID(com.ID) }
		react(other, onComment, "👍", "🎉")
		react(author, onComment, "👍")
		react(author, func(r *ent.ReactionCreate) *ent.ReactionCreate { return r.SetTargetReplyID(reply.ID) }, "👍")
	}
	c.Reaction.CreateBulk(reactions...).ExecX(system())
}

// FuzzCommentBodies sends arbitrary bodies and list parameters to the comment routes: never a
// 500, and every failure carries the error body.
func FuzzCommentBodies(f *testing.F) {
	ft := newFuzzTarget(f)
	base := "/v1/spaces/" + ft.e.Do(ft.admin, "POST", "/v1/orgs/"+ft.org+"/spaces", map[string]any{"title": "Docs"}).Map(f)["id"].(string) + "/comments"
	r := ft.e.Do(ft.admin, "POST", base, map[string]any{"body": md("Seed")})
	c := base + "/" + r.Map(f)["id"].(string)
	reply := c + "/replies/" + ft.e.Do(ft.admin, "POST", c+"/replies", map[string]any{"body": md("Re")}).Map(f)["id"].(string)
	writes := []struct{ method, path string }{{"POST", base}, {"PUT", c}, {"POST", c + "/replies"}, {"PUT", reply}}
	for i, body := range []string{
		`{"body":{"markdown":"Hi"},"page":"p","node":"n"}`,
		`{"resolved":true,"addedReactions":["👍"],"removedReactions":["🎉"]}`,
		`{"body":{"markdown":"` + strings.Repeat("a", 300) + `"}}`,
		`{"body":{"document":{}}}`, `{"body":"x"}`, `{"body":null}`, `{"addedReactions":[1]}`, `{"resolved":"yes"}`,
		``, `null`, `[]`, `{`, `{"body":{"markdown":"\u0000"}}`, "{\"body\":{\"markdown\":\"\xff\"}}",
	} {
		f.Add(uint8(i), []byte(body), "status=open&order=asc&authors="+ft.user)
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte, query string) {
		w := writes[int(which)%len(writes)]
		ft.send(t, w.method, w.path, body)
		q, _ := url.ParseQuery(query) // what a client could send: an encoded query
		ft.send(t, "GET", base+"?"+q.Encode(), nil)
	})
}

// TestCommentDocuments posts and edits comments and replies as JSON documents and reads them
// back with format=document (REST) and as Comment.document (GraphQL): the document written is
// the document read; without format the body is its Markdown.
func TestCommentDocuments(t *testing.T) {
	f := newCommentFixture(t)
	base := f.tables()[0].base
	doc := func(md string) map[string]any {
		var v map[string]any
		if err := json.Unmarshal(must(json.Marshal(document.FromMarkdown(md))), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	asDocument := func(t *testing.T, body any) string {
		t.Helper()
		return compact(t, must(json.Marshal(body.(map[string]any)["document"])))
	}
	question := doc("Is **this** right?\n\n* one\n* two\n")
	c := f.send(t, f.admin, "POST", base+"?format=document", map[string]any{"body": map[string]any{"document": question}}, http.StatusOK)
	path := base + "/" + c["id"].(string)
	if got := asDocument(t, c["body"]); got != compact(t, must(json.Marshal(question))) {
		t.Fatalf("posted body %s", got)
	}
	if md := f.send(t, f.admin, "GET", path, nil, http.StatusOK)["body"].(map[string]any)["markdown"]; md != "Is **this** right?\n\n* one\n* two\n" {
		t.Fatalf("markdown %q", md)
	}
	edited := doc("Now `code`.\n")
	f.send(t, f.admin, "PUT", path, map[string]any{"body": map[string]any{"document": edited}}, http.StatusOK)
	if got := asDocument(t, f.send(t, f.admin, "GET", path+"?format=document", nil, http.StatusOK)["body"]); got != compact(t, must(json.Marshal(edited))) {
		t.Fatalf("edited body %s", got)
	}
	reply := f.send(t, f.commenter, "POST", path+"/replies?format=document", map[string]any{"body": map[string]any{"document": doc("Yes.\n")}}, http.StatusOK)
	replyPath := path + "/replies/" + reply["id"].(string)
	f.send(t, f.commenter, "PUT", replyPath, map[string]any{"body": map[string]any{"document": doc("*Yes*.\n")}}, http.StatusOK)
	list := f.send(t, f.admin, "GET", path+"/replies?format=document", nil, http.StatusOK)["items"].([]any)
	if got := asDocument(t, list[0].(map[string]any)["body"]); got != compact(t, must(json.Marshal(doc("*Yes*.\n")))) {
		t.Fatalf("reply body %s", got)
	}
	t.Run("OKGraphQL", func(t *testing.T) {
		var d struct {
			PostCommentReply struct{ Body string }
		}
		gqlOK(t, f.e.GraphQL(f.admin, `mutation($s: ID!, $c: ID!, $d: JSON) { postCommentReply(spaceId: $s, commentId: $c, document: $d) { body } }`,
			map[string]any{"s": f.space, "c": c["id"], "d": doc("From **GraphQL**.\n")}), &d)
		if d.PostCommentReply.Body != "From **GraphQL**.\n" {
			t.Fatalf("body %q", d.PostCommentReply.Body)
		}
		var q struct {
			Space struct {
				Comment struct {
					Document json.RawMessage
					Replies  struct {
						Edges []struct {
							Node struct{ Document json.RawMessage }
						}
					}
				}
			}
		}
		gqlOK(t, f.e.GraphQL(f.admin, `query($s: ID!, $c: ID!) { space(id: $s) { comment(id: $c) { document replies { edges { node { document } } } } } }`,
			map[string]any{"s": f.space, "c": c["id"]}), &q)
		got := q.Space.Comment
		if compact(t, got.Document) != compact(t, must(json.Marshal(edited))) || len(got.Replies.Edges) != 2 ||
			compact(t, got.Replies.Edges[1].Node.Document) != compact(t, must(json.Marshal(doc("From **GraphQL**.\n")))) {
			t.Fatalf("comment %s, replies %+v", got.Document, got.Replies.Edges)
		}
	})
}
