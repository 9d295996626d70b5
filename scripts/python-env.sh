#!/usr/bin/env bash
# python-env.sh — the virtual environment .venv that the CMake build (CLGEMM_PYTHON=ON) and the
# Python tests use: python/requirements-dev.txt from the package index. Idempotent: an environment
# that already imports them is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${VENV:-.venv}
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import nanobind, scikit_build_core, numpy, pytest, pyopencl, ml_dtypes, hypothesis" 2>/dev/null; then
  echo "python-env: $venv is ready"
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -r python/requirements-dev.txt
echo "python-env: $venv made ($("$venv/bin/python" --version))"
