#!/usr/bin/python3
"""client_decode.py: what jupyter_client itself spends receiving 1 MiB of output.

Deserialises (HMAC check and JSON decode, as the client does for every iopub
message) 1 MiB of stream text sent as one message and as four 256 KiB ones, the
way sbir-kernel sends it. The floor under "1 MiB printed in one write" that no
kernel can go below. Run: /usr/bin/python3 bench/client_decode.py
"""
import time, statistics
from jupyter_client.session import Session
s = Session(key=b"0123456789abcdef")
text = "x" * (1 << 20)
def one(nparts):
    part = len(text) // nparts
    msgs = [s.serialize(s.msg("stream", {"name": "stdout", "text": text[i*part:(i+1)*part]})) for i in range(nparts)]
    t = time.perf_counter()
    for m in msgs:
        idents, fmsg = s.feed_identities(m[1:] if m[0] == b"" else m)
        s.deserialize(fmsg)
    return (time.perf_counter() - t) * 1000
for n in (1, 4):
    ts = [one(n) for _ in range(15)]
    print(f"client decode of 1 MiB in {n} stream message(s): median {statistics.median(ts):.2f} ms, min {min(ts):.2f}")
