#!/usr/bin/env bash
# Seeds the fuzz corpora (fuzz/corpus/<target>/, not committed) from samples/*.pcap*: the capture,
# analyzer and shards targets get the files whole (capture a few of them compressed too); decode gets single packets; jsonrpc, sse and http get payloads cut
# from them (jsonrpc_push the jsonrpc ones behind a chunking prefix); reassembly gets the TCP segments of each
# Ethernet sample in its own input format. Idempotent.
set -euo pipefail
cd "$(dirname "$0")"
for t in capture analyzer shards decode reassembly http sse jsonrpc coding; do mkdir -p "corpus/$t"; done
for f in ../samples/*.pcap ../samples/*.pcapng; do
  b=$(basename "$f")
  cp "$f" "corpus/capture/$b"
  cp "$f" "corpus/analyzer/$b"
  cp "$f" "corpus/shards/$b"
done
# Compressed capture files (capture/file/packed.rs): a few samples gzipped, and zstd'd where zstd is installed.
for f in ../samples/downgrade.pcap ../samples/downgrade.pcapng ../samples/sensors-dumpcap.pcapng; do
  b=$(basename "$f")
  gzip -c "$f" > "corpus/capture/$b.gz"
  if command -v zstd > /dev/null; then zstd -q -c "$f" > "corpus/capture/$b.zst"; fi
done
python3 - <<'PY'
import glob, os, struct
# Classic pcap records only (pcapng files are covered by the capture seeds).
n = 0
for f in sorted(glob.glob('../samples/*.pcap')):
    d = open(f, 'rb').read()
    if len(d) < 24: continue
    magic = d[:4]
    e = '<' if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1') else '>'
    link = struct.unpack(e + 'I', d[20:24])[0]
    sel = {0:0, 1:1, 101:2, 108:3, 113:4, 228:5, 229:6, 276:7}.get(link & 0xffff, 8)
    off, i = 24, 0
    while off + 16 <= len(d) and i < 400:
        _, _, incl, _ = struct.unpack(e + 'IIII', d[off:off+16])
        pkt = d[off+16:off+16+incl]
        off += 16 + incl; i += 1
        base = os.path.basename(f)
        if i % 7 == 0:
            open(f'corpus/decode/{base}-{i}', 'wb').write(bytes([sel]) + pkt)
        # Payload heuristics: text after the first "POST"/"HTTP/1.1"/"data:"/"{" in the packet.
        for key, tgt in ((b'POST ', 'http'), (b'HTTP/1.1 ', 'http'), (b'data:', 'sse'), (b'{"', 'jsonrpc')):
            k = pkt.find(key)
            if k >= 0:
                body = pkt[k:]
                if tgt == 'http':
                    # Control bytes: chunks of 63 to the server (0x3f) or client (0xbf).
                    c = 0x3f if key == b'POST ' else 0xbf
                    out = b''.join(bytes([c]) + body[j:j+63] for j in range(0, len(body), 63))
                elif tgt == 'sse':
                    out = bytes([7]) + body
                else:
                    out = body
                open(f'corpus/{tgt}/{base}-{i}', 'wb').write(out)
                n += 1
print(f'seeded {n} payload files')
PY
python3 - <<'PY'
# Reassembly seeds: the TCP segments of each Ethernet sample's first connections, in the target's input
# format (12-byte header: tuple, flags, seq, ack, length, time step; then up to 63 payload bytes).
import glob, os, struct
made = 0
for f in sorted(glob.glob('../samples/*.pcap')):
    d = open(f, 'rb').read()
    if len(d) < 24 or d[:4] != b'\xd4\xc3\xb2\xa1' or struct.unpack('<I', d[20:24])[0] != 1:
        continue
    out, tuples, off, last = bytearray(), {}, 24, None
    while off + 16 <= len(d) and len(out) < 200_000:
        sec, usec, incl, _ = struct.unpack('<IIII', d[off:off+16])
        pkt = d[off+16:off+16+incl]
        off += 16 + incl
        if len(pkt) < 54 or pkt[12:14] != b'\x08\x00' or pkt[23] != 6:
            continue
        ihl = (pkt[14] & 15) * 4
        tot = struct.unpack('>H', pkt[16:18])[0]
        t = 14 + ihl
        sp, dp, seq, ack = struct.unpack('>HHII', pkt[t:t+12])
        doff = (pkt[t+12] >> 4) * 4
        fl = pkt[t+13]
        payload = pkt[t+doff:14+tot]
        conn = tuple(sorted([sp, dp]))
        if conn not in tuples:
            if len(tuples) >= 8:
                continue
            tuples[conn] = (len(tuples), min(sp, dp) if fl & 0x02 and not fl & 0x10 else None)
        idx, _ = tuples[conn]
        to_client = sp < dp  # servers listen on the lower port in the samples
        flags = (fl & 2 and 1) | (fl & 16 and 2) | (fl & 1 and 4) | (fl & 4 and 8) | (fl & 8 and 16) | (128 if to_client else 0)
        now = sec * 1_000_000 + usec
        step = 0 if last is None else min(15, max(0, (now - last) // 1_000_000))
        last = now
        pieces = [payload[i:i+63] for i in range(0, len(payload), 63)] or [b'']
        for k, p in enumerate(pieces):
            out += bytes([idx & 7, flags]) + struct.pack('>II', (seq + 63 * k) & 0xffffffff, ack) + bytes([len(p), step << 4]) + p
    if out:
        open(f'corpus/reassembly/{os.path.basename(f)}', 'wb').write(bytes(out))
        made += 1
print(f'seeded {made} reassembly files')
PY
# coding: gzip (pick 0), zlib and raw deflate (pick 2) of SSE text and JSON, piece sizes 1, 7 and 255.
python3 - <<'PY'
import zlib
texts = [b'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n', b'{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}']
for i, t in enumerate(texts):
    g = zlib.compressobj(6, zlib.DEFLATED, 31); gz = g.compress(t) + g.flush()
    z = zlib.compress(t)
    r = zlib.compressobj(6, zlib.DEFLATED, -15); raw = r.compress(t) + r.flush()
    for split in (1, 7, 255):
        open(f'corpus/coding/gzip-{i}-{split}', 'wb').write(bytes([0, split]) + gz)
        open(f'corpus/coding/zlib-{i}-{split}', 'wb').write(bytes([2, split]) + z)
        open(f'corpus/coding/raw-{i}-{split}', 'wb').write(bytes([2, split]) + raw)
PY
# jsonrpc_push: the jsonrpc seeds behind a chunking prefix (count byte, chunk sizes): whole, byte by byte,
# in 7-byte pieces, or in pieces of 3 and 200 with empty feeds between, one of these per seed in turn.
python3 - <<'PY'
import os
os.makedirs('corpus/jsonrpc_push', exist_ok=True)
prefixes = [b'\x00', b'\x01\x01', b'\x01\x07', b'\x04\x03\x00\xc8\x00']
for i, name in enumerate(sorted(os.listdir('corpus/jsonrpc'))):
    body = open(f'corpus/jsonrpc/{name}', 'rb').read()
    open(f'corpus/jsonrpc_push/{name}', 'wb').write(prefixes[i % len(prefixes)] + body)
PY
for t in capture analyzer shards decode reassembly http sse jsonrpc jsonrpc_push coding; do
  echo "$t: $(ls "corpus/$t" | wc -l) seeds"
done
