"""sensor4's row watcher: polls the live report FILE every millisecond for at most SECS seconds (or until the file
STOP exists) and prints each new line with the wall-clock time (time.time(), the clock the kernel stamps packets with)
at which the watcher first saw it: `<wall>\\t<line>`. Only standard library.

    python watch.py FILE SECS STOP
"""

import os
import sys
import time

path, secs, stop = sys.argv[1], float(sys.argv[2]), sys.argv[3]
end, pos, buf = time.time() + secs, 0, b""
while time.time() < end and not os.path.exists(stop):
    try:
        with open(path, "rb") as f:
            f.seek(pos)
            data = f.read()
    except FileNotFoundError:
        data = b""
    if data:
        now = time.time()
        pos += len(data)
        buf += data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            print(f"{now:.6f}\t{line.decode(errors='replace')}", flush=True)
    time.sleep(0.001)
