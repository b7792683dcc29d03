package server

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/binderyhq/bindery/rest"
)

// MaxHeaderBytes bounds the request line and headers of one request (http.Server.MaxHeaderBytes;
// net/http reads up to 4 KiB past it before refusing). Go's default, 1 MiB, lets each connection
// cost a megabyte before it is refused; no client of the API sends more than a few kilobytes.
const MaxHeaderBytes = 64 << 10

// JSONErrors wraps a listener so that the answers net/http writes by itself, before any handler
// runs — 431 for headers over MaxHeaderBytes, 400 for a malformed request, 501 for an unknown
// transfer encoding — carry the API's error body {"error":{"code","message"}} instead of plain
// text. net/http writes those straight to the connection in one write of a fixed form, and only
// between requests; a write is rewritten only when it has that exact form and nothing was
// written since the connection last read, so a response's own bytes are never taken for one.
func JSONErrors(ln net.Listener) net.Listener { return jsonErrorListener{ln} }

type jsonErrorListener struct{ net.Listener }

func (l jsonErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &jsonErrorConn{Conn: c}, nil
}

// jsonErrorConn is a connection whose writes are checked for net/http's own error answers.
type jsonErrorConn struct {
	net.Conn
	writing atomic.Bool // written since the last read: a response is under way
}

func (c *jsonErrorConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.writing.Store(false)
	}
	return n, err
}

func (c *jsonErrorConn) Write(b []byte) (int, error) {
	if c.writing.Swap(true) {
		return c.Conn.Write(b)
	}
	if answer, ok := jsonAnswer(b); ok {
		if _, err := c.Conn.Write(answer); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	return c.Conn.Write(b)
}

// plainErrorHeaders are the headers of net/http's own error answers, in its order (which no
// answer of a handler has: net/http sorts a response's headers).
const plainErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// maxPlainError is longer than any answer net/http writes by itself.
const maxPlainError = 1024

// jsonAnswer turns net/http's "HTTP/1.1 431 Request Header Fields Too Large" + plainErrorHeaders +
// text into the same status with the API's error body.
func jsonAnswer(b []byte) ([]byte, bool) {
	if len(b) > maxPlainError || !bytes.HasPrefix(b, []byte("HTTP/1.1 ")) {
		return nil, false
	}
	statusLine, text, ok := bytes.Cut(b, []byte(plainErrorHeaders))
	if !ok || bytes.Contains(statusLine, []byte("\r\n")) || len(statusLine) < len("HTTP/1.1 400 ") || statusLine[12] != ' ' {
		return nil, false
	}
	code, err := strconv.Atoi(string(statusLine[len("HTTP/1.1 ") : len("HTTP/1.1 ")+3]))
	if err != nil || code < 400 || code > 599 {
		return nil, false
	}
	message := strings.TrimPrefix(string(text), strconv.Itoa(code)+" ")
	switch {
	case code == http.StatusRequestHeaderFieldsTooLarge:
		message = fmt.Sprintf("request headers: must be at most %d bytes together", MaxHeaderBytes)
	case message == http.StatusText(code):
		message = "malformed HTTP request: its request line or headers could not be read"
	}
	j := rest.ErrorJSON(code, message)
	return fmt.Appendf(nil, "%s\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		statusLine, len(j), j), true
}
