#!/usr/bin/env bash
# The run step of the shipbook GitHub Action (action.yml): one mode over the order files, with the
# executable the install step gave ($SHIPBOOK). Bash only, on every runner.
#   validate: every problem as a workflow annotation (::error/::warning at file, line, column)
#   preview:  validate, then every order quoted; the cost preview in the job summary; outputs
#   book:     validate, then book exactly once (the ledger), reports written for the artifact; outputs
# Writes the job summary to $GITHUB_STEP_SUMMARY and the outputs (orders, total_aud, over_limit; preview: quoted_aud)
# to $GITHUB_OUTPUT. Exits with shipbook's exit code (docs/exit-codes.md).
set -uo pipefail
sb="${SHIPBOOK:?the install step gives the executable}"
mode="${INPUT_MODE:-validate}"
out() { printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:-/dev/null}"; }
summary() { cat >>"${GITHUB_STEP_SUMMARY:-/dev/null}"; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

case "$mode" in validate | preview | book) ;; *)
  printf '::error title=shipbook::mode must be validate, preview or book (got "%s")\n' "$mode"
  exit 2
  ;;
esac

# The order files: the input's paths and globs (** included), else what the pull request changes under orders/, else orders/.
shopt -s globstar nullglob
files=()
read -r -d '' -a patterns <<<"${INPUT_FILES:-}" || true
for p in "${patterns[@]}"; do
  if [[ "$p" == *[*?[]* ]]; then
    matches=($p)
    files+=("${matches[@]}")
  else
    files+=("$p")
  fi
done
if [ "${#patterns[@]}" -eq 0 ]; then
  if [ -n "${BASE_REF:-}" ] && git rev-parse --verify -q "origin/$BASE_REF" >/dev/null; then
    while IFS= read -r f; do files+=("$f"); done < <(git diff --name-only --diff-filter=d "origin/$BASE_REF...HEAD" -- orders/ | grep -Ei '\.(ya?ml|json|ndjson|jsonl|csv|tsv)$' || true)
  elif [ -d orders ]; then
    files=(orders/)
  fi
fi
if [ "${#files[@]}" -eq 0 ]; then
  printf '### shipbook: %s\n\nNo order files to %s.\n' "$mode" "$mode" | summary
  out orders 0
  out total_aud 0.00
  [ "$mode" = preview ] && out quoted_aud 0.00
  out over_limit 0
  exit 0
fi

# The settings of every mode: a private configuration, the ledger's place, the caps, the rules.
export SHIPBOOK_CONFIG_DIR="${RUNNER_TEMP:-$tmp}/shipbook-config"
state="${INPUT_STATE_DIR:-.shipbook}"
mkdir -p "$state"
SHIPBOOK_STATE_DIR="$(cd "$state" && pwd)"
export SHIPBOOK_STATE_DIR
[ -n "${INPUT_LEDGER:-}" ] && export SHIPBOOK_LEDGER="$INPUT_LEDGER"
caps=()
[ -n "${INPUT_MAX_TOTAL:-}" ] && caps+=(--max-total "$INPUT_MAX_TOTAL")
[ -n "${INPUT_BUDGET:-}" ] && caps+=(--budget "$INPUT_BUDGET")
# Which service an order is priced and booked with: its own, else the cheapest quoted; a shipbook
# with service-selection rules (book --rules) takes the rules file here.
if [ -n "${INPUT_RULES:-}" ]; then
  if "$sb" book --help 2>/dev/null | grep -q -- '--rules'; then
    caps+=(--rules "$INPUT_RULES")
  else
    printf '::warning title=shipbook::rules %s is not applied: this shipbook has no --rules yet; each order is priced at its own service, else the cheapest\n' "$INPUT_RULES"
  fi
fi

# Every mode validates first: the problems as annotations, in the log and on the pull request.
"$sb" validate --format github "${files[@]}" >"$tmp/annotations.txt"
validated=$?
cat "$tmp/annotations.txt"
errors=$(grep -c '^::error' "$tmp/annotations.txt" || true)
warnings=$(grep -c '^::warning' "$tmp/annotations.txt" || true)
if [ "$mode" = validate ] || [ "$validated" -ne 0 ]; then
  {
    printf '### shipbook: validate\n\n'
    printf '%s input(s): %s error(s), %s warning(s)%s.\n' "${#files[@]}" "$errors" "$warnings" "$([ "$errors" -gt 0 ] && printf '; nothing was sent' || true)"
  } | summary
  exit "$validated"
fi

if [ "$mode" = preview ]; then
  [ -n "${INPUT_BASE_URL:-}" ] && export SHIPBOOK_BASE_URL="$INPUT_BASE_URL"
  [ -n "${INPUT_API_KEY:-}" ] && export SHIPBOOK_API_KEY="$INPUT_API_KEY"
  # --dry-run --quote is the alias of book --preview (the same output) that earlier releases know too.
  "$sb" book "${files[@]}" --dry-run --quote "${caps[@]}" --summary "${GITHUB_STEP_SUMMARY:-/dev/null}" --output tsv >"$tmp/preview.tsv"
  code=$?
  for key in orders total_aud quoted_aud over_limit; do
    value="$(awk -F'\t' -v k="$key" '$1 == k { print $2 }' "$tmp/preview.tsv")"
    [ -n "$value" ] && out "$key" "$value"
  done
  if [ -z "${INPUT_BASE_URL:-}" ]; then
    printf '> Prices from the built-in sandbox (no base-url given): a rehearsal, not the service'"'"'s prices.\n' | summary
  fi
  exit "$code"
fi

# book: the service and key of the secrets (an empty one is refused by shipbook: exit 4, nothing sent).
export SHIPBOOK_BASE_URL="${INPUT_BASE_URL:-}" SHIPBOOK_API_KEY="${INPUT_API_KEY:-}"
art="${INPUT_ARTIFACTS_DIR:-shipbook-artifacts}"
mkdir -p "$art"
template="$(cat "$(dirname "$0")/summary-book.hbs")"
"$sb" book "${files[@]}" "${caps[@]}" --journal "$SHIPBOOK_STATE_DIR/journal.ndjson" --report "$art/report.json" --junit "$art/junit.xml" \
  --template "$template" >"$tmp/booked.txt"
code=$?
# Spreadsheets get their rows back with the results beside them: the same inputs again, which books nothing twice.
csv=1
for f in "${files[@]}"; do [[ "$f" =~ \.(csv|tsv)$ ]] || csv=0; done
if [ "$csv" -eq 1 ] && [ "$code" -ne 2 ] && [ "$code" -ne 4 ]; then
  "$sb" book "${files[@]}" "${caps[@]}" --journal "$SHIPBOOK_STATE_DIR/journal.ndjson" --report "$art/report.csv" >/dev/null
fi
grep -v '^@@' "$tmp/booked.txt" | summary
val() { awk -F= -v k="@@$1" '$1 == k { print $2 }' "$tmp/booked.txt"; }
if [ -s "$tmp/booked.txt" ]; then
  out orders "$(($(val booked) + $(val already_booked)))"
  out total_aud "$(val total_aud)"
  out over_limit "$(($(val over_limit) + $(val over_budget)))"
fi
exit "$code"
