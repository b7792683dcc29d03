#!/bin/sh
# Fetches the GraphiQL page's scripts from the npm registry at pinned versions, so the playground
# works without reaching a CDN (air-gapped installs, browser tests). Run by `go generate`.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for pkg in graphiql@3.8.3 react@18.3.1 react-dom@18.3.1; do
  npm pack --silent --pack-destination "$tmp" "$pkg" >/dev/null
  mkdir "$tmp/${pkg%@*}"
  tar -xzf "$tmp/${pkg%@*}-${pkg#*@}.tgz" -C "$tmp/${pkg%@*}" --strip-components=1
done
cp "$tmp/graphiql/graphiql.min.js" "$tmp/graphiql/graphiql.css" assets/
cp "$tmp/react/umd/react.production.min.js" "$tmp/react-dom/umd/react-dom.production.min.js" assets/
