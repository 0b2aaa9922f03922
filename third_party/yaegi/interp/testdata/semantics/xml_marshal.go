// Patch 36: encoding/xml names elements after interpreted struct types.
package main

import (
	"encoding/xml"
	"fmt"
	"strings"
)

type Point struct {
	X, Y int
	note string
}

type Labeled struct {
	XMLName xml.Name `xml:"label"`
	Text    string   `xml:",chardata"`
}

type Shape struct {
	Name   string  `xml:"name,attr"`
	Points []Point `xml:"pt"`
}

func main() {
	out, err := xml.Marshal(Point{1, 2, "x"})
	fmt.Println(string(out), err)
	out, err = xml.MarshalIndent(&Shape{"tri", []Point{{0, 0, ""}, {1, 1, ""}}}, "", " ")
	fmt.Println(string(out), err)
	out, err = xml.Marshal([]Point{{3, 4, ""}, {5, 6, ""}})
	fmt.Println(string(out), err)
	out, err = xml.Marshal(Labeled{Text: "hi"})
	fmt.Println(string(out), err)
	var b strings.Builder
	enc := xml.NewEncoder(&b)
	err = enc.Encode(Point{7, 8, ""})
	fmt.Println(b.String(), err)
}

// Output:
// <Point><X>1</X><Y>2</Y></Point> <nil>
// <Shape name="tri">
//  <pt>
//   <X>0</X>
//   <Y>0</Y>
//  </pt>
//  <pt>
//   <X>1</X>
//   <Y>1</Y>
//  </pt>
// </Shape> <nil>
// <Point><X>3</X><Y>4</Y></Point><Point><X>5</X><Y>6</Y></Point> <nil>
// <label>hi</label> <nil>
// <Point><X>7</X><Y>8</Y></Point> <nil>
