package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// The differential test: many queries generated from a seed, answered by
// sbir-kernel (a real `sbir-kernel run` over the Arrow file it converts
// from a generated CSV) and by DuckDB reading the same CSV, compared
// under exact rules. DuckDB reads the CSV, not sbir's Arrow file, so the
// conversion is tested too: every column is read as text and typed by
// SQL that follows docs/data.md (empty field → null; amounts with "$" and
// thousands separators; ints with a zero fraction; YYYY-MM-DD and
// M/D/YYYY dates; anything unparseable → null).
const (
	// The 42-column file is larger than columnar.MinParallelRows, so
	// that the engine's parallel paths answer; the 41-column one is not.
	diffRows42    = 70000
	diffRows41    = 20000
	diffDataSeed  = 7
	diffQuerySeed = 20261124
	diffQueries   = 300
)

// TestDifferentialDuckDB compares award_data with DuckDB on generated
// queries (300 per CSV shape, one `sbir-kernel run` and one Node process
// each): Where with every documented operator over text, category, int,
// float and date columns (edges included), scalar statistics, GroupBy
// with one or two keys and every aggregation (Agg's statistics too),
// Where and Sort on grouped results, Compute, Pivot with margins, Join,
// Concat, grouping sorted or cut frames, Sort with ties, NLargest,
// NSmallest, ValueCounts, Unique and Describe, some starting from a
// Slice. A mismatch names the query in Go and in SQL. SBIR_DIFF_SEED and
// SBIR_DIFF_QUERIES run other or more queries, SBIR_DIFF_DATA_SEED on
// other data; SBIR_DIFF_SHOW=1 logs every query with its answer.
func TestDifferentialDuckDB(t *testing.T) {
	if os.Getenv("SBIR_E2E") != "1" {
		t.Skip("skipping: the differential test runs sbir-kernel and DuckDB (Node); set SBIR_E2E=1 to run it (CI does)")
	}
	nodeDir := benchNodeDir()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not on PATH (.ci/setup.d/20-bench.sh installs it): %v", err)
	}
	var err error
	probe := exec.Command("node", "--input-type=module", "-e",
		`import { createRequire } from "node:module"; createRequire(process.argv[1] + "/package.json").resolve("@duckdb/node-api");`, nodeDir)
	if out, err := probe.CombinedOutput(); err != nil {
		t.Fatalf("DuckDB (@duckdb/node-api) is not installed in %s: run bash bench/compare.sh --setup (.ci/setup.d/20-bench.sh does): %v\n%s", nodeDir, err, out)
	}

	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(5*time.Minute))
	defer cancel()
	bin := filepath.Join(dir, "sbir-kernel")
	build := exec.CommandContext(ctx, goTool(), "build", "-o", bin, ".")
	build.Dir = ".."
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// SBIR_DIFF_SEED and SBIR_DIFF_QUERIES explore beyond the fixed set.
	seed, count := uint64(diffQuerySeed), diffQueries
	if v := os.Getenv("SBIR_DIFF_SEED"); v != "" {
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("SBIR_DIFF_SEED: %v", err)
		}
	}
	dataSeed := uint64(diffDataSeed)
	if v := os.Getenv("SBIR_DIFF_DATA_SEED"); v != "" {
		if dataSeed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("SBIR_DIFF_DATA_SEED: %v", err)
		}
	}
	if v := os.Getenv("SBIR_DIFF_QUERIES"); v != "" {
		if count, err = strconv.Atoi(v); err != nil {
			t.Fatalf("SBIR_DIFF_QUERIES: %v", err)
		}
	}
	// The current 42-column file, and the older 41-column export with
	// M/D/YYYY dates, "$1,234.56" amounts, "Women Owned", no UEI and
	// invalid UTF-8.
	for k, shape := range []string{"42", "41"} {
		rows := map[string]int{"42": diffRows42, "41": diffRows41}[shape]
		t.Run("shape"+shape, func(t *testing.T) {
			sub := filepath.Join(dir, shape)
			if err := os.Mkdir(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			csvPath := filepath.Join(sub, "awards.csv")
			gen := exec.CommandContext(ctx, bin, "generate-data", "-shape", shape, "-rows", strconv.Itoa(rows),
				"-seed", strconv.FormatUint(dataSeed, 10), "-o", csvPath)
			if out, err := gen.CombinedOutput(); err != nil {
				t.Fatalf("generate-data: %v\n%s", err, out)
			}
			differential(ctx, t, bin, nodeDir, sub, csvPath, rows, dataSeed, seed+uint64(k), count)
		})
	}
}

// differential runs count queries drawn from seed on one CSV file.
func differential(ctx context.Context, t *testing.T, bin, nodeDir, dir, csvPath string, rows int, dataSeed, seed uint64, count int) {
	header, pools := readPools(t, csvPath)
	g := &queryGen{r: rand.New(rand.NewPCG(seed, 1)), pools: pools, rows: rows}
	queries := make([]diffQuery, count)
	for i := range queries {
		queries[i] = g.query()
	}

	sbir := runSbir(ctx, t, bin, dir, csvPath, queries)
	duck := runDuckDB(ctx, t, nodeDir, dir, csvPath, header, queries)

	kinds := map[string]int{}
	failed, empty := 0, 0
	for i, q := range queries {
		kinds[q.kind]++
		if trivial(duck[i]) {
			empty++
		}
		if os.Getenv("SBIR_DIFF_SHOW") != "" {
			t.Logf("query %d: %s\n  %s\n  -> %v", i, q.goExpr, q.sql, head(sbir[i].rows))
		}
		msg := compareAnswers(q, sbir[i], duck[i])
		if msg == "" {
			continue
		}
		failed++
		t.Errorf("query %d (%s) differs: %s\n  award_data: %s\n  DuckDB:     %s", i, q.kind, msg, q.goExpr, q.sql)
	}
	t.Logf("%d queries over %d generated awards (data seed %d, query seed %d), %d differ, %d with an empty answer; kinds: %v",
		len(queries), rows, dataSeed, seed, failed, empty, kinds)
	if empty > len(queries)/3 {
		t.Errorf("%d of %d queries have an empty answer (no rows, 0 or null): the generated filters select too little to test anything", empty, len(queries))
	}
}

// benchNodeDir is where bench/compare.sh installs the Node packages of
// bench/package.json.
func benchNodeDir() string {
	cache := os.Getenv("SBIR_BENCH_CACHE")
	if cache == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, _ := os.UserHomeDir()
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "sbir-bench")
	}
	return filepath.Join(cache, "node")
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// ---- the columns and the values queries draw from ----

type colKind int

const (
	kText colKind = iota
	kCat
	kInt
	kFloat
	kDate
)

var diffColumns = map[string]colKind{
	"Company": kText, "Award Title": kText, "Agency Tracking Number": kText, "Contract": kText,
	"Solicitation Number": kText, "Topic Code": kText, "UEI": kText, "Duns": kText,
	"Company Website": kText, "Address1": kText, "Address2": kText, "City": kText, "Zip": kText,
	"Abstract": kText, "Contact Name": kText, "Contact Title": kText, "Contact Phone": kText,
	"Contact Email": kText, "PI Name": kText, "PI Title": kText, "PI Phone": kText, "PI Email": kText,
	"RI Name": kText, "RI POC Name": kText, "RI POC Phone": kText,
	"Agency": kCat, "Branch": kCat, "Phase": kCat, "Program": kCat, "State": kCat,
	"HUBZone Owned": kCat, "Socially and Economically Disadvantaged": kCat, "Woman Owned": kCat,
	"Award Amount": kFloat,
	"Award Year":   kInt, "Solicitation Year": kInt, "Number Employees": kInt,
	"Proposal Award Date": kDate, "Contract End Date": kDate, "Solicitation Close Date": kDate,
	"Proposal Receipt Date": kDate, "Date of Notification": kDate,
}

// pools holds, per column, the non-empty raw fields of the CSV (values
// for literals in queries; the answers come from the engines).
type pools map[string][]string

// aliases are the other header spellings docs/data.md names.
var aliases = map[string]string{"Women Owned": "Woman Owned", "DUNS": "Duns", "Hubzone Owned": "HUBZone Owned",
	"# Employees": "Number Employees", "Number of Employees": "Number Employees"}

func canonical(name string) string {
	if c, ok := aliases[name]; ok {
		return c
	}
	return name
}

// readPools returns the CSV's header and the values of its columns,
// under their canonical names, with invalid UTF-8 replaced.
func readPools(t *testing.T, path string) ([]string, pools) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReader(f))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	p := pools{}
	seen := map[string]map[string]bool{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading %s for query values: %v", path, err)
		}
		for i, v := range rec {
			if i >= len(header) || v == "" {
				continue
			}
			name, v := canonical(header[i]), fixUTF8(v)
			if seen[name] == nil {
				seen[name] = map[string]bool{}
			}
			if !seen[name][v] {
				seen[name][v] = true
				p[name] = append(p[name], v)
			}
		}
	}
	for name, kind := range diffColumns {
		if len(p[name]) == 0 && name != "UEI" {
			t.Fatalf("the generated CSV has no values in %q", name)
		}
		if kind == kDate {
			// Literals are ISO dates; M/D/YYYY fields are turned into them.
			var iso []string
			for _, v := range p[name] {
				if d, ok := isoDate(v); ok {
					iso = append(iso, d)
				}
			}
			p[name] = iso
		}
		slices.Sort(p[name])
	}
	return header, p
}

// fixUTF8 replaces each byte of invalid UTF-8 by U+FFFD, as the
// conversion does (its load report counts the bytes replaced).
func fixUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isoDate(v string) (string, bool) {
	for _, layout := range []string{"2006-01-02", "1/2/2006"} {
		if d, err := time.Parse(layout, strings.TrimSpace(v)); err == nil {
			return d.Format("2006-01-02"), true
		}
	}
	return "", false
}

// ---- SQL: the table DuckDB answers from ----

// duckSetup loads the CSV as text and types every column by the rules of
// docs/data.md. __row is the award's position in the file (Sort is
// stable and NLargest keeps the frame's order: ties go by it).
func duckSetup(csvPath string, header []string) []string {
	trim := `trim(s, ' ' || chr(9))`
	setup := []string{
		"SET threads = 1",
		"SET preserve_insertion_order = true",
		`CREATE MACRO sbir_amount(s) AS CASE WHEN regexp_full_match(` + trim + `, '[+-]?\$?([0-9]+(,[0-9]+)*(\.[0-9]*)?|\.[0-9]+)')
			THEN CAST(replace(replace(` + trim + `, '$', ''), ',', '') AS DOUBLE) END`,
		`CREATE MACRO sbir_int(s) AS CASE WHEN regexp_full_match(` + trim + `, '[+-]?[0-9]{1,18}(\.0*)?')
			THEN CAST(regexp_extract(` + trim + `, '^[+-]?[0-9]+') AS BIGINT) END`,
		`CREATE MACRO sbir_date(s) AS CAST(CASE
			WHEN regexp_full_match(` + trim + `, '[0-9]{4}-[0-9]{2}-[0-9]{2}') THEN try_strptime(` + trim + `, '%Y-%m-%d')
			WHEN regexp_full_match(` + trim + `, '[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}') THEN try_strptime(` + trim + `, '%m/%d/%Y')
			END AS DATE)`,
		fmt.Sprintf(`CREATE TABLE raw AS SELECT * FROM read_csv(%s, header = true, all_varchar = true, sample_size = -1)`, sqlString(csvPath)),
	}
	var cols []string
	source := map[string]string{}
	for _, h := range header {
		source[canonical(h)] = h
	}
	for _, name := range slices.Sorted(maps.Keys(diffColumns)) {
		q := sqlIdent(name)
		src, ok := source[name]
		if !ok {
			// A column the file lacks is present and all null.
			cols = append(cols, "CAST(NULL AS VARCHAR) AS "+q)
			continue
		}
		switch diffColumns[name] {
		case kFloat:
			cols = append(cols, fmt.Sprintf("sbir_amount(%s) AS %s", sqlIdent(src), q))
		case kInt:
			cols = append(cols, fmt.Sprintf("sbir_int(%s) AS %s", sqlIdent(src), q))
		case kDate:
			cols = append(cols, fmt.Sprintf("sbir_date(%s) AS %s", sqlIdent(src), q))
		default:
			cols = append(cols, fmt.Sprintf("%s AS %s", sqlIdent(src), q))
		}
	}
	return append(setup, "CREATE TABLE awards AS SELECT rowid AS __row, "+strings.Join(cols, ", ")+" FROM raw")
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
func sqlIdent(s string) string  { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// ---- queries ----

// cmpRule says how one result column is compared.
type cmpRule int

const (
	cmpExact    cmpRule = iota // equal values (numbers as float64, the rest as text)
	cmpCents                   // money sums: within half a cent
	cmpRel                     // means, std, var, shares: relative 1e-9
	cmpQuantile                // medians and quantiles (linear interpolation): relative 1e-12
	cmpShown                   // a number as Describe shows it ("57,557,319"): the value rounded to the digits shown
)

type diffQuery struct {
	kind   string
	goExpr string    // a Go expression giving the answer as text (see sbirPrelude)
	sql    string    // the same question in SQL
	rules  []cmpRule // one per result column
	pivot  *pivotSpec
}

type queryGen struct {
	r     *rand.Rand
	pools pools
	rows  int // in the data file
}

func (g *queryGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

var (
	filterCols = []string{"Company", "City", "Topic Code", "Award Title", "Abstract", "Zip", "Address2", "PI Name", "Contract",
		"Agency", "Branch", "Phase", "Program", "State", "Woman Owned", "HUBZone Owned",
		"Award Year", "Solicitation Year", "Number Employees", "Award Amount",
		"Proposal Award Date", "Date of Notification", "Contract End Date", "Proposal Receipt Date"}
	keyCols      = []string{"Agency", "Branch", "Phase", "Program", "State", "Woman Owned", "HUBZone Owned", "Award Year", "Solicitation Year", "Number Employees", "Proposal Award Date", "Company", "City", "Topic Code", "Zip"}
	numCols      = []string{"Award Amount", "Award Year", "Number Employees", "Solicitation Year"}
	minMaxCols   = []string{"Award Amount", "Number Employees", "Proposal Award Date", "Contract End Date", "City", "Company", "Branch"}
	sortCols     = []string{"Award Amount", "Award Year", "Number Employees", "Proposal Award Date", "Agency", "Branch", "Phase", "State", "Company", "City", "Topic Code"}
	quantiles    = []float64{0, 0.1, 0.25, 0.33, 0.5, 0.75, 0.9, 0.99, 1}
	regexps      = []string{`^[A-M]`, `\d{3}`, `(?i)tech`, `INC\.?$`, `^\S+ \S+$`, `(?i)^the\b`, `[0-9]{2,}-`, `\bLLC\b`, `(?i)(quantum|laser)`, `^[^aeiou]*$`, `(?i)Suite \d+`, `ü`}
	categoryMiss = map[string]string{"Agency": "NASA", "Phase": "phase i", "State": "Ohio ", "Branch": "Navy "}
)

func (g *queryGen) query() diffQuery {
	goF, where := g.filters()
	switch n := g.r.IntN(100); {
	case n < 12:
		return diffQuery{kind: "count", goExpr: "fi(" + goF + ".Count())",
			sql: "SELECT count(*) FROM awards WHERE " + where, rules: []cmpRule{cmpExact}}
	case n < 27:
		return g.scalar(goF, where)
	case n < 62:
		return g.grouped(goF, where)
	case n < 66:
		return g.having(goF, where)
	case n < 70:
		return g.compute(goF, where)
	case n < 75:
		return g.pivot(goF, where)
	case n < 77:
		return g.reordered(goF, where)
	case n < 78:
		return g.concat(goF, where)
	case n < 80:
		return g.join(goF, where)
	case n < 84:
		return g.sorted(goF, where)
	case n < 88:
		return g.nExtreme(goF, where)
	case n < 90:
		return g.describe(goF, where)
	case n < 94:
		c := g.pick(keyCols)
		return diffQuery{kind: "valuecounts", goExpr: fmt.Sprintf("fr(%s.ValueCounts(%q).Head(30))", goF, c),
			sql:   fmt.Sprintf("SELECT %s, count(*) AS n FROM awards WHERE %s GROUP BY 1 ORDER BY n DESC, 1 NULLS LAST LIMIT 30", sqlIdent(c), where),
			rules: []cmpRule{cmpExact, cmpExact}}
	default:
		c := g.pick(filterCols)
		return diffQuery{kind: "unique", goExpr: fmt.Sprintf("fr(%s.Unique(%q).Head(40))", goF, c),
			sql:   fmt.Sprintf("SELECT DISTINCT %s FROM awards WHERE %s ORDER BY 1 NULLS LAST LIMIT 40", sqlIdent(c), where),
			rules: []cmpRule{cmpExact}}
	}
}

// filters returns a chain of 0 to 3 Where calls and the SQL condition.
func (g *queryGen) filters() (goF, where string) {
	goF, conds := "award_data.All()", []string{"TRUE"}
	if g.r.IntN(6) == 0 {
		// A slice first: the filters and statistics then start from a
		// selection of rows rather than all of them.
		a, b := g.r.IntN(g.rows), g.r.IntN(g.rows)
		if a > b {
			a, b = b, a
		}
		goF = fmt.Sprintf("award_data.Slice(%d, %d)", a, b)
		conds = append(conds, fmt.Sprintf("__row >= %d AND __row < %d", a, b))
	}
	for range g.r.IntN(4) {
		c := g.pick(filterCols)
		goOp, goVal, cond := g.condition(c)
		goF += fmt.Sprintf(".Where(%q, %q, %s)", c, goOp, goVal)
		conds = append(conds, cond)
	}
	return goF, strings.Join(conds, " AND ")
}

// condition draws an operator and a value for column c: the Go operator
// and value, and the SQL condition, which is NULL (not true) on a null
// field for every comparison, as award_data's are.
func (g *queryGen) condition(c string) (goOp, goVal, cond string) {
	col := sqlIdent(c)
	if g.r.IntN(6) == 0 {
		return g.edgeCondition(c)
	}
	if g.r.IntN(12) == 0 {
		if g.r.IntN(2) == 0 {
			return "is null", "nil", col + " IS NULL"
		}
		return "not null", "nil", col + " IS NOT NULL"
	}
	switch diffColumns[c] {
	case kText, kCat:
		return g.textCondition(c, col)
	case kInt, kFloat:
		return g.numberCondition(c, col)
	default: // kDate
		return g.dateCondition(c, col)
	}
}

// sqlComparison is the SQL spelling of a comparison operator of Where.
func sqlComparison(op string) string {
	if sqlOp := map[string]string{"==": "=", "!=": "<>"}[op]; sqlOp != "" {
		return sqlOp
	}
	return op
}

// sqlNot is "NOT " for "not in" and "" for "in".
func sqlNot(op string) string { return map[string]string{"in": "", "not in": "NOT "}[op] }

// textCondition draws a condition on a text or category column.
func (g *queryGen) textCondition(c, col string) (goOp, goVal, cond string) {
	ops := []string{"==", "!=", "<", "<=", ">", ">=", "in", "not in", "between", "contains", "not contains", "prefix", "suffix", "matches"}
	op := ops[g.r.IntN(len(ops))]
	v := g.pick(g.pools[c])
	if miss, ok := categoryMiss[c]; ok && g.r.IntN(8) == 0 {
		v = miss
	}
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
		if strings.Contains(op, "<") || strings.Contains(op, ">") {
			v = g.cut(v)
		}
		return op, strconv.Quote(v), fmt.Sprintf("%s %s %s", col, sqlComparison(op), sqlString(v))
	case "in", "not in":
		list := []string{v}
		for range g.r.IntN(3) {
			list = append(list, g.pick(g.pools[c]))
		}
		var goL, sqlL []string
		for _, s := range list {
			goL = append(goL, strconv.Quote(s))
			sqlL = append(sqlL, sqlString(s))
		}
		return op, "[]string{" + strings.Join(goL, ", ") + "}", fmt.Sprintf("%s %sIN (%s)", col, sqlNot(op), strings.Join(sqlL, ", "))
	case "between":
		a, b := g.cut(v), g.cut(g.pick(g.pools[c]))
		if a > b {
			a, b = b, a
		}
		return op, fmt.Sprintf("[]string{%q, %q}", a, b), fmt.Sprintf("%s BETWEEN %s AND %s", col, sqlString(a), sqlString(b))
	case "contains", "not contains", "prefix", "suffix":
		s := g.piece(v, op)
		fn := map[string]string{"contains": "contains", "not contains": "NOT contains", "prefix": "starts_with", "suffix": "ends_with"}[op]
		return op, strconv.Quote(s), fmt.Sprintf("%s(lower(%s), lower(%s))", fn, col, sqlString(s))
	default: // matches
		re := g.pick(regexps)
		return op, "`" + re + "`", fmt.Sprintf("regexp_matches(%s, %s)", col, sqlString(re))
	}
}

// numberCondition draws a condition on an int or float column.
func (g *queryGen) numberCondition(c, col string) (goOp, goVal, cond string) {
	kind := diffColumns[c]
	ops := []string{"==", "!=", "<", "<=", ">", ">=", "in", "not in", "between"}
	op := ops[g.r.IntN(len(ops))]
	num := func() string { return g.number(c, op) }
	goType := map[colKind]string{kInt: "[]int", kFloat: "[]float64"}[kind]
	switch op {
	case "in", "not in":
		list := []string{num(), num()}
		if g.r.IntN(2) == 0 {
			list = append(list, num())
		}
		return op, goType + "{" + strings.Join(list, ", ") + "}", fmt.Sprintf("%s %sIN (%s)", col, sqlNot(op), strings.Join(list, ", "))
	case "between":
		a, b := num(), num()
		fa, _ := strconv.ParseFloat(a, 64)
		fb, _ := strconv.ParseFloat(b, 64)
		if fa > fb {
			a, b = b, a
		}
		return op, fmt.Sprintf("%s{%s, %s}", goType, a, b), fmt.Sprintf("%s BETWEEN %s AND %s", col, a, b)
	default:
		v := num()
		return op, v, fmt.Sprintf("%s %s %s", col, sqlComparison(op), v)
	}
}

// number draws a value of column c for operator op, written as Go and
// SQL both read it: near the column's values, sometimes between ints.
func (g *queryGen) number(c, op string) string {
	s := g.pick(g.pools[c])
	if diffColumns[c] == kInt {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return "0"
		}
		switch g.r.IntN(6) {
		case 0:
			n += int64(g.r.IntN(5)) - 2
		case 1:
			if op != "in" && op != "not in" && op != "between" {
				return strconv.FormatInt(n, 10) + ".5"
			}
		}
		return strconv.FormatInt(n, 10)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return "0.0"
	}
	if g.r.IntN(3) == 0 {
		f = math.Round(f/1000) * 1000
	}
	s = strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// dateCondition draws a condition on a date column.
func (g *queryGen) dateCondition(c, col string) (goOp, goVal, cond string) {
	ops := []string{"==", "!=", "<", "<=", ">", ">=", "in", "not in", "between"}
	op := ops[g.r.IntN(len(ops))]
	date := func() string { return g.pick(g.pools[c]) }
	switch op {
	case "in", "not in":
		a, b := date(), date()
		return op, fmt.Sprintf("[]string{%q, %q}", a, b), fmt.Sprintf("%s %sIN (DATE '%s', DATE '%s')", col, sqlNot(op), a, b)
	case "between":
		a, b := date(), date()
		if a > b {
			a, b = b, a
		}
		return op, fmt.Sprintf("[]string{%q, %q}", a, b), fmt.Sprintf("%s BETWEEN DATE '%s' AND DATE '%s'", col, a, b)
	default:
		v := date()
		return op, strconv.Quote(v), fmt.Sprintf("%s %s DATE '%s'", col, sqlComparison(op), v)
	}
}

// edgeCondition draws a condition at an edge of the documented rules:
// nil values, empty text, empty lists, "between" with its bounds
// reversed, numbers beyond the int64 range or between ints, dates at the
// ends of the calendar and time.Time values.
func (g *queryGen) edgeCondition(c string) (goOp, goVal, cond string) {
	col := sqlIdent(c)
	kind := diffColumns[c]
	switch g.r.IntN(5) {
	case 0:
		if g.r.IntN(2) == 0 {
			return "==", "nil", col + " IS NULL"
		}
		return "!=", "nil", col + " IS NOT NULL"
	case 1:
		goType := map[colKind]string{kText: "[]string", kCat: "[]string", kInt: "[]int", kFloat: "[]float64", kDate: "[]string"}[kind]
		if g.r.IntN(2) == 0 {
			return "in", goType + "{}", "FALSE"
		}
		return "not in", goType + "{}", col + " IS NOT NULL"
	}
	switch kind {
	case kText, kCat:
		op := g.pick([]string{"contains", "not contains", "prefix", "suffix", "==", "!=", ">", "<=", "between"})
		switch op {
		case "contains":
			return op, `""`, col + " IS NOT NULL"
		case "not contains":
			return op, `""`, "FALSE"
		case "prefix", "suffix":
			return op, `""`, col + " IS NOT NULL"
		case "between":
			a, b := g.pick(g.pools[c]), g.pick(g.pools[c])
			if a < b {
				a, b = b, a
			}
			return op, fmt.Sprintf("[]string{%q, %q}", a, b), fmt.Sprintf("%s BETWEEN %s AND %s", col, sqlString(a), sqlString(b))
		default:
			sqlOp := map[string]string{"==": "=", "!=": "<>"}[op]
			if sqlOp == "" {
				sqlOp = op
			}
			return op, `""`, fmt.Sprintf("%s %s ''", col, sqlOp)
		}
	case kInt, kFloat:
		op := g.pick([]string{"==", "!=", "<", "<=", ">", ">=", "between", "in"})
		v := g.pick([]string{"1e19", "-1e19", "9223372036854775807", "-9223372036854775808", "1e300", "-1e300",
			"0.5", "-0.5", "0", "2015.0000001", "1999.9999999", "9.2233720368547748e18", "-9.2233720368547758e18"})
		switch op {
		case "between":
			w := g.pick([]string{"-1e19", "0", "2000", "1e19", "1e6"})
			return op, fmt.Sprintf("[]float64{%s, %s}", v, w), fmt.Sprintf("%s BETWEEN %s AND %s", col, sqlNumber(v), sqlNumber(w))
		case "in":
			return op, fmt.Sprintf("[]float64{%s, 2015, 2015.5}", v), fmt.Sprintf("%s IN (%s, 2015, 2015.5)", col, sqlNumber(v))
		}
		sqlOp := map[string]string{"==": "=", "!=": "<>"}[op]
		if sqlOp == "" {
			sqlOp = op
		}
		return op, v, fmt.Sprintf("%s %s %s", col, sqlOp, sqlNumber(v))
	default: // kDate
		op := g.pick([]string{"==", "!=", "<", "<=", ">", ">=", "between"})
		d := g.pick([]string{"0001-01-01", "9999-12-31", "1970-01-01", "1969-12-31", "2000-02-29", g.pick(g.pools[c])})
		goV := strconv.Quote(d)
		if g.r.IntN(2) == 0 {
			tm, _ := time.Parse("2006-01-02", d)
			goV = fmt.Sprintf("time.Date(%d, %d, %d, 0, 0, 0, 0, time.UTC)", tm.Year(), tm.Month(), tm.Day())
		}
		if op == "between" {
			e := g.pick(g.pools[c])
			return op, fmt.Sprintf("[]string{%q, %q}", e, d), fmt.Sprintf("%s BETWEEN DATE '%s' AND DATE '%s'", col, e, d)
		}
		sqlOp := map[string]string{"==": "=", "!=": "<>"}[op]
		if sqlOp == "" {
			sqlOp = op
		}
		return op, goV, fmt.Sprintf("%s %s DATE '%s'", col, sqlOp, d)
	}
}

// sqlNumber writes a Go numeric literal as a DOUBLE in SQL, so that
// DuckDB compares in floating point as award_data does with float
// values, and keeps ints as they are.
func sqlNumber(v string) string {
	if strings.ContainsAny(v, ".e") {
		return "CAST(" + v + " AS DOUBLE)"
	}
	return v
}

// cut sometimes shortens a text value to a prefix, so that range
// comparisons fall between values as well as on them.
func (g *queryGen) cut(v string) string {
	if len(v) > 2 && g.r.IntN(2) == 0 {
		n := 1 + g.r.IntN(len(v)-1)
		for !utf8.RuneStart(v[n]) {
			n-- // cut between characters: the literal stays valid UTF-8
		}
		return v[:n]
	}
	return v
}

// piece takes a short ASCII piece of v for contains/prefix/suffix, with
// its letters' case changed at random (the operators ignore case).
func (g *queryGen) piece(v, op string) string {
	if !isASCII(v) {
		return "ü"
	}
	n := 1 + g.r.IntN(min(5, len(v)))
	var s string
	switch op {
	case "prefix":
		s = v[:n]
	case "suffix":
		s = v[len(v)-n:]
	default:
		at := g.r.IntN(len(v) - n + 1)
		s = v[at : at+n]
	}
	b := []byte(s)
	for i, c := range b {
		if g.r.IntN(2) == 0 {
			switch {
			case c >= 'a' && c <= 'z':
				b[i] = c - 32
			case c >= 'A' && c <= 'Z':
				b[i] = c + 32
			}
		}
	}
	return string(b)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func (g *queryGen) scalar(goF, where string) diffQuery {
	c := g.pick(numCols)
	col := sqlIdent(c)
	q := diffQuery{kind: "scalar"}
	switch g.r.IntN(7) {
	case 0:
		q.goExpr, q.sql, q.rules = fmt.Sprintf("fl(%s.Sum(%q))", goF, c), fmt.Sprintf("SELECT coalesce(sum(%s), 0) FROM awards WHERE %s", col, where), []cmpRule{cmpCents}
	case 1:
		q.goExpr, q.sql, q.rules = fmt.Sprintf("fl(%s.Mean(%q))", goF, c), fmt.Sprintf("SELECT avg(%s) FROM awards WHERE %s", col, where), []cmpRule{cmpRel}
	case 2:
		q.goExpr, q.sql, q.rules = fmt.Sprintf("fl(%s.Median(%q))", goF, c), fmt.Sprintf("SELECT quantile_cont(%s, 0.5) FROM awards WHERE %s", col, where), []cmpRule{cmpQuantile}
	case 3:
		p := quantiles[g.r.IntN(len(quantiles))]
		q.goExpr, q.sql, q.rules = fmt.Sprintf("fl(%s.Quantile(%q, %v))", goF, c, p), fmt.Sprintf("SELECT quantile_cont(%s, %v) FROM awards WHERE %s", col, p, where), []cmpRule{cmpQuantile}
	case 4:
		q.goExpr, q.sql, q.rules = fmt.Sprintf("fl(%s.Min(%q))", goF, c), fmt.Sprintf("SELECT min(%s) FROM awards WHERE %s", col, where), []cmpRule{cmpExact}
	case 5:
		q.goExpr, q.sql, q.rules = fmt.Sprintf("fl(%s.Max(%q))", goF, c), fmt.Sprintf("SELECT max(%s) FROM awards WHERE %s", col, where), []cmpRule{cmpExact}
	default:
		c = g.pick(filterCols)
		q.goExpr, q.sql, q.rules = fmt.Sprintf("fi(%s.CountDistinct(%q))", goF, c), fmt.Sprintf("SELECT count(DISTINCT %s) FROM awards WHERE %s", sqlIdent(c), where), []cmpRule{cmpExact}
	}
	return q
}

// aggStat is one statistic of Agg: its Go spelling, its SQL and rule.
func (g *queryGen) aggStat() (goStat, sql string, rule cmpRule) {
	c := g.pick(numCols)
	col := sqlIdent(c)
	switch g.r.IntN(13) {
	case 0:
		return "count()", "count(*)", cmpExact
	case 1:
		c = g.pick(filterCols)
		return fmt.Sprintf("count(%s)", c), fmt.Sprintf("count(%s)", sqlIdent(c)), cmpExact
	case 2:
		return fmt.Sprintf("sum(%s)", c), fmt.Sprintf("coalesce(sum(%s), 0)", col), cmpCents
	case 3:
		return fmt.Sprintf("mean(%s)", c), fmt.Sprintf("avg(%s)", col), cmpRel
	case 4:
		return fmt.Sprintf("median(%s)", c), fmt.Sprintf("quantile_cont(%s, 0.5)", col), cmpQuantile
	case 5:
		c = g.pick(minMaxCols)
		return fmt.Sprintf("min(%s)", c), fmt.Sprintf("min(%s)", sqlIdent(c)), cmpExact
	case 6:
		c = g.pick(minMaxCols)
		return fmt.Sprintf("max(%s)", c), fmt.Sprintf("max(%s)", sqlIdent(c)), cmpExact
	case 7:
		return fmt.Sprintf("std(%s)", c), fmt.Sprintf("stddev_samp(%s)", col), cmpRel
	case 8:
		return fmt.Sprintf("var(%s)", c), fmt.Sprintf("var_samp(%s)", col), cmpRel
	case 9:
		c = g.pick(filterCols)
		return fmt.Sprintf("nunique(%s)", c), fmt.Sprintf("count(DISTINCT %s)", sqlIdent(c)), cmpExact
	case 10:
		c = g.pick(filterCols)
		return fmt.Sprintf("first(%s)", c), fmt.Sprintf("arg_min(%s, __row) FILTER (WHERE %s IS NOT NULL)", sqlIdent(c), sqlIdent(c)), cmpExact
	case 11:
		c = g.pick(filterCols)
		return fmt.Sprintf("last(%s)", c), fmt.Sprintf("arg_max(%s, __row) FILTER (WHERE %s IS NOT NULL)", sqlIdent(c), sqlIdent(c)), cmpExact
	default:
		p := quantiles[g.r.IntN(len(quantiles))]
		return fmt.Sprintf("quantile(%s, %v)", c, p), fmt.Sprintf("quantile_cont(%s, %v)", col, p), cmpQuantile
	}
}

func (g *queryGen) grouped(goF, where string) diffQuery {
	keys := []string{g.pick(keyCols)}
	if g.r.IntN(3) == 0 {
		if k := g.pick(keyCols); k != keys[0] {
			keys = append(keys, k)
		}
	}
	var goKeys, sqlKeys, order []string
	rules := []cmpRule{}
	for _, k := range keys {
		goKeys = append(goKeys, strconv.Quote(k))
		sqlKeys = append(sqlKeys, sqlIdent(k))
		order = append(order, sqlIdent(k)+" NULLS LAST")
		rules = append(rules, cmpExact)
	}
	q := diffQuery{kind: "groupby"}
	var goAgg string
	var sqlAggs []string
	c := g.pick(numCols)
	col := sqlIdent(c)
	switch g.r.IntN(11) {
	case 0:
		goAgg, sqlAggs, rules = "Count()", []string{"count(*)"}, append(rules, cmpExact)
	case 1:
		c2 := g.pick(numCols)
		if c2 == c {
			goAgg, sqlAggs, rules = fmt.Sprintf("Sum(%q)", c), []string{fmt.Sprintf("coalesce(sum(%s), 0)", col)}, append(rules, cmpCents)
		} else {
			goAgg = fmt.Sprintf("Sum(%q, %q)", c, c2)
			sqlAggs = []string{fmt.Sprintf("coalesce(sum(%s), 0)", col), fmt.Sprintf("coalesce(sum(%s), 0)", sqlIdent(c2))}
			rules = append(rules, cmpCents, cmpCents)
		}
	case 2:
		goAgg, sqlAggs, rules = fmt.Sprintf("Mean(%q)", c), []string{fmt.Sprintf("avg(%s)", col)}, append(rules, cmpRel)
	case 3:
		goAgg, sqlAggs, rules = fmt.Sprintf("Median(%q)", c), []string{fmt.Sprintf("quantile_cont(%s, 0.5)", col)}, append(rules, cmpQuantile)
	case 4:
		p := quantiles[g.r.IntN(len(quantiles))]
		goAgg, sqlAggs, rules = fmt.Sprintf("Quantile(%q, %v)", c, p), []string{fmt.Sprintf("quantile_cont(%s, %v)", col, p)}, append(rules, cmpQuantile)
	case 5:
		c = g.pick(minMaxCols)
		goAgg, sqlAggs, rules = fmt.Sprintf("Min(%q)", c), []string{fmt.Sprintf("min(%s)", sqlIdent(c))}, append(rules, cmpExact)
	case 6:
		c = g.pick(minMaxCols)
		goAgg, sqlAggs, rules = fmt.Sprintf("Max(%q)", c), []string{fmt.Sprintf("max(%s)", sqlIdent(c))}, append(rules, cmpExact)
	case 7:
		c = g.pick(filterCols)
		goAgg, sqlAggs, rules = fmt.Sprintf("CountDistinct(%q)", c), []string{fmt.Sprintf("count(DISTINCT %s)", sqlIdent(c))}, append(rules, cmpExact)
	case 8:
		sc := g.pick(filterCols)
		goOp, goVal, cond := g.condition(sc)
		goAgg = fmt.Sprintf("Share(%q, %q, %s)", sc, goOp, goVal)
		sqlAggs = []string{"count(*)", fmt.Sprintf("avg(CASE WHEN %s THEN 1.0 ELSE 0.0 END)", cond)}
		rules = append(rules, cmpExact, cmpRel)
	default:
		var stats []string
		for range 1 + g.r.IntN(4) {
			s, sql, rule := g.aggStat()
			if slices.Contains(stats, strconv.Quote(s)) {
				continue // two result columns of one name are an error
			}
			stats = append(stats, strconv.Quote(s))
			sqlAggs = append(sqlAggs, sql)
			rules = append(rules, rule)
		}
		goAgg = "Agg(" + strings.Join(stats, ", ") + ")"
		if g.r.IntN(4) == 0 {
			// Agg without GroupBy: one row.
			q.kind = "agg"
			q.goExpr = fmt.Sprintf("fr(%s.%s)", goF, goAgg)
			q.sql = fmt.Sprintf("SELECT %s FROM awards WHERE %s", strings.Join(sqlAggs, ", "), where)
			q.rules = rules[len(keys):]
			return q
		}
	}
	limit := 60
	q.goExpr = fmt.Sprintf("fr(%s.GroupBy(%s).%s.Head(%d))", goF, strings.Join(goKeys, ", "), goAgg, limit)
	q.sql = fmt.Sprintf("SELECT %s, %s FROM awards WHERE %s GROUP BY ALL ORDER BY %s LIMIT %d",
		strings.Join(sqlKeys, ", "), strings.Join(sqlAggs, ", "), where, strings.Join(order, ", "), limit)
	q.rules = rules
	return q
}

// having filters and sorts a grouped result: Where and Sort on a frame
// the engine computed rather than on the award data.
func (g *queryGen) having(goF, where string) diffQuery {
	k := g.pick(keyCols)
	op := g.pick([]string{">=", ">", "<", "==", "!="})
	n := 1 + g.r.IntN(40)
	sqlOp := map[string]string{"==": "=", "!=": "<>"}[op]
	if sqlOp == "" {
		sqlOp = op
	}
	return diffQuery{kind: "having",
		goExpr: fmt.Sprintf("fr(%s.GroupBy(%q).Count().Where(\"Count\", %q, %d).Sort(\"-Count\").Head(40))", goF, k, op, n),
		sql: fmt.Sprintf("SELECT %s, count(*) AS n FROM awards WHERE %s GROUP BY ALL HAVING count(*) %s %d ORDER BY n DESC, %s NULLS LAST LIMIT 40",
			sqlIdent(k), where, sqlOp, n, sqlIdent(k)),
		rules: []cmpRule{cmpExact, cmpExact}}
}

// compute derives a column with Compute (a null on either side or a
// division by zero is null; int op int stays int for + - *) and
// aggregates or filters it.
func (g *queryGen) compute(goF, where string) diffQuery {
	left := g.pick(numCols)
	op := g.pick([]string{"+", "-", "*", "/"})
	var goRight, sqlRight string
	if g.r.IntN(2) == 0 {
		r := g.pick(numCols)
		goRight, sqlRight = strconv.Quote(r), sqlIdent(r)
	} else {
		v := g.pick([]string{"0", "1", "3", "1000", "2.5", "-7"})
		goRight, sqlRight = v, v
	}
	l := sqlIdent(left)
	x := fmt.Sprintf("(%s %s %s)", l, op, sqlRight)
	if op == "/" {
		x = fmt.Sprintf("(CASE WHEN %s = 0 THEN NULL ELSE CAST(%s AS DOUBLE) / %s END)", sqlRight, l, sqlRight)
	}
	goF = fmt.Sprintf("%s.Compute(\"X\", %q, %q, %s)", goF, left, op, goRight)
	if g.r.IntN(2) == 0 {
		k := g.pick(keyCols)
		return diffQuery{kind: "compute",
			goExpr: fmt.Sprintf("fr(%s.GroupBy(%q).Agg(\"sum(X)\", \"mean(X)\", \"count(X)\", \"max(X)\").Head(60))", goF, k),
			sql: fmt.Sprintf("SELECT %s, coalesce(sum(%s), 0), avg(%s), count(%s), max(%s) FROM awards WHERE %s GROUP BY ALL ORDER BY 1 NULLS LAST LIMIT 60",
				sqlIdent(k), x, x, x, x, where),
			rules: []cmpRule{cmpExact, cmpRel, cmpRel, cmpExact, cmpExact}}
	}
	v := g.pick([]string{"0", "100", "1e5", "-3", "2005"})
	return diffQuery{kind: "compute",
		goExpr: fmt.Sprintf("fi(%s.Where(\"X\", \">\", %s).Count())", goF, v),
		sql:    fmt.Sprintf("SELECT count(*) FROM awards WHERE %s AND %s > %s", where, x, v),
		rules:  []cmpRule{cmpExact}}
}

// describe summarizes a few columns: type, count, nulls, distinct
// values, smallest and largest (text, categories and dates whole; numbers
// as shown, with separators and rounded), mean.
func (g *queryGen) describe(goF, where string) diffQuery {
	var goCols, parts []string
	typeName := map[colKind]string{kText: "text", kCat: "category", kInt: "int", kFloat: "float", kDate: "date"}
	for range 1 + g.r.IntN(3) {
		c := g.pick(filterCols)
		if slices.Contains(goCols, strconv.Quote(c)) {
			continue
		}
		goCols = append(goCols, strconv.Quote(c))
		cc := sqlIdent(c)
		mean := "NULL::DOUBLE"
		if k := diffColumns[c]; k == kInt || k == kFloat {
			mean = fmt.Sprintf("avg(%s)", cc)
		}
		parts = append(parts, fmt.Sprintf("SELECT %d AS i, %s, %s, count(%s), count(*) - count(%s), count(DISTINCT %s), CAST(min(%s) AS VARCHAR), CAST(max(%s) AS VARCHAR), %s FROM awards WHERE %s",
			len(parts), sqlString(c), sqlString(typeName[diffColumns[c]]), cc, cc, cc, cc, cc, mean, where))
	}
	return diffQuery{kind: "describe",
		goExpr: fmt.Sprintf("fr(%s.Select(%s).Describe())", goF, strings.Join(goCols, ", ")),
		sql:    fmt.Sprintf("SELECT * EXCLUDE (i) FROM (%s) ORDER BY i", strings.Join(parts, " UNION ALL ")),
		rules:  []cmpRule{cmpExact, cmpExact, cmpExact, cmpExact, cmpExact, cmpShown, cmpShown, cmpRel}}
}

// reordered groups a frame that is not in file order (sorted) or not
// all of the selection (Head, Tail): first and last follow the frame's
// order.
func (g *queryGen) reordered(goF, where string) diffQuery {
	k, c := g.pick(keyCols), g.pick(filterCols)
	sub := fmt.Sprintf("SELECT * FROM awards WHERE %s", where)
	order := "__row"
	switch g.r.IntN(3) {
	case 0:
		s := g.pick(sortCols)
		goF += fmt.Sprintf(".Sort(%q)", "-"+s)
		order = sqlIdent(s) + " DESC NULLS LAST, __row"
	case 1:
		n := 1 + g.r.IntN(3000)
		goF += fmt.Sprintf(".Head(%d)", n)
		sub += fmt.Sprintf(" ORDER BY __row LIMIT %d", n)
	default:
		n := 1 + g.r.IntN(3000)
		goF += fmt.Sprintf(".Tail(%d)", n)
		sub = fmt.Sprintf("SELECT * FROM (SELECT * FROM awards WHERE %s ORDER BY __row DESC LIMIT %d)", where, n)
	}
	cc := sqlIdent(c)
	return diffQuery{kind: "reordered",
		goExpr: fmt.Sprintf("fr(%s.GroupBy(%q).Agg(\"first(%s)\", \"last(%s)\", \"count()\", \"sum(Award Amount)\").Head(60))", goF, k, c, c),
		sql: fmt.Sprintf("SELECT %s, first(%s ORDER BY %s) FILTER (WHERE %s IS NOT NULL), last(%s ORDER BY %s) FILTER (WHERE %s IS NOT NULL), count(*), coalesce(sum(\"Award Amount\"), 0) FROM (%s) GROUP BY ALL ORDER BY 1 NULLS LAST LIMIT 60",
			sqlIdent(k), cc, order, cc, cc, order, cc, sub),
		rules: []cmpRule{cmpExact, cmpExact, cmpExact, cmpExact, cmpCents}}
}

// concat stacks two filtered frames (rows in both count twice) and
// groups the result. The frames keep only the columns used: Concat
// copies its frames, and two copies of every column of 70,000 awards
// (abstracts included) pass the session's 1 GiB heap limit.
func (g *queryGen) concat(goF, where string) diffQuery {
	goF2, where2 := g.filters()
	k, c := g.pick(keyCols), g.pick(numCols)
	cc := sqlIdent(c)
	return diffQuery{kind: "concat",
		goExpr: fmt.Sprintf("fr(award_data.Concat(%s.Select(%q, %q, \"Contract\"), %s.Select(%q, %q, \"Contract\")).GroupBy(%q).Agg(\"count()\", \"sum(%s)\", \"median(%s)\", \"last(Contract)\").Head(60))", goF, k, c, goF2, k, c, k, c, c),
		sql: fmt.Sprintf(`SELECT %s, count(*), coalesce(sum(%s), 0), quantile_cont(%s, 0.5), last("Contract" ORDER BY part, __row) FILTER (WHERE "Contract" IS NOT NULL)
			FROM (SELECT 1 AS part, * FROM awards WHERE %s UNION ALL SELECT 2 AS part, * FROM awards WHERE %s) GROUP BY ALL ORDER BY 1 NULLS LAST LIMIT 60`,
			sqlIdent(k), cc, cc, where, where2),
		rules: []cmpRule{cmpExact, cmpExact, cmpCents, cmpQuantile, cmpExact}}
}

// join joins filtered awards with a grouped frame on its key: rows come
// in the left frame's order, then (right, outer) the right frame's
// unmatched rows in its order; a null key matches nothing.
func (g *queryGen) join(goF, where string) diffQuery {
	goF2, where2 := g.filters()
	k := g.pick([]string{"Company", "City", "State", "Award Year", "Branch", "Topic Code", "Proposal Award Date"})
	how := g.pick([]string{"inner", "left", "right", "outer"})
	kc := sqlIdent(k)
	sqlHow := map[string]string{"inner": "INNER", "left": "LEFT", "right": "RIGHT", "outer": "FULL"}[how]
	n := 1 + g.r.IntN(50)
	// The right frame: one row per key, sorted by key (nulls last).
	right := fmt.Sprintf("SELECT %s AS k, count(*) AS n, row_number() OVER (ORDER BY %s NULLS LAST) AS rrow FROM awards WHERE %s GROUP BY 1", kc, kc, where2)
	keyOut := "l.k"
	if how == "right" || how == "outer" {
		keyOut = "coalesce(l.k, r.k)" // the key column holds the right frame's key on its unmatched rows
	}
	return diffQuery{kind: "join",
		goExpr: fmt.Sprintf("fr(%s.Select(%q, \"Contract\").Join(%s.GroupBy(%q).Agg(\"count() as N\"), %q, %q).Head(%d))", goF, k, goF2, k, how, k, n),
		sql: fmt.Sprintf(`SELECT %s, l.c, r.n FROM (SELECT %s AS k, "Contract" AS c, __row FROM awards WHERE %s) l %s JOIN (%s) r ON l.k = r.k
			ORDER BY l.__row IS NULL, l.__row, r.rrow LIMIT %d`, keyOut, kc, where, sqlHow, right, n),
		rules: []cmpRule{cmpExact, cmpExact, cmpExact}}
}

// pivotSpec describes a Pivot query, compared as a long table: DuckDB
// gives one row per (row value, column value) pair with rows, and per
// margin, with the ranks of the values.
type pivotSpec struct {
	rows    string
	margins bool
	rule    cmpRule
}

var (
	pivotRows = []string{"Agency", "Branch", "State", "Phase", "Award Year", "Number Employees", "Woman Owned", "Proposal Award Date"}
	pivotCols = []string{"Phase", "Program", "Woman Owned", "HUBZone Owned", "Agency", "Branch", "Award Year"}
)

func (g *queryGen) pivot(goF, where string) diffQuery {
	r, c := g.pick(pivotRows), g.pick(pivotCols)
	for c == r {
		c = g.pick(pivotCols)
	}
	margins := g.r.IntN(2) == 0
	v := g.pick(numCols)
	aggs := map[string]string{
		"sum": "coalesce(sum(%s), 0)", "count": "count(%s)", "mean": "avg(%s)", "median": "quantile_cont(%s, 0.5)",
		"min": "min(%s)", "max": "max(%s)", "nunique": "count(DISTINCT %s)",
	}
	rules := map[string]cmpRule{"sum": cmpCents, "count": cmpExact, "mean": cmpRel, "median": cmpQuantile, "min": cmpExact, "max": cmpExact, "nunique": cmpExact}
	agg := g.pick([]string{"sum", "count", "mean", "median", "min", "max", "nunique", ""})
	opts := fmt.Sprintf("Rows: %q, Columns: %q", r, c)
	switch agg {
	case "":
		// The default: sum of Values.
		agg = "sum"
		opts += fmt.Sprintf(", Values: %q", v)
	case "count":
		if g.r.IntN(2) == 0 {
			// Without Values, count counts rows; with Values, as in Agg,
			// the column's non-null values.
			opts += fmt.Sprintf(", Agg: %q", agg)
			v = "*"
			break
		}
		fallthrough
	default:
		opts += fmt.Sprintf(", Values: %q, Agg: %q", v, agg)
	}
	if margins {
		opts += ", Margins: true"
	}
	sets := "(r, c)"
	if margins {
		sets = "(r, c), (r), (c), ()"
	}
	rc, cc := sqlIdent(r), sqlIdent(c)
	sql := fmt.Sprintf(`SELECT CAST(r AS VARCHAR), CAST(c AS VARCHAR), grouping(r), grouping(c),
		dense_rank() OVER (PARTITION BY grouping(r) ORDER BY r ASC NULLS LAST),
		dense_rank() OVER (PARTITION BY grouping(c) ORDER BY c ASC NULLS LAST), %s
		FROM (SELECT %s AS r, %s AS c, * FROM awards WHERE %s) GROUP BY GROUPING SETS (%s)`,
		fmt.Sprintf(aggs[agg], map[bool]string{true: "*", false: sqlIdent(v)}[v == "*"]), rc, cc, where, sets)
	return diffQuery{kind: "pivot",
		goExpr: fmt.Sprintf("fr(%s.Pivot(award_data.PivotOptions{%s}))", goF, opts),
		sql:    sql,
		pivot:  &pivotSpec{rows: r, margins: margins, rule: rules[agg]}}
}

// expectPivot turns DuckDB's long answer to a Pivot query into the wide
// table award_data documents: rows and columns sorted by value, nulls
// last (a null column is named "(null)"), a cell without rows null, and
// with Margins an "All" column and row.
func expectPivot(p *pivotSpec, long [][]any) (names []string, rows [][]any) {
	type label struct {
		rank int
		name any
	}
	rowLabels, colLabels := map[int]any{}, map[int]any{}
	cells := map[[2]int]any{}
	const margin = 1 << 30 // the rank of "All"
	for _, l := range long {
		gr, _ := number(l[2])
		gc, _ := number(l[3])
		rr, _ := number(l[4])
		cr, _ := number(l[5])
		ri, ci := int(rr), int(cr)
		if gr == 1 {
			ri = margin
		} else {
			rowLabels[ri] = l[0]
		}
		if gc == 1 {
			ci = margin
		} else {
			name := l[1]
			if name == nil {
				name = "(null)"
			}
			colLabels[ci] = name
		}
		cells[[2]int{ri, ci}] = l[6]
	}
	rowRanks := slices.Sorted(maps.Keys(rowLabels))
	colRanks := slices.Sorted(maps.Keys(colLabels))
	if p.margins {
		rowRanks = append(rowRanks, margin)
		colRanks = append(colRanks, margin)
		rowLabels[margin], colLabels[margin] = "All", "All"
	}
	names = []string{p.rows}
	for _, c := range colRanks {
		names = append(names, fmt.Sprint(colLabels[c]))
	}
	for _, r := range rowRanks {
		row := []any{rowLabels[r]}
		for _, c := range colRanks {
			row = append(row, cells[[2]int{r, c}])
		}
		rows = append(rows, row)
	}
	return names, rows
}

func (g *queryGen) sorted(goF, where string) diffQuery {
	var goArgs, order, sel []string
	for range 1 + g.r.IntN(2) {
		c := g.pick(sortCols)
		if slices.Contains(sel, sqlIdent(c)) {
			continue
		}
		sel = append(sel, sqlIdent(c))
		desc := g.r.IntN(2) == 0
		switch {
		case !desc:
			goArgs = append(goArgs, strconv.Quote(c))
			order = append(order, sqlIdent(c)+" ASC NULLS LAST")
		default:
			switch g.r.IntN(3) {
			case 0:
				goArgs = append(goArgs, strconv.Quote("-"+c))
			case 1:
				goArgs = append(goArgs, strconv.Quote(c), "award_data.Descending")
			default:
				goArgs = append(goArgs, strconv.Quote(c), "false")
			}
			order = append(order, sqlIdent(c)+" DESC NULLS LAST")
		}
	}
	var goSel []string
	for _, s := range sel {
		goSel = append(goSel, strconv.Quote(strings.Trim(s, `"`)))
	}
	// The contract number tells tied rows apart: ties keep file order.
	goSel = append(goSel, `"Contract"`)
	sel = append(sel, `"Contract"`)
	n := 1 + g.r.IntN(40)
	rules := make([]cmpRule, len(sel))
	return diffQuery{kind: "sort",
		goExpr: fmt.Sprintf("fr(%s.Sort(%s).Select(%s).Head(%d))", goF, strings.Join(goArgs, ", "), strings.Join(goSel, ", "), n),
		sql:    fmt.Sprintf("SELECT %s FROM awards WHERE %s ORDER BY %s, __row LIMIT %d", strings.Join(sel, ", "), where, strings.Join(order, ", "), n),
		rules:  rules}
}

func (g *queryGen) nExtreme(goF, where string) diffQuery {
	c := g.pick([]string{"Award Amount", "Award Year", "Number Employees", "Solicitation Year"})
	n := 1 + g.r.IntN(25)
	fn, dir := "NLargest", "DESC"
	if g.r.IntN(2) == 0 {
		fn, dir = "NSmallest", "ASC"
	}
	return diffQuery{kind: strings.ToLower(fn),
		goExpr: fmt.Sprintf("fr(%s.%s(%d, %q).Select(%q, \"Contract\"))", goF, fn, n, c, c),
		sql: fmt.Sprintf("SELECT %s, \"Contract\" FROM awards WHERE %s AND %s IS NOT NULL ORDER BY %s %s, __row LIMIT %d",
			sqlIdent(c), where, sqlIdent(c), sqlIdent(c), dir, n),
		rules: []cmpRule{cmpExact, cmpExact}}
}

// ---- running the engines ----

// sbirPrelude is the start of the program `sbir-kernel run` runs: q runs
// one query and prints "N\tOK\tANSWER" or "N\tERR\tMESSAGE" on one line.
// A frame's answer is its column names, a tab, and its ToJSON.
const sbirPrelude = `func q(i int, fn func() string) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Printf("%d\tERR\t%s\n", i, strings.ReplaceAll(fmt.Sprint(r), "\n", " "))
		}
	}()
	fmt.Printf("%d\tOK\t%s\n", i, fn())
}
func fr(f award_data.Frame) string {
	if err := f.Err(); err != nil {
		panic(err)
	}
	return f.Columns().String() + "\t" + f.ToJSON()
}
func fl(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
func fi(v int) string     { return strconv.Itoa(v) }
`

// answer is one engine's answer to one query: a table of cells (nil for
// null), or an error.
type answer struct {
	err   string
	names []string // award_data's column names (frames only)
	rows  [][]any
}

func runSbir(ctx context.Context, t *testing.T, bin, dir, csvPath string, queries []diffQuery) []answer {
	t.Helper()
	var prog strings.Builder
	prog.WriteString(sbirPrelude)
	for i, q := range queries {
		fmt.Fprintf(&prog, "q(%d, func() string { return %s })\n", i, q.goExpr)
	}
	progPath := filepath.Join(dir, "queries.go")
	if err := os.WriteFile(progPath, []byte(prog.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, bin, "run", "--json", "-max-code-bytes", "4MiB", "-max-output-bytes", "64MiB", "-cell-timeout", "3m", progPath)
	cmd.Env = append(os.Environ(), "SBIR_CSV_PATH="+csvPath, "SBIR_CACHE_DIR="+filepath.Join(dir, "cache"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sbir-kernel run %s: %v\n%s\n%s", progPath, err, out, stderr.String())
	}
	t.Logf("sbir-kernel run: %d queries in %v (conversion included)", len(queries), time.Since(start).Round(time.Millisecond))
	var res struct {
		Success bool   `json:"success"`
		Stdout  string `json:"stdout"`
		Error   any    `json:"error"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("sbir-kernel run --json: %v\n%s", err, out)
	}
	if !res.Success {
		t.Fatalf("sbir-kernel run failed: %v\n%s", res.Error, res.Stdout)
	}
	answers := make([]answer, len(queries))
	got := 0
	for _, line := range strings.Split(strings.TrimSuffix(res.Stdout, "\n"), "\n") {
		parts := strings.SplitN(line, "\t", 3)
		i, err := strconv.Atoi(parts[0])
		if err != nil || len(parts) != 3 || i < 0 || i >= len(queries) {
			t.Fatalf("sbir-kernel run: unexpected output line %q", line)
		}
		got++
		if parts[1] == "ERR" {
			answers[i].err = parts[2]
			continue
		}
		answers[i].names, answers[i].rows = parseSbirAnswer(parts[2])
		if answers[i].rows == nil {
			answers[i].err = "unreadable answer " + parts[2]
		}
	}
	if got != len(queries) {
		t.Fatalf("sbir-kernel run answered %d of %d queries", got, len(queries))
	}
	return answers
}

// parseSbirAnswer reads a scalar ("NaN" is null) or "COLUMNS\tJSON".
func parseSbirAnswer(s string) ([]string, [][]any) {
	cols, records, isFrame := strings.Cut(s, "\t")
	if !isFrame {
		if s == "NaN" {
			return nil, [][]any{{nil}}
		}
		return nil, [][]any{{json.Number(s)}}
	}
	var names []string
	if err := json.Unmarshal([]byte(cols), &names); err != nil {
		return nil, nil
	}
	dec := json.NewDecoder(strings.NewReader(records))
	dec.UseNumber()
	var recs []map[string]any
	if err := dec.Decode(&recs); err != nil {
		return nil, nil
	}
	rows := [][]any{}
	for _, rec := range recs {
		row := make([]any, len(names))
		for j, n := range names {
			row[j] = rec[n]
		}
		rows = append(rows, row)
	}
	return names, rows
}

func runDuckDB(ctx context.Context, t *testing.T, nodeDir, dir, csvPath string, header []string, queries []diffQuery) []answer {
	t.Helper()
	// DuckDB refuses invalid UTF-8; it reads a copy with the bytes
	// replaced as the conversion documents.
	data, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(data) {
		csvPath = filepath.Join(dir, "awards-utf8.csv")
		if err := os.WriteFile(csvPath, []byte(fixUTF8(string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	job := struct {
		Setup   []string `json:"setup"`
		Queries []string `json:"queries"`
	}{Setup: duckSetup(csvPath, header)}
	for _, q := range queries {
		job.Queries = append(job.Queries, q.sql)
	}
	data, err = json.Marshal(job)
	if err != nil {
		t.Fatal(err)
	}
	jobPath := filepath.Join(dir, "duckdb-job.json")
	if err := os.WriteFile(jobPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("differential.mjs")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, "node", script, nodeDir, jobPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node differential.mjs: %v\n%s", err, stderr.String())
	}
	t.Logf("DuckDB: load and %d queries in %v", len(queries), time.Since(start).Round(time.Millisecond))
	answers := make([]answer, len(queries))
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	for range queries {
		var line struct {
			I     int     `json:"i"`
			Rows  [][]any `json:"rows"`
			Error string  `json:"error"`
		}
		if err := dec.Decode(&line); err != nil {
			t.Fatalf("node differential.mjs output: %v\n%s", err, out)
		}
		answers[line.I] = answer{err: line.Error, rows: line.Rows}
	}
	return answers
}

// ---- comparing ----

// compareAnswers returns "" when the answers agree under q's rules, else
// what differs first (and how many rows differ).
func compareAnswers(q diffQuery, s, d answer) string {
	if s.err != "" || d.err != "" {
		return fmt.Sprintf("award_data error %q, DuckDB error %q", s.err, d.err)
	}
	if q.pivot != nil {
		var names []string
		names, d.rows = expectPivot(q.pivot, d.rows)
		if !slices.Equal(names, s.names) {
			return fmt.Sprintf("award_data's columns are %q, DuckDB's values make %q", s.names, names)
		}
		q.rules = []cmpRule{cmpExact}
		for range names[1:] {
			q.rules = append(q.rules, q.pivot.rule)
		}
	}
	if len(s.rows) != len(d.rows) {
		return fmt.Sprintf("award_data gave %d rows, DuckDB %d (first rows: %v / %v)", len(s.rows), len(d.rows), head(s.rows), head(d.rows))
	}
	var first string
	bad := 0
	for r := range s.rows {
		if len(s.rows[r]) != len(q.rules) || len(d.rows[r]) != len(q.rules) {
			return fmt.Sprintf("row %d: award_data has %d columns, DuckDB %d, want %d", r, len(s.rows[r]), len(d.rows[r]), len(q.rules))
		}
		for c, rule := range q.rules {
			if !sameCell(rule, s.rows[r][c], d.rows[r][c]) {
				bad++
				if first == "" {
					first = fmt.Sprintf("row %d column %d: award_data %v, DuckDB %v (rows: %v / %v)", r, c, show(s.rows[r][c]), show(d.rows[r][c]), s.rows[r], d.rows[r])
				}
			}
		}
	}
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf("%d cells differ; first: %s", bad, first)
}

// trivial reports an answer with no rows or a single 0 or null.
func trivial(a answer) bool {
	if len(a.rows) == 0 {
		return true
	}
	if len(a.rows) == 1 && len(a.rows[0]) == 1 {
		f, ok := number(a.rows[0][0])
		return a.rows[0][0] == nil || isNaN(a.rows[0][0]) || ok && f == 0
	}
	return false
}

func head(rows [][]any) [][]any { return rows[:min(3, len(rows))] }

func show(v any) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprintf("%q", fmt.Sprint(v))
}

// number reads a cell as a float64: JSON numbers, and DuckDB's integer
// strings (exact beyond 2^53) when the other side is a number.
func number(v any) (float64, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = string(x)
	case string:
		s = x
	default:
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// isNaN reports a NaN cell: award_data's scalar statistics give NaN where
// SQL gives NULL, and both mean "no values".
func isNaN(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return string(x) == "NaN"
	case string:
		return x == "NaN"
	}
	return false
}

func sameCell(rule cmpRule, a, b any) bool {
	if isNaN(a) {
		a = nil
	}
	if isNaN(b) {
		b = nil
	}
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if rule == cmpShown {
		return sameShown(fmt.Sprint(a), fmt.Sprint(b))
	}
	if _, num := a.(json.Number); !num {
		// Text, categories and dates: the same text.
		return fmt.Sprint(a) == fmt.Sprint(b)
	}
	fa, okA := number(a)
	fb, okB := number(b)
	if !okA || !okB {
		return false
	}
	diff, scale := math.Abs(fa-fb), math.Max(math.Abs(fa), math.Abs(fb))
	switch rule {
	case cmpCents:
		return diff <= 0.005
	case cmpRel:
		return diff <= 1e-9*scale
	case cmpQuantile:
		return diff <= 1e-12*scale
	}
	return fa == fb
}

// sameShown compares a value as Describe shows it with the value: text
// and dates equal, a number (with thousands separators)
// equal to the value rounded to the decimals shown.
func sameShown(shown, value string) bool {
	if shown == value {
		return true
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(shown, ",", ""), 64)
	if err != nil {
		return false
	}
	v, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return false
	}
	decimals := 0
	if _, frac, ok := strings.Cut(shown, "."); ok {
		decimals = len(frac)
	}
	return math.Abs(f-v) <= 0.5*math.Pow(10, -float64(decimals))*(1+1e-9)
}
