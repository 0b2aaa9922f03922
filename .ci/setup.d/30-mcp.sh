# MCP clients for e2e/mcp_test.go (issue 12): the official TypeScript SDK
# (@modelcontextprotocol/sdk, npm) and the official Python SDK (mcp, PyPI),
# both kept outside the clone so a second run on the same machine installs
# nothing. Needs node/npm and python3-venv (installed by 10-jupyter-pypi.sh;
# installed here too when this script runs alone).
#
# Sourced by .ci/run (bash, set -euo pipefail inherited). Exports
# SBIR_MCP_VENV and SBIR_MCP_NODE_MODULES, where e2e/mcp_test.go looks.

sbir_mcp_cache="${XDG_CACHE_HOME:-$HOME/.cache}/sbir-kernel-ci/mcp"
export SBIR_MCP_VENV="$sbir_mcp_cache/venv"
export SBIR_MCP_NODE_MODULES="$sbir_mcp_cache/node/node_modules"

sbir_mcp_debs=()
command -v node >/dev/null && command -v npm >/dev/null || sbir_mcp_debs+=(nodejs npm)
dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "install ok installed" || sbir_mcp_debs+=(python3-venv)
if [ "${#sbir_mcp_debs[@]}" -gt 0 ]; then
  echo "installing Debian packages: ${sbir_mcp_debs[*]}"
  apt-get install -y -q --no-install-recommends "${sbir_mcp_debs[@]}"
fi

# Major versions bounded so a run tests this generation of the SDKs.
sbir_mcp_pip=("mcp>=1.20,<2")
sbir_mcp_npm=("@modelcontextprotocol/sdk@1")
sbir_mcp_stamp="$(printf '%s\n' "${sbir_mcp_pip[@]}" "${sbir_mcp_npm[@]}" "$(/usr/bin/python3 -V)" "$(node --version)" | sha256sum | cut -c1-16)"

if [ "$(cat "$SBIR_MCP_VENV/.sbir-stamp" 2>/dev/null)" != "$sbir_mcp_stamp" ]; then
  echo "creating $SBIR_MCP_VENV from PyPI"
  rm -rf "$SBIR_MCP_VENV"
  /usr/bin/python3 -m venv "$SBIR_MCP_VENV"
  "$SBIR_MCP_VENV/bin/pip" install -q --disable-pip-version-check "${sbir_mcp_pip[@]}"
  echo "$sbir_mcp_stamp" >"$SBIR_MCP_VENV/.sbir-stamp"
fi
if [ "$(cat "$sbir_mcp_cache/node/.sbir-stamp" 2>/dev/null)" != "$sbir_mcp_stamp" ]; then
  echo "installing ${sbir_mcp_npm[*]} from npm into $sbir_mcp_cache/node"
  rm -rf "$sbir_mcp_cache/node"
  mkdir -p "$sbir_mcp_cache/node"
  npm install --prefix "$sbir_mcp_cache/node" --no-audit --no-fund --loglevel=error "${sbir_mcp_npm[@]}"
  echo "$sbir_mcp_stamp" >"$sbir_mcp_cache/node/.sbir-stamp"
fi
echo "MCP clients: python mcp $("$SBIR_MCP_VENV/bin/python" -c 'from importlib.metadata import version; print(version("mcp"))'), @modelcontextprotocol/sdk $(node -p "require('$SBIR_MCP_NODE_MODULES/@modelcontextprotocol/sdk/package.json').version")"
unset sbir_mcp_cache sbir_mcp_debs sbir_mcp_pip sbir_mcp_npm sbir_mcp_stamp
