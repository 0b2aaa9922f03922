// Package kernelspec installs and removes the Jupyter kernelspec that lets
// Jupyter start sbir-kernel: a directory named after the kernel holding
// kernel.json and three logos.
//
// A kernelspec tells Jupyter how to start a kernel. Install writes one whose
// argv is the absolute path of the kernel binary, the "kernel" command, any
// extra arguments (the sandbox limits) and "-f {connection_file}"; Jupyter
// substitutes the connection file when it starts the kernel:
//
//	{
//	  "argv": ["/usr/local/bin/sbir-kernel", "kernel", "--cell-timeout", "30s", "-f", "{connection_file}"],
//	  "display_name": "Go (SBIR awards)",
//	  "language": "go",
//	  "interrupt_mode": "message",
//	  "metadata": {"debugger": false, "sbir_kernel": {"version": "0.1.0"}}
//	}
//
// Where the directory goes follows Jupyter's own rules (see Dir): the user's
// data directory by default ($JUPYTER_DATA_DIR when set, otherwise
// $XDG_DATA_HOME/jupyter or ~/.local/share/jupyter on Linux), the active
// Python environment's prefix with SysPrefixScope, or any prefix with
// PrefixScope. Installing is idempotent: installing again rewrites the files
// in place, so it is also how a kernelspec is updated after the binary moves
// or the limits change.
//
// The logos (a bar chart and a coin on a Go-blue tile) are embedded in the
// binary, so it needs no asset files.
//
// The package does not start kernels and does not talk to Jupyter; `jupyter
// kernelspec list` is the way to see what Jupyter found.
package kernelspec
