package rest

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/rest/apidoc"
)

// SiteSpace is the wire shape of a site space (the reference client's SiteSpace). Site spaces are
// never drafts here (decision 179).
type SiteSpace struct {
	Object    string        `json:"object"`
	ID        string        `json:"id"`
	Path      string        `json:"path"`
	Section   *string       `json:"section,omitempty"`
	Space     Space         `json:"space"`
	Title     string        `json:"title"`
	Default   bool          `json:"default"`
	Condition *string       `json:"condition,omitempty"`
	PageID    *string       `json:"pageId,omitempty"`
	Draft     bool          `json:"draft"`
	Hidden    bool          `json:"hidden"`
	URLs      publishedURLs `json:"urls"`
}

// publishedURLs is the `urls` of a site's parts: where readers find them, once the site is published.
type publishedURLs struct {
	Published string `json:"published,omitempty"`
}

// siteSpaceOf returns the conversion of site spaces of site s to their wire shape: urls.published
// is set while the site is published.
func (a *api) siteSpaceOf(s *ent.Site) func(context.Context, *ent.SiteSpace) (SiteSpace, error) {
	return func(ctx context.Context, ss *ent.SiteSpace) (SiteSpace, error) {
		w := SiteSpace{Object: "site-space", ID: ss.ID, Path: ss.Path, Section: ss.SectionID, Default: ss.IsDefault,
			Condition: ss.Condition, PageID: ss.PageID, Hidden: ss.Hidden}
		sr := a.r.SiteSpace()
		sp, err := sr.Space(ctx, ss)
		if err != nil {
			return w, err
		}
		if w.Space, err = a.space(ctx, sp); err != nil {
			return w, err
		}
		if w.Title, err = sr.Title(ctx, ss); err != nil {
			return w, err
		}
		if s.Published {
			w.URLs.Published, err = sr.URL(ctx, ss)
		}
		return w, err
	}
}

func (a *api) siteSpaceLocation(s *ent.Site, ss *ent.SiteSpace) string {
	return a.siteLocation(s) + "/site-spaces/" + ss.ID
}

// listSiteSpaces answers GET …/site-spaces: `default` keeps the default site space of each level
// (true) or the others (false); with `shareKey`, their published URLs carry the key.
func (a *api) listSiteSpaces(w http.ResponseWriter, r *http.Request) {
	def, err := query{r}.boolean("default")
	if err != nil {
		writeError(w, r, err)
		return
	}
	s, r, err := a.sharedSiteOf(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	serveList(w, r, a.siteSpaceOf(s), func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.SiteSpace], error) {
		return a.r.Site().SiteSpaces(ctx, s, limit, page, def)
	})
}

type addSiteSpaceBody struct {
	SpaceID   nullable[string] `json:"spaceId"`
	SectionID notNull[string]  `json:"sectionId"`
	Title     notNull[string]  `json:"title"`
	PageID    nullable[string] `json:"pageId"`
	Draft     liveOnly         `json:"draft"`
}

// addSiteSpace answers POST …/site-spaces: `{spaceId, sectionId?, title?, pageId?, draft?}`; a
// null spaceId adds a new space titled like the site (or as title). With `Prefer: return=minimal`
// it answers 204.
func (a *api) addSiteSpace(w http.ResponseWriter, r *http.Request) {
	var body addSiteSpaceBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if !body.SpaceID.Set {
		writeError(w, r, missing("spaceId"))
		return
	}
	ss, err := a.r.Mutation().AddSiteSpace(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		model.AddSiteSpaceInput{SpaceID: body.SpaceID.Value, SectionID: body.SectionID.Value, Title: body.Title.Value,
			PageID: body.PageID.Value})
	a.respondSiteSpace(w, r, http.StatusCreated, ss, err)
}

// respondSiteSpace answers a write of a site space: its wire shape (with its Location when
// created), or 204 when the client prefers a minimal answer.
func (a *api) respondSiteSpace(w http.ResponseWriter, r *http.Request, status int, ss *ent.SiteSpace, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	s, err := a.siteOf(r.Context(), r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if status == http.StatusCreated {
		w.Header().Set("Location", a.siteSpaceLocation(s, ss))
	}
	respondOrMinimal(w, r, status, ss, a.siteSpaceOf(s))
}

type updateSiteSpaceBody struct {
	Path      notNull[string]  `json:"path"`
	Condition nullable[string] `json:"condition"`
	SpaceID   notNull[string]  `json:"spaceId"`
	PageID    nullable[string] `json:"pageId"`
	Hidden    notNull[bool]    `json:"hidden"`
	Title     nullable[string] `json:"title"`
	Draft     liveOnly         `json:"draft"`
}

// updateSiteSpace answers PATCH …/site-spaces/{siteSpaceId}: `{path?, condition?, spaceId?,
// pageId?, hidden?, title?, draft?}` (null removes a condition, a home page or a title).
func (a *api) updateSiteSpace(w http.ResponseWriter, r *http.Request) {
	var body updateSiteSpaceBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	ss, err := a.r.Mutation().UpdateSiteSpace(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteSpaceId"), model.UpdateSiteSpaceInput{Path: body.Path.Value,
			Condition: omittable(body.Condition, same[string]), SpaceID: body.SpaceID.Value,
			PageID: omittable(body.PageID, same[string]), Hidden: body.Hidden.Value, Title: omittable(body.Title, same[string])})
	a.respondSiteSpace(w, r, http.StatusOK, ss, err)
}

// liveOnly is a body's `draft`: only false is taken, since Bindery has no draft site spaces
// (decision 179); true would publish what its sender meant to keep back.
type liveOnly struct{}

func (*liveOnly) UnmarshalJSON(b []byte) error {
	if string(b) != "false" {
		return invalidValue("must be false: Bindery has no draft site spaces, every site space is live")
	}
	return nil
}

// siteSpacePointer is a SiteSpacePointer of a move body's position: `{type: site-space, siteSpace}`.
type siteSpacePointer string

// JSONSchema says what a site space pointer accepts: {"type": "site-space", "siteSpace": <id>}.
func (siteSpacePointer) JSONSchema() apidoc.Schema {
	return apidoc.Schema{"type": "object", "required": []any{"type", "siteSpace"}, "properties": apidoc.Schema{
		"type": apidoc.Schema{"type": "string", "enum": []any{"site-space"}}, "siteSpace": apidoc.Schema{"type": "string"}}}
}

func (p *siteSpacePointer) UnmarshalJSON(b []byte) error {
	var ref struct {
		Type      string  `json:"type"`
		SiteSpace *string `json:"siteSpace"`
	}
	if json.Unmarshal(b, &ref) != nil || ref.Type != "site-space" || ref.SiteSpace == nil {
		return invalidValue(`must be {"type": "site-space", "siteSpace": <id>}`)
	}
	*p = siteSpacePointer(*ref.SiteSpace)
	return nil
}

type moveSiteSpaceBody struct {
	Position notNull[struct {
		Before *siteSpacePointer `json:"before"`
		After  *siteSpacePointer `json:"after"`
	}] `json:"position"`
}

// moveSiteSpace answers POST …/site-spaces/{siteSpaceId}/move: `{position?: {before?, after?}}`;
// without a position the site space goes to the end of its level.
func (a *api) moveSiteSpace(w http.ResponseWriter, r *http.Request) {
	var body moveSiteSpaceBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	var in model.MoveSiteSpaceInput
	if p := body.Position.Value; p != nil {
		in.Position = &model.SiteSpacePositionInput{Before: (*string)(p.Before), After: (*string)(p.After)}
	}
	ss, err := a.r.Mutation().MoveSiteSpace(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteSpaceId"), in)
	a.respondSiteSpace(w, r, http.StatusOK, ss, err)
}

func (a *api) deleteSiteSpace(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteSiteSpace(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteSpaceId"))
	respondEmpty(w, r, http.StatusResetContent, err)
}

// siteSpacesField is createSite's `spaces`: ids of spaces, or "new" for a new space titled like
// the site.
type siteSpacesField struct {
	IDs []string
	New bool
}

func (f *siteSpacesField) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(b, &s) == nil && s == "new" {
		f.New = true
		return nil
	}
	if json.Unmarshal(b, &f.IDs) != nil {
		return invalidValue(`must be an array of space ids, or "new"`)
	}
	return nil
}
