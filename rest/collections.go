package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
)

// Collection is the wire shape of a collection. defaultLevel is always present: a role,
// "inherit", or null.
type Collection struct {
	Object       string                       `json:"object"`
	ID           string                       `json:"id"`
	Title        string                       `json:"title"`
	Description  *string                      `json:"description,omitempty"`
	Organization string                       `json:"organization"`
	Parent       *string                      `json:"parent,omitempty"`
	DefaultLevel *string                      `json:"defaultLevel"`
	MergeRules   mergeRules                   `json:"mergeRules"`
	URLs         urls                         `json:"urls"`
	Permissions  *model.CollectionPermissions `json:"permissions"`
}

func (a *api) collection(ctx context.Context, c *ent.Collection) (Collection, error) {
	cr := a.r.Collection()
	perms, err := cr.Permissions(ctx, c)
	if err != nil {
		return Collection{}, err
	}
	rules, err := cr.MergeRules(ctx, c)
	if err != nil {
		return Collection{}, err
	}
	level, err := cr.DefaultLevel(ctx, c)
	return Collection{
		Object: "collection", ID: c.ID, Title: c.Title, Description: c.Description,
		Organization: c.OrganizationID, Parent: c.ParentID, DefaultLevel: level, MergeRules: mergeRulesOf(rules),
		URLs:        urls{Location: a.url("/v1/collections/" + c.ID), App: a.url("/o/" + c.OrganizationID + "/c/" + c.ID)},
		Permissions: perms,
	}, err
}

func (a *api) getCollection(w http.ResponseWriter, r *http.Request) {
	c, err := a.r.Query().Collection(r.Context(), chi.URLParam(r, "collectionId"))
	respondWith(w, r, http.StatusOK, c, err, a.collection)
}

type updateCollectionBody struct {
	Title        notNull[string]  `json:"title"`
	Description  nullable[string] `json:"description"`
	DefaultLevel nullable[string] `json:"defaultLevel"`
	// MergeRules is Bindery's extension of the reference's body: collections have merge rules
	// their spaces inherit.
	MergeRules notNull[mergeRules] `json:"mergeRules"`
}

func (a *api) updateCollection(w http.ResponseWriter, r *http.Request) {
	var body updateCollectionBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	in := model.UpdateCollectionInput{Title: body.Title.Value,
		Description: omittable(body.Description, same[string]), DefaultLevel: omittable(body.DefaultLevel, same[string])}
	if m := body.MergeRules.Value; m != nil {
		in.MergeRules = m.input()
	}
	c, err := a.r.Mutation().UpdateCollection(r.Context(), chi.URLParam(r, "collectionId"), in)
	respondWith(w, r, http.StatusOK, c, err, a.collection)
}

func (a *api) deleteCollection(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteCollection(r.Context(), chi.URLParam(r, "collectionId"))
	respondEmpty(w, r, http.StatusResetContent, err)
}

func (a *api) listCollections(w http.ResponseWriter, r *http.Request) {
	nested, err := query{r}.boolean("nested")
	if err != nil {
		writeError(w, r, err)
		return
	}
	serveList(w, r, a.collection, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.Collection], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().Collections(ctx, o, limit, page, nested)
	})
}

func (a *api) listCollectionSpaces(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.space, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.Space], error) {
		c, err := a.r.Query().Collection(ctx, chi.URLParam(r, "collectionId"))
		if err != nil {
			return nil, err
		}
		return a.r.Collection().Spaces(ctx, c, limit, page)
	})
}

type createCollectionBody struct {
	Title  notNull[string] `json:"title"`
	Parent notNull[string] `json:"parent"`
}

func (a *api) createCollection(w http.ResponseWriter, r *http.Request) {
	var body createCollectionBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := a.r.Mutation().CreateCollection(r.Context(), chi.URLParam(r, "organizationId"),
		model.CreateCollectionInput{Title: body.Title.Value, Parent: body.Parent.Value})
	respondWith(w, r, http.StatusCreated, c, err, a.collection)
}

// contentPointer is a CollectionPointer or a SpacePointer of a move body's position.
type contentPointer model.ContentPointerInput

func (p *contentPointer) UnmarshalJSON(b []byte) error {
	var ref struct {
		Type       string  `json:"type"`
		Collection *string `json:"collection"`
		Space      *string `json:"space"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		return invalidValue(`must be {"type": "collection", "collection": <id>} or {"type": "space", "space": <id>}`)
	}
	switch {
	case ref.Type == "collection" && ref.Collection != nil:
		p.Collection = ref.Collection
	case ref.Type == "space" && ref.Space != nil:
		p.Space = ref.Space
	default:
		return invalidValue(`must be {"type": "collection", "collection": <id>} or {"type": "space", "space": <id>}`)
	}
	return nil
}

// moveBody is the move body of spec/02 convention 6 for collections and spaces.
type moveBody struct {
	Parent   nullable[string] `json:"parent"`
	Position *struct {
		Before *contentPointer `json:"before"`
		After  *contentPointer `json:"after"`
	} `json:"position"`
}

func (m moveBody) position() *model.ContentPositionInput {
	if m.Position == nil {
		return nil
	}
	return &model.ContentPositionInput{
		Before: (*model.ContentPointerInput)(m.Position.Before), After: (*model.ContentPointerInput)(m.Position.After),
	}
}

// decodeMove reads a move body (spec/02 convention 6). Returns INVALID when it moves nothing.
func decodeMove(r *http.Request) (moveBody, error) {
	var body moveBody
	if err := decodeBody(r, &body); err != nil {
		return body, err
	}
	if !body.Parent.Set && body.Position == nil {
		return body, apperr.Invalidf("request body: give parent, position, or both")
	}
	return body, nil
}

// transferBody is the body of a transfer of a space or collection.
type transferBody struct {
	Organization *string `json:"organization"`
}

// decodeTransfer reads a transfer body and returns the target organization's id.
func decodeTransfer(r *http.Request) (string, error) {
	var body transferBody
	if err := decodeBody(r, &body); err != nil {
		return "", err
	}
	if body.Organization == nil {
		return "", missing("organization")
	}
	return *body.Organization, nil
}

func (a *api) moveCollection(w http.ResponseWriter, r *http.Request) {
	body, err := decodeMove(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	c, err := a.r.Mutation().MoveCollection(r.Context(), chi.URLParam(r, "collectionId"),
		model.MoveCollectionInput{Parent: omittable(body.Parent, same[string]), Position: body.position()})
	respondWith(w, r, http.StatusOK, c, err, a.collection)
}

func (a *api) transferCollection(w http.ResponseWriter, r *http.Request) {
	org, err := decodeTransfer(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	c, err := a.r.Mutation().TransferCollection(r.Context(), chi.URLParam(r, "collectionId"), org)
	respondWith(w, r, http.StatusOK, c, err, a.collection)
}

// boolean reads a boolean parameter: true or false. Returns INVALID otherwise.
func (q query) boolean(name string) (*bool, error) {
	s := q.str(name)
	if s == nil {
		return nil, nil
	}
	b, err := strconv.ParseBool(*s)
	if err != nil || (*s != "true" && *s != "false") {
		return nil, apperr.Invalidf("%s: must be true or false (got %q)", name, truncate(*s, 40))
	}
	return &b, nil
}
