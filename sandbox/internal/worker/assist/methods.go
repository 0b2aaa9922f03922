package assist

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"strings"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/allowlist"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// maxCellMethods bounds the methods declared by cells that completion
// remembers.
const maxCellMethods = 256

// cellMethod is a method a cell declared on one of its types. yaegi's
// values of such types carry no methods in their reflect.Type, so
// completion learns them from the declarations the worker ran.
type cellMethod struct {
	recv  string          // the receiver's type name, without *
	entry allowlist.Entry // signature and doc comment
}

// noteMethods records the exported methods the chunks declare.
func (a *Assistant) noteMethods(chunks []wire.Chunk) {
	for _, c := range chunks {
		if !strings.Contains(c.Code, "func") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", "package main\n"+c.Code, parser.ParseComments)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || !fd.Name.IsExported() {
				continue
			}
			recv := fd.Recv.List[0].Type
			if s, ok := recv.(*ast.StarExpr); ok {
				recv = s.X
			}
			id, ok := recv.(*ast.Ident)
			if !ok {
				continue
			}
			var sig strings.Builder
			body := fd.Body
			doc := fd.Doc
			fd.Body, fd.Doc = nil, nil
			_ = printer.Fprint(&sig, fset, fd)
			fd.Body, fd.Doc = body, doc
			m := cellMethod{recv: id.Name, entry: allowlist.Entry{Sig: sig.String(), Doc: doc.Text()}}
			if a.methods == nil {
				a.methods = map[string][]cellMethod{}
			}
			list := a.methods[fd.Name.Name]
			replaced := false
			for i := range list {
				if list[i].recv == m.recv {
					list[i], replaced = m, true // redeclared in a later cell
				}
			}
			if !replaced {
				if a.nMethods >= maxCellMethods {
					continue
				}
				a.nMethods++
				list = append(list, m)
			}
			a.methods[fd.Name.Name] = list
		}
	}
}

// cellMethodNames returns the methods cells declared that the value of
// the selector expression x (a session variable, or a field path from
// one) has: yaegi is asked for each method value, which calls nothing.
func (a *Assistant) cellMethodNames(x string) []string {
	var out []string
	for name := range a.methods {
		if _, ok := a.value(x + "." + name); ok {
			out = append(out, name)
		}
	}
	return out
}

// cellMethodDoc returns the declaration of a method cells declared when
// only one of their types has a method of that name.
func (a *Assistant) cellMethodDoc(name string) (allowlist.Entry, bool) {
	if list := a.methods[name]; len(list) == 1 {
		return list[0].entry, true
	}
	return allowlist.Entry{}, false
}
