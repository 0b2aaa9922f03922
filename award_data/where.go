package award_data

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// op is a Where operator.
type op uint8

const (
	opEq op = iota
	opNe
	opLt
	opLe
	opGt
	opGe
	opIn
	opNotIn
	opBetween
	opContains
	opNotContains
	opPrefix
	opSuffix
	opMatches
	opIsNull
	opNotNull
)

var opNames = map[string]op{
	"==": opEq, "=": opEq, "eq": opEq,
	"!=": opNe, "<>": opNe, "ne": opNe,
	"<": opLt, "lt": opLt,
	"<=": opLe, "le": opLe,
	">": opGt, "gt": opGt,
	">=": opGe, "ge": opGe,
	"in": opIn, "not in": opNotIn,
	"between":  opBetween,
	"contains": opContains, "not contains": opNotContains,
	"prefix": opPrefix, "starts with": opPrefix, "has prefix": opPrefix,
	"suffix": opSuffix, "ends with": opSuffix, "has suffix": opSuffix,
	"matches": opMatches, "regexp": opMatches, "=~": opMatches,
	"is null": opIsNull, "null": opIsNull,
	"not null": opNotNull, "is not null": opNotNull,
}

const opList = `"==", "!=", "<", "<=", ">", ">=", "in", "not in", "between", "contains", "not contains", "prefix", "suffix", "matches", "is null", "not null"`

func parseOp(s string) (op, bool) {
	o, ok := opNames[strings.Join(strings.Fields(strings.ToLower(s)), " ")]
	return o, ok
}

// Where returns the rows of f where the column satisfies op against value.
//
// Operators:
//
//	"==", "!=", "<", "<=", ">", ">="   compare with one value
//	"in", "not in"                     value is a slice: []string{"Phase I", "Phase II"}
//	"between"                          value is a slice of two: []int{2015, 2020} (inclusive)
//	"contains", "not contains"         text: substring, ignoring case ("lidar" finds "LiDAR")
//	"prefix", "suffix"                 text: starts / ends with, ignoring case
//	"matches"                          text: Go regular expression (add (?i) to ignore case)
//	"is null", "not null"              the field was empty in the CSV (value is ignored; pass nil)
//
// Values: strings for text and category columns (Agency, Phase, State, ...;
// "==" is exact, case included); any Go number for int and float columns;
// time.Time or "2006-01-02" strings for date columns. A null never
// satisfies a comparison, not even "!=" or "not in": select nulls with
// "is null". Comparing with nil means "is null" for "==" and "not null"
// for "!=".
//
// Example:
//
//	award_data.Where("Award Year", ">=", 2015).Where("Phase", "==", "Phase II").Count()
//	award_data.Where("Abstract", "contains", "lidar").Count()
//	award_data.Where("Agency", "in", []string{"Department of Energy", "National Science Foundation"})
//	award_data.Where("Proposal Award Date", "between", []string{"2020-01-01", "2020-12-31"})
func (f Frame) Where(column, op string, value any) Frame {
	if f.err != nil {
		return f
	}
	c, err := f.lookup("Where", column)
	if err != nil {
		return errFrame(err)
	}
	o, ok := parseOp(op)
	if !ok {
		return errFrame(errorf("Where", "unknown operator %q; use one of %s", op, opList).at(op))
	}
	if c.Bool {
		value = boolAsInt(value)
	}
	g, err := f.where(c, o, value)
	if err != nil {
		return errFrame(err)
	}
	if note := missingValueNote(c, o, value); note != "" {
		g.note = note
	}
	return g
}

func (f Frame) where(c *columnar.Vector, o op, value any) (Frame, error) {
	if bitsInput(f) {
		sel, ok, err := whereBits(f, c, o, value)
		if err != nil {
			return Frame{}, err
		}
		if ok {
			return f.withSel(sel), nil
		}
	}
	rows, err := whereRows(f, c, o, value)
	if err != nil {
		return Frame{}, err
	}
	return f.withRows(rows), nil
}

// missingValueNote explains a comparison with category values that no
// row has (Agency == "NASA"), naming the closest values; "" otherwise.
func missingValueNote(c *columnar.Vector, o op, value any) string {
	if c.Kind != columnar.KindCategory || (o != opEq && o != opIn) {
		return ""
	}
	var want []string
	switch v := value.(type) {
	case string:
		want = []string{v}
	case []string:
		want = v
	default:
		return ""
	}
	var notes []string
	for _, v := range want {
		if slices.Contains(c.Dict, v) {
			continue
		}
		msg := fmt.Sprintf("note: no row has %s == %q", c.Name, v)
		if s := suggestValues(v, c.Dict, 3); len(s) > 0 {
			msg += "; did you mean " + quoteList(s, " or ") + "?"
		} else if len(c.Dict) <= 20 {
			msg += "; its values are " + quoteList(c.Dict, ", ")
		} else {
			msg += fmt.Sprintf("; award_data.Unique(%q) lists its values", c.Name)
		}
		notes = append(notes, msg)
	}
	return strings.Join(notes, "\n")
}

// whereBits evaluates the cheap, common conditions over all rows (or a
// bitmap selection) into a bitmap: any string condition on a category
// column, an interval on an int column. The award data's columns answer
// them from their bitmap index (index.go); other tables' columns without
// nulls are scanned. ok is false for the other conditions, which
// whereRows handles (and reports errors for).
func whereBits(f Frame, c *columnar.Vector, o op, value any) (sel *columnar.BitSel, ok bool, err error) {
	if value == nil {
		return nil, false, nil
	}
	var ix *columnar.BitIndex
	if f.t.Source {
		ix = c.Index()
	}
	if ix == nil && c.Valid != nil {
		return nil, false, nil
	}
	switch {
	case c.Kind == columnar.KindCategory && o < opIsNull:
		pred, err := stringPredicate(c, o, value)
		if err != nil {
			return nil, false, err
		}
		if ix != nil {
			hit := make([]bool, len(c.Dict))
			for k, s := range c.Dict {
				hit[k] = pred([]byte(s))
			}
			return ix.CodeSelection(f.bits, hit), true, nil
		}
		hit := make([]uint64, len(c.Dict))
		for k, s := range c.Dict {
			if pred([]byte(s)) {
				hit[k] = 1
			}
		}
		return scanSel(f, columnar.CodeBits(c.Codes[:f.t.N], hit)), true, nil
	case c.Kind == columnar.KindInt:
		lo, hi, empty, ok := intInterval(o, value)
		if !ok {
			return nil, false, nil // whereRows handles it or reports the error
		}
		if empty {
			return columnar.EmptySel(f.t.N), true, nil
		}
		if ix != nil {
			return ix.RangeSelection(f.bits, lo, hi), true, nil
		}
		return scanSel(f, columnar.RangeBits(c.Ints[:f.t.N], lo, uint64(hi)-uint64(lo))), true, nil
	}
	return nil, false, nil
}

// intInterval turns a comparison or "between" on an int column into the
// int64 values [lo, hi] it accepts; ok is false for other operators and
// values that are not numbers.
func intInterval(o op, value any) (lo, hi int64, empty, ok bool) {
	var iv interval
	switch o {
	case opEq, opLt, opLe, opGt, opGe:
		v, isNum := toFloat(value)
		if !isNum {
			return 0, 0, false, false
		}
		iv, _ = numberInterval(o, v)
	case opBetween:
		items, isSlice := sliceItems(value)
		if !isSlice || len(items) != 2 {
			return 0, 0, false, false
		}
		l, ok1 := toFloat(items[0])
		h, ok2 := toFloat(items[1])
		if !ok1 || !ok2 {
			return 0, 0, false, false
		}
		iv = interval{l, h}
	default:
		return 0, 0, false, false
	}
	lo, hi, empty = intBounds(iv)
	return lo, hi, empty, true
}

func whereRows(f Frame, c *columnar.Vector, o op, value any) ([]int32, error) {
	if value == nil {
		switch o {
		case opEq:
			o = opIsNull
		case opNe:
			o = opNotNull
		}
	}
	switch o {
	case opIsNull:
		return columnar.SelectRows(f.sel(), func(i int) bool { return c.IsNull(i) }), nil
	case opNotNull:
		return columnar.NotNullRows(f.sel(), c), nil
	}
	if value == nil {
		return nil, errorf("Where", "%s needs a value; nil only works with \"==\" and \"!=\" (meaning is null / not null)", opString(o))
	}
	if !c.Textual() && o >= opContains {
		return nil, errorf("Where", "%s does not apply to %s column %q; use ==, !=, <, <=, >, >=, in, not in, between, is null or not null", opString(o), c.Kind, c.Name)
	}
	switch c.Kind {
	case columnar.KindText:
		return whereText(f, c, o, value)
	case columnar.KindCategory:
		return whereCategory(f, c, o, value)
	case columnar.KindInt, columnar.KindFloat:
		return whereNumber(f, c, o, value)
	case columnar.KindDate:
		return whereDate(f, c, o, value)
	}
	return nil, errorf("Where", "column %q has an unsupported type", c.Name)
}

func opString(o op) string {
	for _, name := range []string{"==", "!=", "<", "<=", ">", ">=", "in", "not in", "between", "contains", "not contains", "prefix", "suffix", "matches", "is null", "not null"} {
		if opNames[name] == o {
			return fmt.Sprintf("%q", name)
		}
	}
	return "?"
}

// boolAsInt turns a Go bool, "true" or "false" (or a slice of them) into
// the 1 or 0 a boolean column holds; other values pass unchanged.
func boolAsInt(v any) any {
	switch x := v.(type) {
	case bool:
		return columnar.B2I(x)
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true":
			return 1
		case "false":
			return 0
		}
	case []bool:
		out := make([]int, len(x))
		for i, b := range x {
			out[i] = columnar.B2I(b)
		}
		return out
	}
	return v
}

// ---- text and category ----

// stringPredicate builds a test on one text value for the ops that make
// sense on text.
func stringPredicate(c *columnar.Vector, o op, value any) (func(s []byte) bool, error) {
	switch o {
	case opIn, opNotIn:
		list, err := stringList(c, value, o)
		if err != nil {
			return nil, err
		}
		set := make(map[string]bool, len(list))
		for _, s := range list {
			set[s] = true
		}
		if o == opIn {
			return func(s []byte) bool { return set[string(s)] }, nil
		}
		return func(s []byte) bool { return !set[string(s)] }, nil
	case opBetween:
		list, err := stringList(c, value, o)
		if err != nil {
			return nil, err
		}
		if len(list) != 2 {
			return nil, betweenError(c, value)
		}
		lo, hi := []byte(list[0]), []byte(list[1])
		return func(s []byte) bool { return bytes.Compare(s, lo) >= 0 && bytes.Compare(s, hi) <= 0 }, nil
	}
	v, ok := value.(string)
	if !ok {
		return nil, valueTypeError(c, o, value, "a string")
	}
	b := []byte(v)
	switch o {
	case opEq:
		return func(s []byte) bool { return string(s) == v }, nil
	case opNe:
		return func(s []byte) bool { return string(s) != v }, nil
	case opLt:
		return func(s []byte) bool { return bytes.Compare(s, b) < 0 }, nil
	case opLe:
		return func(s []byte) bool { return bytes.Compare(s, b) <= 0 }, nil
	case opGt:
		return func(s []byte) bool { return bytes.Compare(s, b) > 0 }, nil
	case opGe:
		return func(s []byte) bool { return bytes.Compare(s, b) >= 0 }, nil
	case opContains:
		return func(s []byte) bool { return columnar.ContainsFold(s, v) }, nil
	case opNotContains:
		return func(s []byte) bool { return !columnar.ContainsFold(s, v) }, nil
	case opPrefix:
		return func(s []byte) bool { return columnar.HasPrefixFold(s, v) }, nil
	case opSuffix:
		return func(s []byte) bool { return columnar.HasSuffixFold(s, v) }, nil
	case opMatches:
		re, err := regexp.Compile(v)
		if err != nil {
			return nil, errorf("Where", "bad regular expression %q: %v", v, err)
		}
		return re.Match, nil
	}
	return nil, errorf("Where", "%s does not apply to text column %q", opString(o), c.Name)
}

func whereText(f Frame, c *columnar.Vector, o op, value any) ([]int32, error) {
	if o == opContains || o == opNotContains {
		needle, ok := value.(string)
		if !ok {
			return nil, valueTypeError(c, o, value, "a string")
		}
		hits := columnar.SearchRows(f.sel(), c, needle, true)
		if o == opContains {
			return hits, nil
		}
		return columnar.SubtractRows(columnar.NotNullRows(f.sel(), c), hits), nil
	}
	pred, err := stringPredicate(c, o, value)
	if err != nil {
		return nil, err
	}
	if o == opMatches {
		// A regular expression runs per row, slowly; when it requires a
		// literal, the fast buffer search finds the only rows worth trying.
		if lit, fold := columnar.RequiredLiteral(value.(string)); lit != "" {
			f = f.withRows(columnar.SearchRows(f.sel(), c, lit, fold))
		}
		return columnar.MatchRows(f.sel(), c, pred), nil
	}
	return columnar.SelectRows(f.sel(), func(i int) bool { return !c.IsNull(i) && pred(c.TextBytes(i)) }), nil
}

func whereCategory(f Frame, c *columnar.Vector, o op, value any) ([]int32, error) {
	pred, err := stringPredicate(c, o, value)
	if err != nil {
		return nil, err
	}
	match := make([]bool, len(c.Dict))
	for k, s := range c.Dict {
		match[k] = pred([]byte(s))
	}
	return columnar.FilterCodes(f.sel(), c, match), nil
}

func stringList(c *columnar.Vector, value any, o op) ([]string, error) {
	if s, ok := value.([]string); ok {
		return s, nil
	}
	items, ok := sliceItems(value)
	if !ok {
		return nil, valueTypeError(c, o, value, "a slice of strings, e.g. []string{\"a\", \"b\"}")
	}
	out := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, valueTypeError(c, o, value, "a slice of strings, e.g. []string{\"a\", \"b\"}")
		}
		out[i] = s
	}
	return out, nil
}

// sliceItems returns the elements of a slice or array value.
func sliceItems(value any) ([]any, bool) {
	rv := reflect.ValueOf(value)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

func valueTypeError(c *columnar.Vector, o op, value any, want string) error {
	hint := ""
	switch {
	case c.Textual() && (o == opLt || o == opLe || o == opGt || o == opGe):
		hint = " (text compares alphabetically)"
	case c.Kind == columnar.KindInt || c.Kind == columnar.KindFloat:
		if _, isString := value.(string); isString {
			hint = "; write the number without quotes"
		}
	}
	got := fmt.Sprintf("%T %v", value, value)
	if s, ok := value.(string); ok {
		got = fmt.Sprintf("the string %q", s)
	}
	return errorf("Where", "column %q is %s: %s needs %s, not %s%s", c.Name, c.Kind, opString(o), want, got, hint)
}

func betweenError(c *columnar.Vector, value any) error {
	return errorf("Where", "column %q: \"between\" needs a slice of two values [low, high], e.g. []int{2015, 2020}; got %T %v", c.Name, value, value)
}

// ---- numbers ----

// toFloat converts any Go number to float64.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case int32:
		return float64(x), true
	case float32:
		return float64(x), true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return rv.Float(), true
	}
	return 0, false
}

// interval is a closed range of float values [lo, hi].
type interval struct{ lo, hi float64 }

// numberInterval turns a comparison into a closed interval; ok is false
// for ops that are not a single interval.
func numberInterval(o op, v float64) (interval, bool) {
	inf := math.Inf(1)
	switch o {
	case opEq:
		return interval{v, v}, true
	case opLt:
		return interval{-inf, math.Nextafter(v, -inf)}, true
	case opLe:
		return interval{-inf, v}, true
	case opGt:
		return interval{math.Nextafter(v, inf), inf}, true
	case opGe:
		return interval{v, inf}, true
	}
	return interval{}, false
}

// intBounds converts a float interval into the int64 values it contains.
func intBounds(iv interval) (lo, hi int64, empty bool) {
	l, h := math.Ceil(iv.lo), math.Floor(iv.hi)
	if math.IsNaN(l) || math.IsNaN(h) || l > h {
		return 0, 0, true
	}
	lo, hi = math.MinInt64, math.MaxInt64
	if l > -9.2e18 {
		lo = int64(l)
	}
	if h < 9.2e18 {
		hi = int64(h)
	}
	if l >= 9.2e18 || h <= -9.2e18 {
		return 0, 0, true
	}
	return lo, hi, false
}

func whereNumber(f Frame, c *columnar.Vector, o op, value any) ([]int32, error) {
	switch o {
	case opIn, opNotIn:
		items, ok := sliceItems(value)
		if !ok {
			return nil, valueTypeError(c, o, value, "a slice of numbers, e.g. []int{2019, 2020}")
		}
		set := make(map[float64]bool, len(items))
		for _, it := range items {
			x, ok := toFloat(it)
			if !ok {
				return nil, valueTypeError(c, o, value, "a slice of numbers, e.g. []int{2019, 2020}")
			}
			set[x] = true
		}
		want := o == opIn
		return columnar.SelectRows(f.sel(), func(i int) bool { return !c.IsNull(i) && !math.IsNaN(c.Float(i)) && set[c.Float(i)] == want }), nil
	case opBetween:
		items, ok := sliceItems(value)
		if !ok || len(items) != 2 {
			return nil, betweenError(c, value)
		}
		lo, ok1 := toFloat(items[0])
		hi, ok2 := toFloat(items[1])
		if !ok1 || !ok2 {
			return nil, valueTypeError(c, o, value, "two numbers, e.g. []int{2015, 2020}")
		}
		return numberRange(f, c, interval{lo, hi}), nil
	}
	v, ok := toFloat(value)
	if !ok {
		return nil, valueTypeError(c, o, value, "a number")
	}
	if o == opNe {
		return columnar.SelectRows(f.sel(), func(i int) bool { return !c.IsNull(i) && !math.IsNaN(c.Float(i)) && c.Float(i) != v }), nil
	}
	iv, ok := numberInterval(o, v)
	if !ok {
		return nil, errorf("Where", "%s does not apply to %s column %q; use ==, !=, <, <=, >, >=, in, not in or between", opString(o), c.Kind, c.Name)
	}
	return numberRange(f, c, iv), nil
}

func numberRange(f Frame, c *columnar.Vector, iv interval) []int32 {
	if c.Kind == columnar.KindInt {
		lo, hi, empty := intBounds(iv)
		if empty {
			return []int32{}
		}
		return columnar.IntRange(f.sel(), c, lo, hi)
	}
	lo, hi := iv.lo, iv.hi
	vals := c.Floats
	return columnar.SelectRows(f.sel(), func(i int) bool { x := vals[i]; return x >= lo && x <= hi && !c.IsNull(i) })
}

// ---- dates ----

var dateLayouts = []string{time.DateOnly, time.RFC3339, "2006-01-02 15:04:05", "1/2/2006"}

func toDay(v any) (int32, bool) {
	switch x := v.(type) {
	case time.Time:
		return columnar.TimeDay(x), true
	case string:
		for _, layout := range dateLayouts {
			if t, err := time.Parse(layout, strings.TrimSpace(x)); err == nil {
				return columnar.TimeDay(t), true
			}
		}
	}
	return 0, false
}

const dateWant = `a date: a time.Time or a string like "2020-01-31"`

func whereDate(f Frame, c *columnar.Vector, o op, value any) ([]int32, error) {
	days := c.Days
	switch o {
	case opIn, opNotIn:
		items, ok := sliceItems(value)
		if !ok {
			return nil, valueTypeError(c, o, value, "a slice of dates, e.g. []string{\"2020-01-31\"}")
		}
		set := make(map[int32]bool, len(items))
		for _, it := range items {
			d, ok := toDay(it)
			if !ok {
				return nil, valueTypeError(c, o, value, "a slice of dates, e.g. []string{\"2020-01-31\"}")
			}
			set[d] = true
		}
		want := o == opIn
		return columnar.SelectRows(f.sel(), func(i int) bool { return !c.IsNull(i) && set[days[i]] == want }), nil
	case opBetween:
		items, ok := sliceItems(value)
		if !ok || len(items) != 2 {
			return nil, betweenError(c, value)
		}
		lo, ok1 := toDay(items[0])
		hi, ok2 := toDay(items[1])
		if !ok1 || !ok2 {
			return nil, valueTypeError(c, o, value, "two dates, e.g. []string{\"2020-01-01\", \"2020-12-31\"}")
		}
		return columnar.SelectRows(f.sel(), func(i int) bool { d := days[i]; return d >= lo && d <= hi && !c.IsNull(i) }), nil
	}
	d, ok := toDay(value)
	if !ok {
		return nil, valueTypeError(c, o, value, dateWant)
	}
	var keep func(x int32) bool
	switch o {
	case opEq:
		keep = func(x int32) bool { return x == d }
	case opNe:
		keep = func(x int32) bool { return x != d }
	case opLt:
		keep = func(x int32) bool { return x < d }
	case opLe:
		keep = func(x int32) bool { return x <= d }
	case opGt:
		keep = func(x int32) bool { return x > d }
	case opGe:
		keep = func(x int32) bool { return x >= d }
	default:
		return nil, errorf("Where", "%s does not apply to date column %q; use ==, !=, <, <=, >, >=, in, not in or between", opString(o), c.Name)
	}
	return columnar.SelectRows(f.sel(), func(i int) bool { return !c.IsNull(i) && keep(days[i]) }), nil
}

// Filter returns the rows of f for which keep returns true: the flexible
// (and slower: a cell function call per row) alternative to Where.
// Prefer Where when it can express the condition.
//
// Example:
//
//	award_data.Filter(func(r award_data.Row) bool {
//		return r.Float("Award Amount") > 1e6 && strings.HasPrefix(r.String("Company"), "A")
//	})
func (f Frame) Filter(keep func(r Row) bool) Frame {
	if f.err != nil {
		return f
	}
	if keep == nil {
		return errFrame(errorf("Filter", "the function is nil"))
	}
	t := f.t
	return f.withRows(columnar.SelectRows(f.sel(), func(i int) bool { return keep(Row{t: t, i: i}) }))
}
