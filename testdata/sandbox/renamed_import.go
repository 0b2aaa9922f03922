import js "encoding/json"
b, _ := js.Marshal(map[string]int{"a": 1})
string(b)
// Output:
// "{\"a\":1}"
