package interp_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirJSONMethods checks sbir patch 89: encoding/json calls the
// MarshalJSON, UnmarshalJSON, MarshalText and UnmarshalText methods of
// interpreted types where gc's does, pointer receivers only for
// addressable values. The outputs are go run's (Go 1.26) for the same
// programs; the longer programs are in testdata/semantics/json_*.go.
func TestSbirJSONMethods(t *testing.T) {
	const header = "package main\n\nimport (\n\t\"encoding/json\"\n\t\"errors\"\n\t\"fmt\"\n\t\"strings\"\n\t\"sync\"\n)\n\nvar _, _, _ = errors.New, strings.ToUpper, sync.NewCond\n\n"
	tests := []struct {
		name, src, out string
	}{
		{"pointer receivers and addressability", `type Stamp struct{ N int }
func (s *Stamp) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(` + "`" + `"#%d"` + "`" + `, s.N)), nil }
type Box struct {
	S   Stamp
	Arr [1]Stamp
	M   map[string]Stamp
	Sl  []Stamp
}
func main() {
	b := Box{Stamp{1}, [1]Stamp{{2}}, map[string]Stamp{"k": {3}}, []Stamp{{4}}}
	out, _ := json.Marshal(b)
	fmt.Println(string(out))
	out, _ = json.Marshal(&b)
	fmt.Println(string(out))
	out, _ = json.Marshal([]Box{b})
	fmt.Println(string(out))
	out, _ = json.Marshal(map[string]*Stamp{"p": {5}, "nil": nil})
	fmt.Println(string(out))
}
`,
			"{\"S\":{\"N\":1},\"Arr\":[{\"N\":2}],\"M\":{\"k\":{\"N\":3}},\"Sl\":[\"#4\"]}\n{\"S\":\"#1\",\"Arr\":[\"#2\"],\"M\":{\"k\":{\"N\":3}},\"Sl\":[\"#4\"]}\n[{\"S\":\"#1\",\"Arr\":[\"#2\"],\"M\":{\"k\":{\"N\":3}},\"Sl\":[\"#4\"]}]\n{\"nil\":null,\"p\":\"#5\"}\n"},
		{"promoted methods of embedded types", `type Inner struct{ A int }
func (i Inner) MarshalJSON() ([]byte, error) { return []byte(` + "`" + `"inner"` + "`" + `), nil }
type Outer struct {
	Inner
	B int
}
type PInner struct{ A int }
func (p *PInner) MarshalJSON() ([]byte, error) { return []byte(` + "`" + `"pinner"` + "`" + `), nil }
type POuter struct {
	*PInner
	B int
}
type VOuter struct {
	PInner
	B int
}
func main() {
	out, _ := json.Marshal(Outer{Inner{1}, 2})
	fmt.Println(string(out))
	out, _ = json.Marshal(POuter{&PInner{1}, 2})
	fmt.Println(string(out))
	out, _ = json.Marshal(VOuter{PInner{1}, 2})
	fmt.Println(string(out))
	out, _ = json.Marshal(&VOuter{PInner{1}, 2})
	fmt.Println(string(out))
}
`,
			"\"inner\"\n\"pinner\"\n{\"A\":1,\"B\":2}\n\"pinner\"\n"},
		{"omitempty, nil pointers, byte elements", `type Level int
func (l Level) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(` + "`" + `"L%d"` + "`" + `, int(l))), nil }
type B byte
func (b B) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(` + "`" + `"%c"` + "`" + `, b)), nil }
type T struct {
	L  Level   ` + "`" + `json:",omitempty"` + "`" + `
	P  *Level  ` + "`" + `json:"p"` + "`" + `
	Ls []Level ` + "`" + `json:"ls"` + "`" + `
	Bs []B     ` + "`" + `json:"bs"` + "`" + `
	Raw []byte ` + "`" + `json:"raw"` + "`" + `
}
func main() {
	out, _ := json.Marshal(T{Bs: []B("hi"), Raw: []byte("hi")})
	fmt.Println(string(out))
	l := Level(3)
	out, _ = json.Marshal(T{L: 1, P: &l, Ls: []Level{}})
	fmt.Println(string(out))
	var t T
	fmt.Println(json.Unmarshal([]byte(` + "`" + `{"bs":[104]}` + "`" + `), &t), t.Bs)
}
`,
			"{\"p\":null,\"ls\":null,\"bs\":[\"h\",\"i\"],\"raw\":\"aGk=\"}\n{\"L\":\"L1\",\"p\":\"L3\",\"ls\":[],\"bs\":null,\"raw\":null}\n<nil> [104]\n"},
		{"MarshalText and UnmarshalText on values", `type Color struct{ R, G, B uint8 }
func (c Color) MarshalText() ([]byte, error) {
	if c.R == 255 && c.G == 255 && c.B == 255 {
		return nil, errors.New("white is not allowed")
	}
	return []byte(fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)), nil
}
func (c *Color) UnmarshalText(b []byte) error {
	_, err := fmt.Sscanf(string(b), "#%02x%02x%02x", &c.R, &c.G, &c.B)
	return err
}
type Theme struct {
	Fg, Bg Color
	Extra  map[string]Color
}
func main() {
	out, err := json.Marshal(Theme{Color{1, 2, 3}, Color{0, 0, 0}, map[string]Color{"a": {16, 32, 48}}})
	fmt.Println(string(out), err)
	_, err = json.Marshal(Theme{Bg: Color{255, 255, 255}})
	fmt.Println(err)
	var th Theme
	err = json.Unmarshal([]byte(` + "`" + `{"Fg":"#0a0b0c","Extra":{"z":"#ffffff"}}` + "`" + `), &th)
	fmt.Println(th.Fg, th.Extra, err)
	err = json.Unmarshal([]byte(` + "`" + `{"Bg":[1]}` + "`" + `), &th)
	fmt.Println(err)
	err = json.Unmarshal([]byte(` + "`" + `{"Bg":"nope"}` + "`" + `), &th)
	fmt.Println(err)
}
`,
			"{\"Fg\":\"#010203\",\"Bg\":\"#000000\",\"Extra\":{\"a\":\"#102030\"}} <nil>\njson: error calling MarshalText for type main.Color: white is not allowed\n{10 11 12} map[z:{255 255 255}] <nil>\njson: cannot unmarshal array into Go struct field Theme.Bg of type main.Color\ninput does not match format\n"},
		{"decoding map values and Decoder options", `type Level int
func (l *Level) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*l = Level(len(s))
	return nil
}
type Doc struct {
	Levels map[string]Level
	Any    any
}
func main() {
	dec := json.NewDecoder(strings.NewReader(` + "`" + `{"Levels":{"a":"xx","b":""},"Any":1.50}` + "`" + `))
	dec.UseNumber()
	var d Doc
	err := dec.Decode(&d)
	fmt.Printf("%v %v %T %v\n", d.Levels, d.Any, d.Any, err)
	var ls []Level
	fmt.Println(json.Unmarshal([]byte(` + "`" + `["a","abc"]` + "`" + `), &ls), ls)
	fmt.Println(json.Unmarshal([]byte(` + "`" + `["a",1]` + "`" + `), &ls), ls)
}
`,
			"map[a:2 b:0] 1.50 json.Number <nil>\n<nil> [1 3]\njson: cannot unmarshal number into Go value of type string [1 3]\n"},
		{"concurrent calls", `type Level int
func (l Level) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(` + "`" + `"L%d"` + "`" + `, int(l))), nil }
type Row struct{ Ls []Level }
func main() {
	res := make([]string, 8)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				b, _ := json.Marshal(Row{[]Level{Level(i), Level(j)}})
				res[i] = string(b)
			}
		}(i)
	}
	wg.Wait()
	fmt.Println(strings.Join(res, " "))
}
`,
			"{\"Ls\":[\"L0\",\"L19\"]} {\"Ls\":[\"L1\",\"L19\"]} {\"Ls\":[\"L2\",\"L19\"]} {\"Ls\":[\"L3\",\"L19\"]} {\"Ls\":[\"L4\",\"L19\"]} {\"Ls\":[\"L5\",\"L19\"]} {\"Ls\":[\"L6\",\"L19\"]} {\"Ls\":[\"L7\",\"L19\"]}\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out, RefuseIndistinctTypes: true})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			if _, err := i.Eval(header + tc.src); err != nil {
				t.Fatalf("%v\noutput so far:\n%s", err, out.String())
			}
			if out.String() != tc.out {
				t.Errorf("output:\n%s\nwant (go run):\n%s", out.String(), tc.out)
			}
		})
	}
}

// TestSbirJSONMethodsOfLaterEvaluations checks that a method declared by a
// later evaluation (a notebook's next cell) is called by the next
// encoding: nothing of an earlier call is kept.
func TestSbirJSONMethodsOfLaterEvaluations(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	steps := []string{
		`import ("encoding/json"; "fmt")`,
		`type Level int
type Alert struct{ L Level }`,
		`b, _ := json.Marshal(Alert{2}); fmt.Println(string(b))`,
		`func (l Level) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf("\"L%d\"", int(l))), nil }`,
		`b, _ = json.Marshal(Alert{2}); fmt.Println(string(b))`,
	}
	for _, s := range steps {
		if _, err := i.Eval(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	// go run of the two programs (without, then with, the method).
	if want := "{\"L\":2}\n{\"L\":\"L2\"}\n"; out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
}

// TestSbirJSONAmbiguousValueRefused checks that a struct held in an
// interface, whose reflect type two declared types share when only one
// of them has a field with MarshalJSON, makes encoding/json panic with an
// *interp.Unsupported naming both types and the rewrite: the interpreter
// cannot tell which one it is, and a returned error could be ignored into
// another output. gc prints {"X":1} for Other and {"X":"B"} for Plain.
func TestSbirJSONAmbiguousValueRefused(t *testing.T) {
	const src = `package main

import (
	"encoding/json"
	"fmt"
)

type Both int

func (b Both) MarshalJSON() ([]byte, error) { return []byte(` + "`" + `"B"` + "`" + `), nil }

type Plain struct{ X Both }
type Other struct{ X int }

func wrap(v any) any { return v }

func main() {
	p := wrap(Plain{2})
	b, err := json.Marshal(wrap(Other{1}))
	fmt.Println(string(b), err, p)
}
`
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	_, err := i.Eval(src)
	var p interp.Panic
	if !errors.As(err, &p) {
		t.Fatalf("error %v (%T), output %q: want an interp.Panic", err, err, out.String())
	}
	u, ok := p.Value.(*interp.Unsupported)
	if !ok {
		t.Fatalf("panic value %T %v, want *interp.Unsupported", p.Value, p.Value)
	}
	for _, want := range []string{"main.Plain", "main.Other", "with its own type rather than as an interface"} {
		if !strings.Contains(u.Msg, want) {
			t.Errorf("message %q does not contain %q", u.Msg, want)
		}
	}
	if out.Len() != 0 {
		t.Errorf("printed %q before refusing", out.String())
	}
}
