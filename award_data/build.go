package award_data

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// maxBuildRows bounds the rows of a frame built from Go values (and of
// Concat's result): the award data has 219,500 rows; ten times that is
// far more than a cell needs and still fits a session's heap.
const maxBuildRows = 4 << 20

// A Column is a named column of Go values for NewFrame; make one with Col.
//
// Example:
//
//	award_data.Col("Year", []int{2020, 2021})
type Column struct {
	name   string
	values any
}

// Col names a slice of values as a column for NewFrame. The slice may hold
// strings (text; "" is null), integers (int), floats (NaN is null), bools
// (a boolean column: prints true/false, counts as 1/0), time.Time (date;
// the zero time is null), or any
// (each value one of those, nil for null).
//
// Example:
//
//	award_data.NewFrame(award_data.Col("Agency", []string{"DOE", "NSF"}), award_data.Col("Budget", []float64{1.5e9, 2e8}))
func Col(name string, values any) Column { return Column{name: name, values: values} }

// NewFrame builds a Frame from columns of Go values, all of one length,
// so that a result computed in a cell gets tables, sorting, grouping,
// charts and export like the award data.
//
// Example:
//
//	f := award_data.NewFrame(
//		award_data.Col("Agency", []string{"DOE", "NSF", "DOD"}),
//		award_data.Col("Awards", []int{120, 80, 400}),
//	)
//	f.Sort("Awards", award_data.Descending)
func NewFrame(columns ...Column) Frame {
	if len(columns) == 0 {
		return errFrame(errorf("NewFrame", "give at least one column, e.g. NewFrame(award_data.Col(\"Year\", []int{2020, 2021}))"))
	}
	cols := make([]*columnar.Vector, 0, len(columns))
	seen := map[string]bool{}
	for j, col := range columns {
		if col.name == "" {
			return errFrame(errorf("NewFrame", "column %d has no name; use Col(\"Name\", values)", j+1))
		}
		if seen[col.name] {
			return errFrame(errorf("NewFrame", "two columns are named %q", col.name))
		}
		seen[col.name] = true
		rv := reflect.ValueOf(col.values)
		if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
			return errFrame(errorf("NewFrame", "column %q: values must be a slice, e.g. []float64{1, 2}; got %T", col.name, col.values))
		}
		if rv.Len() > maxBuildRows {
			return errFrame(errorf("NewFrame", "column %q has %d values; at most %d fit in a frame", col.name, rv.Len(), maxBuildRows))
		}
		items := make([]any, rv.Len())
		for i := range items {
			items[i] = rv.Index(i).Interface()
		}
		v, err := vectorOf("NewFrame", col.name, items)
		if err != nil {
			return errFrame(err)
		}
		if j > 0 && v.N != cols[0].N {
			return errFrame(errorf("NewFrame", "column %q has %d values but %q has %d; columns must be equally long", col.name, v.N, cols[0].Name, cols[0].N))
		}
		cols = append(cols, v)
	}
	return frameOf(columnar.NewTable(cols, false))
}

// FromRecords builds a Frame from a slice of structs (one column per
// exported field, in field order, named by the field or its `award:"Name"`
// tag) or a slice of map[string]any / map[string]string (one column per
// key, sorted by name; a missing key is null).
//
// Example:
//
//	type firm struct {
//		Name   string
//		Awards int
//	}
//	award_data.FromRecords([]firm{{"Acme", 3}, {"Globex", 5}})
func FromRecords(records any) Frame {
	rv := reflect.ValueOf(records)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return errFrame(errorf("FromRecords", "records must be a slice of structs or maps, e.g. []map[string]any{{\"Year\": 2020}}; got %T", records))
	}
	n := rv.Len()
	if n > maxBuildRows {
		return errFrame(errorf("FromRecords", "%d records; at most %d fit in a frame", n, maxBuildRows))
	}
	et := rv.Type().Elem()
	for et.Kind() == reflect.Pointer {
		et = et.Elem()
	}
	var names []string
	values := map[string][]any{}
	switch et.Kind() {
	case reflect.Struct:
		var fields []int
		for i := 0; i < et.NumField(); i++ {
			sf := et.Field(i)
			if !sf.IsExported() {
				continue
			}
			name := sf.Name
			if tag := sf.Tag.Get("award"); tag != "" {
				name = tag
			}
			names = append(names, name)
			fields = append(fields, i)
			values[name] = make([]any, n)
		}
		if len(names) == 0 {
			return errFrame(errorf("FromRecords", "%s has no exported fields; capitalize the field names", et))
		}
		for r := 0; r < n; r++ {
			ev := reflect.Indirect(rv.Index(r))
			for k, i := range fields {
				if ev.IsValid() {
					values[names[k]][r] = ev.Field(i).Interface()
				}
			}
		}
	case reflect.Map:
		if et.Key().Kind() != reflect.String {
			return errFrame(errorf("FromRecords", "map keys must be strings (column names); got %s", et))
		}
		for r := 0; r < n; r++ {
			m := reflect.Indirect(rv.Index(r))
			if !m.IsValid() {
				continue
			}
			iter := m.MapRange()
			for iter.Next() {
				k := iter.Key().String()
				if _, ok := values[k]; !ok {
					names = append(names, k)
					values[k] = make([]any, n)
				}
				values[k][r] = iter.Value().Interface()
			}
		}
		slices.Sort(names)
		if len(names) == 0 {
			return errFrame(errorf("FromRecords", "the records have no keys"))
		}
	default:
		return errFrame(errorf("FromRecords", "records must be a slice of structs or maps; got a slice of %s", et))
	}
	cols := make([]*columnar.Vector, len(names))
	for j, name := range names {
		v, err := vectorOf("FromRecords", name, values[name])
		if err != nil {
			return errFrame(err)
		}
		cols[j] = v
	}
	return frameOf(columnar.NewTable(cols, false))
}

// vectorOf turns Go values into a column; the column's kind comes from
// the first non-null value and every other value must agree.
func vectorOf(op, name string, items []any) (*columnar.Vector, error) {
	n := len(items)
	kind := columnar.KindText
	found := false
	isBool := false
	for _, it := range items {
		if k, ok := valueKind(it); ok {
			kind, found = k, true
			_, isBool = it.(bool)
			break
		}
	}
	v := &columnar.Vector{Name: name, Kind: kind, N: n, Bool: isBool}
	if !found {
		v.Offs = make([]int32, n+1)
		for i := 0; i < n; i++ {
			v.SetNull(i)
		}
		return v, nil
	}
	switch kind {
	case columnar.KindInt:
		v.Ints = make([]int64, n)
	case columnar.KindFloat:
		v.Floats = make([]float64, n)
	case columnar.KindDate:
		v.Days = make([]int32, n)
	default:
		v.Offs = make([]int32, n+1)
	}
	for i, it := range items {
		k, ok := valueKind(it)
		if !ok {
			v.SetNull(i)
			if kind == columnar.KindText {
				v.Offs[i+1] = int32(len(v.Data))
			}
			continue
		}
		if _, b := it.(bool); k != kind && !(kind == columnar.KindFloat && k == columnar.KindInt) || b != isBool {
			return nil, errorf(op, "column %q: value %d is %T %v but earlier values are %s; use one type per column", name, i, it, it, kind)
		}
		switch kind {
		case columnar.KindInt:
			if b, isBool := it.(bool); isBool {
				v.Ints[i] = int64(columnar.B2I(b))
				continue
			}
			v.Ints[i] = reflect.ValueOf(it).Convert(reflect.TypeOf(int64(0))).Int()
		case columnar.KindFloat:
			f, _ := toFloat(it)
			if math.IsNaN(f) {
				v.SetNull(i)
			}
			v.Floats[i] = f
		case columnar.KindDate:
			v.Days[i] = columnar.TimeDay(it.(time.Time))
		default:
			s := fmt.Sprint(it)
			if len(v.Data)+len(s) > math.MaxInt32 {
				return nil, errorf(op, "column %q holds more than 2 GB of text", name)
			}
			v.Data = append(v.Data, s...)
			v.Offs[i+1] = int32(len(v.Data))
			if s == "" {
				v.SetNull(i)
			}
		}
	}
	return v, nil
}

// valueKind is the column kind of a Go value; ok is false for a null
// (nil, NaN, the zero time.Time, "").
func valueKind(x any) (columnar.Kind, bool) {
	switch v := x.(type) {
	case nil:
		return 0, false
	case string:
		return columnar.KindText, v != ""
	case bool:
		return columnar.KindInt, true
	case time.Time:
		return columnar.KindDate, !v.IsZero()
	case float32, float64:
		f, _ := toFloat(v)
		return columnar.KindFloat, !math.IsNaN(f)
	}
	switch reflect.ValueOf(x).Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return columnar.KindInt, true
	case reflect.Float32, reflect.Float64:
		return columnar.KindFloat, true
	case reflect.String:
		return columnar.KindText, reflect.ValueOf(x).Len() > 0
	}
	return columnar.KindText, true
}

// Slice returns rows from (inclusive) to to (exclusive) of f by position,
// like pandas' iloc[from:to]; negative positions count from the end, and
// positions past either end are clipped.
//
// Example:
//
//	award_data.Sort("-Award Amount").Slice(10, 20)
func (f Frame) Slice(from, to int) Frame {
	if f.err != nil {
		return f
	}
	n := f.Len()
	clip := func(i int) int {
		if i < 0 {
			i += n
		}
		return min(max(i, 0), n)
	}
	from, to = clip(from), clip(to)
	if to < from {
		to = from
	}
	if f.t == nil {
		return f
	}
	return f.slice(from, to)
}

// Rename returns f with columns renamed, given as pairs of old and new
// names.
//
// Example:
//
//	award_data.GroupBy("Agency").Sum("Award Amount").Rename("Award Amount", "Dollars")
func (f Frame) Rename(oldNew ...string) Frame {
	if f.err != nil {
		return f
	}
	if f.t == nil {
		return errFrame(errorf("Rename", "the frame is empty (no columns)"))
	}
	if len(oldNew) == 0 || len(oldNew)%2 != 0 {
		return errFrame(errorf("Rename", "give pairs of old and new names, e.g. Rename(\"Award Amount\", \"Dollars\"); got %d names", len(oldNew)))
	}
	cols := make([]*columnar.Vector, len(f.t.Cols))
	copy(cols, f.t.Cols)
	for k := 0; k < len(oldNew); k += 2 {
		c, err := f.lookup("Rename", oldNew[k])
		if err != nil {
			return errFrame(err)
		}
		nw := strings.TrimSpace(oldNew[k+1])
		if nw == "" {
			return errFrame(errorf("Rename", "the new name for %q is empty", c.Name))
		}
		i := f.t.ByName[c.Name]
		if j, ok := f.t.ByName[nw]; ok && j != i && f.visible(j) {
			return errFrame(errorf("Rename", "%q is already a column; drop it first or pick another name", nw))
		}
		cols[i] = columnar.Renamed(cols[i], nw)
	}
	t := columnar.NewTable(cols, f.t.Source)
	g := f
	g.t = t
	return g
}

// Concat stacks frames vertically, like pandas.concat: the result has
// every column of any frame, in order of first appearance, and a column a
// frame lacks is null in its rows. A column must have one type in every
// frame (an int column may meet a float one: the result is float).
//
// Example:
//
//	award_data.Concat(award_data.NLargest(3, "Award Amount"), award_data.NSmallest(3, "Award Amount"))
func Concat(frames ...Frame) Frame {
	var names []string
	kinds := map[string]columnar.Kind{}
	total := 0
	for k, f := range frames {
		if f.err != nil {
			return errFrame(errorf("Concat", "frame %d has an error: %v", k+1, f.err))
		}
		total += f.Len()
		for _, ci := range f.cols {
			c := f.t.Cols[ci]
			prev, ok := kinds[c.Name]
			switch {
			case !ok:
				names = append(names, c.Name)
				kinds[c.Name] = c.Kind
			case prev == c.Kind:
			case c.Numeric() && (prev == columnar.KindInt || prev == columnar.KindFloat):
				kinds[c.Name] = columnar.KindFloat
			case c.Textual() && (prev == columnar.KindText || prev == columnar.KindCategory):
				kinds[c.Name] = columnar.KindText
			default:
				return errFrame(errorf("Concat", "column %q is %s in frame %d but %s in an earlier one", c.Name, c.Kind, k+1, prev))
			}
		}
	}
	if total > maxBuildRows {
		return errFrame(errorf("Concat", "%d rows; at most %d fit in a frame", total, maxBuildRows))
	}
	if len(names) == 0 {
		return Frame{}
	}
	// Each value is copied once, from the frames' columns at their rows
	// straight into the result: gathering the parts first held every
	// value twice (two whole frames of 70,000 awards passed the 1 GiB
	// heap budget).
	var used []Frame // frames with a table (an empty Frame{} has none)
	for _, f := range frames {
		if f.t != nil {
			used = append(used, f)
		}
	}
	rows := make([][]int32, len(used)) // nil: the whole table, in order
	for k, f := range used {
		if !f.all {
			rows[k] = f.rowList()
		}
	}
	cols := make([]*columnar.Vector, len(names))
	for j, name := range names {
		parts := make([]*columnar.Vector, len(used))
		from := slices.Clone(rows)
		for k, f := range used {
			if i, ok := f.t.ByName[name]; ok && f.visible(i) {
				parts[k] = f.t.Cols[i]
			} else {
				parts[k] = &columnar.Vector{Name: name, Kind: kinds[name]}
				from[k] = nullRows(f.Len())
			}
		}
		c, err := columnar.Append(name, kinds[name], parts, from)
		if err != nil {
			return errFrame(errorf("Concat", "%v; concatenate fewer rows or drop the longest text columns (Drop)", err))
		}
		cols[j] = c
	}
	return frameOf(columnar.NewTable(cols, false))
}

// nullRows is n rows that Append takes as nulls.
func nullRows(n int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = -1
	}
	return rows
}

// Slice returns awards from (inclusive) to to (exclusive) by position in
// the data file. See Frame.Slice.
//
// Example:
//
//	award_data.Slice(100, 110)
func Slice(from, to int) Frame { return All().Slice(from, to) }
