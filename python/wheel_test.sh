#!/usr/bin/env bash
# wheel_test.sh — the package as a user gets it: a wheel built from the repository with `pip wheel`
# (scikit-build-core driving the project's CMake), installed into a fresh virtual environment, then
# imported and run there, outside the repository.
#   bash python/wheel_test.sh PYTHON SOURCE_DIR WORK_DIR
# PYTHON has scikit-build-core and nanobind (the build runs without isolation, so that it needs no
# download); the fresh environment gets numpy from the package index as the wheel's dependency.
set -euo pipefail
python=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
"$python" -m pip wheel --no-build-isolation --no-deps -q -w "$work/dist" \
  --config-settings=build-dir="$work/build" "$source"
wheel=$(ls "$work"/dist/clgemm-*.whl)
echo "built $(basename "$wheel")"
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "$wheel"
cd "$work"
"$work/venv/bin/python" - <<'PY'
import numpy as np
import clgemm

assert "site-packages" in clgemm.__file__, clgemm.__file__
rng = np.random.default_rng(7)
a = rng.uniform(-1, 1, (3, 65, 127)).astype(np.float32)
b = rng.uniform(-1, 1, (127, 33)).astype(np.float32)
c = clgemm.matmul(a, b)
err = np.abs(c - np.matmul(a.astype(np.float64), b.astype(np.float64))).max()
assert err < 1e-4, err
print(f"clgemm {clgemm.__version__} from {clgemm.__file__} on {clgemm.devices()[0].name}: max error {err:.2e}")
PY
