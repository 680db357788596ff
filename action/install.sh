#!/usr/bin/env bash
# The install steps of the shipbook GitHub Action (action.yml), in bash on every runner (Linux,
# and Git Bash on Windows): no Node.js needed.
#   plan:    which executable this runner needs, where it is kept, its cache key and release address
#   install: the executable given by `path`, else the one in the cache directory, downloaded from the
#            release when missing; checked against the release's SHA256SUMS every time (a cached copy too)
# Outputs go to $GITHUB_OUTPUT (asset, dir, key, url; exe).
set -euo pipefail
out() { printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"; }
fail() {
  printf '::error title=shipbook install::%s\n' "$1"
  exit 1
}

case "${1:-}" in
plan)
  if [ -n "${INPUT_PATH:-}" ]; then
    out asset ''
    out dir ''
    out key ''
    out url ''
    exit 0
  fi
  case "${RUNNER_OS:-}-${RUNNER_ARCH:-}" in
  Linux-X64) asset=shipbook-linux-x64 ;;
  Linux-ARM64) asset=shipbook-linux-arm64 ;;
  Windows-X64) asset=shipbook-win-x64.exe ;;
  *) fail "no shipbook executable for ${RUNNER_OS:-?} ${RUNNER_ARCH:-?} (there are Linux x64 and arm64, Windows x64); on macOS install the npm package" ;;
  esac
  repo="${ACTION_REPOSITORY:-}"
  [ -n "$repo" ] || repo=shipbook/shipbook
  version="${INPUT_VERSION:-latest}"
  version="${version#v}"
  if [ "$version" = latest ]; then url="https://github.com/$repo/releases/latest/download"; else url="https://github.com/$repo/releases/download/v$version"; fi
  arch="$(printf '%s' "$RUNNER_ARCH" | tr '[:upper:]' '[:lower:]')"
  out asset "$asset"
  out dir "${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-/tmp}}/shipbook/$version/$arch"
  out key "shipbook-$version-$RUNNER_OS-$RUNNER_ARCH"
  out url "$url"
  ;;
install)
  if [ -n "${INPUT_PATH:-}" ]; then
    [ -f "$INPUT_PATH" ] || fail "path: $INPUT_PATH is not a file"
    exe="$(cd "$(dirname "$INPUT_PATH")" && pwd)/$(basename "$INPUT_PATH")"
  else
    mkdir -p "$SHIPBOOK_DIR"
    exe="$SHIPBOOK_DIR/$SHIPBOOK_ASSET"
    if [ ! -f "$exe" ] || [ ! -f "$SHIPBOOK_DIR/SHA256SUMS" ]; then
      curl -fsSL --retry 3 -o "$SHIPBOOK_DIR/SHA256SUMS" "$SHIPBOOK_URL/SHA256SUMS" || fail "cannot download $SHIPBOOK_URL/SHA256SUMS"
      curl -fsSL --retry 3 -o "$exe.part" "$SHIPBOOK_URL/$SHIPBOOK_ASSET" || fail "cannot download $SHIPBOOK_URL/$SHIPBOOK_ASSET"
      mv "$exe.part" "$exe"
    fi
    line="$(grep -E "^[0-9a-f]{64} [ *]$SHIPBOOK_ASSET\$" "$SHIPBOOK_DIR/SHA256SUMS" || true)"
    [ -n "$line" ] || fail "SHA256SUMS of the release does not list $SHIPBOOK_ASSET"
    if ! (cd "$SHIPBOOK_DIR" && printf '%s\n' "$line" | sha256sum -c - >/dev/null); then
      rm -f "$exe" "$SHIPBOOK_DIR/SHA256SUMS"
      fail "$SHIPBOOK_ASSET does not match its line of SHA256SUMS: removed, not run"
    fi
    chmod +x "$exe"
  fi
  printf 'shipbook %s at %s\n' "$("$exe" --version)" "$exe"
  out exe "$exe"
  ;;
*) fail "usage: install.sh plan|install" ;;
esac
