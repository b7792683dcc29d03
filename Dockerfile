# Bindery in a container: a static binary (cgo for SQLite with FTS5) on an empty base image, run
# as a non-root user, its data in the /data volume.
#
#   docker build -t bindery .
#   docker run -d -p 8080:8080 -v bindery-data:/data -e BINDERY_BASE_URL=https://docs.example.com bindery
#
# Kept working by cmd/bindery/deploy_test.go (which parses this file and runs its commands); no
# test here builds the image.

ARG GO_VERSION=1.26.8

FROM golang:${GO_VERSION}-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# cgo compiles SQLite in; static linking leaves the runtime image no C library to need: netgo
# and osusergo keep name and user lookups in Go, sqlite_omit_load_extension drops dlopen.
RUN CGO_ENABLED=1 go build -trimpath \
        -tags 'sqlite_fts5 sqlite_omit_load_extension netgo osusergo' \
        -ldflags '-s -w -linkmode external -extldflags "-static"' \
        -o /out/bindery ./cmd/bindery \
    && mkdir -p /out/data /out/tmp && chmod 1777 /out/tmp

FROM scratch
# CA certificates for OpenAPI sources and website imports fetched over HTTPS; /tmp for SQLite.
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/tmp /tmp
COPY --from=build /out/bindery /bindery
COPY --from=build --chown=10001:10001 /out/data /data
ENV BINDERY_ADDR=0.0.0.0:8080 \
    BINDERY_DATA=/data
USER 10001:10001
VOLUME /data
EXPOSE 8080
# bindery healthcheck asks /readyz of the server on BINDERY_ADDR: the image needs no HTTP client.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["/bindery", "healthcheck"]
ENTRYPOINT ["/bindery"]
CMD ["serve"]
