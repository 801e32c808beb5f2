#!/usr/bin/env bash
# `boardlab serve`'s page tested in a real browser (docs/web.md, "Tested in a browser"):
# headless Chromium driven through chromedriver by Selenium (scripts/browser_test.py).
# Uses the Python virtual environment of scripts/real-clients.sh (target/venv, or $VENV) and
# the test profile's binary. CI (.ci/run) installs Debian's chromium and chromium-driver
# first; without them this skips, saying so.
# BOARDLAB_SCREENSHOTS=DIR also saves a screenshot of every variant's page into DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
venv=${VENV:-$target/venv}
chromium=${CHROMIUM:-$(command -v chromium || true)}
chromedriver=${CHROMEDRIVER:-$(command -v chromedriver || true)}
if [ ! -x "$chromium" ] || [ ! -x "$chromedriver" ]; then
  echo "SKIPPED the browser test: chromium and chromedriver are not installed (Debian: apt-get install chromium chromium-driver)"
  exit 0
fi
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check selenium
cargo build --quiet --profile test --bin boardlab
CHROMIUM=$chromium CHROMEDRIVER=$chromedriver "$venv/bin/python" scripts/browser_test.py "$target/debug/boardlab"
