"""pandas_ops.py: the operations pandas users reach for (issue 31), for
compare.py: sbir against ipykernel + pandas on the same file, in one run.

Each operation is what an analyst types in each kernel, its answer as
sbir computes it (a frame's key and value columns, or one number) and as
pandas does (a Series, or one number); compare.py times the cells (warm,
median of --runs) and checks that the answers agree.
"""

DATES = ["Proposal Award Date", "Contract End Date", "Solicitation Close Date",
         "Proposal Receipt Date", "Date of Notification"]

# Run once in the pandas kernel after loading, untimed: the date columns
# as datetimes (sbir's are dates from the start).
PANDAS_SETUP = (f"for _c in {DATES!r}:\n"
                "    df[_c] = pd.to_datetime(df[_c], format='%Y-%m-%d', errors='coerce')")

# key: (description,
#       sbir cell, sbir answer (expr, key column, value column; key None: a number),
#       pandas cell, pandas answer (an expression giving a Series, or a number))
OPS = {
    "pct_change": (
        "year-over-year growth of total dollars (PctChange)",
        'award_data.GroupBy("Award Year").Sum("Award Amount").PctChange("Award Amount")',
        ('award_data.GroupBy("Award Year").Sum("Award Amount").PctChange("Award Amount")', "Award Year", "Award Amount (pct change)"),
        'df.groupby("Award Year")["Award Amount"].sum().pct_change(fill_method=None)',
        'df.groupby("Award Year")["Award Amount"].sum().pct_change(fill_method=None)'),
    "rolling": (
        "3-year rolling mean of dollars per agency (GroupBy + Rolling)",
        'award_data.GroupBy("Agency", "Award Year").Sum("Award Amount").GroupBy("Agency").Rolling("Award Amount", 3, "mean")',
        ('award_data.GroupBy("Agency", "Award Year").Sum("Award Amount").GroupBy("Agency").Rolling("Award Amount", 3, "mean").Sum("Award Amount (rolling mean 3)")', None, None),
        'df.groupby(["Agency", "Award Year"], observed=True)["Award Amount"].sum().groupby(level=0, observed=True).rolling(3).mean()',
        'df.groupby(["Agency", "Award Year"], observed=True)["Award Amount"].sum().groupby(level=0, observed=True).rolling(3).mean().sum()'),
    "cut": (
        "awards per employee-size bin (Cut)",
        'award_data.Cut("Number Employees", []float64{0, 10, 50, 250, 500}).ValueCounts("Number Employees (bin)")',
        ('award_data.Cut("Number Employees", []float64{0, 10, 50, 250, 500}, "a", "b", "c", "d").ValueCounts("Number Employees (bin)").Where("Number Employees (bin)", "not null", nil)', "Number Employees (bin)", "Count"),
        'pd.cut(df["Number Employees"], [0, 10, 50, 250, 500]).value_counts()',
        'pd.cut(df["Number Employees"], [0, 10, 50, 250, 500], labels=["a", "b", "c", "d"]).value_counts()'),
    "qcut": (
        "awards per amount quartile (QCut)",
        'award_data.QCut("Award Amount", 4).ValueCounts("Award Amount (q4)")',
        ('award_data.QCut("Award Amount", 4, "0", "1", "2", "3").ValueCounts("Award Amount (q4)").Where("Award Amount (q4)", "not null", nil)', "Award Amount (q4)", "Count"),
        'pd.qcut(df["Award Amount"], 4, duplicates="drop").value_counts()',
        'pd.qcut(df["Award Amount"], 4, labels=False, duplicates="drop").value_counts().rename(index=str)'),
    "idxmax": (
        "the year with the most Phase II dollars per agency (IdxMax)",
        'award_data.Where("Phase", "==", "Phase II").GroupBy("Agency", "Award Year").Sum("Award Amount").GroupBy("Agency").IdxMax("Award Amount")',
        ('award_data.Where("Phase", "==", "Phase II").GroupBy("Agency", "Award Year").Sum("Award Amount").GroupBy("Agency").IdxMax("Award Amount")', "Agency", "Award Year"),
        'df[df["Phase"] == "Phase II"].groupby(["Agency", "Award Year"], observed=True)["Award Amount"].sum().groupby(level=0, observed=True).idxmax()',
        'df[df["Phase"] == "Phase II"].groupby(["Agency", "Award Year"], observed=True)["Award Amount"].sum().groupby(level=0, observed=True).idxmax().map(lambda t: t[1])'),
    "rank": (
        "each award's rank within its agency (GroupBy + Rank)",
        'award_data.GroupBy("Agency").Rank("Award Amount", award_data.Descending, "first")',
        ('award_data.GroupBy("Agency").Rank("Award Amount", award_data.Descending, "first").Sum("Award Amount (rank)")', None, None),
        'df.groupby("Agency", observed=True)["Award Amount"].rank(ascending=False, method="first")',
        'df.groupby("Agency", observed=True)["Award Amount"].rank(ascending=False, method="first").sum()'),
    "head": (
        "the 3 largest awards of each agency (Sort + GroupBy + Head)",
        'award_data.Sort("-Award Amount").GroupBy("Agency").Head(3)',
        ('award_data.Sort("-Award Amount").GroupBy("Agency").Head(3).Sum("Award Amount")', None, None),
        'df.sort_values("Award Amount", ascending=False, kind="stable").groupby("Agency", observed=True).head(3)',
        'df.sort_values("Award Amount", ascending=False, kind="stable").groupby("Agency", observed=True).head(3)["Award Amount"].sum()'),
    "words": (
        "the 10 most frequent words of DoD abstracts (WordCounts)",
        'award_data.Where("Agency", "==", "Department of Defense").WordCounts("Abstract").Head(10)',
        ('award_data.Where("Agency", "==", "Department of Defense").WordCounts("Abstract").Head(10)', "Word", "Count"),
        'df[df["Agency"] == "Department of Defense"]["Abstract"].str.lower().str.findall(r"[^\\W_]+").explode().value_counts().head(10)',
        'df[df["Agency"] == "Department of Defense"]["Abstract"].str.lower().str.findall(r"[^\\W_]+").explode().value_counts().head(10)'),
    "lower": (
        "most frequent company names, ignoring case (Lower + ValueCounts)",
        'award_data.Lower("Company").ValueCounts("Company").Head(10)',
        ('award_data.Lower("Company").ValueCounts("Company").Where("Company", "not null", nil).Head(10)', "Company", "Count"),
        'df["Company"].str.lower().value_counts().head(10)',
        'df["Company"].str.lower().value_counts().head(10)'),
    "extract": (
        "awards per contact e-mail domain (Extract)",
        'award_data.Extract("Contact Email", `@(.+)$`).ValueCounts("Contact Email (extract)").Head(10)',
        ('award_data.Extract("Contact Email", `@(.+)$`).ValueCounts("Contact Email (extract)").Where("Contact Email (extract)", "not null", nil).Head(10)', "Contact Email (extract)", "Count"),
        'df["Contact Email"].str.extract(r"@(.+)$")[0].value_counts().head(10)',
        'df["Contact Email"].str.extract(r"@(.+)$")[0].value_counts().head(10)'),
    "month": (
        "awards per month of the award date (Month)",
        'award_data.Month("Proposal Award Date").ValueCounts("Proposal Award Date (month)")',
        ('award_data.Month("Proposal Award Date").ValueCounts("Proposal Award Date (month)").Where("Proposal Award Date (month)", "not null", nil)', "Proposal Award Date (month)", "Count"),
        'df["Proposal Award Date"].dt.month.value_counts()',
        'df["Proposal Award Date"].dt.month.value_counts().rename(index=lambda m: str(int(m)))'),
    "drop_duplicates": (
        "distinct (Company, Agency) pairs (DropDuplicates)",
        'award_data.DropDuplicates("Company", "Agency").Len()',
        ('award_data.DropDuplicates("Company", "Agency").Len()', None, None),
        'len(df.drop_duplicates(["Company", "Agency"]))',
        'len(df.drop_duplicates(["Company", "Agency"]))'),
    "unstack": (
        "dollars by agency and phase, phases as columns (Unstack)",
        'award_data.GroupBy("Agency", "Phase").Sum("Award Amount").Unstack("Phase")',
        ('award_data.GroupBy("Agency", "Phase").Sum("Award Amount").Unstack("Phase")', "Agency", "Phase II"),
        'df.groupby(["Agency", "Phase"], observed=True)["Award Amount"].sum().unstack("Phase")',
        'df.groupby(["Agency", "Phase"], observed=True)["Award Amount"].sum().unstack("Phase")["Phase II"]'),
    "corr": (
        "correlation of employees and amount (Corr)",
        'award_data.Corr("Number Employees", "Award Amount")',
        ('award_data.Corr("Number Employees", "Award Amount")', None, None),
        'df["Number Employees"].corr(df["Award Amount"])',
        'df["Number Employees"].corr(df["Award Amount"])'),
    "compare": (
        "share of awards over $1M per agency (a comparison in Compute)",
        'award_data.Compute("Big", "Award Amount", ">", 1e6).GroupBy("Agency").Mean("Big")',
        ('award_data.Compute("Big", "Award Amount", ">", 1e6).GroupBy("Agency").Mean("Big")', "Agency", "Big"),
        '(df["Award Amount"] > 1e6).groupby(df["Agency"], observed=True).mean()',
        '(df["Award Amount"] > 1e6).groupby(df["Agency"], observed=True).mean()'),
}


def sbir_answer_code(key):
    """Go code printing the answer of an operation: one number, or one
    key<TAB>value line per row."""
    expr, k, v = OPS[key][2]
    if k is None:
        return f"fmt.Println({expr})"
    return (f'f := {expr}\nk := f.Strings("{k}")\nv := f.Strings("{v}")\n'
            'for i := range k {\n\tfmt.Printf("%s\\t%s\\n", k[i], v[i])\n}')


def parse_sbir_answer(key, out):
    _, k, _ = OPS[key][2]
    if k is None:
        return float(out.strip())
    pairs = {}
    for line in out.splitlines():
        a, b = line.split("\t")
        pairs[a] = float(b) if b else None
    return pairs


def pandas_answer_code(key):
    """Python printing the pandas answer as JSON: {key: value} or a number."""
    expr = OPS[key][4]
    _, k, _ = OPS[key][2]
    if k is None:
        return f"print(float({expr}))"
    return ("import json, math\n"
            f"_s = {expr}\n"
            "print(json.dumps({str(int(a) if isinstance(a, float) and a.is_integer() else a): "
            "(None if b != b else float(b)) for a, b in _s.items()}))")
