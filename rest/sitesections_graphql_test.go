package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// gqlSiteQuery reads a site's sections, groups and structure.
const gqlSiteQuery = `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) {
	defaultSection { id }
	sections(first: 10) { totalCount edges { node { id title path default condition icon description siteId
		site { id } sectionGroup { id } defaultSiteSpace { id }
		siteSpaces { id path default sectionId space { id title } } } } }
	sectionGroups { totalCount edges { node { id title icon sections { id } } } }
	structure { type siteSpaces { id }
		items { __typename ... on SiteSection { id title } ... on SiteSectionGroup { id title sections { title } } } }
} } }`

// gqlSite is the answer to gqlSiteQuery.
type gqlSite struct {
	Organization struct {
		Site struct {
			DefaultSection *struct{ ID string }
			Sections       struct {
				TotalCount int
				Edges      []struct {
					Node struct {
						ID, Title, Path, SiteID string
						Default                 bool
						Condition, Icon         *string
						Description             *string
						Site                    struct{ ID string }
						SectionGroup            *struct{ ID string }
						DefaultSiteSpace        *struct{ ID string }
						SiteSpaces              []struct {
							ID, Path  string
							Default   bool
							SectionID *string
							Space     *struct{ ID, Title string }
						}
					}
				}
			}
			SectionGroups struct {
				TotalCount int
				Edges      []struct {
					Node struct {
						ID, Title string
						Icon      *string
						Sections  []struct{ ID string }
					}
				}
			}
			Structure struct {
				Type       string
				SiteSpaces []struct{ ID string }
				Items      []struct {
					Typename string `json:"__typename"`
					ID       string
					Title    string
					Sections []struct{ Title string }
				}
			}
		}
	}
}

// gqlStructure is a site's structure as its titles, a group's as "Group[A B]", its type first.
func (g gqlSite) structure() string {
	st := g.Organization.Site.Structure
	parts := []string{st.Type + ":"}
	for _, it := range st.Items {
		if it.Typename == "SiteSectionGroup" {
			var inner []string
			for _, s := range it.Sections {
				inner = append(inner, s.Title)
			}
			parts = append(parts, it.Title+"["+strings.Join(inner, " ")+"]")
		} else {
			parts = append(parts, it.Title)
		}
	}
	for range st.SiteSpaces {
		parts = append(parts, "space")
	}
	return strings.Join(parts, " ")
}

func (f *sectionsFixture) gqlSite(t *testing.T, a testenv.Actor) gqlSite {
	t.Helper()
	var g gqlSite
	gqlOK(t, f.e.GraphQL(a, gqlSiteQuery, map[string]any{"o": f.org, "s": f.site}), &g)
	return g
}

// mutate runs a mutation of the site's structure as a, with $o and $s set, and decodes its data.
func (f *sectionsFixture) mutate(t *testing.T, a testenv.Actor, m string, vars map[string]any, out any) {
	t.Helper()
	gqlOK(t, f.mutation(a, m, vars), out)
}

func (f *sectionsFixture) mutation(a testenv.Actor, m string, vars map[string]any) testenv.GQLResponse {
	all := map[string]any{"o": f.org, "s": f.site}
	for k, v := range vars {
		all[k] = v
	}
	return f.e.GraphQL(a, m, all)
}

func TestGraphQLSiteSections(t *testing.T) {
	f := newSectionsFixture(t)
	f.setSchema(t)
	g := f.gqlSite(t, f.admin)
	if got := g.structure(); got != "SITE_SPACES: space" || g.Organization.Site.DefaultSection != nil {
		t.Fatalf("structure %q, default section %v", got, g.Organization.Site.DefaultSection)
	}
	const create = `mutation($o: ID!, $s: ID!, $in: CreateSiteSectionInput!) { createSiteSection(organizationId: $o, siteId: $s, input: $in) { id title default } }`
	var c struct{ CreateSiteSection struct{ ID, Title string } }
	f.mutate(t, f.admin, create, map[string]any{"in": map[string]any{"spaceId": f.api, "icon": "book"}}, &c)
	first := c.CreateSiteSection.ID
	f.mutate(t, f.admin, create, map[string]any{"in": map[string]any{"spaceId": f.guide, "title": "Guides"}}, &c)
	second := c.CreateSiteSection.ID

	t.Run("OKRead", func(t *testing.T) {
		g := f.gqlSite(t, f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead)))
		s := g.Organization.Site
		if s.DefaultSection == nil || s.DefaultSection.ID != first || s.Sections.TotalCount != 2 {
			t.Fatalf("site %+v", s)
		}
		n := s.Sections.Edges[0].Node
		if n.ID != first || !n.Default || n.Site.ID != f.site || n.SiteID != f.site || deref(n.Icon) != "book" ||
			len(n.SiteSpaces) != 2 || n.SiteSpaces[0].Space.ID != f.docs || n.DefaultSiteSpace.ID != n.SiteSpaces[0].ID ||
			deref(n.SiteSpaces[1].SectionID) != first {
			t.Fatalf("section %+v", n)
		}
		if got := g.structure(); got != "SECTIONS: API Reference Guides" {
			t.Fatalf("structure %q", got)
		}
	})
	t.Run("OKUpdate", func(t *testing.T) {
		const update = `mutation($o: ID!, $s: ID!, $id: ID!, $in: UpdateSiteSectionInput!) {
			updateSiteSection(organizationId: $o, siteId: $s, id: $id, input: $in) { id title path condition icon } }`
		var u struct {
			UpdateSiteSection struct {
				Title, Path     string
				Condition, Icon *string
			}
		}
		f.mutate(t, f.admin, update, map[string]any{"id": first, "in": map[string]any{"title": "Reference", "path": "ref",
			"condition": "visitor.claims.isBetaUser", "icon": nil}}, &u)
		if s := u.UpdateSiteSection; s.Title != "Reference" || s.Path != "ref" || deref(s.Condition) != "visitor.claims.isBetaUser" || s.Icon != nil {
			t.Fatalf("section %+v", s)
		}
		wantGQLError(t, f.mutation(f.admin, update, map[string]any{"id": first, "in": map[string]any{"path": "guides"}}), "CONFLICT", "path")
		wantGQLError(t, f.mutation(f.admin, update, map[string]any{"id": first, "in": map[string]any{"condition": "visitor.claims.nope"}}),
			"BAD_REQUEST", "condition: column 16")
	})
	t.Run("OKGroups", func(t *testing.T) {
		const group = `mutation($o: ID!, $s: ID!, $in: CreateSiteSectionGroupInput!) {
			createSiteSectionGroup(organizationId: $o, siteId: $s, input: $in) { id title sections { id } } }`
		var cg struct {
			CreateSiteSectionGroup struct {
				ID       string
				Sections []struct{ ID string }
			}
		}
		f.mutate(t, f.admin, group, map[string]any{"in": map[string]any{"title": "Products", "sections": []string{second}}}, &cg)
		gid := cg.CreateSiteSectionGroup.ID
		const move = `mutation($o: ID!, $s: ID!, $id: ID!, $p: SiteStructurePositionInput) {
			moveSiteSectionGroup(organizationId: $o, siteId: $s, id: $id, position: $p) { id } }`
		f.mutate(t, f.admin, move, map[string]any{"id": gid, "p": map[string]any{"before": map[string]any{"section": first}}}, &struct{}{})
		if got := f.gqlSite(t, f.admin).structure(); got != "SECTIONS: Products[Guides] Reference" {
			t.Fatalf("structure %q", got)
		}
		const moveSection = `mutation($o: ID!, $s: ID!, $id: ID!, $p: SiteStructurePositionInput) {
			moveSiteSection(organizationId: $o, siteId: $s, id: $id, position: $p) { id sectionGroupId } }`
		f.mutate(t, f.admin, moveSection, map[string]any{"id": first, "p": map[string]any{"after": map[string]any{"section": second}}}, &struct{}{})
		if got := f.gqlSite(t, f.admin).structure(); got != "SECTIONS: Products[Guides Reference]" {
			t.Fatalf("structure %q", got)
		}
		wantGQLError(t, f.mutation(f.admin, moveSection, map[string]any{"id": first, "p": map[string]any{"after": map[string]any{"section": second, "group": gid}}}),
			"BAD_REQUEST", "position.after")
		const remove = `mutation($o: ID!, $s: ID!, $g: ID!, $sec: ID!) {
			removeSiteSectionFromGroup(organizationId: $o, siteId: $s, groupId: $g, sectionId: $sec) { sections { id } } }`
		f.mutate(t, f.admin, remove, map[string]any{"g": gid, "sec": second}, &struct{}{})
		const add = `mutation($o: ID!, $s: ID!, $g: ID!, $sec: ID!) {
			addSiteSectionToGroup(organizationId: $o, siteId: $s, groupId: $g, sectionId: $sec) { sections { id } } }`
		f.mutate(t, f.admin, add, map[string]any{"g": gid, "sec": second}, &struct{}{})
		if got := f.gqlSite(t, f.admin).structure(); got != "SECTIONS: Products[Reference Guides]" {
			t.Fatalf("structure %q", got)
		}
		const update = `mutation($o: ID!, $s: ID!, $id: ID!, $in: UpdateSiteSectionGroupInput!) {
			updateSiteSectionGroup(organizationId: $o, siteId: $s, id: $id, input: $in) { title icon } }`
		var ug struct{ UpdateSiteSectionGroup struct{ Title string } }
		f.mutate(t, f.admin, update, map[string]any{"id": gid, "in": map[string]any{"title": "Catalog", "icon": "box"}}, &ug)
		if ug.UpdateSiteSectionGroup.Title != "Catalog" {
			t.Fatalf("group %+v", ug)
		}
		const del = `mutation($o: ID!, $s: ID!, $id: ID!) { deleteSiteSectionGroup(organizationId: $o, siteId: $s, id: $id) }`
		f.mutate(t, f.admin, del, map[string]any{"id": gid}, &struct{}{})
		if got := f.gqlSite(t, f.admin).structure(); got != "SECTIONS: Reference Guides" {
			t.Fatalf("structure %q", got)
		}
	})
	t.Run("OKDelete", func(t *testing.T) {
		const del = `mutation($o: ID!, $s: ID!, $id: ID!) { deleteSiteSection(organizationId: $o, siteId: $s, id: $id) }`
		var d struct{ DeleteSiteSection bool }
		f.mutate(t, f.admin, del, map[string]any{"id": first}, &d)
		if !d.DeleteSiteSection {
			t.Fatal("deleteSiteSection answered false")
		}
		if s := f.gqlSite(t, f.admin).Organization.Site; s.DefaultSection == nil || s.DefaultSection.ID != second {
			t.Fatalf("default section %+v", s.DefaultSection)
		}
	})
	t.Run("ErrRoles", func(t *testing.T) {
		editor := f.e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit))
		wantGQLError(t, f.mutation(editor, create, map[string]any{"in": map[string]any{"spaceId": f.api}}), "FORBIDDEN")
		wantGQLError(t, f.mutation(f.outsider, create, map[string]any{"in": map[string]any{"spaceId": f.api}}), "NOT_FOUND")
		wantGQLError(t, f.mutation(f.admin, create, map[string]any{"in": map[string]any{"spaceId": f.alien}}), "NOT_FOUND", "spaceId")
		wantGQLError(t, f.mutation(f.admin, create, map[string]any{"in": map[string]any{"spaceId": f.api, "title": "x"}}), "BAD_REQUEST", "title")
	})
	t.Run("ErrOutsiderTraversal", func(t *testing.T) {
		g := f.e.GraphQL(f.outsider, gqlSiteQuery, map[string]any{"o": f.org, "s": f.site})
		if len(g.Errors) == 0 || strings.Contains(string(g.Data), second) {
			t.Fatalf("the outsider reads %s (errors %+v)", g.Data, g.Errors)
		}
		// Through their own organization, another organization's site is not there.
		g = f.e.GraphQL(f.outsider, gqlSiteQuery, map[string]any{"o": f.otherOrg, "s": f.site})
		if strings.Contains(string(g.Data), second) {
			t.Fatalf("the outsider reads %s", g.Data)
		}
	})
}

// TestGraphQLSitesStatements: a page of sites with their sections, groups, structure, and each
// section's site spaces and their spaces costs as many statements for 5 sites as for 50.
func TestGraphQLSitesStatements(t *testing.T) {
	e := testenv.New(t, batchingOptions)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	var spaces []string
	for i := range 3 {
		resp := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": fmt.Sprintf("Space %d", i)})
		spaces = append(spaces, resp.Map(t)["id"].(string))
	}
	addSites := func(n int) {
		for i := range n {
			site := "/v1/orgs/" + org + "/sites/" + authCreated(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/sites",
				map[string]any{"title": fmt.Sprintf("Site %d", i), "spaces": spaces[:2]}))
			authCreated(t, e.Do(admin, "POST", site+"/sections", map[string]any{"spaceId": spaces[2]}))
			grouped := authCreated(t, e.Do(admin, "POST", site+"/sections", map[string]any{"spaceId": spaces[0]}))
			if resp := e.Do(admin, "POST", site+"/section-groups", map[string]any{"title": "G", "sections": []string{grouped}}); resp.Status != http.StatusCreated {
				t.Fatalf("%d %s", resp.Status, resp.Body)
			}
		}
	}
	const q = `query($o: ID!) { organization(id: $o) { sites(first: 50) { edges { node { id
		defaultSection { id }
		sections(first: 50) { edges { node { id title sectionGroup { id } defaultSiteSpace { id }
			siteSpaces { id path space { id title } } } } }
		sectionGroups { edges { node { id sections { id siteSpaces { id } } } } }
		structure { type siteSpaces { id } items { __typename ... on SiteSection { id siteSpaces { id space { id } } }
			... on SiteSectionGroup { id sections { id } } } }
	} } } } }`
	wantSameForSites(t, e, admin, q, org, addSites)
}

// wantSameForSites fails unless the query (with $o the organization) costs as many statements
// for 5 sites as for 50; addSites adds sites to the organization.
func wantSameForSites(t *testing.T, e *testenv.Env, admin testenv.Actor, q, org string, addSites func(n int)) {
	t.Helper()
	count := func() int64 {
		return gqlStatements(t, e, func() { gqlOK(t, e.GraphQL(admin, q, map[string]any{"o": org}), &struct{}{}) })
	}
	addSites(5)
	few := count()
	addSites(45)
	if many := count(); few != many {
		t.Fatalf("%d statements for 5 sites, %d for 50", few, many)
	}
	t.Logf("%d statements for 50 sites", few)
}
