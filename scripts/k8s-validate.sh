#!/usr/bin/env bash
# Validates the Kubernetes Indexed Job of docs/selfplay.md (scripts/k8s/selfplay-job.yaml, which
# the doc includes verbatim; an integration test holds them equal) against the Kubernetes API's
# schemas with kubernetes-validate (PyPI), in strict mode: a misspelled or misplaced field is an
# error, not ignored. Creates a Python virtual environment in $VENV (default
# ${TMPDIR:-/tmp}/boardlab-k8s-validate) and installs the validator there; nothing else is written.
# Usage: scripts/k8s-validate.sh [KUBERNETES_VERSION…]   (default: 1.29.0 and the validator's newest)
# Not part of CI (.ci/run): it needs PyPI. Exits non-zero when a version rejects the manifest.
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=scripts/k8s/selfplay-job.yaml
venv=${VENV:-${TMPDIR:-/tmp}/boardlab-k8s-validate}
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
  if ! python3 -m venv "$venv" 2>/dev/null; then
    echo "k8s-validate: python3 -m venv failed: on Debian, apt-get install python3-venv" >&2
    exit 1
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check kubernetes-validate
fi
validate() { "$venv/bin/kubernetes-validate" --strict "$@"; }
echo "kubernetes-validate $("$venv/bin/kubernetes-validate" --version)"
versions=("$@")
if ((${#versions[@]} == 0)); then versions=(1.29.0 ""); fi
for v in "${versions[@]}"; do
  if [ -n "$v" ]; then validate -k "$v" "$manifest"; else validate "$manifest"; fi
done
# The validator can fail: the same manifest with one field misspelled must be refused.
broken=$(mktemp --suffix=.yaml)
trap 'rm -f "$broken"' EXIT
sed 's/completionMode:/completionMod:/' "$manifest" >"$broken"
if refusal=$(validate "$broken" 2>&1); then
  echo "k8s-validate: a misspelled field (completionMod) was not refused: the validation proves nothing" >&2
  exit 1
fi
echo "k8s-validate: a copy with completionMode misspelled is refused, as it should be:"
echo "${refusal//$broken/(the copy)}"
