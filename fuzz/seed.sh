#!/usr/bin/env bash
# Seeds the fuzz corpora (fuzz/corpus/<target>/, not committed) from samples/*.pcap*: the capture and
# analyzer targets get the files whole; decode gets single packets; jsonrpc, sse and http get payloads cut
# from them. Idempotent.
set -euo pipefail
cd "$(dirname "$0")"
for t in capture analyzer decode reassembly http sse jsonrpc; do mkdir -p "corpus/$t"; done
for f in ../samples/*.pcap ../samples/*.pcapng; do
  b=$(basename "$f")
  cp "$f" "corpus/capture/$b"
  cp "$f" "corpus/analyzer/$b"
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
for t in capture analyzer decode reassembly http sse jsonrpc; do
  echo "$t: $(ls "corpus/$t" | wc -l) seeds"
done
