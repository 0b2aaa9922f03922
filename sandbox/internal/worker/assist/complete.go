package assist

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/sbirtools/sbir-kernel/internal/textcut"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/allowlist"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/symbols"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// goWords are the keywords and predeclared names offered by completion.
var goWords = []string{
	"append", "bool", "break", "byte", "cap", "case", "chan", "clear", "const", "continue",
	"copy", "default", "defer", "delete", "else", "error", "false", "float64", "for", "func",
	"if", "int", "int64", "len", "make", "map", "max", "min", "new", "nil", "panic", "range",
	"recover", "return", "rune", "select", "string", "struct", "switch", "true", "type", "var",
}

// packageNames maps the name a cell uses (rand, json, award_data) to the
// allowed import path.
func packageNames() map[string]string {
	m := map[string]string{}
	for _, p := range allowlist.Packages() {
		m[p[strings.LastIndexByte(p, '/')+1:]] = p
	}
	return m
}

var (
	identBefore = regexp.MustCompile(`(?:([A-Za-z_][A-Za-z0-9_]*)\.)?([A-Za-z_][A-Za-z0-9_]*)?$`)
	// A string argument of an award_data call or of a method chained on
	// one: award_data.Strings("Com, .GroupBy("Agency", "Ph.
	columnArg = regexp.MustCompile(`(?:(award_data)\.[A-Za-z_]\w*|(\))\s*\.\s*[A-Za-z_]\w*|\b([a-z_]\w*)\.[A-Z]\w*)\(\s*(?:(?:"[^"\n]*"|[^()"\n]*)\s*,\s*)*"([^"\n]*)$`)
)

// runeToByte converts a rune offset of s to a byte offset.
func runeToByte(s string, runes int) int {
	if runes <= 0 {
		return 0
	}
	i := 0
	for n := 0; n < runes && i < len(s); n++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// Complete answers a completion request for code at cursor (runes): the
// session's names (names, the supervisor's list), keywords, and the
// members of allowed packages, of the third-party packages the session or
// the cell imports, and of session values; inside award_data calls, the
// data's column names and category values.
func (a *Assistant) Complete(code string, cursor int, names []string) wire.Completion {
	off := runeToByte(code, cursor)
	before := code[:off]
	cur := utf8.RuneCountInString(before)
	if c, ok := a.completeValue(code, before); ok {
		return c
	}
	// Column names inside a string argument of award_data.X(, of a method
	// chained on a call in a cell that uses award_data, or of a method of
	// a session variable (a frame made by an earlier cell).
	if m := columnArg.FindStringSubmatch(before); m != nil &&
		(m[1] != "" || m[2] != "" && strings.Contains(code, "award_data") || m[3] != "" && contains(names, m[3])) {
		prefix := m[4]
		var out []string
		for _, c := range a.columns {
			if strings.HasPrefix(strings.ToLower(c), strings.ToLower(prefix)) {
				out = append(out, c)
			}
		}
		return wire.Completion{Matches: out, Start: cur - utf8.RuneCountInString(prefix), End: cur}
	}
	// A member of what a call, an index or a selector returns:
	// award_data.GroupBy("Agency").Su, award_data.Frame.W.
	if prefix, members, ok := a.chainMembers(before, names, false); ok {
		return filterMatches(members, prefix, cur)
	}
	m := identBefore.FindStringSubmatch(before)
	qual, prefix := m[1], m[2]
	var cands []string
	if qual != "" {
		if pd := a.src.lookup(code, qual); pd != nil {
			cands = pd.members
		} else if path, ok := packageNames()[qual]; ok {
			cands = symbols.Members(path)
		} else if contains(names, qual) {
			cands = append(a.memberNames(qual), a.cellMethodNames(qual)...)
		}
		if len(cands) == 0 {
			// A variable this cell assigned: df := award_data.Where(...).
			if _, members, ok := a.chainMembers(before, names, true); ok {
				cands = members
			}
		}
	} else {
		cands = append(cands, names...)
		for n := range packageNames() {
			cands = append(cands, n)
		}
		cands = append(cands, a.src.names(code)...)
		cands = append(cands, goWords...)
	}
	return filterMatches(cands, prefix, cur)
}

// filterMatches returns the candidates that start with prefix, sorted and
// without duplicates or the sandbox's helpers, replacing prefix, which
// ends at rune offset cur.
func filterMatches(cands []string, prefix string, cur int) wire.Completion {
	seen := map[string]bool{}
	out := []string{}
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) && !seen[c] && !strings.HasPrefix(c, cellprep.HelperPrefix) {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return wire.Completion{Matches: out, Start: cur - utf8.RuneCountInString(prefix), End: cur}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// value evaluates a session variable's name, or a selector from one.
func (a *Assistant) value(name string) (reflect.Value, bool) {
	if a.sess == nil {
		return reflect.Value{}, false
	}
	return a.sess.Value(name)
}

// memberNames lists the exported fields and methods of a session value.
func (a *Assistant) memberNames(name string) []string {
	v, ok := a.value(name)
	if !ok {
		return nil
	}
	var out []string
	t := v.Type()
	for i := 0; i < t.NumMethod(); i++ {
		out = append(out, t.Method(i).Name)
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.IsExported() {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

// identAt returns the (possibly qualified) identifier around offset off.
func identAt(code string, off int) (qual, name string) {
	isID := func(b byte) bool {
		return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
	}
	s, e := off, off
	for s > 0 && isID(code[s-1]) {
		s--
	}
	for e < len(code) && isID(code[e]) {
		e++
	}
	name = code[s:e]
	if s > 0 && code[s-1] == '.' {
		q := s - 1
		for q > 0 && isID(code[q-1]) {
			q--
		}
		qual = code[q : s-1]
	}
	return qual, name
}

// Inspect answers an inspect request: documentation for allowed packages,
// award_data, display and the third-party packages the session or the cell
// imports; type and value for session variables.
func (a *Assistant) Inspect(code string, cursor, detail int, names []string) wire.Inspection {
	off := runeToByte(code, cursor)
	if in, ok := a.inspectChain(code, off, names, false); ok {
		return in
	}
	if in := a.inspectName(code, off, detail, names); in.Found {
		return in
	}
	// A member of a variable this cell assigned.
	in, _ := a.inspectChain(code, off, names, true)
	return in
}

// inspectName documents the identifier, or qualified identifier, at off.
func (a *Assistant) inspectName(code string, off, detail int, names []string) wire.Inspection {
	qual, name := identAt(code, off)
	if name == "" && off > 0 {
		qual, name = identAt(code, off-1)
	}
	if name == "" {
		return wire.Inspection{}
	}
	pkgs := packageNames()
	if qual != "" {
		if pd := a.src.lookup(code, qual); pd != nil {
			if e, ok := pd.entries[name]; ok {
				return docInspection(e)
			}
			return wire.Inspection{}
		}
		if path, ok := pkgs[qual]; ok {
			if e, ok := allowlist.Doc(path, name); ok {
				return docInspection(e)
			}
		}
		if contains(names, qual) {
			if v, ok := a.value(qual); ok {
				if m, ok := v.Type().MethodByName(name); ok {
					if e, ok := a.typeMethodDoc(v.Type(), name); ok {
						return docInspection(e)
					}
					return textInspection(fmt.Sprintf("%s.%s: %s", qual, name, m.Type))
				}
				if _, ok := a.value(qual + "." + name); ok {
					if e, ok := a.cellMethodDoc(name); ok {
						return docInspection(e)
					}
				}
			}
		}
		return wire.Inspection{}
	}
	if pd := a.src.lookup(code, name); pd != nil {
		return docInspection(pd.entries[""])
	}
	if path, ok := pkgs[name]; ok {
		if e, ok := allowlist.Doc(path, ""); ok {
			return docInspection(e)
		}
	}
	if contains(names, name) {
		v, ok := a.value(name)
		if !ok {
			return wire.Inspection{}
		}
		var val string
		if v.CanInterface() {
			// The value's String method may be the cell's own: the
			// session formats it bounded, its panics recovered.
			var err error
			if val, err = a.sess.Format(name, v); err != nil {
				val = "<" + err.Error() + ">"
				if a.sess.Replacing() {
					val += "\n\nThe worker is being replaced: every variable of this session is lost."
				}
			}
			if len(val) > maxInspectText && detail == 0 {
				val = textcut.Prefix(val, maxInspectText) + " …"
			}
		}
		return textInspection(fmt.Sprintf("%s %s\n\n%s", name, v.Type(), val))
	}
	return wire.Inspection{}
}

// typeMethodDoc finds the documentation of a method of a compiled type
// from an allowed package.
func (a *Assistant) typeMethodDoc(t reflect.Type, method string) (allowlist.Entry, bool) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	path := t.PkgPath()
	for _, p := range allowlist.Packages() {
		if p == path || strings.HasSuffix(path, "/award_data") && p == "award_data" || strings.HasSuffix(path, "/display") && p == "display" {
			return allowlist.Doc(p, t.Name()+"."+method)
		}
	}
	return allowlist.Entry{}, false
}

func docInspection(e allowlist.Entry) wire.Inspection {
	plain := e.Sig
	if e.Doc != "" {
		plain += "\n\n" + e.Doc
	}
	md := "```go\n" + e.Sig + "\n```\n"
	if e.Doc != "" {
		md += "\n" + e.Doc
	}
	return wire.Inspection{Found: true, Data: map[string]any{"text/plain": plain, "text/markdown": md}}
}

func textInspection(s string) wire.Inspection {
	return wire.Inspection{Found: true, Data: map[string]any{"text/plain": s}}
}
