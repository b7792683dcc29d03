// Package dnstest is a DNS server on loopback for tests: it answers A, AAAA and CNAME questions
// from a table of names, so code that resolves host names can be tested without the network.
package dnstest

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// Zone is the names a Server answers: each name (without the final dot) has addresses or a
// CNAME target; a name in Fail is answered SERVFAIL; any other name NXDOMAIN.
type Zone struct {
	Addrs map[string][]netip.Addr
	CNAME map[string]string
	Fail  map[string]bool
}

// Resolver starts a DNS server answering zone on 127.0.0.1 until tb ends, and returns a
// resolver that asks only it.
func Resolver(tb testing.TB, zone Zone) *net.Resolver {
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	go serve(conn, zone)
	addr := conn.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "udp", addr)
	}}
}

func serve(conn net.PacketConn, zone Zone) {
	buf := make([]byte, 1500)
	for {
		n, from, err := conn.ReadFrom(buf)
		if err != nil {
			return
		}
		if reply, err := zone.answer(buf[:n]); err == nil {
			conn.WriteTo(reply, from)
		}
	}
}

// answer is the reply to one query.
func (z Zone) answer(query []byte) ([]byte, error) {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil, err
	}
	q, err := p.Question()
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(strings.ToLower(q.Name.String()), ".")
	head := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionAvailable: true}
	var answers []dnsmessage.Resource
	switch {
	case z.Fail[name]:
		head.RCode = dnsmessage.RCodeServerFailure
	case !z.known(name):
		head.RCode = dnsmessage.RCodeNameError
	default:
		answers = z.records(name, q.Type)
	}
	b := dnsmessage.NewBuilder(nil, head)
	b.EnableCompression()
	if err := b.StartQuestions(); err != nil {
		return nil, err
	}
	if err := b.Question(q); err != nil {
		return nil, err
	}
	if err := b.StartAnswers(); err != nil {
		return nil, err
	}
	for _, r := range answers {
		if err := addRecord(&b, r); err != nil {
			return nil, err
		}
	}
	return b.Finish()
}

func (z Zone) known(name string) bool {
	_, a := z.Addrs[name]
	_, c := z.CNAME[name]
	return a || c
}

// records are the answers to a question of type t about name, following CNAMEs.
func (z Zone) records(name string, t dnsmessage.Type) []dnsmessage.Resource {
	var out []dnsmessage.Resource
	for hops := 0; hops < 8; hops++ {
		target, ok := z.CNAME[name]
		if !ok {
			break
		}
		out = append(out, resource(name, dnsmessage.TypeCNAME, &dnsmessage.CNAMEResource{CNAME: dnsmessage.MustNewName(target + ".")}))
		if t == dnsmessage.TypeCNAME {
			return out
		}
		name = target
	}
	for _, a := range z.Addrs[name] {
		switch {
		case a.Is4() && t == dnsmessage.TypeA:
			out = append(out, resource(name, t, &dnsmessage.AResource{A: a.As4()}))
		case a.Is6() && t == dnsmessage.TypeAAAA:
			out = append(out, resource(name, t, &dnsmessage.AAAAResource{AAAA: a.As16()}))
		}
	}
	return out
}

func resource(name string, t dnsmessage.Type, body dnsmessage.ResourceBody) dnsmessage.Resource {
	return dnsmessage.Resource{Header: dnsmessage.ResourceHeader{Name: dnsmessage.MustNewName(name + "."), Type: t,
		Class: dnsmessage.ClassINET, TTL: 60}, Body: body}
}

func addRecord(b *dnsmessage.Builder, r dnsmessage.Resource) error {
	switch body := r.Body.(type) {
	case *dnsmessage.AResource:
		return b.AResource(r.Header, *body)
	case *dnsmessage.AAAAResource:
		return b.AAAAResource(r.Header, *body)
	case *dnsmessage.CNAMEResource:
		return b.CNAMEResource(r.Header, *body)
	}
	return nil
}
