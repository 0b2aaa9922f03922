package main

import (
	"encoding/json"
	"fmt"
	"sync"
)

type Celsius float64

func (c Celsius) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`"%.1fC"`, float64(c))), nil
}

type Reading struct {
	Station string  `json:"station"`
	Temp    Celsius `json:"temp"`
}

type Report struct {
	Readings []Reading `json:"readings"`
	Max      *Reading  `json:"max"`
}

func toJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

func build(n int) Report {
	r := Report{}
	for i := 0; i < n; i++ {
		r.Readings = append(r.Readings, Reading{fmt.Sprint("s", i), Celsius(float64(i) * 1.25)})
	}
	if n > 0 {
		r.Max = &r.Readings[n-1]
	}
	return r
}

func main() {
	fmt.Println(toJSON(Reading{"oslo", -3.25}))
	fmt.Println(toJSON(build(2)))
	b, _ := json.Marshal(build(1))
	fmt.Println(string(b))
	fmt.Println(toJSON([]Reading{{"a", 1}}))

	out := make([]string, 4)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			b, err := json.Marshal(build(i))
			out[i] = fmt.Sprint(string(b), err)
		}(i)
	}
	wg.Wait()
	for _, s := range out {
		fmt.Println(s)
	}
}

// Output:
// {"station":"oslo","temp":"-3.2C"}
// {"readings":[{"station":"s0","temp":"0.0C"},{"station":"s1","temp":"1.2C"}],"max":{"station":"s1","temp":"1.2C"}}
// {"readings":[{"station":"s0","temp":"0.0C"}],"max":{"station":"s0","temp":"0.0C"}}
// [{"station":"a","temp":"1.0C"}]
// {"readings":null,"max":null}<nil>
// {"readings":[{"station":"s0","temp":"0.0C"}],"max":{"station":"s0","temp":"0.0C"}}<nil>
// {"readings":[{"station":"s0","temp":"0.0C"},{"station":"s1","temp":"1.2C"}],"max":{"station":"s1","temp":"1.2C"}}<nil>
// {"readings":[{"station":"s0","temp":"0.0C"},{"station":"s1","temp":"1.2C"},{"station":"s2","temp":"2.5C"}],"max":{"station":"s2","temp":"2.5C"}}<nil>
