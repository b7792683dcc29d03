package rest

import (
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/mergerules"
)

// Wire shapes of spec/01, field for field (the reference client's schemas where spec/01 is silent).

// List is List<T>: next is omitted on the last page. count, the total of the list, is optional in
// the reference client; it is omitted where counting would cost more than the page (serveUncounted).
type List[T any] struct {
	Next  *Next `json:"next,omitempty"`
	Count *int  `json:"count,omitempty"`
	Items []T   `json:"items"`
}

// Next names the following page.
type Next struct {
	Page string `json:"page"`
}

type urls struct {
	Location  string `json:"location"`
	App       string `json:"app,omitempty"`
	Logo      string `json:"logo,omitempty"`
	Published string `json:"published,omitempty"`
}

// User is the wire shape of a user.
type User struct {
	Object      string `json:"object"`
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
	Email       string `json:"email"`
	PhotoURL    string `json:"photoURL,omitempty"`
	URLs        urls   `json:"urls"`
}

// Organization is the wire shape of an organization.
type Organization struct {
	Object         string                         `json:"object"`
	ID             string                         `json:"id"`
	Title          string                         `json:"title"`
	CreatedAt      time.Time                      `json:"createdAt"`
	EmailDomains   []string                       `json:"emailDomains"`
	Hostname       *string                        `json:"hostname,omitempty"`
	Type           string                         `json:"type"`
	UseCase        *string                        `json:"useCase,omitempty"`
	CommunityType  *string                        `json:"communityType,omitempty"`
	DefaultRole    *viewer.Role                   `json:"defaultRole"`
	DefaultContent *defaultContent                `json:"defaultContent,omitempty"`
	SSO            bool                           `json:"sso"`
	AI             bool                           `json:"ai"`
	InviteLinks    bool                           `json:"inviteLinks"`
	Plan           string                         `json:"plan"`
	MergeRules     mergeRules                     `json:"mergeRules"`
	Trial          trial                          `json:"trial"`
	URLs           urls                           `json:"urls"`
	Permissions    *model.OrganizationPermissions `json:"permissions"`
}

type defaultContent struct {
	Type string `json:"type"`
	Site string `json:"site"`
}

// mergeRules is a merge rules configuration (the reference's MergeRulesSpaceConfiguration):
// inherit, none, or rules, which always lists its rules. An organization's is none or rules.
type mergeRules struct {
	Type  string          `json:"type"`
	Rules []mergeRuleWire `json:"rules,omitzero"`
}

// mergeRuleWire is one merge rule: users for the rules that name people.
type mergeRuleWire struct {
	Rule  string   `json:"rule"`
	Users []string `json:"users,omitempty"`
}

// mergeRulesOf is the wire shape of a configuration.
func mergeRulesOf(c *mergerules.Config) mergeRules {
	w := mergeRules{Type: c.Type}
	if c.Type == mergerules.TypeRules {
		w.Rules = make([]mergeRuleWire, len(c.Rules))
		for i, r := range c.Rules {
			w.Rules[i] = mergeRuleWire{Rule: r.Rule, Users: r.Users}
		}
	}
	return w
}

// input is a configuration in a request body as the resolvers take it.
func (m mergeRules) input() *model.MergeRulesInput {
	in := &model.MergeRulesInput{Type: model.MergeRulesType(strings.ToUpper(m.Type))}
	for _, r := range m.Rules {
		in.Rules = append(in.Rules, &model.MergeRuleInput{Rule: r.Rule, Users: r.Users})
	}
	return in
}

// trial: a self-hosted server has no billing trials.
type trial struct {
	Status string `json:"status"`
	Count  int    `json:"count"`
}

// Member is the wire shape of an organization member.
type Member struct {
	Object     string       `json:"object"`
	ID         string       `json:"id"`
	Role       *viewer.Role `json:"role"`
	User       User         `json:"user"`
	Disabled   bool         `json:"disabled"`
	JoinedAt   time.Time    `json:"joinedAt"`
	LastSeenAt *time.Time   `json:"lastSeenAt,omitempty"`
	SSO        bool         `json:"sso"`
	Spaces     int          `json:"spaces"`
	Teams      int          `json:"teams"`
	Sites      int          `json:"sites"`
}

// Team is the wire shape of a team.
type Team struct {
	Object      string                 `json:"object"`
	ID          string                 `json:"id"`
	Title       string                 `json:"title"`
	Members     int                    `json:"members"`
	Spaces      int                    `json:"spaces"`
	CreatedAt   time.Time              `json:"createdAt"`
	Permissions *model.TeamPermissions `json:"permissions"`
}

// TeamRole is a member's role in a team.
type TeamRole struct {
	Role viewer.TeamRole `json:"role"`
}

// TeamRosterItem is an item of a team's member list.
type TeamRosterItem struct {
	Organization Member   `json:"organization"`
	Team         TeamRole `json:"team"`
	Permissions  viewPerm `json:"permissions"`
}

type viewPerm struct {
	View bool `json:"view"`
}

// MemberTeamItem is an item of a member's team list.
type MemberTeamItem struct {
	Team   Team     `json:"team"`
	Member TeamRole `json:"member"`
}

// Invite is the wire shape of an organization invite link.
type Invite struct {
	Object    string       `json:"object"`
	ID        string       `json:"id"`
	Role      *viewer.Role `json:"role"`
	Redundant bool         `json:"redundant"`
}

// CustomField is the wire shape of an organization's custom field definition (spec/01 has no
// `object` for it). Options are omitted for types without options.
type CustomField struct {
	ID          string                        `json:"id"`
	Name        string                        `json:"name"`
	Type        string                        `json:"type"`
	Title       *string                       `json:"title,omitempty"`
	Description *string                       `json:"description,omitempty"`
	Placeholder *string                       `json:"placeholder,omitempty"`
	Options     []string                      `json:"options,omitempty"`
	CreatedAt   time.Time                     `json:"createdAt"`
	UpdatedAt   time.Time                     `json:"updatedAt"`
	URLs        urls                          `json:"urls"`
	Permissions *model.CustomFieldPermissions `json:"permissions"`
}

// APIInfo is the answer of GET /v1/.
type APIInfo struct {
	Version string `json:"version"`
	Build   string `json:"build"`
}

func optString[T ~string](v *T) *string {
	if v == nil {
		return nil
	}
	s := string(*v)
	return &s
}

func orgDefaultContent(o *ent.Organization) *defaultContent {
	if o.DefaultContentSite == nil {
		return nil
	}
	return &defaultContent{Type: "site", Site: *o.DefaultContentSite}
}
