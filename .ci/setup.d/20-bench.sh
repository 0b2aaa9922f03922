# Setup for bench/ (sourced by .ci/run): what bench/compare.sh needs for the
# CI test that runs it on a small file (bench/compare_test.go): Debian's
# Jupyter client, ipykernel and pandas, Node with npm, and the pinned Node
# packages of bench/package.json (DuckDB, Polars) in the benchmark's cache.
# Idempotent: installs only what is missing.
bench_debs=()
/usr/bin/python3 -c 'import jupyter_client, ipykernel, pandas' 2>/dev/null ||
	bench_debs+=(python3-jupyter-client python3-ipykernel python3-pandas)
command -v node >/dev/null || bench_debs+=(nodejs)
command -v npm >/dev/null || bench_debs+=(npm)
if [ ${#bench_debs[@]} -gt 0 ]; then
	apt-get install -y -q --no-install-recommends "${bench_debs[@]}"
fi
bash bench/compare.sh --setup
unset bench_debs
