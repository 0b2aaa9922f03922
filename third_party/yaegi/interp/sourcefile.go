package interp

import (
	"go/token"
	"runtime"
)

// sbir patch 12b: a parsed source's token.File stays in the interpreter's
// FileSet exactly as long as a node parsed from it is alive.
//
// Every parse adds a token.File to interp.fset, and a FileSet never lets
// go of its files, so a REPL that evaluates for hours grows with every
// evaluation (~200 bytes for `1`, more with line directives). The file is
// needed for as long as a node from it can still report its position: a
// function declared in one evaluation and called, panicking, a thousand
// evaluations later must still name its line. Which nodes outlive an
// evaluation (declarations, closures stored in variables, goroutines,
// types) is what the garbage collector already knows, so each node points
// to a sourceFile for its file, and when the last node of a file becomes
// unreachable a finalizer removes the file from the FileSet.

// sourceFile stands for one token.File of interp.fset; nodes parsed from
// the file point to it.
type sourceFile struct {
	base int // the file's base, for debugging; also gives the object a size
}

// sourceFileAt returns a new sourceFile for the file of interp.fset
// holding pos, or nil when no file holds it or the interpreter keeps its
// files for the debugger (without Options.DiscardDebugInfo).
func (interp *Interpreter) sourceFileAt(pos token.Pos) *sourceFile {
	if !interp.noDebug || !pos.IsValid() {
		return nil
	}
	f := interp.fset.File(pos)
	if f == nil {
		return nil
	}
	sf := &sourceFile{base: f.Base()}
	// A finalizer rather than runtime.AddCleanup: the module supports
	// go1.21. It refers to the FileSet and the file, never to sf.
	fset := interp.fset
	runtime.SetFinalizer(sf, func(*sourceFile) { fset.RemoveFile(f) })
	return sf
}

// dropFileAt removes from interp.fset the file a parse added at base when
// no node will be made from it (the parse failed, or was retried), so
// nothing refers to its positions: parse errors carry resolved ones.
func (interp *Interpreter) dropFileAt(base int) {
	if !interp.noDebug {
		return
	}
	if f := interp.fset.File(token.Pos(base)); f != nil && f.Base() == base {
		interp.fset.RemoveFile(f)
	}
}
