#!/usr/bin/env bash
# Checks (default) or updates (--local) the public API reports of the entry points under etc/.
set -euo pipefail
mode="${1:-}"
for config in api-extractor.json config/api-extractor.review.json config/api-extractor.critics.json config/api-extractor.fix-loop.json config/api-extractor.node.json config/api-extractor.testing.json config/api-extractor.postgres.json config/api-extractor.contracts.json; do
  npx api-extractor run --config "$config" $mode
done
