#!/usr/bin/env bash
# Clones the current commit into a temporary folder outside this repository's parent (so there is
# nothing beside it), runs the README's test command there
# (`npm install && npm test`) with none of the project's settings from this shell, and reports
# the counts and how long it took, and fails when the install printed a warning. Only committed
# work is checked.
#
#   bash scripts/fresh-clone-check.sh          # KEEP=1 keeps the clone and its log
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
commit="$(git -C "$repo" rev-parse HEAD)"
base="$(mktemp -d "${TMPDIR:-/tmp}/riffscribe-fresh-XXXXXX")"
case "$base/" in
  "$(dirname "$repo")"/*)
    echo "fresh-clone-check: $base is inside $(dirname "$repo"); set TMPDIR elsewhere" >&2
    exit 2
    ;;
esac
clone="$base/riffscribe"
log="$base/test.log"
cleanup() {
  if [ "${KEEP:-}" = "1" ]; then
    echo "fresh-clone-check: kept $clone and $log"
  else
    rm -rf "$base"
  fi
}
trap cleanup EXIT

if [ -n "$(git -C "$repo" status --porcelain)" ]; then
  echo "fresh-clone-check: note: uncommitted changes in $repo are not part of this check"
fi
echo "fresh-clone-check: cloning $commit into $clone"
git clone --quiet --no-local --no-hardlinks "$repo" "$clone"
git -C "$clone" checkout --quiet --detach "$commit"
if [ -e "$base/shared" ]; then
  echo "fresh-clone-check: $base/shared exists; the clone must have nothing beside it" >&2
  exit 2
fi

start=$(date +%s)
set +e
(
  cd "$clone"
  # Nothing of this shell's project settings: the README's command as a new user runs it.
  env -u RIFFSCRIBE_DATASETS -u CI -u DATABASE_URL -u TEST_DATABASE_URL -u DATA_DIR \
    bash -c 'npm install --no-audit --no-fund >../install.log 2>&1 && npm test'
) >"$log" 2>&1
status=$?
set -e
elapsed=$(($(date +%s) - start))

# The install must be quiet: a newcomer should see no warning (engines, unknown settings, blocked
# install scripts).
warnings="$(grep -ciE '^npm (warn|error)' "$base/install.log" || true)"
echo "fresh-clone-check: npm install printed $warnings warning lines"
if [ "$warnings" -ne 0 ]; then
  grep -iE '^npm (warn|error)' "$base/install.log" | head -20 >&2
  [ "$status" -ne 0 ] || status=1
fi

# vitest's summary lines, without colour codes.
summary="$(sed -e 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +(Test Files|Tests|Duration) ' || true)"
echo "fresh-clone-check: commit $commit"
echo "${summary:-fresh-clone-check: no vitest summary in the log}"
echo "fresh-clone-check: exit $status after ${elapsed} s (install, build and tests)"
if [ "$status" -ne 0 ]; then
  echo "fresh-clone-check: FAILED; the last lines of the log:" >&2
  sed -e 's/\x1b\[[0-9;]*m//g' "$log" | grep -E 'FAIL|×|Error' | head -40 >&2 || true
  tail -30 "$log" >&2
fi
exit "$status"
