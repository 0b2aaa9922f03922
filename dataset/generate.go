package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
)

// GenerateOptions configures Generate.
type GenerateOptions struct {
	// Rows is the number of award records to write.
	Rows int
	// Seed selects the data; the same options always produce the same bytes.
	Seed uint64
	// Shape is ShapeBulk42 (the default) or ShapeLegacy41.
	//
	// ShapeBulk42 mimics the current bulk file: 42 columns, YYYY-MM-DD
	// dates, plain amounts ("148309.0000"), Y/N/U flags, full state names.
	// ShapeLegacy41 mimics older web exports: 41 columns without UEI,
	// "Women Owned", M/D/YYYY dates, "171,433" and "$69,731.00" amounts,
	// Y/N flags, two-letter states, single-quoted DUNS numbers and a few
	// abstracts with invalid UTF-8.
	Shape HeaderShape
	// BOM writes a UTF-8 byte order mark before the header.
	BOM bool
}

// FullScaleRows is the number of records in the 2026 bulk file; generating
// this many rows gives a file of about 390 MB.
const FullScaleRows = 219_500

// Generate writes a synthetic SBIR awards CSV with the distributions and
// quirks of the real file (see ../shared/notes/sbir-data.md): agencies,
// phases and amounts in their real proportions, a heavy-tailed company
// distribution, sparse dates, placeholders ("N/A", "Redacted", "() -"),
// abstracts containing LF, bare CR and "" quotes, and CR LF record ends.
// Every value is made up; none of it describes a real award.
func Generate(w io.Writer, opts GenerateOptions) error {
	if opts.Rows < 0 {
		return errors.New("GenerateOptions.Rows is negative")
	}
	switch opts.Shape {
	case "":
		opts.Shape = ShapeBulk42
	case ShapeBulk42, ShapeLegacy41:
	default:
		return fmt.Errorf("GenerateOptions.Shape %q: want %q or %q", opts.Shape, ShapeBulk42, ShapeLegacy41)
	}
	g := newGenerator(opts)
	bw := bufio.NewWriterSize(w, 1<<20)
	if opts.BOM {
		bw.WriteString("\uFEFF")
	}
	bw.Write(g.header())
	for i := 0; i < opts.Rows; i++ {
		if _, err := bw.Write(g.record()); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// rng is SplitMix64, spelled out here so that generated files do not
// change with Go's math/rand.
type rng struct{ s uint64 }

func (r *rng) u64() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func (r *rng) intn(n int) int        { return int(r.u64() % uint64(n)) }
func (r *rng) float() float64        { return float64(r.u64()>>11) / (1 << 53) }
func (r *rng) chance(p float64) bool { return r.float() < p }
func (r *rng) norm() float64 {
	u := r.float()
	if u < 1e-300 {
		u = 1e-300
	}
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*r.float())
}

type generator struct {
	opts      GenerateOptions
	r         rng
	companies []float64 // cumulative Zipf weights
	yearCum   []float64
	line      []byte
	field     []byte
	row       int
	// extra drives realism added after the main stream was fixed (topics
	// shared across phases, rare technical terms), so that adding it left
	// every other generated value unchanged.
	extra rng
	// phaseITopic is the last Phase I topic code of each company, which
	// its Phase II awards often continue, as in the real data.
	phaseITopic map[int]string
}

const genCompanies = 34_500

func newGenerator(opts GenerateOptions) *generator {
	g := &generator{
		opts:        opts,
		r:           rng{s: opts.Seed*0x9E3779B97F4A7C15 + 0x1234567},
		extra:       rng{s: opts.Seed*0xBF58476D1CE4E5B9 + 0x7654321},
		phaseITopic: map[int]string{},
	}
	g.companies = make([]float64, genCompanies)
	total := 0.0
	for i := range g.companies {
		total += 1 / math.Pow(float64(i+1), 0.85)
		g.companies[i] = total
	}
	for i := range g.companies {
		g.companies[i] /= total
	}
	// Awards per year grow from ~1,000 in 1983 to ~7,000 in the 2020s.
	total = 0
	for y := 1983; y <= 2026; y++ {
		w := 1000 + 6000*float64(y-1983)/40
		if y == 2026 {
			w = 2500 // a partial year
		}
		total += w
		g.yearCum = append(g.yearCum, total)
	}
	for i := range g.yearCum {
		g.yearCum[i] /= total
	}
	return g
}

func (g *generator) legacy() bool { return g.opts.Shape == ShapeLegacy41 }

func (g *generator) header() []byte {
	g.line = g.line[:0]
	first := true
	for _, c := range canonical {
		name := c.name
		if g.legacy() {
			if name == ColUEI {
				continue
			}
			if name == ColWomanOwned {
				name = "Women Owned"
			}
		}
		if !first {
			g.line = append(g.line, ',')
		}
		first = false
		g.line = append(g.line, name...)
	}
	g.line = append(g.line, '\r', '\n')
	return g.line
}

// put appends one field, quoting it when needed.
func (g *generator) put(v []byte) {
	if len(g.line) > 0 && g.line[len(g.line)-1] != '\n' {
		g.line = append(g.line, ',')
	}
	quote := false
	for _, c := range v {
		if c == ',' || c == '"' || c == '\n' || c == '\r' {
			quote = true
			break
		}
	}
	if !quote {
		g.line = append(g.line, v...)
		return
	}
	g.line = append(g.line, '"')
	for _, c := range v {
		if c == '"' {
			g.line = append(g.line, '"')
		}
		g.line = append(g.line, c)
	}
	g.line = append(g.line, '"')
}

func (g *generator) putS(s string) { g.put([]byte(s)) }

// company is the stable description of one synthetic firm.
type company struct {
	name, website, uei, duns, addr1, addr2, city, zip, phone string
	state                                                    [2]string
	employees                                                int
	hubzone, disadvantaged, woman                            bool
}

func (g *generator) company(idx int) company {
	r := rng{s: uint64(idx)*0xD1B54A32D192ED03 + g.opts.Seed}
	var c company
	var name []byte
	n := 2 + r.intn(3)
	for i := 0; i < n; i++ {
		name = append(name, genSyllable[r.intn(len(genSyllable))]...)
	}
	base := string(name)
	name = append(name[:0], base...)
	for i := range name {
		if name[i] >= 'a' && name[i] <= 'z' {
			name[i] -= 'a' - 'A'
		}
	}
	c.name = fmt.Sprintf("%s %s", name, genSuffix[r.intn(len(genSuffix))])
	if idx >= 1000 {
		c.name = fmt.Sprintf("%s %d %s", name, idx%977, genSuffix[r.intn(len(genSuffix))])
	}
	c.website = "http://www." + base + ".com"
	const alnum = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
	u := make([]byte, 12)
	for i := range u {
		u[i] = alnum[r.intn(len(alnum))]
	}
	c.uei = string(u)
	c.duns = strconv.Itoa(10_000_000 + r.intn(989_999_999))
	c.addr1 = strconv.Itoa(1+r.intn(9999)) + " " + genLast[r.intn(len(genLast))] + " Road"
	if r.chance(0.3) {
		c.addr2 = "Suite " + strconv.Itoa(100+r.intn(900))
	}
	c.city = genCities[r.intn(len(genCities))]
	c.state = genStates[int(math.Min(float64(len(genStates)-1), math.Abs(r.norm())*9))]
	c.zip = fmt.Sprintf("%05d", r.intn(99999))
	if r.chance(0.4) {
		c.zip += fmt.Sprintf("-%04d", r.intn(9999))
	}
	c.phone = fmt.Sprintf("(%03d) %03d-%04d", 200+r.intn(799), 200+r.intn(799), r.intn(10000))
	c.employees = int(math.Exp(2.5+1.4*r.norm())) + 1
	if c.employees > 500 {
		c.employees = 500
	}
	c.hubzone = r.chance(0.021)
	c.disadvantaged = r.chance(0.071)
	c.woman = r.chance(0.096)
	return c
}

func (g *generator) record() []byte {
	r := &g.r
	g.row++
	g.line = g.line[:0]
	legacy := g.legacy()
	ci := sort.SearchFloat64s(g.companies, r.float())
	if ci >= genCompanies {
		ci = genCompanies - 1
	}
	c := g.company(ci)
	agency := genAgencies.pick(r)
	sttr := r.chance(0.10)
	phase2 := r.chance(0.31)
	yi := sort.SearchFloat64s(g.yearCum, r.float())
	year := 1983 + min(yi, 2026-1983)

	g.award(c, agency, phase2, sttr)
	g.solicitation(year)
	g.topic(ci, year, phase2)
	g.putS(strconv.Itoa(year))
	g.amount(phase2)
	g.firm(c, legacy)
	g.abstract(agency)
	// Contact Name, Title, Phone, Email
	g.person(0.20, c)
	// PI Name, Title, Phone, Email
	g.person(0.95, c)
	g.researchInstitution(sttr)
	g.line = append(g.line, '\r', '\n')
	return g.line
}

// award writes Company, Award Title, Agency, Branch, Phase and Program.
func (g *generator) award(c company, agency string, phase2, sttr bool) {
	r := &g.r
	g.putS(c.name)
	g.field = g.words(g.field[:0], 6+r.intn(12))
	g.put(g.field)
	g.putS(agency)
	switch {
	case agency == "Department of Defense":
		g.putS(genDoDBranches.pick(r))
	case agency == "Department of Health and Human Services" && r.chance(0.7):
		g.putS(genHHSBranches.pick(r))
	case r.chance(0.15):
		g.putS("Office of Science")
	default:
		g.put(nil)
	}
	if phase2 {
		g.putS("Phase II")
	} else {
		g.putS("Phase I")
	}
	if sttr {
		g.putS("STTR")
	} else {
		g.putS("SBIR")
	}
}

// solicitation writes Agency Tracking Number, Contract, and the dates
// and solicitation of an award made in year.
func (g *generator) solicitation(year int) {
	r := &g.r
	g.putS(fmt.Sprintf("%c%d-%04d", 'A'+byte(r.intn(26)), year%100, r.intn(10000)))
	if r.chance(0.76) {
		g.putS(fmt.Sprintf("FA%04d-%02d-C-%04d", 8000+r.intn(1000), year%100, r.intn(10000)))
	} else {
		g.put(nil)
	}
	// Dates are recorded mostly for recent awards.
	fill := 0.05
	if year >= 2008 {
		fill = 0.75
	}
	day := daysFromCivil(year, 1, 1) + int32(r.intn(365))
	g.date(fill, day)                                   // Proposal Award Date
	g.date(fill*0.8, day+180+int32(r.intn(500)))        // Contract End Date
	g.putS(fmt.Sprintf("%d.%d", year%100, 1+r.intn(3))) // Solicitation Number
	g.putS(strconv.Itoa(year - r.intn(2)))              // Solicitation Year
	g.date(fill*0.9, day-120-int32(r.intn(60)))         // Solicitation Close Date
	g.date(fill*0.9, day-118-int32(r.intn(60)))         // Proposal Receipt Date
	g.date(fill*0.7, day-60+int32(r.intn(30)))          // Date of Notification
}

// topic writes the Topic Code: a Phase II award of company ci often
// shares its Phase I's.
func (g *generator) topic(ci, year int, phase2 bool) {
	r := &g.r
	if !r.chance(0.57) {
		g.put(nil)
		return
	}
	topic := fmt.Sprintf("AF%02d-%03d", year%100, r.intn(300))
	if !phase2 {
		g.phaseITopic[ci] = topic
	} else if t, ok := g.phaseITopic[ci]; ok && g.extra.chance(0.6) {
		topic = t
	}
	g.putS(topic)
}

// firm writes the company's UEI, DUNS, flags, employees, website and
// address, as a legacy (pre-UEI) file or a current one writes them.
func (g *generator) firm(c company, legacy bool) {
	r := &g.r
	if !legacy {
		if r.chance(0.70) {
			g.putS(c.uei)
		} else {
			g.put(nil)
		}
	}
	switch {
	case !r.chance(0.81):
		g.put(nil)
	case legacy:
		g.putS("'" + c.duns + "'")
	default:
		g.putS(c.duns)
	}
	g.flag(c.hubzone)
	g.flag(c.disadvantaged)
	g.flag(c.woman)
	switch {
	case !r.chance(0.84):
		g.put(nil)
	case r.chance(0.01):
		g.putS("9999")
	default:
		g.putS(strconv.Itoa(c.employees))
	}
	if r.chance(0.56) {
		g.putS(c.website)
	} else {
		g.put(nil)
	}
	g.putS(c.addr1)
	g.putS(c.addr2)
	g.putS(c.city)
	if legacy {
		g.putS(c.state[1])
	} else {
		g.putS(c.state[0])
	}
	g.putS(c.zip)
}

// researchInstitution writes RI Name, RI POC Name and RI POC Phone,
// filled mostly for STTR awards.
func (g *generator) researchInstitution(sttr bool) {
	r := &g.r
	riFill := 0.03
	if sttr {
		riFill = 0.9
	}
	if !r.chance(riFill) {
		g.put(nil)
		g.put(nil)
		g.put(nil)
		return
	}
	g.putS("University of " + genCities[r.intn(len(genCities))])
	g.putS(genFirst[r.intn(len(genFirst))] + " " + genLast[r.intn(len(genLast))])
	if r.chance(0.2) {
		g.putS("() -")
	} else {
		g.putS(fmt.Sprintf("(%03d) %03d-%04d", 200+r.intn(799), 200+r.intn(799), r.intn(10000)))
	}
}

func (g *generator) date(fill float64, day int32) {
	if !g.r.chance(fill) {
		g.put(nil)
		return
	}
	if g.r.chance(0.0005) {
		day = daysFromCivil(1905, 7, 1) // an outlier seen in the real file
	}
	y, m, d := CivilFromDays(day)
	if g.legacy() {
		g.putS(fmt.Sprintf("%d/%d/%d", m, d, y))
	} else {
		g.putS(fmt.Sprintf("%04d-%02d-%02d", y, m, d))
	}
}

func (g *generator) amount(phase2 bool) {
	r := &g.r
	var v float64
	switch {
	case r.chance(0.019):
		v = 0
	case phase2:
		v = math.Exp(13.5 + 0.7*r.norm())
	default:
		v = math.Exp(11.5 + 0.45*r.norm())
	}
	if r.chance(0.0003) {
		v = 10e6 + r.float()*50e6
	}
	dollars := int64(v)
	switch {
	case !g.legacy() && r.chance(0.5):
		g.putS(strconv.FormatInt(dollars, 10) + ".0000")
	case !g.legacy():
		g.putS(strconv.FormatInt(dollars, 10))
	case r.chance(0.5) || dollars == 0:
		g.putS(groupDigits(dollars))
	default:
		g.putS(fmt.Sprintf("$%s.%02d", groupDigits(dollars), r.intn(100)))
	}
}

func (g *generator) flag(yes bool) {
	switch {
	case yes:
		g.putS("Y")
	case !g.legacy() && g.r.chance(0.03):
		g.putS("U")
	default:
		g.putS("N")
	}
}

func (g *generator) person(fill float64, c company) {
	r := &g.r
	if !r.chance(fill) {
		g.put(nil)
		g.put(nil)
		g.put(nil)
		g.put(nil)
		return
	}
	first, last := genFirst[r.intn(len(genFirst))], genLast[r.intn(len(genLast))]
	g.putS(first + " " + last)
	if r.chance(0.8) {
		g.putS(genTitles[r.intn(len(genTitles))])
	} else {
		g.put(nil)
	}
	if r.chance(0.05) {
		g.putS("() -")
	} else {
		g.putS(c.phone)
	}
	g.putS(fmt.Sprintf("%c.%s@%s.com", first[0]+'a'-'A', asciiLower(last), c.website[len("http://www."):len(c.website)-4]))
}

func asciiLower(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z':
			b = append(b, c)
		}
	}
	return string(b)
}

// abstract writes the Abstract field: a placeholder for ~13% of awards,
// otherwise text of realistic length with the real file's quirks.
func (g *generator) abstract(agency string) {
	r := &g.r
	if r.chance(0.13) {
		g.putS(genPlaceholders.pick(r))
		return
	}
	// Log-normal length: median ~1,300, p95 ~3,200, capped at 23,000.
	n := int(math.Exp(7.24 + 0.5*r.norm()))
	n = max(60, min(n, 23_000))
	newline := r.chance(0.11)
	cr := r.chance(0.02)
	quote := r.chance(0.05)
	bad := g.legacy() && r.chance(0.002)
	b := g.field[:0]
	sentence := 0
	for len(b) < n {
		if sentence == 0 {
			if len(b) > 0 {
				b = append(b, ' ')
			}
			w := genWords[r.intn(len(genWords))]
			b = append(b, w[0]&^0x20)
			b = append(b, w[1:]...)
			sentence = 8 + r.intn(18)
			continue
		}
		b = append(b, ' ')
		b = append(b, genWords[r.intn(len(genWords))]...)
		sentence--
		if sentence == 0 {
			b = append(b, '.')
			switch {
			case newline && r.chance(0.2):
				b = append(b, '\n')
			case cr && r.chance(0.2):
				b = append(b, '\r')
			case quote && r.chance(0.2):
				b = append(b, ` The "prototype" will be tested.`...)
			case bad && r.chance(0.3):
				b = append(b, 0x9B, 0x83, ' ', 0xAA)
			}
		}
	}
	// A rare technical term, as real abstracts have: lidar, mostly at NASA.
	lidar := 0.01
	if agency == "National Aeronautics and Space Administration" {
		lidar = 0.08
	}
	if g.extra.chance(lidar) {
		b = append(b, " Airborne LIDAR measurements will validate the lidar retrievals."...)
	}
	if newline {
		b = append(b, "\nAnticipated Benefits: commercial and government markets."...)
	}
	if cr {
		b = append(b, "\rKeywords: sensors"...)
	}
	if quote {
		b = append(b, ` ("dual-use")`...)
	}
	if bad {
		b = append(b, ' ', 0x9B, 0x83, '.', 0xAA)
	}
	g.field = b
	g.put(b)
}

// words appends n random words.
func (g *generator) words(b []byte, n int) []byte {
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		w := genWords[g.r.intn(len(genWords))]
		if i == 0 {
			b = append(b, w[0]&^0x20)
			w = w[1:]
		}
		b = append(b, w...)
	}
	return b
}
