package rest

import (
	"context"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/comment"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/model"
)

// commentRoutes adds the comment table under base: a space's own comments
// (/spaces/{spaceId}/comments) or a change request's
// (…/change-requests/{changeRequestId}/comments). Both tables behave alike; the change request,
// when the path has one, is its id or its number.
func (a *api) commentRoutes(r chi.Router, base string) {
	r.Get(base, comments(a.listComments))
	r.Post(base, comments(a.postComment))
	r.Get(base+"/{commentId}", comments(a.getComment))
	r.Put(base+"/{commentId}", comments(a.updateComment))
	r.Delete(base+"/{commentId}", comments(a.deleteComment))
	r.Get(base+"/{commentId}/replies", comments(a.listCommentReplies))
	r.Post(base+"/{commentId}/replies", comments(a.postCommentReply))
	r.Get(base+"/{commentId}/replies/{commentReplyId}", comments(a.getCommentReply))
	r.Put(base+"/{commentId}/replies/{commentReplyId}", comments(a.updateCommentReply))
	r.Delete(base+"/{commentId}/replies/{commentReplyId}", comments(a.deleteCommentReply))
}

// commentPath names what a comment route is about: the space, the change request when the path
// has one, the comment and the reply when it names them; and the format of the bodies answered.
type commentPath struct {
	space          string
	changeRequest  *string
	comment, reply string
	format         string
}

// commentHandler is a handler of a comment route, given what its path names.
type commentHandler func(w http.ResponseWriter, r *http.Request, p commentPath)

// comments adapts a comment route's handler: it reads `format`, which the comment routes take
// (document answers bodies as JSON documents; markdown, the default, as the Markdown Bindery
// stores), and the path.
func comments(h commentHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		format, err := (query{r}).oneOf("format", "document", "markdown")
		if err != nil {
			writeError(w, r, err)
			return
		}
		p := commentPath{space: chi.URLParam(r, "spaceId"), comment: chi.URLParam(r, "commentId"),
			reply: chi.URLParam(r, "commentReplyId"), format: format}
		if cr := chi.URLParam(r, "changeRequestId"); cr != "" {
			p.changeRequest = &cr
		}
		h(w, r, p)
	}
}

// listComments answers GET …/comments: `order` (asc or desc, by posting time; desc by default),
// `status` (all, open or resolved; all by default), `targetPage`, `authors` (user ids, repeated
// or comma-separated).
func (a *api) listComments(w http.ResponseWriter, r *http.Request, p commentPath) {
	serveList(w, r, a.comment(p.format), func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.Comment], error) {
		args, err := commentListArgs(query{r})
		if err != nil {
			return nil, err
		}
		args.First, args.After = limit, page
		return a.r.ListComments(ctx, p.space, p.changeRequest, args)
	})
}

// commentListArgs reads the filters of a comment list. Returns INVALID naming a parameter with a
// value outside its enum.
func commentListArgs(q query) (graph.CommentListArgs, error) {
	order, err := q.oneOf("order", "asc", "desc")
	if err != nil {
		return graph.CommentListArgs{}, err
	}
	status, err := q.oneOf("status", "all", "open", "resolved")
	if err != nil {
		return graph.CommentListArgs{}, err
	}
	args := graph.CommentListArgs{TargetPage: q.str("targetPage")}
	if order == "asc" {
		asc := model.SortOrderAsc
		args.Order = &asc
	}
	if status == "open" || status == "resolved" {
		st := comment.Status(status)
		args.Status = &st
	}
	for _, v := range q.r.URL.Query()["authors"] {
		args.Authors = append(args.Authors, strings.Split(v, ",")...)
	}
	return args, nil
}

// posted is the body of a new comment or reply: `{body: {markdown} or {document}, page?, node?}` (a reply has
// no page or node: they are ignored there, like any unknown field).
type posted struct {
	Body notNull[commentBody] `json:"body"`
	Page notNull[string]      `json:"page"`
	Node notNull[string]      `json:"node"`
}

// decodePosted reads a new comment or reply. Returns INVALID without a body.
func decodePosted(r *http.Request) (posted, error) {
	var body posted
	if err := decodeBody(r, &body); err != nil {
		return body, err
	}
	if body.Body.Value == nil {
		return body, missing("body")
	}
	return body, nil
}

// postComment answers POST …/comments with the comment (200, as the reference says).
func (a *api) postComment(w http.ResponseWriter, r *http.Request, p commentPath) {
	body, err := decodePosted(r)
	var c *ent.Comment
	if err == nil {
		c, err = a.r.Mutation().PostComment(r.Context(), p.space, p.changeRequest,
			model.PostCommentInput{Body: body.Body.Value.Markdown, Document: body.Body.Value.document(),
				Page: body.Page.Value, Node: body.Node.Value})
	}
	respondWith(w, r, http.StatusOK, c, err, a.comment(p.format))
}

// getComment answers GET …/comments/{commentId}.
func (a *api) getComment(w http.ResponseWriter, r *http.Request, p commentPath) {
	c, err := a.r.ReadComment(r.Context(), p.space, p.changeRequest, p.comment)
	respondWith(w, r, http.StatusOK, c, err, a.comment(p.format))
}

// commentEdit is the body of PUT on a comment or a reply.
type commentEdit struct {
	Resolved         notNull[bool]        `json:"resolved"`
	Body             notNull[commentBody] `json:"body"`
	AddedReactions   notNull[[]string]    `json:"addedReactions"`
	RemovedReactions notNull[[]string]    `json:"removedReactions"`
}

func (e commentEdit) markdown() *string {
	if e.Body.Value == nil {
		return nil
	}
	return e.Body.Value.Markdown
}

// updateComment answers PUT …/comments/{commentId}: `{resolved?, body?, addedReactions?,
// removedReactions?}`.
func (a *api) updateComment(w http.ResponseWriter, r *http.Request, p commentPath) {
	var body commentEdit
	err := decodeBody(r, &body)
	var c *ent.Comment
	if err == nil {
		c, err = a.r.Mutation().UpdateComment(r.Context(), p.space, p.changeRequest, p.comment, model.UpdateCommentInput{
			Resolved: body.Resolved.Value, Body: body.markdown(), Document: body.Body.Value.document(),
			AddedReactions: body.AddedReactions.Or(nil), RemovedReactions: body.RemovedReactions.Or(nil),
		})
	}
	respondWith(w, r, http.StatusOK, c, err, a.comment(p.format))
}

// deleteComment answers DELETE …/comments/{commentId}: 205, or 204 when there was no such
// comment (the reference's "did not exist").
func (a *api) deleteComment(w http.ResponseWriter, r *http.Request, p commentPath) {
	deleted, err := a.r.Mutation().DeleteComment(r.Context(), p.space, p.changeRequest, p.comment)
	respondEmpty(w, r, deletionStatus(deleted), err)
}

func deletionStatus(deleted bool) int {
	if deleted {
		return http.StatusResetContent
	}
	return http.StatusNoContent
}

// listCommentReplies answers GET …/comments/{commentId}/replies, oldest first.
func (a *api) listCommentReplies(w http.ResponseWriter, r *http.Request, p commentPath) {
	serveList(w, r, a.commentReply(p.format), func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.CommentReply], error) {
		return a.r.ListCommentReplies(ctx, p.space, p.changeRequest, p.comment, limit, page)
	})
}

// postCommentReply answers POST …/comments/{commentId}/replies with the reply (200).
func (a *api) postCommentReply(w http.ResponseWriter, r *http.Request, p commentPath) {
	body, err := decodePosted(r)
	var reply *ent.CommentReply
	if err == nil {
		reply, err = a.r.Mutation().PostCommentReply(r.Context(), p.space, p.changeRequest, p.comment,
			body.Body.Value.Markdown, body.Body.Value.document())
	}
	respondWith(w, r, http.StatusOK, reply, err, a.commentReply(p.format))
}

// getCommentReply answers GET …/replies/{commentReplyId}.
func (a *api) getCommentReply(w http.ResponseWriter, r *http.Request, p commentPath) {
	reply, err := a.r.ReadCommentReply(r.Context(), p.space, p.changeRequest, p.comment, p.reply)
	respondWith(w, r, http.StatusOK, reply, err, a.commentReply(p.format))
}

// updateCommentReply answers PUT …/replies/{commentReplyId}: `{body?, addedReactions?,
// removedReactions?}`; `resolved` is ignored (replies have no status), like any unknown field.
func (a *api) updateCommentReply(w http.ResponseWriter, r *http.Request, p commentPath) {
	var body commentEdit
	err := decodeBody(r, &body)
	var reply *ent.CommentReply
	if err == nil {
		reply, err = a.r.Mutation().UpdateCommentReply(r.Context(), p.space, p.changeRequest, p.comment, p.reply,
			model.UpdateCommentReplyInput{
				Body: body.markdown(), Document: body.Body.Value.document(), AddedReactions: body.AddedReactions.Or(nil), RemovedReactions: body.RemovedReactions.Or(nil),
			})
	}
	respondWith(w, r, http.StatusOK, reply, err, a.commentReply(p.format))
}

// deleteCommentReply answers DELETE …/replies/{commentReplyId}: 205, or 204 when the comment has
// no such reply.
func (a *api) deleteCommentReply(w http.ResponseWriter, r *http.Request, p commentPath) {
	deleted, err := a.r.Mutation().DeleteCommentReply(r.Context(), p.space, p.changeRequest, p.comment, p.reply)
	respondEmpty(w, r, deletionStatus(deleted), err)
}
