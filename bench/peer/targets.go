package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// target is one question asked of one server.
type target struct {
	query string // nested, point read, or static
	name  string // e.g. "Bindery GraphQL, SQLite"
	store string // "SQLite" or "PostgreSQL" for Bindery; "" for the peer and the baseline
	// computed: a Bindery server without its read cache, which computes every answer
	method   string
	url      string
	body     string
	token    string
	computed bool
	check    func(doc any) error // of the decoded answer; nil: any 200 will do
	// variants, when set, are what wrk picks from at random for each request: URL paths of a GET,
	// bodies of a POST (the request above is the first, which the checks send).
	variants []string
	// write, when set, is sent about writesPerSecond times a second beside wrk's reads.
	write func(ctx context.Context, client *http.Client) error

	alone time.Duration // median of single requests
	runs  []wrkRun      // one per round
}

// side is one Bindery server with the ids of its rows.
type side struct {
	store    string
	computed bool // started with its read cache off
	url      string
	f        fixture
}

// buildTargets lists the questions in the order they are measured in each round: the peer,
// then Bindery on each store, per query, and the fixed-bytes baseline last.
func buildTargets(peerDir, peerURL, staticURL string, sides ...side) ([]*target, error) {
	var files [3]string
	for i, name := range []string{"q.json", "q2.json", "bindery-nested.json"} {
		b, err := os.ReadFile(peerDir + "/" + name)
		if err != nil {
			return nil, err
		}
		files[i] = strings.TrimSpace(string(b))
	}
	peerNested, peerPoint, binderyNested := files[0], files[1], files[2]
	post := func(query, name, store, url, body, token string, check func(any) error) *target {
		return &target{query: query, name: name, store: store, method: http.MethodPost, url: url, body: body, token: token, check: check}
	}
	of := func(s side, t *target) *target {
		t.computed = s.computed
		return t
	}
	targets := []*target{post("nested", "PostGraphile", "", peerURL+"/graphql", peerNested, "", checkNested(
		[]string{"data", "organizationById", "spacesByOrganizationIdList"},
		[]string{"changeRequestsBySpaceIdList"}, []string{"userByCreatedById", "id"}))}
	for _, s := range sides {
		targets = append(targets, of(s, post("nested", "Bindery GraphQL", s.store, s.url+"/graphql",
			strings.ReplaceAll(binderyNested, "ORG_ID", s.f.orgID), s.f.token, checkNested(
				[]string{"data", "organization", "spaces", "edges", "node"},
				[]string{"changeRequests", "edges", "node"}, []string{"createdBy", "id"}))))
	}
	targets = append(targets, post("point read", "PostGraphile", "", peerURL+"/graphql", peerPoint, "",
		checkSpace([]string{"data", "spaceById"}, "s1")))
	for _, s := range sides {
		id := s.f.spaceID
		targets = append(targets,
			of(s, post("point read", "Bindery GraphQL", s.store, s.url+"/graphql",
				binderySpaceQuery(id), s.f.token,
				checkSpace([]string{"data", "space"}, id))),
			of(s, &target{query: "point read", name: "Bindery REST", store: s.store, method: http.MethodGet,
				url: s.url + "/v1/spaces/" + id, token: s.f.token, check: checkSpace(nil, id)}))
	}
	targets = append(targets, randomTargets(peerURL, sides)...)
	return append(targets, &target{query: "static", name: "735 fixed bytes", method: http.MethodGet, url: staticURL}), nil
}

// binderySpaceQuery is the GraphQL body of a point read of the space id.
func binderySpaceQuery(id string) string {
	return fmt.Sprintf(`{"query":"{ space(id: \"%s\") { id title } }"}`, id)
}

// randomQuery reads one of the 1,000 spaces at random per request while titles of spaces change
// beside it: what users send, where the point read repeats one request to an unchanged database.
const randomQuery = "random point read"

// randomTargets are the random point reads of the peer and of every Bindery side, each with its
// writes beside. Space 1 is never written, so the checks of the point read keep holding.
func randomTargets(peerURL string, sides []side) []*target {
	peerBody := func(id string) string {
		return fmt.Sprintf(`{"query":"query { spaceById(id: \"%s\") { id title } }"}`, id)
	}
	peer := &target{query: randomQuery, name: "PostGraphile", method: http.MethodPost, url: peerURL + "/graphql",
		check: checkAnySpace([]string{"data", "spaceById"})}
	for k := 1; k <= nSpaces; k++ {
		peer.variants = append(peer.variants, peerBody(fmt.Sprintf("s%d", k)))
	}
	peer.body = peer.variants[0]
	peer.write = func(ctx context.Context, client *http.Client) error {
		k, title := nextTitle()
		body := fmt.Sprintf(`{"query":"mutation { updateSpaceById(input: {id: \"s%d\", spacePatch: {title: \"%s\"}}) { space { id } } }"}`, k, title)
		return sendWrite(ctx, client, http.MethodPost, peer.url, body, "")
	}
	targets := []*target{peer}
	for _, s := range sides {
		write := func(ctx context.Context, client *http.Client) error {
			k, title := nextTitle()
			return sendWrite(ctx, client, http.MethodPatch, s.url+"/v1/spaces/"+s.f.spaceIDs[k-1],
				fmt.Sprintf(`{"title":%q}`, title), s.f.token)
		}
		gql := &target{query: randomQuery, name: "Bindery GraphQL", store: s.store, computed: s.computed, method: http.MethodPost,
			url: s.url + "/graphql", token: s.f.token, check: checkAnySpace([]string{"data", "space"}), write: write}
		rest := &target{query: randomQuery, name: "Bindery REST", store: s.store, computed: s.computed, method: http.MethodGet,
			url: s.url + "/v1/spaces/" + s.f.spaceIDs[0], token: s.f.token, check: checkAnySpace(nil), write: write}
		for _, id := range s.f.spaceIDs {
			gql.variants = append(gql.variants, binderySpaceQuery(id))
			rest.variants = append(rest.variants, "/v1/spaces/"+id)
		}
		gql.body = gql.variants[0]
		targets = append(targets, gql, rest)
	}
	return targets
}

// writes counts the titles written beside the random reads, so that every write changes one.
var writes atomic.Int64

// nextTitle picks the space (2…1000) of the next write and its new title.
func nextTitle() (k int, title string) {
	n := writes.Add(1)
	k = 2 + int(n)%(nSpaces-1)
	return k, fmt.Sprintf("Space %d, write %d", k, n)
}

// sendWrite sends a write and wants a 200 without GraphQL errors.
func sendWrite(ctx context.Context, client *http.Client, method, url, body, token string) error {
	status, answer, err := exchange(ctx, client, method, url, body, token)
	if err != nil {
		return err
	}
	if status != http.StatusOK || len(at(decoded(answer), "errors")) > 0 {
		return fmt.Errorf("write %s %s: status %d: %.300s", method, url, status, answer)
	}
	return nil
}

// decoded is the JSON document b, or nil when it is not one.
func decoded(b []byte) any {
	var doc any
	json.Unmarshal(b, &doc)
	return doc
}

// label names the target in the table.
func (t *target) label() string {
	switch {
	case t.store == "":
		return t.name
	case t.computed:
		return t.name + ", " + t.store + ", computed"
	}
	return t.name + ", " + t.store
}

// do sends the target's request once and checks the answer: a 200, no GraphQL errors, and what
// t.check wants of it.
func (t *target) do(ctx context.Context, client *http.Client) error {
	status, body, err := exchange(ctx, client, t.method, t.url, t.body, t.token)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("%s: status %d: %.300s", t.label(), status, body)
	}
	if t.check == nil {
		return nil
	}
	var doc any
	if err := json.Unmarshal(body, &doc); err != nil {
		return fmt.Errorf("%s: %w: %.300s", t.label(), err, body)
	}
	if errs := at(doc, "errors"); len(errs) > 0 {
		return fmt.Errorf("%s: GraphQL errors: %.300s", t.label(), body)
	}
	if err := t.check(doc); err != nil {
		return fmt.Errorf("%s (%s): %w", t.label(), t.query, err)
	}
	return nil
}

// exchange sends one request, JSON when it has a body, with the bearer token when there is one,
// and returns the answer's status and body.
func exchange(ctx context.Context, client *http.Client, method, url, body, token string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(res.Body)
	return res.StatusCode, answer, err
}

// checkAll asks every target once and checks each answer.
func checkAll(ctx context.Context, targets []*target) error {
	for _, t := range targets {
		if err := t.do(ctx, http.DefaultClient); err != nil {
			return err
		}
	}
	return nil
}

// checkNested wants 50 spaces at spaces, each with 10 change requests at crs, each with an
// author's id at author.
func checkNested(spaces, crs, author []string) func(any) error {
	return func(doc any) error {
		ss := at(doc, spaces...)
		if len(ss) != 50 {
			return fmt.Errorf("%d spaces, want 50", len(ss))
		}
		for _, s := range ss {
			cs := at(s, crs...)
			if len(cs) != 10 {
				return fmt.Errorf("a space with %d change requests, want 10", len(cs))
			}
			for _, c := range cs {
				if ids := at(c, author...); len(ids) != 1 || ids[0] == "" {
					return errors.New("a change request without its author")
				}
			}
		}
		return nil
	}
}

// checkAnySpace wants one space with an id and a title at path.
func checkAnySpace(path []string) func(any) error {
	return func(doc any) error {
		if ids, titles := at(doc, slices.Concat(path, []string{"id"})...), at(doc, slices.Concat(path, []string{"title"})...); len(ids) != 1 || len(titles) != 1 {
			return fmt.Errorf("want one space with its title, got ids %v titles %v", ids, titles)
		}
		return nil
	}
}

// checkSpace wants the space id titled "Space 1" at path.
func checkSpace(path []string, id string) func(any) error {
	return func(doc any) error {
		ids, titles := at(doc, slices.Concat(path, []string{"id"})...), at(doc, slices.Concat(path, []string{"title"})...)
		if len(ids) != 1 || ids[0] != id || len(titles) != 1 || titles[0] != "Space 1" {
			return fmt.Errorf("want the space %s titled Space 1, got ids %v titles %v", id, ids, titles)
		}
		return nil
	}
}

// at returns the values at path in a decoded JSON document, going into every element of the
// lists on the way; a missing or null value gives none.
func at(v any, path ...string) []any {
	if list, ok := v.([]any); ok {
		var out []any
		for _, e := range list {
			out = append(out, at(e, path...)...)
		}
		return out
	}
	if v == nil {
		return nil
	}
	if len(path) == 0 {
		return []any{v}
	}
	m, _ := v.(map[string]any)
	return at(m[path[0]], path[1:]...)
}
