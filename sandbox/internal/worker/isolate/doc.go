// Package isolate applies the worker's in-process isolation layers and
// tests them: rlimits (address space, CPU, files, no writes, no cores),
// Landlock (no file access beyond the package environment, no TCP), a
// seccomp deny-list with no_new_privs, and, in cgo builds, the re-exec
// that starts the worker inside a Landlock domain. Probe attempts the
// escapes a cell would try and reports which were stopped (tests and
// doctor).
//
// The layers that need the supervisor (namespaces, the uid, the empty
// environment) are applied when it starts the worker (package sandbox).
// On systems other than Linux every layer reports that it is
// unavailable.
package isolate
