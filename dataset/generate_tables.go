package dataset

import "sort"

// The generator's vocabulary and weighted choices. Proportions follow
// ../shared/notes/sbir-data.md; names are invented.

type weighted struct {
	cum    []float64
	values []string
}

func newWeighted(pairs ...any) weighted {
	var w weighted
	total := 0.0
	for i := 0; i < len(pairs); i += 2 {
		total += pairs[i+1].(float64)
		w.values = append(w.values, pairs[i].(string))
		w.cum = append(w.cum, total)
	}
	for i := range w.cum {
		w.cum[i] /= total
	}
	return w
}

func (w weighted) pick(r *rng) string {
	x := r.float()
	i := sort.SearchFloat64s(w.cum, x)
	if i >= len(w.values) {
		i = len(w.values) - 1
	}
	return w.values[i]
}

var (
	genAgencies = newWeighted(
		"Department of Defense", 48.2, "Department of Health and Human Services", 22.7,
		"National Aeronautics and Space Administration", 8.9, "Department of Energy", 7.6,
		"National Science Foundation", 7.1, "Department of Agriculture", 1.9,
		"Environmental Protection Agency", 0.7, "Department of Commerce", 0.8, "Department of Education", 0.5,
		"Department of Transportation", 0.6, "Department of Homeland Security", 0.7,
		"Nuclear Regulatory Commission", 0.2, "Department of the Interior", 0.2)
	genDoDBranches = newWeighted("Air Force", 35.0, "Army", 20.0, "Navy", 25.0, "Defense Advanced Research Projects Agency", 5.0,
		"Missile Defense Agency", 5.0, "Special Operations Command", 3.0, "Office for Chemical and Biological Defense", 2.0,
		"Defense Threat Reduction Agency", 2.0, "Space Force", 2.0, "Defense Logistics Agency", 1.0)
	genHHSBranches = newWeighted("National Institutes of Health", 90.0, "Centers for Disease Control and Prevention", 6.0, "Food and Drug Administration", 4.0)
	genStates      = [][2]string{
		{"California", "CA"}, {"Massachusetts", "MA"}, {"Virginia", "VA"}, {"Maryland", "MD"}, {"Colorado", "CO"},
		{"Texas", "TX"}, {"New York", "NY"}, {"Ohio", "OH"}, {"Florida", "FL"}, {"Pennsylvania", "PA"},
		{"Michigan", "MI"}, {"New Jersey", "NJ"}, {"Alabama", "AL"}, {"Arizona", "AZ"}, {"Washington", "WA"},
		{"North Carolina", "NC"}, {"New Mexico", "NM"}, {"Illinois", "IL"}, {"Georgia", "GA"}, {"Minnesota", "MN"},
		{"Connecticut", "CT"}, {"Utah", "UT"}, {"Oregon", "OR"}, {"Wisconsin", "WI"}, {"Tennessee", "TN"},
		{"Indiana", "IN"}, {"Missouri", "MO"}, {"New Hampshire", "NH"}, {"Montana", "MT"}, {"Vermont", "VT"},
		{"Delaware", "DE"}, {"District of Columbia", "DC"}, {"Puerto Rico", "PR"}, {"Hawaii", "HI"}, {"Alaska", "AK"},
	}
	genCities   = []string{"Springfield", "Madison", "Franklin", "Arlington", "Huntsville", "Boulder", "Cambridge", "Austin", "Dayton", "Columbia", "Fairfax", "Ann Arbor", "Pasadena", "Rockville", "Woburn", "Albuquerque", "Tucson", "Beavercreek", "Bethesda", "San Diego"}
	genSyllable = []string{"ad", "vanc", "tech", "nol", "og", "ies", "sys", "tem", "lab", "quant", "aer", "o", "bi", "on", "ics", "nano", "photon", "cyber", "ther", "ma", "geo", "hydro", "opt", "ix", "mat", "er", "ial", "dyn", "am", "cor"}
	genSuffix   = []string{"INC.", "LLC", "CORPORATION", "INC", "L.L.C.", "CORP.", "TECHNOLOGIES, INC.", "RESEARCH, LLC", "SYSTEMS, INC.", "SCIENCES CORP"}
	genFirst    = []string{"James", "Maria", "Robert", "Linda", "Wei", "Priya", "Ahmed", "Elena", "David", "Sarah", "Carlos", "Yuki", "Michael", "Aisha", "John", "Olga"}
	genLast     = []string{"Smith", "Garcia", "Chen", "Patel", "Johnson", "Kim", "Nguyen", "Müller", "O'Brien", "Williams", "Brown", "Singh", "Rossi", "Kowalski", "Lee", "Davis"}
	genTitles   = []string{"President", "CEO", "Principal Investigator", "CTO", "Senior Scientist", "Director of Research", "Chief Engineer", "President/CEO"}
	genWords    = []string{"the", "of", "and", "to", "a", "in", "for", "is", "on", "that", "by", "this", "with", "system", "technology", "development",
		"Phase", "research", "data", "performance", "novel", "approach", "design", "materials", "high", "low", "cost", "sensor", "power", "energy",
		"model", "software", "prototype", "demonstrate", "feasibility", "proposed", "innovative", "will", "be", "can", "commercial", "applications",
		"analysis", "testing", "advanced", "methods", "process", "efficiency", "detection", "real-time", "autonomous", "platform", "manufacturing",
		"thermal", "optical", "signal", "network", "machine", "learning", "algorithm", "quantum", "battery", "composite", "hypersonic", "satellite",
		"clinical", "therapy", "patients", "disease", "diagnostic", "vaccine", "imaging", "cells", "protein", "drug", "safety", "reliability",
		"integration", "environment", "reduce", "improve", "capability", "mission", "operational", "Navy", "Air", "Force", "Army", "NASA", "DOE",
		"scalable", "robust", "lightweight", "additive", "laser", "radar", "acoustic", "wireless", "secure", "cyber", "resilient", "grid", "solar",
		"hydrogen", "fuel", "water", "soil", "crop", "agricultural", "monitoring", "field", "laboratory", "validation", "objective", "objectives"}
	genPlaceholders = newWeighted("N/A", 80.0, "Redacted", 6.0, "Not Available", 6.0, "TBD", 3.0, "null", 3.0, " ", 2.0)
)
