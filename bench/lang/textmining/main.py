"""Textmining: the 10 most common words in DoD abstracts (bench/lang/textmining/main.go)."""
import json
import sys
import time

with open(sys.argv[1], encoding="utf-8") as f:
    abstracts = json.load(f)["dod_abstracts"]
start = time.perf_counter()
stop = {}
for w in ("the and of to a in for is on with by this that be are will as an at from it or can which these we our "
          "its has have been not such into also using based").split():
    stop[w] = True
counts = {}
for a in abstracts:
    for w in a.lower().split():
        w = w.strip(".,;:()[]\"'!?")
        if len(w.encode()) < 3 or stop.get(w, False):
            continue
        counts[w] = counts.get(w, 0) + 1
ranked = sorted(counts.items(), key=lambda wc: (-wc[1], wc[0]))
print(f"bench-seconds {time.perf_counter() - start:.6f}", file=sys.stderr)
print(len(abstracts), "abstracts,", len(counts), "distinct words")
for w, c in ranked[:10]:
    print(w, c)
