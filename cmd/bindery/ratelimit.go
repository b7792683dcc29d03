package main

import (
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/server"
)

// rateFlags are serve's rate limit flags, each with its environment variable (decision 203).
type rateFlags struct {
	token, anonymous, sites, window, proxies *string
	off                                      *bool
}

func (f *rateFlags) register(fs *flag.FlagSet) {
	d := ratelimit.DefaultLimits
	f.token = fs.String("rate-limit", envOr("BINDERY_RATE_LIMIT", strconv.Itoa(d.Token)),
		"points per window of an API token or browser session, for REST and for GraphQL each; 0: unlimited (env BINDERY_RATE_LIMIT)")
	f.anonymous = fs.String("rate-limit-anonymous", envOr("BINDERY_RATE_LIMIT_ANONYMOUS", strconv.Itoa(d.Anonymous)),
		"points per window of a client address without valid credentials; 0: unlimited (env BINDERY_RATE_LIMIT_ANONYMOUS)")
	f.sites = fs.String("rate-limit-sites", envOr("BINDERY_RATE_LIMIT_SITES", strconv.Itoa(d.Sites)),
		"points per window of a client address reading published sites; 0: unlimited (env BINDERY_RATE_LIMIT_SITES)")
	f.window = fs.String("rate-limit-window", envOr("BINDERY_RATE_LIMIT_WINDOW", d.Window.String()),
		"how long a budget lasts from its first request (env BINDERY_RATE_LIMIT_WINDOW)")
	f.off = fs.Bool("no-rate-limit", envOr("BINDERY_NO_RATE_LIMIT", "") == "1",
		"turn rate limiting off: no budgets, no X-RateLimit headers (env BINDERY_NO_RATE_LIMIT=1)")
	f.proxies = fs.String("trusted-proxies", envOr("BINDERY_TRUSTED_PROXIES", ""),
		"comma-separated addresses or CIDR networks of reverse proxies whose X-Forwarded-For names the client (env BINDERY_TRUSTED_PROXIES)")
}

// apply sets the parsed flags in o.
func (f *rateFlags) apply(o *server.Options) error {
	proxies, err := ratelimit.ParseProxies(*f.proxies)
	if err != nil {
		return err
	}
	o.TrustedProxies = proxies
	if *f.off {
		o.RateLimits = ratelimit.Off
		return nil
	}
	l := &o.RateLimits
	for _, n := range []struct {
		flag  string
		value string
		to    *int
	}{{"--rate-limit", *f.token, &l.Token}, {"--rate-limit-anonymous", *f.anonymous, &l.Anonymous}, {"--rate-limit-sites", *f.sites, &l.Sites}} {
		if *n.to, err = strconv.Atoi(n.value); err != nil || *n.to < 0 {
			return fmt.Errorf("%s: %q is not a number of points of 0 or more", n.flag, n.value)
		}
	}
	if l.Window, err = time.ParseDuration(*f.window); err != nil || l.Window < time.Second {
		return fmt.Errorf("--rate-limit-window: %q is not a duration of 1s or more (e.g. 1h)", *f.window)
	}
	return nil
}
