package ratelimit

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Proxies are the networks of reverse proxies whose X-Forwarded-For is believed.
type Proxies []netip.Prefix

// ParseProxies parses a comma-separated list of addresses and CIDR networks.
func ParseProxies(list string) (Proxies, error) {
	var p Proxies
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		prefix, err := netip.ParsePrefix(s)
		if err != nil {
			addr, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return nil, fmt.Errorf("--trusted-proxies: %q is neither an address nor a CIDR network", s)
			}
			prefix = netip.PrefixFrom(addr, addr.BitLen())
		}
		p = append(p, prefix.Masked())
	}
	return p, nil
}

func (p Proxies) trusts(a netip.Addr) bool {
	for _, n := range p {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

// ClientAddress is the address a request's budget is kept under: the peer's, or, when the peer
// is a trusted proxy, the last address of X-Forwarded-For that is not one (a client can put any
// addresses first). An IPv6 client counts by its /64 network, which one host usually holds whole.
func (p Proxies) ClientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr = addr.Unmap()
	if p.trusts(addr) {
		addr = p.forwardedClient(r, addr)
	}
	if addr.Is6() {
		return netip.PrefixFrom(addr, 64).Masked().String()
	}
	return addr.String()
}

// forwardedClient walks X-Forwarded-For from the right past trusted proxies.
func (p Proxies) forwardedClient(r *http.Request, peer netip.Addr) netip.Addr {
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return peer // a malformed hop: believe no further
		}
		a = a.Unmap()
		if !p.trusts(a) {
			return a
		}
		peer = a
	}
	return peer
}
