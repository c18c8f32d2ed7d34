#!/usr/bin/env bash
# Re-create the repository-sourced sites of the labelled corpus from their
# source fields: for every CORPUS_DIR/HOST/expected.json with source_repo and
# source_commit, unpack that commit's files into
# CORPUS_SRC/OWNER+NAME@C12/ (C12 = the commit's first 12 hex digits; the
# site is its source_path folder), unless already there.
#
#   scripts/corpus-src.sh [CORPUS_DIR=testdata/corpus] [CORPUS_SRC=.cache/corpus]
#
# Git objects come from a clone of https://github.com/OWNER/NAME kept under
# CORPUS_SRC/.git/OWNER+NAME (or from GIT_MIRROR/OWNER+NAME… when set, any
# local git directory of that repository).
set -euo pipefail
corpus=${1:-testdata/corpus}
src=${2:-.cache/corpus}
mkdir -p "$src/.git"
field() { sed -n "s/^ *\"$1\": *\"\\([^\"]*\\)\".*/\\1/p" "$2" | head -1; }
for exp in "$corpus"/*/expected.json; do
	repo=$(field source_repo "$exp"); commit=$(field source_commit "$exp")
	[ -n "$repo" ] && [ -n "$commit" ] || continue
	dir="$src/${repo/\//+}@${commit:0:12}"
	if [ -d "$dir" ]; then continue; fi
	gitdir=""
	if [ -n "${GIT_MIRROR:-}" ]; then
		gitdir=$(ls -d "$GIT_MIRROR/${repo/\//+}"* 2>/dev/null | head -1 || true)
	fi
	if [ -z "$gitdir" ]; then
		gitdir="$src/.git/${repo/\//+}"
		[ -d "$gitdir" ] || git clone --quiet --bare "https://github.com/$repo" "$gitdir"
		git --git-dir="$gitdir" cat-file -e "$commit^{commit}" 2>/dev/null || git --git-dir="$gitdir" fetch --quiet origin "$commit"
	fi
	echo "unpacking $repo@${commit:0:12} → $dir"
	mkdir -p "$dir.tmp"
	git --git-dir="$gitdir" archive "$commit" | tar -x -C "$dir.tmp"
	mv "$dir.tmp" "$dir"
done
