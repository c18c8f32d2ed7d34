# brandpack: one cgo-free Go binary plus Debian's Chromium.
#
#   docker build --build-arg VERSION=$(git describe --tags --always --dirty) -t brandpack .
#   docker run -d --name brandpack -p 8080:8080 -v brandpack-data:/data --stop-timeout 40 \
#     -e BRANDPACK_PUBLIC_URL=https://brand.example.com brandpack
#   (or `make image` / `make image-smoke`, with Docker or Podman)
#   docker exec brandpack brandpack users create --email you@example.com
#   docker exec brandpack brandpack keys create --email you@example.com
#
# Every flag can also be set as BRANDPACK_<FLAG> (e.g. BRANDPACK_PUBLIC_URL,
# BRANDPACK_BROWSERS, BRANDPACK_TRUSTED_PROXIES). Admin commands run with
# `docker exec` work on the same /data as the server, also while it runs.

############################ build ############################
# The Go release go.mod asks for (its `go` line). The image tag is pinned to
# it; GOTOOLCHAIN=auto lets an older cached golang:1.26 image still build by
# fetching that toolchain (a newer one is used as it is).
ARG GO_VERSION=1.26.8
FROM golang:${GO_VERSION}-bookworm AS build
ENV GOTOOLCHAIN=auto

WORKDIR /src

# Modules first, as their own layer: it is rebuilt only when go.mod or go.sum
# change, not on every source edit. The module and build caches are cache
# mounts: kept between builds on this machine, never in an image layer.
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod \
    go mod download

COPY . .

# Stamped into `brandpack version` and GET /healthz.
ARG VERSION=dev
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X github.com/brandpack/brandpack/app/cli.Version=${VERSION}" \
      -o /out/brandpack . \
 && /out/brandpack version

########################### runtime ###########################
FROM debian:bookworm-slim

# chromium                 the headless browser the extractor drives (found on PATH as
#                          `chromium`; no chromium-sandbox, see the sandbox note below)
# fonts-*                  so pages render with real metrics and glyphs; missing fonts
#                          skew layout, colour areas and logo measurements
# ca-certificates          TLS to the sites being analysed
# tini                     PID 1, see below
# curl                     the HEALTHCHECK only (the binary has no health-check command)
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      chromium \
      fonts-dejavu-core \
      fonts-liberation \
      fonts-noto-color-emoji \
      ca-certificates \
      tini \
      curl \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*

# An unprivileged user. Chromium gets a fresh temporary profile, HOME and
# TMPDIR under /tmp for every launch, so only /tmp and /data need to be writable.
# /data holds the SQLite database (brandpack.db, its -wal/-shm files) and must
# be owned by that user before VOLUME is declared, so a new named volume starts
# out writable. A bind-mounted host folder is used with the host's owner and
# must be owned by (writable for) uid 10001, or serve fails with
# "permission denied":
#   mkdir -p ./data && sudo chown 10001:10001 ./data
#   docker run … -v "$PWD/data:/data" brandpack
RUN groupadd --system --gid 10001 brandpack \
 && useradd --system --uid 10001 --gid 10001 --home-dir /home/brandpack --create-home \
      --shell /usr/sbin/nologin brandpack \
 && mkdir -p /data \
 && chown brandpack:brandpack /data \
 && chmod 0750 /data

COPY --from=build /out/brandpack /usr/local/bin/brandpack

# VERSION only after the apt-get RUNs above: a new --build-arg VERSION
# changes the layers from here on, and the Chromium layer stays cached.
ARG VERSION=dev
LABEL org.opencontainers.image.title="brandpack" \
      org.opencontainers.image.description="Self-hosted brand pack service: colours, fonts, logos and voice of any website" \
      org.opencontainers.image.source="https://github.com/brandpack/brandpack" \
      org.opencontainers.image.version="${VERSION}"

ENV BRANDPACK_DATA=/data \
    BRANDPACK_ADDR=0.0.0.0:8080

VOLUME /data
WORKDIR /data
EXPOSE 8080

# Chromium sandbox: the extractor launches Chromium with --no-sandbox. Its
# sandbox needs user namespaces or a setuid helper, which Docker's default
# seccomp profile and an unprivileged user do not allow. The container is the
# boundary instead: run it as this non-root user, with no added capabilities
# (for example --cap-drop=ALL --security-opt=no-new-privileges), and note that
# every request Chromium makes already leaves through brandpack's guarded
# egress proxy, which refuses internal addresses.
# (Chromium is also started with --disable-dev-shm-usage, so Docker's small
# default /dev/shm is not a limit.)
USER 10001:10001

# The healthz endpoint answers 200 while the server is up. The port is the one
# of BRANDPACK_ADDR as the container runs (e.g. -e BRANDPACK_ADDR=0.0.0.0:18180),
# 8080 when it has none. The start period covers migrations and the first
# Chromium launch.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD port="${BRANDPACK_ADDR##*:}"; curl --fail --silent --show-error --max-time 4 --output /dev/null \
      "http://127.0.0.1:${port:-8080}/healthz" || exit 1

# tini runs as PID 1: it forwards SIGTERM/SIGINT to brandpack (which then stops
# taking work, lets in-flight requests and extractions finish for up to
# --drain-timeout, 30 s by default, answers what is left 503 service_unavailable
# and exits 0 within 5 s more; run with --stop-timeout 40, or `docker stop -t 40`,
# since Docker's default of 10 s SIGKILLs it mid-answer) and reaps zombie processes. Chromium starts
# zygote, renderer, GPU and utility helper processes; when a browser is killed
# on a scrape timeout or crashes, its orphaned helpers are re-parented to PID 1,
# and without an init that waits on them they would pile up as zombies.
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/brandpack"]
CMD ["serve"]
