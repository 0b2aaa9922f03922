# Current Jupyter from PyPI and npm for the end-to-end tests in e2e/ that
# prove the kernel on what users run today (issue 16): JupyterLab 4 in
# Debian's chromium driven by playwright-core, jupyter_client 8, nbclient,
# papermill, jupyter_kernel_test, Kernel Gateway and JupyterHub with
# configurable-http-proxy. Debian's own Jupyter stays untouched under
# /usr/bin/python3; these live in a virtualenv kept outside the clone, so a
# second run on the same machine installs nothing.
#
# Sourced by .ci/run (bash, set -euo pipefail inherited). Exports
# SBIR_E2E_VENV and SBIR_E2E_NODE_MODULES, where the e2e tests look.

# As root (CI), the cache goes under /var/cache so that the JupyterHub
# test's local users can run the virtualenv's jupyterhub-singleuser (root's
# home is closed to them); otherwise under the user's cache directory.
if [ "$(id -u)" = 0 ]; then
  sbir_ci_cache="${SBIR_CI_CACHE:-/var/cache/sbir-kernel-ci}"
else
  sbir_ci_cache="${SBIR_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sbir-kernel-ci}"
fi
export SBIR_E2E_VENV="$sbir_ci_cache/venv"
export SBIR_E2E_NODE_MODULES="$sbir_ci_cache/node/node_modules"

# Debian: the browser (no browser downloads: Playwright drives this one),
# venv support for Debian's python3, node and npm for the proxy and
# Playwright, passwd for useradd (the JupyterHub test's users).
sbir_debs=(chromium python3-venv nodejs npm passwd fonts-liberation)
sbir_install=()
for p in "${sbir_debs[@]}"; do
  # nodejs from another source (e.g. NodeSource) ships its own npm.
  case "$p" in nodejs | npm) command -v node >/dev/null && command -v npm >/dev/null && continue ;; esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || sbir_install+=("$p")
done
if [ "${#sbir_install[@]}" -gt 0 ]; then
  echo "installing Debian packages: ${sbir_install[*]}"
  apt-get install -y -q --no-install-recommends "${sbir_install[@]}"
fi

# PyPI, major versions bounded so a run tests this generation of clients.
sbir_pip=(
  "jupyterlab>=4,<5"
  "jupyter_server>=2,<3"
  "jupyter_client>=8,<9"
  "nbclient>=0.10"
  "nbformat>=5.9"
  "papermill>=2.6,<3"
  "jupyter_kernel_test>=0.7"
  "jupyter_kernel_gateway>=3,<4"
  "jupyterhub>=5,<7"
  "jupyterhub-idle-culler>=1.4"
)
sbir_npm=("playwright-core@1" "configurable-http-proxy@5")
sbir_stamp="$(printf '%s\n' "${sbir_pip[@]}" "${sbir_npm[@]}" "$(/usr/bin/python3 -V)" | sha256sum | cut -c1-16)"

if [ "$(cat "$SBIR_E2E_VENV/.sbir-stamp" 2>/dev/null)" != "$sbir_stamp" ]; then
  echo "creating $SBIR_E2E_VENV from PyPI"
  rm -rf "$SBIR_E2E_VENV"
  /usr/bin/python3 -m venv "$SBIR_E2E_VENV"
  "$SBIR_E2E_VENV/bin/pip" install -q --disable-pip-version-check --upgrade pip
  "$SBIR_E2E_VENV/bin/pip" install -q --disable-pip-version-check "${sbir_pip[@]}"
  chmod -R a+rX "$sbir_ci_cache"
  echo "$sbir_stamp" >"$SBIR_E2E_VENV/.sbir-stamp"
fi
if [ "$(cat "$sbir_ci_cache/node/.sbir-stamp" 2>/dev/null)" != "$sbir_stamp" ]; then
  echo "installing ${sbir_npm[*]} from npm into $sbir_ci_cache/node"
  rm -rf "$sbir_ci_cache/node"
  mkdir -p "$sbir_ci_cache/node"
  # PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: playwright-core downloads nothing, but
  # make sure no install hook tries.
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$sbir_ci_cache/node" --no-audit --no-fund --loglevel=error "${sbir_npm[@]}"
  chmod -R a+rX "$sbir_ci_cache/node"
  echo "$sbir_stamp" >"$sbir_ci_cache/node/.sbir-stamp"
fi
"$SBIR_E2E_VENV/bin/python" - <<'PY'
from importlib.metadata import version
print("PyPI Jupyter:", ", ".join(f"{p} {version(p)}" for p in (
    "jupyterlab", "jupyter_server", "jupyter_client", "nbclient", "papermill",
    "jupyter_kernel_test", "jupyter_kernel_gateway", "jupyterhub")))
PY
echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo missing)"
unset sbir_ci_cache sbir_debs sbir_install sbir_pip sbir_npm sbir_stamp p
