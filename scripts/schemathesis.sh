#!/usr/bin/env bash
# schemathesis (PyPI; a test tool, never a runtime dependency) against a live
# service's /openapi.json, with the API key and all its checks: server errors,
# status code, content type, response headers and response schema conformance,
# negative data rejection, positive data acceptance, unsupported methods, auth.
# positive_data_acceptance takes 400, 413 and 422 as well as 2xx
# (scripts/schemathesis.toml says why). Installs into .venv-schemathesis/
# (ignored by git) on first use. Skips with a clear line, exit 0, when Python,
# venv, pip, the package or /openapi.json are not there.
#
# One worker: Hypothesis raises the process-wide recursion limit while it
# generates, and CPython 3.11's ast.parse in another thread then fails with
# "SystemError: AST constructor recursion depth mismatch" (a Runtime Error on
# POST /v1/ or /v1/jobs in about one run of two with --workers 2).
#
#   bash scripts/schemathesis.sh
#   SCHEMATHESIS_MAX_EXAMPLES=500 bash scripts/schemathesis.sh
#   SCHEMATHESIS_SERVICE=/path/to/dist/src/main.js bash scripts/schemathesis.sh   # another build
set -uo pipefail
cd "$(dirname "$0")/.."

venv=.venv-schemathesis
max_examples="${SCHEMATHESIS_MAX_EXAMPLES:-100}"
service="${SCHEMATHESIS_SERVICE:-dist/src/main.js}"
skip() {
  echo "schemathesis: skipped ($1)"
  exit 0
}

command -v python3 >/dev/null || skip "python3 is not installed"
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv" >/dev/null 2>&1 || skip "python3 -m venv is not available"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'schemathesis>=4,<5' >/dev/null 2>&1 || skip "pip could not install schemathesis (no PyPI?)"
fi
[ -f "$service" ] || npm run build --silent

key="schemathesis-$(node -e "process.stdout.write(require('node:crypto').randomBytes(12).toString('hex'))")"
log="$(mktemp)"
PORT=0 HOST=127.0.0.1 API_KEYS="$key" EXTRACTOR="${EXTRACTOR:-rules}" OCR_WORKERS="${OCR_WORKERS:-2}" \
  node "$service" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT

port=""
for _ in $(seq 1 600); do
  port="$(grep -o '"port":[0-9]*' "$log" | head -1 | cut -d: -f2)"
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || { echo "schemathesis: the service did not start:"; cat "$log"; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "schemathesis: the service did not listen within 60 s"; exit 1; }
url="http://127.0.0.1:$port"
node -e "fetch('$url/openapi.json').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" \
  || skip "the service at $url has no /openapi.json"

echo "schemathesis $("$venv/bin/schemathesis" --version | awk '{print $NF}') against $url/openapi.json, $max_examples examples per operation"
"$venv/bin/schemathesis" --config-file scripts/schemathesis.toml run "$url/openapi.json" \
  --header "x-api-key: $key" \
  --checks all \
  --max-examples "$max_examples" \
  --seed 1 \
  --request-timeout 150 \
  --workers 1
status=$?
echo "schemathesis: exit $status"
exit "$status"
