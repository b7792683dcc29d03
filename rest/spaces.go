package rest

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/graph/model"
)

// Space is the wire shape of a space. defaultLevel is always present: a role, "inherit", or null.
// mergeRules are the space's own (inherit: its collection's, else none).
type Space struct {
	Object              string                  `json:"object"`
	ID                  string                  `json:"id"`
	Title               string                  `json:"title"`
	Emoji               string                  `json:"emoji"`
	Visibility          string                  `json:"visibility"`
	CreatedAt           time.Time               `json:"createdAt"`
	UpdatedAt           time.Time               `json:"updatedAt"`
	DeletedAt           *time.Time              `json:"deletedAt,omitempty"`
	EditMode            string                  `json:"editMode"`
	MergeRules          mergeRules              `json:"mergeRules"`
	URLs                urls                    `json:"urls"`
	Organization        string                  `json:"organization"`
	Parent              *string                 `json:"parent,omitempty"`
	Revision            string                  `json:"revision"`
	DefaultLevel        *string                 `json:"defaultLevel"`
	Comments            int                     `json:"comments"`
	ChangeRequests      int                     `json:"changeRequests"`
	ChangeRequestsOpen  int                     `json:"changeRequestsOpen"`
	ChangeRequestsDraft int                     `json:"changeRequestsDraft"`
	Permissions         *model.SpacePermissions `json:"permissions"`
}

func (a *api) space(ctx context.Context, s *ent.Space) (Space, error) {
	sr := a.r.Space()
	perms, err := sr.Permissions(ctx, s)
	if err != nil {
		return Space{}, err
	}
	shareKey, err := sr.ShareKey(ctx, s)
	if err != nil {
		return Space{}, err
	}
	rules, err := sr.MergeRules(ctx, s)
	if err != nil {
		return Space{}, err
	}
	level, err := sr.DefaultLevel(ctx, s)
	w := Space{
		Object: "space", ID: s.ID, Title: s.Title, Emoji: s.Emoji, Visibility: string(s.Visibility),
		CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, DeletedAt: s.DeletedAt, EditMode: string(s.EditMode),
		MergeRules: mergeRulesOf(rules),
		URLs: urls{Location: a.url("/v1/spaces/" + s.ID), App: a.url("/o/" + s.OrganizationID + "/s/" + s.ID),
			Published: a.shareURL(s.ID, shareKey)},
		Organization: s.OrganizationID, Parent: s.ParentID, DefaultLevel: level,
		Comments: s.CommentsCount, ChangeRequests: s.ChangeRequestsCount,
		ChangeRequestsOpen: s.ChangeRequestsOpenCount, ChangeRequestsDraft: s.ChangeRequestsDraftCount,
		Permissions: perms,
	}
	if s.RevisionID != nil {
		w.Revision = *s.RevisionID
	}
	return w, err
}

// shareURL is urls.published of a share-link space, for the admins who may see its key (""
// otherwise): the space's API address with the key, which opens it to anyone signed in.
func (a *api) shareURL(spaceID string, shareKey *string) string {
	if shareKey == nil {
		return ""
	}
	return a.url("/v1/spaces/" + spaceID + "?shareKey=" + url.QueryEscape(*shareKey))
}

// listSpaces answers an organization's spaces, uncounted unless asked with limit=0: counting every
// space the viewer may see costs as much as the organization holds.
func (a *api) listSpaces(w http.ResponseWriter, r *http.Request) {
	serveUncounted(w, r, a.space, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.Space], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().Spaces(ctx, o, limit, page)
	})
}

type createSpaceBody struct {
	Title  notNull[string] `json:"title"`
	Emoji  notNull[string] `json:"emoji"`
	Parent notNull[string] `json:"parent"`
}

func (a *api) createSpace(w http.ResponseWriter, r *http.Request) {
	var body createSpaceBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	s, err := a.r.Mutation().CreateSpace(r.Context(), chi.URLParam(r, "organizationId"),
		model.CreateSpaceInput{Title: body.Title.Value, Emoji: body.Emoji.Value, Parent: body.Parent.Value})
	respondWith(w, r, http.StatusCreated, s, err, a.space)
}

// getSpace answers GET /v1/spaces/{spaceId}; `shareKey` opens a share-link space to its holder.
func (a *api) getSpace(w http.ResponseWriter, r *http.Request) {
	s, err := a.r.Query().Space(r.Context(), chi.URLParam(r, "spaceId"), query{r}.str("shareKey"))
	respondWith(w, r, http.StatusOK, s, err, a.space)
}

// visibility is a space visibility in a request body; unknown values are refused with the field.
type visibility space.Visibility

func (v *visibility) UnmarshalJSON(b []byte) error {
	return decodeEnum(b, (*space.Visibility)(v), space.VisibilityValidator,
		"one of public, unlisted, share-link, visitor-auth, in-collection, private")
}

// editMode is a space edit mode in a request body.
type editMode space.EditMode

func (m *editMode) UnmarshalJSON(b []byte) error {
	return decodeEnum(b, (*space.EditMode)(m), space.EditModeValidator, "live or locked")
}

type updateSpaceBody struct {
	Title        notNull[string]     `json:"title"`
	Emoji        notNull[string]     `json:"emoji"`
	Visibility   notNull[visibility] `json:"visibility"`
	EditMode     notNull[editMode]   `json:"editMode"`
	DefaultLevel nullable[string]    `json:"defaultLevel"`
	MergeRules   notNull[mergeRules] `json:"mergeRules"`
}

func (a *api) updateSpace(w http.ResponseWriter, r *http.Request) {
	var body updateSpaceBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	in := model.UpdateSpaceInput{Title: body.Title.Value, Emoji: body.Emoji.Value,
		DefaultLevel: omittable(body.DefaultLevel, same[string])}
	if m := body.MergeRules.Value; m != nil {
		in.MergeRules = m.input()
	}
	if v := body.Visibility.Value; v != nil {
		vis := space.Visibility(*v)
		in.Visibility = &vis
	}
	if m := body.EditMode.Value; m != nil {
		mode := space.EditMode(*m)
		in.EditMode = &mode
	}
	s, err := a.r.Mutation().UpdateSpace(r.Context(), chi.URLParam(r, "spaceId"), in)
	respondWith(w, r, http.StatusOK, s, err, a.space)
}

func (a *api) deleteSpace(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteSpace(r.Context(), chi.URLParam(r, "spaceId"))
	respondEmpty(w, r, http.StatusResetContent, err)
}

func (a *api) restoreSpace(w http.ResponseWriter, r *http.Request) {
	s, err := a.r.Mutation().RestoreSpace(r.Context(), chi.URLParam(r, "spaceId"))
	respondWith(w, r, http.StatusOK, s, err, a.space)
}

func (a *api) duplicateSpace(w http.ResponseWriter, r *http.Request) {
	s, err := a.r.Mutation().DuplicateSpace(r.Context(), chi.URLParam(r, "spaceId"))
	respondWith(w, r, http.StatusCreated, s, err, a.space)
}

func (a *api) moveSpace(w http.ResponseWriter, r *http.Request) {
	body, err := decodeMove(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s, err := a.r.Mutation().MoveSpace(r.Context(), chi.URLParam(r, "spaceId"),
		model.MoveSpaceInput{Parent: omittable(body.Parent, same[string]), Position: body.position()})
	respondWith(w, r, http.StatusOK, s, err, a.space)
}

func (a *api) transferSpace(w http.ResponseWriter, r *http.Request) {
	org, err := decodeTransfer(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s, err := a.r.Mutation().TransferSpace(r.Context(), chi.URLParam(r, "spaceId"), org)
	respondWith(w, r, http.StatusOK, s, err, a.space)
}
