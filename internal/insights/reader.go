package insights

import (
	"context"
	"net/http"
)

type readerKey struct{}

// ReaderOf is the reader sending r from address: untracked when they ask not to be (DNT: 1 or
// Sec-GPC: 1).
func ReaderOf(r *http.Request, address string) Reader {
	return Reader{Address: address, UserAgent: r.Header.Get("User-Agent"),
		Untracked: r.Header.Get("DNT") == "1" || r.Header.Get("Sec-GPC") == "1"}
}

// WithReader returns ctx carrying the reader of its request.
func WithReader(ctx context.Context, r Reader) context.Context {
	return context.WithValue(ctx, readerKey{}, r)
}

// ReaderFrom is the reader of ctx's request (the zero Reader when none was set).
func ReaderFrom(ctx context.Context) Reader {
	r, _ := ctx.Value(readerKey{}).(Reader)
	return r
}
