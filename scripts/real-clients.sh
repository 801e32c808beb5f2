#!/usr/bin/env bash
# boardlab's protocols tested with real clients (docs/protocols.md): python-chess drives
# `boardlab uci` (scripts/uci_client_test.py). Creates a Python virtual environment in
# target/venv (or $VENV), installs the clients there, builds the binary, runs the tests.
# CI runs it after `cargo test` (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
venv=${VENV:-$target/venv}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check chess pydraughts
# The test profile (opt-level 3) is what `cargo test` already built: no second optimised build.
cargo build --quiet --profile test --bin boardlab
"$venv/bin/python" scripts/uci_client_test.py "$target/debug/boardlab"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check pyffish && "$venv/bin/python" scripts/fen_oracle_test.py "$target/debug/boardlab" --games 1 --plies 40
"$venv/bin/python" scripts/records_test.py "$target/debug/boardlab"
