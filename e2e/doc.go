// Package e2e holds the end-to-end tests: the built kernel driven by real
// clients (Debian's and PyPI's Jupyter clients, JupyterLab in Chromium,
// Kernel Gateway, JupyterHub, papermill, nbconvert, the MCP SDKs). They
// skip with a message when a client is missing, unless SBIR_E2E=1 makes
// them mandatory (CI). It has no code of its own.
package e2e
