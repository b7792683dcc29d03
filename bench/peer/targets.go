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
				fmt.Sprintf(`{"query":"{ space(id: \"%s\") { id title } }"}`, id), s.f.token,
				checkSpace([]string{"data", "space"}, id))),
			of(s, &target{query: "point read", name: "Bindery REST", store: s.store, method: http.MethodGet,
				url: s.url + "/v1/spaces/" + id, token: s.f.token, check: checkSpace(nil, id)}))
	}
	return append(targets, &target{query: "static", name: "735 fixed bytes", method: http.MethodGet, url: staticURL}), nil
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
	req, err := http.NewRequestWithContext(ctx, t.method, t.url, strings.NewReader(t.body))
	if err != nil {
		return err
	}
	if t.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if t.token != "" {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: status %d: %.300s", t.label(), res.StatusCode, body)
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
