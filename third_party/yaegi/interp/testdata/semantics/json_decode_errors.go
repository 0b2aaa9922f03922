package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type Item struct {
	SKU   string  `json:"sku"`
	Price float64 `json:"price"`
}

type Order struct {
	ID    string `json:"id"`
	Items []Item `json:"items"`
	Ship  *Addr  `json:"ship"`
	Tags  map[string]Item
}

type Addr struct {
	City string
	Zip  int `json:"zip"`
}

type base struct {
	Kind string `json:"kind"`
}

type Meta struct {
	Version int
}

type Doc struct {
	base
	*Meta
	Name string `json:"name"`
}

type Pair[T any] struct {
	Key T `json:"key"`
}

func decode(s string, v any) {
	err := json.Unmarshal([]byte(s), v)
	fmt.Println(err)
}

func main() {
	var o Order
	fmt.Println(json.Unmarshal([]byte(`{"id": 5}`), &o))
	fmt.Println(json.Unmarshal([]byte(`{"items":[{"sku":1}]}`), &o))
	fmt.Println(json.Unmarshal([]byte(`{"ship":{"zip":"x"}}`), &o))
	fmt.Println(json.Unmarshal([]byte(`{"Tags":{"a":{"price":"p"}}}`), &o))
	var d Doc
	fmt.Println(json.Unmarshal([]byte(`{"kind":1}`), &d))
	fmt.Println(json.Unmarshal([]byte(`{"Version":"v"}`), &d))
	fmt.Println(json.Unmarshal([]byte(`{"name":true}`), &d))
	var p Pair[int]
	fmt.Println(json.Unmarshal([]byte(`{"key":"s"}`), &p))
	var items []Item
	fmt.Println(json.Unmarshal([]byte(`[{"sku":2}]`), &items))
	decode(`{"id": 7}`, &o)
	dec := json.NewDecoder(strings.NewReader(`{"sku": 3}`))
	var it Item
	fmt.Println(dec.Decode(&it))
	// Type names of cell types in the message
	fmt.Println(json.Unmarshal([]byte(`{"items":5}`), &o))
	fmt.Println(json.Unmarshal([]byte(`{"items":[5]}`), &o))
	fmt.Println(json.Unmarshal([]byte(`[1]`), &o))
	fmt.Println(json.Unmarshal([]byte(`{}`), o))
	var np *Order
	fmt.Println(json.Unmarshal([]byte(`{}`), np))
	type local struct{ N int }
	var l local
	fmt.Println(json.Unmarshal([]byte(`{"N":"x"}`), &l))
	fmt.Printf("%T\n", json.Unmarshal([]byte(`{"N":"x"}`), &l))
	decode(`{"N":{}}`, &l)
	decode(`[]`, &l)
}

// Output:
// json: cannot unmarshal number into Go struct field Order.id of type string
// json: cannot unmarshal number into Go struct field Item.items.sku of type string
// json: cannot unmarshal string into Go struct field Addr.ship.zip of type int
// json: cannot unmarshal string into Go struct field Item.Tags.price of type float64
// json: cannot unmarshal number into Go struct field Doc.base.kind of type string
// json: cannot unmarshal string into Go struct field Doc.Meta.Version of type int
// json: cannot unmarshal bool into Go struct field Doc.name of type string
// json: cannot unmarshal string into Go struct field Pair[int].key of type int
// json: cannot unmarshal number into Go struct field Item.sku of type string
// json: cannot unmarshal number into Go struct field Order.id of type string
// json: cannot unmarshal number into Go struct field Item.sku of type string
// json: cannot unmarshal number into Go struct field Order.items of type []main.Item
// json: cannot unmarshal number into Go struct field Order.items of type main.Item
// json: cannot unmarshal array into Go value of type main.Order
// json: Unmarshal(non-pointer main.Order)
// json: Unmarshal(nil *main.Order)
// json: cannot unmarshal string into Go struct field local.N of type int
// *json.UnmarshalTypeError
// json: cannot unmarshal object into Go struct field local.N of type int
// json: cannot unmarshal array into Go value of type main.local
