"""Fieldsfunc: words of DoD abstracts split by a predicate (bench/lang/fieldsfunc/main.go).

Python has no FieldsFunc: fields_func is the same algorithm as Go's, one
call of the predicate per character.
"""
import json
import sys
import time


def fields_func(s, f):
    fields, start = [], -1
    for i, ch in enumerate(s):
        if f(ch):
            if start >= 0:
                fields.append(s[start:i])
                start = -1
        elif start < 0:
            start = i
    if start >= 0:
        fields.append(s[start:])
    return fields


with open(sys.argv[1], encoding="utf-8") as f:
    abstracts = json.load(f)["dod_abstracts"]
start = time.perf_counter()
separators = 0


def not_letter(ch):
    global separators
    if ch.isalpha() or ch == "-":
        return False
    separators += 1
    return True


words, letters = 0, 0
for a in abstracts:
    for w in fields_func(a, not_letter):
        words += 1
        letters += len(w.encode())
print(f"bench-seconds {time.perf_counter() - start:.6f}", file=sys.stderr)
print(len(abstracts), "abstracts,", words, "words,", letters, "bytes in words,", separators, "separators")
