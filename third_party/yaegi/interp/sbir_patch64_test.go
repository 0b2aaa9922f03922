package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirRefuseHiddenCodecMethods checks sbir patch 64: with
// Options.RefuseIndistinctTypes, encoding/xml calls whose argument nests a
// value of an interpreted type with a method the encoder calls, and
// context.WithValue with a key of a defined non-struct type, are compile
// errors; the calls the interpreter gets right run (encoding/json's, since
// patch 89, whatever they nest).
// The outputs are go run's.
func TestSbirRefuseHiddenCodecMethods(t *testing.T) {
	const level = `type Level int
func (l Level) MarshalJSON() ([]byte, error) { return json.Marshal([]string{"low", "high"}[l]) }
func (l *Level) UnmarshalJSON(b []byte) error { *l = 1; return nil }
`
	tests := []struct {
		name, src, refuse, out string
	}{
		{"xml struct field", `type K int
func (k K) MarshalText() ([]byte, error) { return []byte("k"), nil }
type Doc struct{ K K }
func main() { b, _ := xml.Marshal(Doc{1}); fmt.Println(string(b)) }`, "xml.Marshal: the field K of the value has type main.K, whose MarshalText method", ""},
		// encoding/json runs since patch 89, with gc's output.
		{"struct field", level + `type Alert struct{ Level Level }
func main() { b, _ := json.Marshal(Alert{1}); fmt.Println(string(b)) }`, "", "{\"Level\":\"high\"}\n"},
		{"pointer to a struct field", level + `type Alert struct{ L *Level }
func main() { var a Alert; fmt.Println(json.Unmarshal([]byte(` + "`" + `{"L":"x"}` + "`" + `), &a), *a.L) }`, "", "<nil> 1\n"},
		{"slice element", level + `func main() { b, _ := json.MarshalIndent([]Level{0, 1}, "", " "); fmt.Println(string(b)) }`, "", "[\n \"low\",\n \"high\"\n]\n"},
		{"encoder", level + `func main() { var sb strings.Builder; json.NewEncoder(&sb).Encode(map[string]Level{"a": 1}); fmt.Print(sb.String()) }`, "", "{\"a\":\"high\"}\n"},
		{"map key with MarshalText", `type K int
func (k K) MarshalText() ([]byte, error) { return []byte("k"), nil }
func main() { b, _ := json.Marshal(map[K]int{1: 2}); fmt.Println(string(b)) }`, "", "{\"k\":2}\n"},
		{"the value itself", level + `func main() { b, err := json.Marshal(Level(1)); fmt.Println(string(b), err) }`, "", "\"high\" <nil>\n"},
		{"no methods below", `type Alert struct{ Level int; Tags []string }
func main() { b, _ := json.Marshal(Alert{1, []string{"x"}}); fmt.Println(string(b)) }`, "", "{\"Level\":1,\"Tags\":[\"x\"]}\n"},
		{"context key of a defined string type and a string", `type key string
func main() { ctx := context.WithValue(context.Background(), key("k"), 1); fmt.Println(ctx.Value("k")) }`, "context key of type string: this program also uses keys of type main.key", ""},
		{"two key types of one representation", `type keyA string
type keyB string
func main() {
	ctx := context.WithValue(context.Background(), keyA("k"), 1)
	ctx = context.WithValue(ctx, keyB("k"), 2)
	fmt.Println(ctx.Value(keyA("k")))
}`, "context key of type main.keyB: this program also uses keys of type main.keyA", ""},
		{"two empty struct key types", `type userKey struct{}
type reqKey struct{}
func main() {
	ctx := context.WithValue(context.Background(), userKey{}, "ada")
	fmt.Println(ctx.Value(reqKey{}))
}`, "context key of type main.reqKey", ""},
		{"one defined key type", `type key string
func main() {
	ctx := context.WithValue(context.Background(), key("user"), "ada")
	user, _ := ctx.Value(key("user")).(string)
	fmt.Println(user, ctx.Value(key("id")))
}`, "", "ada <nil>\n"},
		{"context key of a struct type", `type key struct{ name string }
func main() { ctx := context.WithValue(context.Background(), key{"k"}, 1); fmt.Println(ctx.Value(key{"k"})) }`, "", "1\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out, RefuseIndistinctTypes: true})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			src := "package main\nimport (\n\"context\"\n\"encoding/json\"\n\"encoding/xml\"\n\"fmt\"\n\"os\"\n\"strings\"\n)\nvar _, _, _, _, _ = context.Background, os.Stdout, json.Marshal, strings.ToUpper, xml.Marshal\n" + tc.src
			_, err := i.Eval(src)
			switch {
			case tc.refuse == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refuse != "" && err == nil:
				t.Fatalf("ran (printed %q), want an error containing %q", out.String(), tc.refuse)
			case tc.refuse != "" && !strings.Contains(err.Error(), tc.refuse):
				t.Fatalf("error %q, want it to contain %q", err, tc.refuse)
			}
			if out.String() != tc.out {
				t.Errorf("output %q, want %q", out.String(), tc.out)
			}
		})
	}
}
