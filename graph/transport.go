package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
)

// decodedPOST is the transport of POST /graphql: package rest decodes the request's body (a body
// that does not decode is answered in the API's error shape) and passes the parameters in the
// context (WithParams), so a body of up to a megabyte is read and decoded once, not again by
// gqlgen's own POST transport. It answers as that transport does with application/json.
type decodedPOST struct{}

var _ graphql.Transport = decodedPOST{}

type paramsKey struct{}

// WithParams returns ctx carrying a GraphQL request's decoded parameters, for the handler.
func WithParams(ctx context.Context, p *graphql.RawParams) context.Context {
	return context.WithValue(ctx, paramsKey{}, p)
}

// Supports implements graphql.Transport: a POST of JSON whose parameters were decoded.
func (decodedPOST) Supports(r *http.Request) bool {
	_, decoded := r.Context().Value(paramsKey{}).(*graphql.RawParams)
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return decoded && err == nil && r.Method == http.MethodPost && mediaType == "application/json"
}

// Do implements graphql.Transport.
func (decodedPOST) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := r.Context()
	params := ctx.Value(paramsKey{}).(*graphql.RawParams)
	params.Headers = r.Header
	now := graphql.Now()
	params.ReadTime = graphql.TraceTiming{Start: now, End: now} // read before the transport ran
	w.Header().Set("Content-Type", "application/json")
	opCtx, errs := exec.CreateOperationContext(ctx, params)
	if errs != nil {
		if errcode.GetErrorKind(errs) == errcode.KindProtocol {
			w.WriteHeader(http.StatusUnprocessableEntity)
		}
		writeResponse(w, exec.DispatchError(graphql.WithOperationContext(ctx, opCtx), errs))
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, opCtx)
	writeResponse(w, responses(ctx))
}

func writeResponse(w http.ResponseWriter, resp *graphql.Response) {
	b, err := json.Marshal(resp)
	if err != nil {
		panic(fmt.Errorf("graphql: the response does not encode: %w", err)) // as gqlgen's transports do
	}
	_, _ = w.Write(b)
}
