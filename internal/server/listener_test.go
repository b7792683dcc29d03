package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
)

// FuzzJSONAnswer: what jsonAnswer rewrites is an HTTP answer with the same status whose body is
// the API's error body; anything else it leaves alone.
func FuzzJSONAnswer(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 431 Request Header Fields Too Large" + plainErrorHeaders + "431 Request Header Fields Too Large",
		"HTTP/1.1 400 Bad Request: missing required Host header" + plainErrorHeaders + "400 Bad Request: missing required Host header",
		"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhi",
		"HTTP/1.1 4" + plainErrorHeaders,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out, ok := jsonAnswer(b)
		if !ok {
			return
		}
		res, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(out)), nil)
		if err != nil {
			t.Fatalf("%q → %q: %v", b, out, err)
		}
		var body struct{ Error struct{ Code int } }
		if err := json.NewDecoder(res.Body).Decode(&body); err != nil || body.Error.Code != res.StatusCode {
			t.Fatalf("%q → %q: body %+v, %v", b, out, body, err)
		}
	})
}
