package dataset

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Canonical column names: the header of the 42-column bulk file, in order.
const (
	ColCompany               = "Company"
	ColAwardTitle            = "Award Title"
	ColAgency                = "Agency"
	ColBranch                = "Branch"
	ColPhase                 = "Phase"
	ColProgram               = "Program"
	ColAgencyTrackingNumber  = "Agency Tracking Number"
	ColContract              = "Contract"
	ColProposalAwardDate     = "Proposal Award Date"
	ColContractEndDate       = "Contract End Date"
	ColSolicitationNumber    = "Solicitation Number"
	ColSolicitationYear      = "Solicitation Year"
	ColSolicitationCloseDate = "Solicitation Close Date"
	ColProposalReceiptDate   = "Proposal Receipt Date"
	ColDateOfNotification    = "Date of Notification"
	ColTopicCode             = "Topic Code"
	ColAwardYear             = "Award Year"
	ColAwardAmount           = "Award Amount"
	ColUEI                   = "UEI"
	ColDuns                  = "Duns"
	ColHUBZoneOwned          = "HUBZone Owned"
	ColDisadvantaged         = "Socially and Economically Disadvantaged"
	ColWomanOwned            = "Woman Owned"
	ColNumberEmployees       = "Number Employees"
	ColCompanyWebsite        = "Company Website"
	ColAddress1              = "Address1"
	ColAddress2              = "Address2"
	ColCity                  = "City"
	ColState                 = "State"
	ColZip                   = "Zip"
	ColAbstract              = "Abstract"
	ColContactName           = "Contact Name"
	ColContactTitle          = "Contact Title"
	ColContactPhone          = "Contact Phone"
	ColContactEmail          = "Contact Email"
	ColPIName                = "PI Name"
	ColPITitle               = "PI Title"
	ColPIPhone               = "PI Phone"
	ColPIEmail               = "PI Email"
	ColRIName                = "RI Name"
	ColRIPOCName             = "RI POC Name"
	ColRIPOCPhone            = "RI POC Phone"
)

// colKind is how a canonical column is parsed and stored.
type colKind uint8

const (
	kindText  colKind = iota // utf8
	kindDict                 // dictionary<int16, utf8>
	kindInt                  // int64
	kindFloat                // float64
	kindDate                 // date32
)

// column describes one canonical column.
type column struct {
	name string
	kind colKind
}

// canonical lists the canonical columns in schema order.
var canonical = []column{
	{ColCompany, kindText},
	{ColAwardTitle, kindText},
	{ColAgency, kindDict},
	{ColBranch, kindDict},
	{ColPhase, kindDict},
	{ColProgram, kindDict},
	{ColAgencyTrackingNumber, kindText},
	{ColContract, kindText},
	{ColProposalAwardDate, kindDate},
	{ColContractEndDate, kindDate},
	{ColSolicitationNumber, kindText},
	{ColSolicitationYear, kindInt},
	{ColSolicitationCloseDate, kindDate},
	{ColProposalReceiptDate, kindDate},
	{ColDateOfNotification, kindDate},
	{ColTopicCode, kindText},
	{ColAwardYear, kindInt},
	{ColAwardAmount, kindFloat},
	{ColUEI, kindText},
	{ColDuns, kindText},
	{ColHUBZoneOwned, kindDict},
	{ColDisadvantaged, kindDict},
	{ColWomanOwned, kindDict},
	{ColNumberEmployees, kindInt},
	{ColCompanyWebsite, kindText},
	{ColAddress1, kindText},
	{ColAddress2, kindText},
	{ColCity, kindText},
	{ColState, kindDict},
	{ColZip, kindText},
	{ColAbstract, kindText},
	{ColContactName, kindText},
	{ColContactTitle, kindText},
	{ColContactPhone, kindText},
	{ColContactEmail, kindText},
	{ColPIName, kindText},
	{ColPITitle, kindText},
	{ColPIPhone, kindText},
	{ColPIEmail, kindText},
	{ColRIName, kindText},
	{ColRIPOCName, kindText},
	{ColRIPOCPhone, kindText},
}

// requiredColumns are the columns without which a file is not an SBIR
// awards CSV. The other canonical columns may be missing (they are then all
// null), which is how the older 41-column shape lacks UEI.
var requiredColumns = []string{
	ColCompany, ColAwardTitle, ColAgency, ColPhase, ColProgram, ColAwardYear, ColAwardAmount,
}

// dictType is the Arrow type of the low-cardinality columns.
var dictType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}

func (k colKind) arrowType() arrow.DataType {
	switch k {
	case kindDict:
		return dictType
	case kindInt:
		return arrow.PrimitiveTypes.Int64
	case kindFloat:
		return arrow.PrimitiveTypes.Float64
	case kindDate:
		return arrow.FixedWidthTypes.Date32
	default:
		return arrow.BinaryTypes.String
	}
}

// Schema returns the canonical schema: the 42 canonical columns, all
// nullable, without metadata. A converted file has these fields first,
// followed by any extra CSV columns as utf8, and carries its load report in
// the schema metadata.
func Schema() *arrow.Schema {
	return arrow.NewSchema(canonicalFields(), nil)
}

func canonicalFields() []arrow.Field {
	fields := make([]arrow.Field, len(canonical))
	for i, c := range canonical {
		fields[i] = arrow.Field{Name: c.name, Type: c.kind.arrowType(), Nullable: true}
	}
	return fields
}

// canonicalIndex maps a normalized header name (see normalizeHeader) to
// the index of its canonical column.
var canonicalIndex = func() map[string]int {
	m := make(map[string]int, len(canonical)+8)
	for i, c := range canonical {
		m[normalizeHeader(c.name)] = i
	}
	// Spellings seen in other exports of the same data.
	aliases := map[string]string{
		"Women Owned":                           ColWomanOwned,
		"Woman-Owned":                           ColWomanOwned,
		"# Employees":                           ColNumberEmployees,
		"Number of Employees":                   ColNumberEmployees,
		"Employees":                             ColNumberEmployees,
		"DUNS Number":                           ColDuns,
		"Socially & Economically Disadvantaged": ColDisadvantaged,
		"HUBZone":                               ColHUBZoneOwned,
		"Company Name":                          ColCompany,
		"Firm":                                  ColCompany,
		"Amount":                                ColAwardAmount,
	}
	for alias, name := range aliases {
		m[normalizeHeader(alias)] = m[normalizeHeader(name)]
	}
	return m
}()

// normalizeHeader folds case and spacing so that "HUBZone Owned",
// "Hubzone Owned" and " hubzone  owned" compare equal.
func normalizeHeader(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}
