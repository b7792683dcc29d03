package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/apperr"
)

// decodeBody reads a JSON object body into v. An empty body is an empty object; fields the server
// does not know are ignored (integrations may send fields of the reference API we do not keep).
// Returns INVALID naming the field for a wrong type or value, TOO_LARGE over the body limit.
func decodeBody(r *http.Request, v any) error {
	err := readBody(r, v)
	if err != nil {
		logRefusedBody(r, err)
	}
	return err
}

// decodeInput decodes a body and converts it to the resolvers' input (its input method).
func decodeInput[I any, B interface{ input() (I, error) }](r *http.Request) (I, error) {
	var body B
	if err := decodeBody(r, &body); err != nil {
		var none I
		return none, err
	}
	return body.input()
}

func readBody(r *http.Request, v any) error {
	if body := requestBody(r); body != nil { // read and checked by bodyReader already: no second copy
		return decodeBodyObject(body, v)
	}
	body, err := io.ReadAll(r.Body)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return apperr.TooLargef("request body: must be at most %d bytes", tooLarge.Limit)
	}
	if err != nil {
		return apperr.Invalidf("request body: could not be read")
	}
	return decodeBodyObject(body, v)
}

// decodeBodyObject decodes a body that must be a JSON object; an empty one is an empty object.
func decodeBodyObject(body []byte, v any) error {
	switch strings.TrimSpace(string(body)) {
	case "":
		body = []byte("{}")
	case "null":
		return apperr.Invalidf("request body: must be a JSON object (got null)")
	}
	return decodeJSON(body, v)
}

// logRefusedBody records at info level a request refused for its body: what was wrong (the
// message the client gets), never the body, which may hold secrets.
func logRefusedBody(r *http.Request, err error) {
	slog.InfoContext(r.Context(), "request body refused", "method", r.Method, "path", r.URL.Path,
		"error", graph.AsAppError(r.Context(), err).Message)
}

// refuseBody answers a request refused for its body, and logs it.
func refuseBody(w http.ResponseWriter, r *http.Request, err error) {
	logRefusedBody(r, err)
	writeError(w, r, err)
}

// graphQLBody is the body of a GraphQL request. Variables and extensions are decoded apart, with
// their numbers as json.Number, as gqlgen decodes them.
type graphQLBody struct {
	Query         string          `json:"query"`
	OperationName string          `json:"operationName"`
	Variables     json.RawMessage `json:"variables"`
	Extensions    json.RawMessage `json:"extensions"`
}

// decodeGraphQL decodes a GraphQL request's body once, for gqlgen (graph.WithParams), and answers
// one that does not decode with the API's error body, naming what is wrong: gqlgen would answer
// with the whole body copied into its message.
func decodeGraphQL(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := requestBody(r)
		params, err := graphQLParams(body)
		if err != nil {
			refuseBody(w, r, err)
			return
		}
		r = r.WithContext(graph.WithParams(r.Context(), params))
		r.Body = io.NopCloser(bytes.NewReader(body)) // gqlgen's multipart/mixed transport reads it itself
		next.ServeHTTP(w, r)
	})
}

func graphQLParams(body []byte) (*graphql.RawParams, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, apperr.Invalidf(`request body: empty; send {"query": "…"}`)
	}
	var b graphQLBody
	if err := decodeJSON(body, &b); err != nil {
		return nil, err
	}
	p := &graphql.RawParams{Query: b.Query, OperationName: b.OperationName}
	var err error
	if p.Variables, err = decodeObject("variables", b.Variables); err != nil {
		return nil, err
	}
	p.Extensions, err = decodeObject("extensions", b.Extensions)
	return p, err
}

// decodeObject decodes raw, a valid JSON value, as an object with json.Number numbers; null or
// nothing is nil.
func decodeObject(name string, raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, apperr.Invalidf("%s: must be an object", name)
	}
	return m, nil
}

func decodeJSON(body []byte, v any) error {
	err := json.Unmarshal(body, v)
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syntax):
		return apperr.Invalidf("request body: malformed JSON at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.As(err, &typ) && typ.Type == reflect.TypeOf(badValue{}):
		return apperr.Invalidf("%s: %s", fieldName(typ.Field), typ.Value)
	case errors.As(err, &typ):
		return apperr.Invalidf("%s: must be %s (got %s)", fieldName(typ.Field), jsonKind(typ.Type), typ.Value)
	}
	return apperr.Invalidf("request body: %s", err.Error())
}

func fieldName(f string) string {
	if f == "" {
		return "request body"
	}
	return f
}

// badValue marks an UnmarshalTypeError raised by a wire type's own check: its Value is the message.
// encoding/json fills in the field path of such errors, so messages name the field.
type badValue struct{}

func invalidValue(format string, args ...any) error {
	return &json.UnmarshalTypeError{Value: fmt.Sprintf(format, args...), Type: reflect.TypeOf(badValue{})}
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a " + t.String()
}

// role is a Role in a request body; unknown values are refused with the field's name.
type role viewer.Role

func (r *role) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) != nil {
		return invalidValue("must be a role: one of admin, create, edit, review, comment, read")
	}
	parsed, err := viewer.ParseRole(s)
	if err != nil {
		return invalidValue("%s", err.Error())
	}
	*r = role(parsed)
	return nil
}

// teamRole is a TeamRole in a request body.
type teamRole viewer.TeamRole

func (r *teamRole) UnmarshalJSON(b []byte) error {
	var s string
	_ = json.Unmarshal(b, &s)
	if s != string(viewer.TeamOwner) && s != string(viewer.TeamMember) {
		return invalidValue("must be owner or member")
	}
	*r = teamRole(s)
	return nil
}

// nullable is an optional field where null means "remove": absent, null, or a value.
type nullable[T any] struct {
	Set   bool
	Value *T
}

func (n *nullable[T]) UnmarshalJSON(b []byte) error {
	n.Set = true
	if string(b) == "null" {
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	n.Value = &v
	return nil
}

// notNull is an optional field that must not be null when present: a value can be changed, not
// removed.
type notNull[T any] struct {
	Value *T
}

func (n *notNull[T]) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return invalidValue("must not be null")
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	n.Value = &v
	return nil
}

// Or returns the value, or def when the field is absent.
func (n notNull[T]) Or(def T) T {
	if n.Value == nil {
		return def
	}
	return *n.Value
}

// omittable converts the field for a resolver input.
func omittable[T, U any](n nullable[T], conv func(T) U) graphql.Omittable[*U] {
	if !n.Set {
		return graphql.Omittable[*U]{}
	}
	if n.Value == nil {
		return graphql.OmittableOf[*U](nil)
	}
	u := conv(*n.Value)
	return graphql.OmittableOf(&u)
}

func same[T any](v T) T { return v }

func asRole(r role) viewer.Role { return viewer.Role(r) }

func rolePtr(r *role) *viewer.Role {
	if r == nil {
		return nil
	}
	v := viewer.Role(*r)
	return &v
}

// query reads the query parameters of a list.
type query struct{ r *http.Request }

func (q query) str(name string) *string {
	if !q.r.URL.Query().Has(name) {
		return nil
	}
	s := q.r.URL.Query().Get(name)
	return &s
}

// limit reads `limit`: a whole number 0..1000. Returns INVALID otherwise.
func (q query) limit() (*int, error) {
	s := q.str("limit")
	if s == nil {
		return nil, nil
	}
	n, err := strconv.ParseFloat(*s, 64)
	if err != nil || n != float64(int(n)) {
		return nil, apperr.Invalidf("limit: must be a whole number between 0 and 1000 (got %q)", truncate(*s, 40))
	}
	i := int(n)
	return &i, nil
}

// oneOf reads an enum parameter. Returns INVALID naming the allowed values.
func (q query) oneOf(name string, allowed ...string) (string, error) {
	s := q.str(name)
	if s == nil {
		return "", nil
	}
	for _, a := range allowed {
		if *s == a {
			return a, nil
		}
	}
	return "", apperr.Invalidf("%s: must be one of %s (got %q)", name, strings.Join(allowed, ", "), truncate(*s, 40))
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// decodeEnum reads a JSON string into *dst when valid accepts it (an ent enum's validator);
// otherwise the error lists the values.
func decodeEnum[T ~string](b []byte, dst *T, valid func(T) error, values string) error {
	var s string
	_ = json.Unmarshal(b, &s)
	if valid(T(s)) != nil {
		return invalidValue("must be %s", values)
	}
	*dst = T(s)
	return nil
}
