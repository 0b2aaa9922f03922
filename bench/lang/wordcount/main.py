"""Wordcount: the words of 50,000 abstracts (bench/lang/wordcount/main.go)."""
import json
import sys
import time

with open(sys.argv[1], encoding="utf-8") as f:
    abstracts = json.load(f)["abstracts"]
start = time.perf_counter()
counts = {}
words = 0
for a in abstracts:
    for w in a.lower().split():
        counts[w] = counts.get(w, 0) + 1
        words += 1
top, top_count = "", 0
for w, c in counts.items():
    if c > top_count or c == top_count and w < top:
        top, top_count = w, c
print(f"bench-seconds {time.perf_counter() - start:.6f}", file=sys.stderr)
print(len(abstracts), "abstracts,", words, "words,", len(counts), "distinct; most common:", top, top_count)
