package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
)

// SiteSection is the wire shape of a section (the reference client's SiteSection). Sections are
// never drafts here.
type SiteSection struct {
	Object       string        `json:"object"`
	ID           string        `json:"id"`
	Title        string        `json:"title"`
	Description  *string       `json:"description,omitempty"`
	Default      bool          `json:"default"`
	Draft        bool          `json:"draft"`
	Path         string        `json:"path"`
	Condition    *string       `json:"condition,omitempty"`
	SectionGroup *string       `json:"sectionGroup,omitempty"`
	Icon         *string       `json:"icon,omitempty"`
	SiteSpaces   []SiteSpace   `json:"siteSpaces"`
	URLs         publishedURLs `json:"urls"`
}

// SiteSectionGroup is the wire shape of a section group (the reference client's
// SiteSectionGroup): `sections` and `children` both list its sections (groups do not nest here).
type SiteSectionGroup struct {
	Object   string        `json:"object"`
	ID       string        `json:"id"`
	Title    string        `json:"title"`
	Icon     *string       `json:"icon,omitempty"`
	Draft    bool          `json:"draft"`
	Sections []SiteSection `json:"sections"`
	Children []SiteSection `json:"children"`
}

// SiteStructure is the wire shape of a site's structure: `sections` with its top level (sections
// and section groups), or `siteSpaces` with its site spaces.
type SiteStructure struct {
	Type      string `json:"type"`
	Structure []any  `json:"structure"`
}

func (a *api) siteSection(ctx context.Context, sec *ent.SiteSection) (SiteSection, error) {
	sr := a.r.SiteSection()
	s, err := sr.Site(ctx, sec)
	if err != nil {
		return SiteSection{}, err
	}
	spaces, err := sr.SiteSpaces(ctx, sec)
	if err != nil {
		return SiteSection{}, err
	}
	w := SiteSection{
		Object: "site-section", ID: sec.ID, Title: sec.Title, Description: sec.Description, Default: sec.IsDefault,
		Path: sec.Path, Condition: sec.Condition, SectionGroup: sec.SectionGroupID, Icon: sec.Icon,
	}
	if s.Published {
		if w.URLs.Published, err = sr.URL(ctx, sec); err != nil {
			return w, err
		}
	}
	w.SiteSpaces, err = convertAll(ctx, spaces, a.siteSpaceOf(s))
	return w, err
}

func (a *api) siteSectionGroup(ctx context.Context, g *ent.SiteSectionGroup) (SiteSectionGroup, error) {
	secs, err := a.r.SiteSectionGroup().Sections(ctx, g)
	if err != nil {
		return SiteSectionGroup{}, err
	}
	w := SiteSectionGroup{Object: "site-section-group", ID: g.ID, Title: g.Title, Icon: g.Icon}
	w.Sections, err = convertAll(ctx, secs, a.siteSection)
	w.Children = w.Sections
	return w, err
}

// siteStructure returns the converter of the structure of site s.
func (a *api) siteStructure(s *ent.Site) func(context.Context, *model.SiteStructure) (SiteStructure, error) {
	return func(ctx context.Context, st *model.SiteStructure) (SiteStructure, error) {
		if st.Type() == model.SiteStructureTypeSiteSpaces {
			spaces, err := convertAll(ctx, st.SiteSpaces, a.siteSpaceOf(s))
			return SiteStructure{Type: "siteSpaces", Structure: anySlice(spaces)}, err
		}
		items, err := convertAll(ctx, st.Items, a.structureItem)
		return SiteStructure{Type: "sections", Structure: items}, err
	}
}

// structureItem converts an item of a site's top level: a section or a section group.
func (a *api) structureItem(ctx context.Context, it model.SiteStructureItem) (any, error) {
	switch it := it.(type) {
	case *ent.SiteSection:
		return a.siteSection(ctx, it)
	case *ent.SiteSectionGroup:
		return a.siteSectionGroup(ctx, it)
	}
	return nil, apperr.Internalw(fmt.Errorf("site structure: unexpected item %T", it))
}

func anySlice[T any](items []T) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it
	}
	return out
}

// sectionPointer is a SiteSectionPointer of a section's move: {type: site-section, siteSection: <id>}.
type sectionPointer model.SiteStructurePointerInput

func (p *sectionPointer) UnmarshalJSON(b []byte) error {
	var ref struct {
		Type        string  `json:"type"`
		SiteSection *string `json:"siteSection"`
	}
	if json.Unmarshal(b, &ref) != nil || ref.Type != "site-section" || ref.SiteSection == nil {
		return invalidValue(`must be {"type": "site-section", "siteSection": <id>}`)
	}
	p.Section = ref.SiteSection
	return nil
}

// groupPointer is a SiteSectionGroupPointer of a group's move: {type: site-section or
// site-section-group, id: <id>}.
type groupPointer model.SiteStructurePointerInput

func (p *groupPointer) UnmarshalJSON(b []byte) error {
	var ref struct {
		Type string  `json:"type"`
		ID   *string `json:"id"`
	}
	err := json.Unmarshal(b, &ref)
	switch {
	case err != nil || ref.ID == nil:
	case ref.Type == "site-section":
		p.Section = ref.ID
		return nil
	case ref.Type == "site-section-group":
		p.Group = ref.ID
		return nil
	}
	return invalidValue(`must be {"type": "site-section" or "site-section-group", "id": <id>}`)
}

// structMoveBody is the body of a section's or a section group's move, with pointers of type P.
type structMoveBody[P sectionPointer | groupPointer] struct {
	Position *struct {
		Before *P `json:"before"`
		After  *P `json:"after"`
	} `json:"position"`
}

// decodeStructMove reads the body of a section's or a section group's move, {position?: {before?,
// after?}} with pointers of type P, and returns its position (nil: to the end).
func decodeStructMove[P sectionPointer | groupPointer](r *http.Request) (*model.SiteStructurePositionInput, error) {
	var body structMoveBody[P]
	if err := decodeBody(r, &body); err != nil || body.Position == nil {
		return nil, err
	}
	before, after := structPointer(body.Position.Before), structPointer(body.Position.After)
	if before == nil && after == nil {
		return nil, nil
	}
	return &model.SiteStructurePositionInput{Before: before, After: after}, nil
}

func structPointer[P sectionPointer | groupPointer](p *P) *model.SiteStructurePointerInput {
	if p == nil {
		return nil
	}
	v := model.SiteStructurePointerInput(*p)
	return &v
}
