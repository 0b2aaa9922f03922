// Package archtest holds the tests that keep the module's structure what
// ARCHITECTURE.md says it is: who may import whom (the document's package
// table, checked against go list), the process boundary (the worker's
// symbol table, the pipe format and the kernel stay on their sides), a doc
// comment on every package, and no function longer than a screen. It has
// no code of its own.
package archtest
