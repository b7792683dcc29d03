# Every go command of the project runs through here, so the SQLite FTS5 build tag is set once.
export GOFLAGS := -tags=sqlite_fts5
export CGO_ENABLED := 1

PG_TEST_DB ?= postgres://postgres@127.0.0.1:5432/test?sslmode=disable

.PHONY: run test test-sqlite test-postgres generate generate-check bench bench-openapi bench-peer build fuzz

## run: start the server on the embedded SQLite database (./bindery-data); flags of serve in ARGS,
## e.g. make run ARGS="--addr 127.0.0.1:9090"
run:
	go run ./cmd/bindery serve $(ARGS)

build:
	go build -o bindery ./cmd/bindery

## test: the whole suite with the race detector, on SQLite, then on PostgreSQL when one answers;
## each pass prints what plain go test prints, and the end of the run sums both passes up: what
## failed, every skipped test with its reason, and a PostgreSQL pass that did not run (decision 297)
## -trimpath keeps the checkout's directory out of the build cache's keys, so a fresh clone of
## the same code reuses what an earlier run on the machine compiled; -ldflags=-w leaves out the
## debuggers' DWARF, half of linking each package's test binary (stack traces and race reports
## do not need it)
GO_TEST := go test -json -race -trimpath -ldflags=-w -count=1 -timeout 30m ./...
TEST_SUMMARY ?=
# note prints a line and appends it to the run's summary, when there is one.
note = echo "$(1)"; if [ -n "$(TEST_SUMMARY)" ]; then echo "$(1)" >> "$(TEST_SUMMARY)"; fi

test:
	@summary=$$(mktemp); status=0; \
	$(MAKE) --no-print-directory test-sqlite test-postgres TEST_SUMMARY=$$summary || status=$$?; \
	grep -q '^== PostgreSQL pass' $$summary || echo "== PostgreSQL pass: not run (the SQLite pass failed)" >> $$summary; \
	echo; echo "== make test summary"; cat $$summary; rm -f $$summary; exit $$status

test-sqlite:
	@echo "== SQLite pass"
	@go run ./internal/testsummary -pass SQLite -summary "$(TEST_SUMMARY)" -- $(GO_TEST)

test-postgres:
	@if ! command -v pg_isready >/dev/null; then \
		$(call note,== PostgreSQL pass SKIPPED: pg_isready is not installed (apt-get install postgresql-client)); \
	elif pg_isready -q -d "$(PG_TEST_DB)"; then \
		echo "== PostgreSQL pass ($(PG_TEST_DB))"; \
		BINDERY_TEST_DB="$(PG_TEST_DB)" go run ./internal/testsummary -pass PostgreSQL -summary "$(TEST_SUMMARY)" -- $(GO_TEST); \
	else \
		$(call note,== PostgreSQL pass SKIPPED: no PostgreSQL answers at $(PG_TEST_DB) (set PG_TEST_DB to test against one)); \
	fi

## generate: rebuild ent and gqlgen code
generate:
	go generate ./...

## generate-check: fail when the committed generated code differs from what go generate makes
generate-check: generate
	@git diff --exit-code --stat -- . || (echo "generated code is stale: run make generate and commit"; exit 1)
	@test -z "$$(git status --porcelain --untracked-files=all -- ent graph)" || (git status --short -- ent graph; echo "go generate made new files: commit them"; exit 1)

## bench: benchmarks with ratios to a baseline measured in the same run
bench:
	go test -run '^$$' -bench . -benchtime 2s ./bench/

## bench-openapi: processing OpenAPI documents, GitHub's 13 MB description among them (npm package
## @octokit/openapi 23.0.2, fetched into .cache/octokit when missing)
OCTOKIT := .cache/octokit/package/generated/api.github.com.json
bench-openapi: $(OCTOKIT)
	go test -run '^$$' -bench . -benchtime 3x ./internal/openapi/

$(OCTOKIT):
	mkdir -p .cache/octokit && cd .cache/octokit && npm pack @octokit/openapi@23.0.2 && tar xzf octokit-openapi-23.0.2.tgz

## bench-peer: Bindery side by side with PostGraphile 4.14.1 on the same rows (../shared/peer), about 6 minutes after the builds;
## installs wrk (Debian) and PostGraphile (npm, into .cache/peer) when missing; not part of test or CI. Each run is appended
## to .cache/peer/runs.jsonl; `go run ./bench/peer/history` adds the last one to docs/performance-history.md
PEER_CACHE := .cache/peer
PEER_PG ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

bench-peer:
	@command -v wrk >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
	@grep -qs '"version": "4.14.1"' $(PEER_CACHE)/node_modules/postgraphile/package.json || \
		npm install --prefix $(PEER_CACHE) --no-audit --no-fund --loglevel=error postgraphile@4.14.1
	go build -o $(PEER_CACHE)/bindery ./cmd/bindery
	go build -o $(PEER_CACHE)/bench-peer ./bench/peer
	$(PEER_CACHE)/bench-peer -bindery $(PEER_CACHE)/bindery -postgraphile $(PEER_CACHE)/node_modules/postgraphile/cli.js \
		-peer ../shared/peer -pg '$(PEER_PG)' -runs $(PEER_CACHE)/runs.jsonl

## fuzz: run each fuzz target for a short while
fuzz:
	go test -run '^$$' -fuzz FuzzDecodeCursor -fuzztime 20s ./internal/page/
	go test -run '^$$' -fuzz FuzzParse -fuzztime 20s ./internal/sitecustom/
	go test -run '^$$' -fuzz FuzzBetween -fuzztime 20s ./internal/content/orderkey/
	go test -run '^$$' -fuzz FuzzColonAdmonitions -fuzztime 20s ./internal/content/importer/
	go test -run '^$$' -fuzz FuzzMkDocs -fuzztime 20s ./internal/content/importer/
	go test -run '^$$' -fuzz FuzzMDX -fuzztime 20s ./internal/content/importer/
