"""pandas' answers to the questions of award_data/pandas_test.go.

Usage: python pandas_answers.py AWARDS.csv

Prints one JSON object: question name -> answer, in the shapes the Go test
builds from award_data (lists of [key, value] pairs in award_data's order,
dicts where order does not matter). Floats that are NaN are null; infinite
ones are the strings "inf" / "-inf". Each question is the one line a pandas
user writes; award_data's one call is beside it in the Go test.
"""

import json
import math
import sys

import pandas as pd

CATEGORIES = ["Agency", "Branch", "Phase", "Program", "State", "HUBZone Owned",
              "Socially and Economically Disadvantaged", "Woman Owned"]
DATES = ["Proposal Award Date", "Contract End Date", "Solicitation Close Date",
         "Proposal Receipt Date", "Date of Notification"]


def load(path):
    # Only empty fields are null, as in award_data ("N/A" is text there).
    df = pd.read_csv(path, dtype={c: "category" for c in CATEGORIES}, keep_default_na=False,
                     na_values=[""], low_memory=False)
    for c in DATES:
        df[c] = pd.to_datetime(df[c], format="%Y-%m-%d")
    for c in ["Company", "Abstract", "Award Title", "Contact Email"]:
        df[c] = df[c].astype("object")
    return df


def num(v):
    if v is None or isinstance(v, str):
        return v
    v = float(v)
    if math.isnan(v):
        return None
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def key(k):
    if isinstance(k, tuple):
        return [key(x) for x in k]
    if hasattr(k, "item"):
        k = k.item()
    if isinstance(k, float) and k.is_integer():
        return int(k)
    return k


def pairs(s):
    return [[key(k), num(v)] for k, v in s.items()]


def counts(s):
    # A categorical's value_counts lists its unused categories with 0.
    return {str(key(k)): int(v) for k, v in s.items() if v > 0}


def answers(df):
    out = {}
    by_year = df.groupby("Award Year")["Award Amount"].sum()
    out["pct_change"] = pairs(by_year.pct_change(fill_method=None))
    out["diff"] = pairs(df.groupby("Award Year").size().diff())
    out["shift"] = pairs(by_year.shift())
    out["cumsum"] = pairs(by_year.cumsum())
    out["rolling_mean"] = pairs(by_year.rolling(3).mean())
    out["rolling_median"] = pairs(by_year.rolling(4).median())
    out["rolling_std"] = pairs(by_year.rolling(3).std())
    out["rolling_max"] = pairs(by_year.rolling(5).max())
    agency_year = df.groupby(["Agency", "Award Year"], observed=True)["Award Amount"].sum()
    out["group_pct_change"] = pairs(agency_year.groupby(level=0, observed=True).pct_change(fill_method=None))
    out["group_cumsum"] = pairs(agency_year.groupby(level=0, observed=True).cumsum())
    out["cut"] = counts(pd.cut(df["Number Employees"], [0, 10, 50, 250, 500],
                               labels=["1-10", "11-50", "51-250", "251-500"]).value_counts())
    out["qcut"] = counts(pd.qcut(df["Award Amount"], 4, labels=False, duplicates="drop").value_counts())
    by_date = df.sort_values("Proposal Award Date", kind="stable")
    out["first"] = pairs(by_date.groupby("Agency", observed=True)["Company"].first())
    out["last"] = pairs(by_date.groupby("Agency", observed=True)["Company"].last())
    phase2 = df[df["Phase"] == "Phase II"].groupby(["Agency", "Award Year"], observed=True)["Award Amount"].sum()
    out["idxmax"] = [key(v) for v in phase2.groupby(level=0, observed=True).idxmax()]
    firms = df.groupby("Company")["Award Amount"].sum()
    out["rank"] = pairs(firms.rank(ascending=False, method="min"))
    out["group_rank"] = pairs(df.groupby("Agency", observed=True)["Award Amount"].rank(ascending=False, method="first"))
    top = df.sort_values("Award Amount", ascending=False, kind="stable").groupby("Agency", observed=True).head(2)
    out["head_per_group"] = [int(i) for i in top.index]
    dod = df[df["Agency"] == "Department of Defense"]
    out["word_counts"] = counts(dod["Abstract"].str.lower().str.findall(r"[^\W_]+").explode().value_counts())
    out["lower"] = counts(df["Company"].str.lower().value_counts())
    out["extract"] = counts(df["Contact Email"].str.extract(r"@(.+)$")[0].value_counts())
    out["explode"] = counts(df.head(300)["Award Title"].str.split(" ").explode().value_counts())
    out["month"] = counts(df["Proposal Award Date"].dt.month.value_counts())
    out["weekday"] = counts(df["Proposal Award Date"].dt.weekday.value_counts())
    out["drop_duplicates"] = [int(i) for i in df.drop_duplicates(["Company", "Agency"]).index]
    wide = df.groupby("Agency", observed=True).agg(Dollars=("Award Amount", "sum"), Awards=("Award Amount", "size")).reset_index()
    melted = wide.melt(id_vars=["Agency"])
    out["melt"] = [[r.Agency, r.variable, num(r.value)] for r in melted.itertuples()]
    unstacked = df.groupby(["Agency", "Phase"], observed=True)["Award Amount"].sum().unstack("Phase")
    out["unstack"] = [[key(a)] + [num(unstacked.loc[a, p]) for p in unstacked.columns] for a in unstacked.index]
    out["corr"] = num(df["Number Employees"].corr(df["Award Amount"]))
    out["compare_mean"] = pairs((df["Award Amount"] > 1e6).groupby(df["Agency"], observed=True).mean())
    out["and_sum"] = int(((df["Award Amount"] > 1e6) & (df["Phase"] == "Phase II")).sum())
    out["contains_share"] = num(df["Abstract"].str.contains("lidar", case=False, regex=False, na=False).mean())
    out["dropna_mean"] = num(df["Award Amount"].dropna().mean())
    out["fillna_mean"] = num(df["Number Employees"].fillna(0).mean())
    out["group_sum"] = pairs(df.groupby("Agency", observed=True)["Award Amount"].sum())
    return out


if __name__ == "__main__":
    print(json.dumps(answers(load(sys.argv[1]))))
