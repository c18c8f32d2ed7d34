# brandpack — see README.md. Targets install what they need on a fresh Debian machine with Go.
SHELL := /bin/bash
GO    ?= go
BIN   ?= bin/brandpack
DATA  ?= ./data
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X github.com/brandpack/brandpack/app/cli.Version=$(VERSION)
SUDO  := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT   := DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get
# -p 1: packages that drive Chromium run one at a time, so browser-heavy suites
# do not starve each other of the two cores CI has.
TEST_FLAGS ?= -race -p 1 -timeout 30m

# (load, image and image-smoke are not part of test)
.PHONY: all build run test fuzz bench load eval deps chromium cc node-tools vet templ-check no-binaries clean lint-openapi

all: build

# Chromium from Debian (rod's own browser download cannot be used), plus fonts.
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
		echo "installing Debian's chromium…"; \
		$(APT) update -qq && $(APT) install -y -qq chromium fonts-dejavu-core >/dev/null; }

# The race detector needs a C toolchain.
cc:
	@command -v gcc >/dev/null 2>&1 || { echo "installing gcc for -race…"; \
		$(APT) update -qq && $(APT) install -y -qq gcc libc6-dev >/dev/null; }

# Third-party MCP clients (conformance suite, Inspector) and the OpenAPI linters on Node 22 from npm,
# installed project-locally into .cache/node for the app/cli tests.
node-tools:
	@command -v npm >/dev/null 2>&1 || { echo "installing npm…"; $(APT) update -qq && $(APT) install -y -qq npm >/dev/null; }
	@bash scripts/mcp-conformance.sh setup
	@bash scripts/export-tools.sh setup
	@bash scripts/openapi-lint.sh setup

deps: chromium cc node-tools

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) .

run: chromium build
	$(BIN) serve --data $(DATA)

vet: templ-check no-binaries
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) tool staticcheck ./...

# No tracked file may be a build output: an executable (ELF, Mach-O or PE
# by its magic bytes), a Go test binary or a profile. Images and fonts under docs/ and assets/
# are data, not build outputs.
no-binaries:
	@bad="$$(git ls-files '*.test' '*.out' '*.prof' '*.pprof' '*.exe'; \
		LC_ALL=C git grep -l -a -e $$'^\x7fELF' -e $$'^\xcf\xfa\xed\xfe' -e $$'^\xce\xfa\xed\xfe' \
			-e $$'^\xfe\xed\xfa\xce' -e $$'^\xfe\xed\xfa\xcf' -e $$'^MZ\x90' 2>/dev/null)"; \
	if [ -n "$$bad" ]; then echo "tracked build outputs (remove them; .gitignore covers them):" $$bad; exit 1; fi

# The served OpenAPI document through Redocly (recommended-strict), Spectral
# (spectral:oas, failing on warnings) and swagger-parser: 0 problems. The
# tools are npm packages in .cache/openapi-lint (node-tools installs them);
# after that it runs offline. Accepted findings: docs/openapi.md.
lint-openapi:
	@command -v npm >/dev/null 2>&1 || { echo "installing npm…"; $(APT) update -qq && $(APT) install -y -qq npm >/dev/null; }
	@bash scripts/openapi-lint.sh

# The generated templ files are committed; fail when they are stale.
templ-check:
	@$(GO) tool templ generate -path views >/dev/null
	@git diff --quiet -- views 2>/dev/null || { git diff --stat -- views; \
		echo "views: generated *_templ.go files are stale: run 'go tool templ generate' and commit"; exit 1; }

# The whole suite, including the tests that drive real Chromium, and a check
# that the binary builds without cgo. Fixture-site tests also run over
# ../shared/fixtures/sites when that folder exists.
# scripts/trainvoice fits the voice classifier six times (single-threaded
# arithmetic, no goroutines to race): it runs without -race, where it takes
# seconds instead of two minutes.
test: deps vet lint-openapi
	CGO_ENABLED=0 $(GO) build -o /dev/null .
	BRANDPACK_SHARED=$(abspath $(SHARED)) $(GO) test $(TEST_FLAGS) $$($(GO) list ./... | grep -v '/scripts/trainvoice$$')
	$(GO) test -p 1 -timeout 10m ./scripts/trainvoice
	@$(MAKE) --no-print-directory fuzz

# Go fuzz targets, each run for FUZZTIME (plain `go test` already replays
# their seeds: f.Add and PKG/testdata/fuzz/TARGET/*). One "Target:package"
# per entry; a crash the fuzzer finds is written to PKG/testdata/fuzz/TARGET/
# — commit it (renamed for what it shows) as a regression seed.
FUZZ_TARGETS := \
	FuzzNormalizeDomain:./app \
	FuzzPackJSON:./app \
	FuzzEnvelope:./mcp \
	FuzzParseColor:./extract/colour \
	FuzzSanitizeSVG:./extract/logofile \
	FuzzSignalsJSON:./extract/judge
FUZZTIME ?= 5s

#
# Go 1.26's fuzz coordinator can fail a target with a bare "context deadline
# exceeded" when -fuzztime runs out while a worker is mid-call on a loaded
# machine (golang/go#75804, fixed in Go 1.27). A real finding always writes
# its input ("Failing input written to"): a failure without one, whose only
# complaint is that deadline, is run once more and then reported as the
# known flake; any other failure fails.
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "fuzz $${t%%:*} ($${t#*:}, $(FUZZTIME))"; \
		for try in 1 2; do \
			if out=$$($(GO) test -run '^$$' -fuzz "^$${t%%:*}$$" -fuzztime $(FUZZTIME) "$${t#*:}" 2>&1); then break; fi; \
			case "$$out" in *"Failing input written"*|*panic*) echo "$$out"; exit 1;; esac; \
			if ! echo "$$out" | grep -q '^    context deadline exceeded$$' || \
				[ "$$(echo "$$out" | grep -c '^    ')" != 1 ]; then echo "$$out"; exit 1; fi; \
			echo "  fuzz-time deadline flake (golang/go#75804), no failing input: $$( [ $$try = 1 ] && echo 'running it again' || echo 'accepted')"; \
		done; \
		case "$$out" in *"no fuzz tests"*) echo "$$out"; exit 1;; esac; \
	done

# Every benchmark, including BenchmarkCachedPackLoad: 50 connections against
# the cached GET /api/v1/pack and a bare net/http handler writing the same
# bytes, side by side in one run (req/s, p99, ratios).
bench: chromium
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./...

# Load test (not in make test): starts bin/brandpack on 127.0.0.1 with the
# fixture sites behind --resolve and drives LOAD_C clients for LOAD_DURATION
# with cached GETs, fresh extractions and analysis jobs; prints req/s,
# p50/p99 per kind, errors by code, and checks the usage counter equals the
# charged requests. See docs/benchmarks.md.
LOAD_C ?= 50
LOAD_DURATION ?= 60s
LOAD_DIRS ?= $(wildcard $(SHARED)/fixtures/sites) testdata/sites
load: chromium build
	$(GO) run ./scripts/load -bin $(BIN) -c $(LOAD_C) -duration $(LOAD_DURATION) $(LOAD_DIRS)

# Extraction scorecard over the project's own sites, the shared fixture
# corpus (corpus A), the real-site corpus (corpus R: real projects' sites
# shipped in Debian packages, served from their folders over TLS and HTTP)
# and the labelled corpus (testdata/corpus: labels and source fields only;
# a Debian site is served from its package's root, a repository site from
# $(CORPUS_SRC)/OWNER+NAME@C12/SOURCE_PATH, unpacked by scripts/corpus-src.sh).
# Installs the Debian packages the corpora name when absent (never
# nodejs-doc: it would remove Node). docs/accuracy.md keeps the tables.
SHARED        ?= ../shared
REAL_DIR      ?= $(SHARED)/fixtures/real
CORPUS_DIR    ?= testdata/corpus
CORPUS_SRC    ?= .cache/corpus
REAL_PACKAGES ?= sqlite3-doc python3.11-doc postgresql-doc-15 apache2-doc debian-handbook rust-doc libxslt1-dev
CORPUS_PACKAGES = $(filter-out nodejs-doc,$(shell cat $(CORPUS_DIR)/*/expected.json 2>/dev/null | sed -n 's/^ *"package": *"\([a-z0-9.+-]*\)".*/\1/p' | sort -u))
EVAL_DIRS ?= testdata/sites $(wildcard $(SHARED)/fixtures/sites) $(wildcard $(REAL_DIR)) $(wildcard $(CORPUS_DIR))
.PHONY: real-packages signals eval-live corpus-src
real-packages:
	@missing=""; for p in $(if $(wildcard $(REAL_DIR)),$(REAL_PACKAGES)) $(CORPUS_PACKAGES); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
		if [ -n "$$missing" ]; then echo "installing corpus packages:$$missing"; \
		$(APT) update -qq && $(APT) install -y -qq $$missing >/dev/null; fi

# Re-create the repository-sourced corpus sites under $(CORPUS_SRC) from
# their source fields (git clone + archive of the labelled commit).
corpus-src:
	bash scripts/corpus-src.sh $(CORPUS_DIR) $(CORPUS_SRC)

# The cross-validated per-field table (k = 5 folds split by site, fixed
# seed) over every labelled real site, from the recorded Signals (no
# browser), with the training figure beside it; then nothing else. The
# live Chromium scorecard is eval-live.
CV_FOLDS ?= 5
CV_SEED  ?= 1
eval: build
	$(BIN) eval --cv --folds $(CV_FOLDS) --seed $(CV_SEED) --signals-dir testdata/signals $(EVAL_DIRS)

eval-live: chromium build real-packages
	$(BIN) eval --corpus-src $(CORPUS_SRC) $(EVAL_DIRS)

# Re-record the golden Signals (testdata/signals/HOST.json) the judge tests
# and the fit replay without Chromium; run it when the observer (collect.js,
# downloads) changes or labels arrive. SIGNALS_DIRS restricts it (a site
# folder is accepted too). The scorecard's exit status is ignored here.
SIGNALS_DIRS ?= $(EVAL_DIRS)
signals: chromium build real-packages
	$(BIN) eval --corpus-src $(CORPUS_SRC) --signals-dir testdata/signals $(SIGNALS_DIRS) || true

clean:
	rm -rf bin

# The container image (not part of make test): `make image` builds it,
# `make image-smoke` builds it and runs it as a user would (uid 10001 under
# tini, no capabilities, a health check on a non-default port, a key made
# with exec, a pack of a local fixture site, a graceful stop that exits 0);
# see scripts/image-smoke.sh. ENGINE is docker when its daemon answers, else
# podman; set ENGINE=podman (or docker) to choose.
ENGINE ?= $(shell if docker info >/dev/null 2>&1; then echo docker; \
	elif command -v podman >/dev/null 2>&1; then echo podman; else echo docker; fi)
IMAGE  ?= brandpack:$(subst +,-,$(VERSION))
.PHONY: image image-smoke
image:
	$(ENGINE) build --build-arg VERSION=$(VERSION) -t $(IMAGE) .

image-smoke: image
	ENGINE=$(ENGINE) IMAGE=$(IMAGE) GO=$(GO) bash scripts/image-smoke.sh

# Fit the judge's rankers and the voice classifier to the labelled data
# (testdata/signals + testdata/corpus, testdata/voice) and write the small
# data files the binary embeds; running it again reproduces them byte for
# byte (docs/accuracy.md).
.PHONY: train
train:
	$(GO) run ./scripts/trainjudge testdata/sites $(wildcard $(SHARED)/fixtures/sites) $(wildcard $(REAL_DIR)) $(wildcard $(CORPUS_DIR))
	$(GO) run ./scripts/trainvoice
