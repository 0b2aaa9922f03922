"""Apply: a function applied to every award's title (bench/lang/apply/main.go)."""
import json
import sys
import time

with open(sys.argv[1], encoding="utf-8") as f:
    titles = json.load(f)["titles"]
start = time.perf_counter()


def title_words(title):
    return len(title.split())


words = [title_words(t) for t in titles]
total = sum(words)
print(f"bench-seconds {time.perf_counter() - start:.6f}", file=sys.stderr)
print(len(words), "awards,", total, "words in titles")
