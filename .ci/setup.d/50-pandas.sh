# pandas and nbconvert 7 (PyPI) for the tests of issue 31:
# award_data/pandas_test.go checks award_data's answers against pandas on
# generated data, and e2e/charts_test.go exports a notebook of every chart
# type to HTML with nbconvert 7 (Debian's nbconvert 6.5, from .ci/run, is
# the other exporter). Kept outside the clone so a second run on the same
# machine installs nothing. Needs python3-venv (installed by
# 10-jupyter-pypi.sh; installed here too when this script runs alone).
#
# Sourced by .ci/run (bash, set -euo pipefail inherited). Exports
# SBIR_PANDAS_VENV, where those tests look.

sbir_pandas_cache="${XDG_CACHE_HOME:-$HOME/.cache}/sbir-kernel-ci/pandas"
export SBIR_PANDAS_VENV="$sbir_pandas_cache/venv"

dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "install ok installed" || {
  echo "installing Debian packages: python3-venv"
  apt-get install -y -q --no-install-recommends python3-venv
}

# Major versions bounded so a run tests this generation of pandas and
# nbconvert.
sbir_pandas_pip=("pandas>=2.2,<3" "nbconvert>=7,<8" "nbclient>=0.10" "jupyter_client>=8,<9")
sbir_pandas_stamp="$(printf '%s\n' "${sbir_pandas_pip[@]}" "$(/usr/bin/python3 -V)" | sha256sum | cut -c1-16)"

if [ "$(cat "$SBIR_PANDAS_VENV/.sbir-stamp" 2>/dev/null)" != "$sbir_pandas_stamp" ]; then
  echo "creating $SBIR_PANDAS_VENV from PyPI"
  rm -rf "$SBIR_PANDAS_VENV"
  /usr/bin/python3 -m venv "$SBIR_PANDAS_VENV"
  "$SBIR_PANDAS_VENV/bin/pip" install -q --disable-pip-version-check "${sbir_pandas_pip[@]}"
  echo "$sbir_pandas_stamp" >"$SBIR_PANDAS_VENV/.sbir-stamp"
fi
echo "pandas venv: $("$SBIR_PANDAS_VENV/bin/python" -c 'import pandas, nbconvert; print("pandas", pandas.__version__, "nbconvert", nbconvert.__version__)')"
unset sbir_pandas_cache sbir_pandas_pip sbir_pandas_stamp
