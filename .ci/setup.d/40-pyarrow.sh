# pyarrow (PyPI) for e2e/arrowfile_test.go: an Arrow implementation we did
# not write reads and fully validates the Arrow file Convert writes, and
# decodes the stored text dictionaries (format 3). Kept outside the clone
# so a second run on the same machine installs nothing. Needs python3-venv
# (installed by 10-jupyter-pypi.sh; installed here too when this script
# runs alone).
#
# Sourced by .ci/run (bash, set -euo pipefail inherited). Exports
# SBIR_ARROW_VENV, where e2e/arrowfile_test.go looks.

sbir_arrow_cache="${XDG_CACHE_HOME:-$HOME/.cache}/sbir-kernel-ci/arrow"
export SBIR_ARROW_VENV="$sbir_arrow_cache/venv"

dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "install ok installed" || {
  echo "installing Debian packages: python3-venv"
  apt-get install -y -q --no-install-recommends python3-venv
}

# The major version bounded so a run tests this generation of pyarrow.
sbir_arrow_pip=("pyarrow>=20,<27")
sbir_arrow_stamp="$(printf '%s\n' "${sbir_arrow_pip[@]}" "$(/usr/bin/python3 -V)" | sha256sum | cut -c1-16)"

if [ "$(cat "$SBIR_ARROW_VENV/.sbir-stamp" 2>/dev/null)" != "$sbir_arrow_stamp" ]; then
  echo "creating $SBIR_ARROW_VENV from PyPI"
  rm -rf "$SBIR_ARROW_VENV"
  /usr/bin/python3 -m venv "$SBIR_ARROW_VENV"
  "$SBIR_ARROW_VENV/bin/pip" install -q --disable-pip-version-check "${sbir_arrow_pip[@]}"
  echo "$sbir_arrow_stamp" >"$SBIR_ARROW_VENV/.sbir-stamp"
fi
echo "pyarrow $("$SBIR_ARROW_VENV/bin/python" -c 'import pyarrow; print(pyarrow.__version__)')"
unset sbir_arrow_cache sbir_arrow_pip sbir_arrow_stamp
