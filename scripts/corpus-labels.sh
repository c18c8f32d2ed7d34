#!/usr/bin/env bash
# Copy the labels of the labelled corpus into the repository: every
# LABELS/HOST/expected.json → testdata/corpus/HOST/expected.json (labels and
# source fields only, never the sites' files). Labels are copied as written.
#
#   scripts/corpus-labels.sh LABELS [DEST=testdata/corpus]
set -euo pipefail
labels=${1:?usage: corpus-labels.sh LABELS [DEST]}
dest=${2:-testdata/corpus}
for exp in "$labels"/*/expected.json; do
	host=$(basename "$(dirname "$exp")")
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$exp" 2>/dev/null || { echo "skip $host: not valid JSON yet"; continue; }
	mkdir -p "$dest/$host"
	cmp -s "$exp" "$dest/$host/expected.json" || { cp "$exp" "$dest/$host/expected.json"; echo "label $host"; }
done
